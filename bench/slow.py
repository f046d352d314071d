"""`make test-slow ARGS="tests/test_crash.py -k sigkill"`: tests on a slowed CPU.

A Raspberry Pi (a Pi Zero 2 W above all) is many times slower than a development machine,
and a test that assumes a fast machine (a sleep standing in for "the app has done it") fails
only there. This runs pytest with ARGS in a CPU cgroup (bench/pi_class.py's, made for the run
and removed after it) limited to --percent of one core, 25 by default: the suite's own threads
and the companions it starts share that. It needs root and the cpu controller, as
`make bench ARGS=--pi-class` does; without them it says why and exits 2.

    python -m bench.slow [--percent N] [PYTEST ARGS...]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bench.pi_class import PERIOD_US, Unavailable, make_cgroup, remove

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    percent = 25.0
    if argv[:1] == ["--percent"]:
        if len(argv) < 2:
            print("bench.slow: --percent needs a number", file=sys.stderr)
            return 2
        try:
            percent = float(argv[1])
        except ValueError:
            print(f"bench.slow: --percent {argv[1]!r} is not a number", file=sys.stderr)
            return 2
        argv = argv[2:]
    if not 1 <= percent <= 100:
        print(f"bench.slow: --percent {percent:g} is not between 1 and 100", file=sys.stderr)
        return 2
    try:
        cg = make_cgroup(quota_us=int(PERIOD_US * percent / 100))
    except Unavailable as e:
        print(f"bench.slow: cannot slow the CPU: {e}", file=sys.stderr)
        return 2
    term = signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    try:
        print(f"bench.slow: pytest {' '.join(argv)} in cgroup v{cg.version} {cg.path}: "
              f"{percent:g}% of one core", flush=True)
        env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        done = subprocess.run([sys.executable, "-m", "pytest", *argv], cwd=ROOT, env=env,
                              preexec_fn=cg.enter)
        print(f"bench.slow: the cgroup was {cg.throttled()}", flush=True)
        return done.returncode
    finally:
        signal.signal(signal.SIGTERM, term)
        remove(cg.path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
