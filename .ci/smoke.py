"""The headless companion, driven for a few presses and a roll: `make pi-smoke` runs this
inside an arm64 trixie chroot (.ci/pi-smoke); tests/test_install.py runs it here.

    python .ci/smoke.py COMPANION DIRECTORY

Starts `COMPANION run --no-web --display dummy --input stdin --ack` with its journal and a
config in DIRECTORY, starts a table game for four (five OKs), passes the turn twice, rolls
(ROLL opens the dice menu, OK rolls) and quits once the roll's ack is in. Each wait is for the
app's own `ack` lines, so an emulated CPU tens of times slower passes as well; the bound of
SMOKE_TIMEOUT seconds (600) only stops a stuck app. Prints what it saw and exits 0 when the
acks are the four expected, else 1 naming what was missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

KEYS = ["OK", "OK", "OK", "OK", "OK", "NEXT", "NEXT", "ROLL", "OK"]
WANT = ["first", "next", "next", "roll"]  # the event types, in order


def main(companion: str, directory: Path) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    config = directory / "config.toml"
    config.write_text('[dice]\nanimation = 0.0\n\n[roller]\nport = "none"\n', encoding="utf-8")
    timeout = float(os.environ.get("SMOKE_TIMEOUT", "600"))
    started = time.monotonic()
    proc = subprocess.Popen(
        [companion, "run", "--no-web", "--display", "dummy", "--input", "stdin", "--ack",
         "--journal", str(directory / "journal.db"), "--config", str(config)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        bufsize=1, env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    lines: list[str] = []
    errors: list[str] = []
    assert proc.stdout is not None and proc.stderr is not None and proc.stdin is not None
    out = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")),
                           daemon=True)
    err = threading.Thread(target=lambda: errors.extend(iter(proc.stderr.readline, "")),
                           daemon=True)
    out.start()
    err.start()

    def wait_for(done) -> bool:
        while not done() and proc.poll() is None and time.monotonic() - started < timeout:
            time.sleep(0.05)
        return done()

    def types() -> list[str]:
        return [json.loads(line.split(" ", 3)[3])["type"] for line in lines
                if line.startswith("ack ")]

    ok = wait_for(lambda: "ready\n" in lines)
    ready_s = time.monotonic() - started
    if ok:
        for key in KEYS:
            proc.stdin.write(key + "\n")
        proc.stdin.flush()
        ok = wait_for(lambda: len(types()) >= len(WANT))
    try:
        proc.stdin.write("QUIT\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass
    try:
        status = proc.wait(timeout=max(30.0, timeout - (time.monotonic() - started)))
    except subprocess.TimeoutExpired:
        proc.kill()
        status = proc.wait()
    out.join(5)
    err.join(5)
    total = time.monotonic() - started
    got = types()
    print(f"smoke: ready after {ready_s:.1f} s; acks {got}; exit {status}; {total:.1f} s in all")
    if got == WANT and status == 0 and ok:
        print("smoke: ok")
        return 0
    print(f"smoke: FAILED: wanted the acks {WANT} and exit 0", file=sys.stderr)
    sys.stderr.write("".join(errors[-20:]))
    return 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python .ci/smoke.py COMPANION DIRECTORY", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], Path(sys.argv[2])))
