"""The companion in a process of its own: the environment it is started in, its start-up
timed to the first frame (and the floor no start-up can beat), its CPU time and memory read
from /proc. Used by bench/run.py, bench/pi_class.py (in a CPU cgroup) and bench/web.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from bench.common import ROOT
from bench.journals import resumable_journal

# Prints a line for each of the first two frames the display is asked to show, with a digest
# of the picture and whether the app was imported yet ("app") or not ("early"). With a kept
# start frame (companion/session/startframe.py) the first is that frame, shown early, and the
# second the app's own first frame; without one, both are the app's. The two must be the same
# picture (startup_once checks): the early frame is the game as it is.
STARTUP_CHILD = """
import sys, os, hashlib
from companion.drivers import display
shown = display.Display.show
def show(self, image, _seen=[0]):
    r = shown(self, image)
    if _seen[0] < 2:
        _seen[0] += 1
        when = b"app" if "companion.app.core" in sys.modules else b"early"
        os.write(1, b"FRAME " + hashlib.sha256(image.tobytes()).hexdigest().encode() + b" "
                 + when + b"\\n")
    return r
display.Display.show = show
from companion import cli
sys.exit(cli.main(sys.argv[1:]))
"""


# The least any first frame costs: the same interpreter importing only the libraries a panel
# frame cannot do without (Pillow to draw it, luma to show it), drawing one line of text and
# showing it on luma's dummy device. No companion code: no start-up can beat it.
FLOOR_CHILD = """
import os
from PIL import Image, ImageDraw, ImageFont
from luma.core.device import dummy
device = dummy(width=128, height=64, mode="1")
image = Image.new("1", (128, 64))
ImageDraw.Draw(image).text((0, 0), "Ann's turn", font=ImageFont.load_default(), fill=1)
device.display(image)
os.write(1, b"FRAME\\n")
"""


def env_for(tmp: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "XDG_CONFIG_HOME": str(tmp / "cfg"), "XDG_STATE_HOME":
            str(tmp / "state"), "PYGAME_HIDE_SUPPORT_PROMPT": "1", **extra}


def startup_once(tmp: Path, journal: Path, env: dict[str, str],
                 preexec_fn: Callable[[], None] | None = None, *, child: str = STARTUP_CHILD,
                 first: str | None = None) -> float:
    """`preexec_fn` runs in the child before it execs Python (bench/pi_class.py: into a cgroup).
    `child`: the program run (FLOOR_CHILD for the floor). `first`: "early" when the first
    frame must be the kept start frame, shown before the app was imported; "app" when it must
    be the app's own."""
    # Started as the service starts it: its config file names the journal (hardware/pi).
    config = tmp / "service.toml"
    config.write_text(f"[storage]\npath = {json.dumps(str(journal))}\n", encoding="utf-8")
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", child, "run", "--no-web", "--display", "dummy",
                          "--input", "stdin", "--config", str(config)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=ROOT, env=env, preexec_fn=preexec_fn)
    line = p.stdout.readline()
    t1 = time.perf_counter()
    # After a kept start frame, the companion's second frame is the app's own first frame,
    # the same picture. (After an uncached start the second is the app's next frame, which
    # may differ: the turn clock fills in its corner.)
    second = p.stdout.readline() if child is STARTUP_CHILD else line
    p.stdin.close()
    p.wait(30)
    if not line.startswith(b"FRAME"):
        raise RuntimeError("the app showed no frame")
    if line.split()[2:] == [b"early"] and second.split()[:2] != line.split()[:2]:
        raise RuntimeError("the first frame shown is not the app's own first frame")
    if first is not None and line.split()[2:] != [first.encode()]:
        raise RuntimeError(f"the first frame was not the {first} one: {line!r}")
    return (t1 - t0) * 1000


def startup_times(tmp: Path, *, runs: int, preexec_fn: Callable[[], None] | None = None
                  ) -> dict[str, list[float]]:
    """Start-up times in ms to the first frame, resuming a 200-event game, as the service
    starts it (`companion run --config FILE`, the journal named there):

    - "warm": bytecode cached (as on an installed box after its first start; the cache goes to
      a temporary PYTHONPYCACHEPREFIX, the first run fills it and is not counted), and the
      start frame the last run kept (companion/session/startframe.py): a box's usual start.
    - "cold": PYTHONDONTWRITEBYTECODE=1 and no prefix, so the companion's own modules are
      compiled at each start (the stdlib's and the venv's `__pycache__`, written when they
      were installed, are still read); the kept start frame as for "warm".
    - "uncached": bytecode cached, no kept start frame (removed before each run): the first
      start after an install or a config change, or after a power cut within a second of a
      move. It is also about when the app's own first frame comes in the other two."""
    from companion.session.startframe import path_for

    journal = resumable_journal(tmp, 200)
    frame = path_for(journal)
    warm = {k: v for k, v in env_for(tmp).items() if k != "PYTHONDONTWRITEBYTECODE"}
    warm["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    startup_once(tmp, journal, warm, preexec_fn)  # fills the cache, keeps the start frame
    times: dict[str, list[float]] = {"warm": [], "cold": [], "uncached": []}
    for _ in range(runs):
        times["warm"].append(startup_once(tmp, journal, warm, preexec_fn, first="early"))
    cold = {**env_for(tmp), "PYTHONDONTWRITEBYTECODE": "1"}
    cold.pop("PYTHONPYCACHEPREFIX", None)
    for _ in range(runs):
        times["cold"].append(startup_once(tmp, journal, cold, preexec_fn, first="early"))
    for _ in range(runs):
        frame.unlink(missing_ok=True)
        times["uncached"].append(startup_once(tmp, journal, warm, preexec_fn, first="app"))
    return times


def floor_times(tmp: Path, *, runs: int, preexec_fn: Callable[[], None] | None = None
                ) -> list[float]:
    """FLOOR_CHILD's time to its frame in ms, run as the warm start-up is (same interpreter,
    environment and working directory; only the stdlib's and the venv's bytecode is used)."""
    journal = resumable_journal(tmp, 200)
    env = {k: v for k, v in env_for(tmp).items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    startup_once(tmp, journal, env, preexec_fn, child=FLOOR_CHILD)
    return [startup_once(tmp, journal, env, preexec_fn, child=FLOOR_CHILD) for _ in range(runs)]


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")
