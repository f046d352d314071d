"""`make test-slow ARGS="tests/test_crash.py -k sigkill"`: tests on a slowed CPU;
`make test-flaky N=5`: the browser tests N times over on one.

A Raspberry Pi (a Pi Zero 2 W above all) is many times slower than a development machine,
and a test that assumes a fast machine (a sleep standing in for "the app has done it", a
count of calls that only a fast page sees) fails only there, or on a loaded machine now and
then. This runs pytest with ARGS in a CPU cgroup (bench/pi_class.py's, made for the run and
removed after it) limited to --percent of one core, 25 by default: the suite's own threads,
the companions and the chromium it starts share that. With --runs N it runs pytest N times in
the same cgroup and ends with one line per test that failed, naming the runs it failed in (a
test that fails in some runs and passes in others is flaky: it waits on a duration or a count
where it should wait on an event). It needs root and the cpu controller, as
`make bench ARGS=--pi-class` does; without them it says why and exits 2.

    python -m bench.slow [--percent N] [--runs N] [PYTEST ARGS...]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from bench.pi_class import PERIOD_US, Cgroup, Unavailable, make_cgroup, remove

ROOT = Path(__file__).resolve().parent.parent


class Usage(Exception):
    """A bad option: the one line bench.slow prints before it exits 2."""


def options(argv: list[str]) -> tuple[float, int, list[str]]:
    """(percent, runs, pytest's arguments) from the leading --percent and --runs."""
    percent, runs = 25.0, 1
    while argv[:1] in (["--percent"], ["--runs"]):
        name = argv[0]
        if len(argv) < 2:
            raise Usage(f"{name} needs a number")
        try:
            if name == "--percent":
                percent = float(argv[1])
            else:
                runs = int(argv[1])
        except ValueError:
            raise Usage(f"{name} {argv[1]!r} is not a number") from None
        argv = argv[2:]
    if not 1 <= percent <= 100:
        raise Usage(f"--percent {percent:g} is not between 1 and 100")
    if runs < 1:
        raise Usage(f"--runs {runs} is not 1 or more")
    return percent, runs, argv


def outcomes(junit: Path) -> dict[str, str]:
    """Test id -> "passed", "failed" (an error too) or "skipped", from pytest's JUnit XML; {}
    when pytest wrote none (it stopped before the tests)."""
    try:
        tree = ET.parse(junit)
    except (OSError, ET.ParseError):
        return {}
    found: dict[str, str] = {}
    for case in tree.iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        if case.find("failure") is not None or case.find("error") is not None:
            found[name] = "failed"
        elif case.find("skipped") is not None:
            found.setdefault(name, "skipped")
        else:
            found.setdefault(name, "passed")
    return found


def summary(results: list[dict[str, str]], codes: list[int]) -> list[str]:
    """The closing lines: each run's counts, then each test that failed and in which runs."""
    lines = []
    for i, (found, code) in enumerate(zip(results, codes, strict=True), 1):
        counts = {k: sum(1 for v in found.values() if v == k)
                  for k in ("passed", "failed", "skipped")}
        lines.append(f"bench.slow: run {i}: {counts['passed']} passed, {counts['failed']} "
                     f"failed, {counts['skipped']} skipped (pytest exit {code})")
    failed = sorted({t for found in results for t, v in found.items() if v == "failed"})
    for test in failed:
        runs = [str(i) for i, found in enumerate(results, 1) if found.get(test) == "failed"]
        lines.append(f"bench.slow: FAILED in run {', '.join(runs)} of {len(results)}: {test}")
    if not failed and all(code == 0 for code in codes):
        lines.append(f"bench.slow: every test passed in all {len(results)} runs")
    return lines


def run_all(cg: Cgroup, runs: int, argv: list[str], percent: float) -> int:
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    results: list[dict[str, str]] = []
    codes: list[int] = []
    with tempfile.TemporaryDirectory(prefix="bench-slow-") as tmp:
        for i in range(1, runs + 1):
            junit = Path(tmp) / f"run{i}.xml"
            extra = [f"--junitxml={junit}"] if runs > 1 else []
            which = f" (run {i} of {runs})" if runs > 1 else ""
            print(f"bench.slow: pytest {' '.join(argv)} in cgroup v{cg.version} {cg.path}: "
                  f"{percent:g}% of one core{which}", flush=True)
            start = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "pytest", *argv, *extra], cwd=ROOT,
                                  env=env, preexec_fn=cg.enter)
            if runs > 1:
                print(f"bench.slow: run {i} took {time.monotonic() - start:.0f} s", flush=True)
            results.append(outcomes(junit))
            codes.append(done.returncode)
    print(f"bench.slow: the cgroup was {cg.throttled()}", flush=True)
    if runs == 1:
        return codes[0]
    for line in summary(results, codes):
        print(line, flush=True)
    return next((code for code in codes if code != 0), 0)


def main(argv: list[str]) -> int:
    try:
        percent, runs, argv = options(argv)
    except Usage as e:
        print(f"bench.slow: {e}", file=sys.stderr)
        return 2
    try:
        cg = make_cgroup(quota_us=int(PERIOD_US * percent / 100))
    except Unavailable as e:
        print(f"bench.slow: cannot slow the CPU: {e}", file=sys.stderr)
        return 2
    term = signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    try:
        return run_all(cg, runs, argv, percent)
    finally:
        signal.signal(signal.SIGTERM, term)
        remove(cg.path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
