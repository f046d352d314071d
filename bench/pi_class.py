"""`make bench ARGS=--pi-class`: the press and start-up figures at about a Pi Zero 2 W's speed.

The development machine is about 8x faster per core than a Pi Zero 2 W, so the processes
measured run in a CPU cgroup limited to 12% of one core (CFS bandwidth: 1.2 ms of CPU in each
10 ms period), made for the run and removed after it, even on an error or ctrl-C. It needs
root and the cpu controller: cgroup v1 (/sys/fs/cgroup/cpu: cpu.cfs_period_us and
cpu.cfs_quota_us) or v2 (/sys/fs/cgroup with "cpu" in cgroup.controllers: cpu.max). Without
them the figures are skipped with one line saying why.

- pi_press_to_frame_*: `python -m bench.run --only press --press-gap 100` in a child placed
  in the cgroup before it execs (the app, its thread and the mock pins all share the 12%).
  The presses come 100 ms apart, a quick player's pace: back to back, every press would wait
  for the quota the previous one's after-work (the snapshot, the journal's checkpoint) used up,
  which no table sees.
- pi_startup_ms / pi_startup_cold_ms / pi_startup_uncached_ms: `startup_times` of
  bench/processes.py, each `companion run` placed in the cgroup before it execs (warm and
  cold with the start frame the last run kept, uncached without it).
- pi_startup_floor_ms: `floor_times` of bench/processes.py the same way: the interpreter
  importing only Pillow and luma and showing one frame, no companion code. No start-up beats
  it: what is left of the start-up goal after it is what the companion's own work may take.

A press is a burst shorter than the cgroup's period, which the quota cannot slow; its honest
Pi figure is counted in instructions instead (bench/instructions.py, run by `--pi-class` too,
without the cgroup).
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.common import ROOT, Figure
from bench.processes import floor_times, startup_times

PERIOD_US = 10_000
QUOTA_US = 1_200  # 12% of one core
LIMIT = f"12% of one core (cfs quota {QUOTA_US} us per {PERIOD_US} us period)"
V1_ROOT = Path("/sys/fs/cgroup/cpu")
V2_ROOT = Path("/sys/fs/cgroup")
GOALS = {"press_to_frame_p99_ms": 16.0}
STARTUP_GOAL = 1000.0
PRESS_GAP_MS = 100  # a quick player's pace


class Unavailable(Exception):
    """Why the cgroup cannot be made: the one line the bench prints instead of the figures."""


@dataclass
class Cgroup:
    path: Path
    version: int

    def enter(self) -> None:
        """Moves the calling process into the cgroup: a `preexec_fn`, run in the child between
        fork and exec, so the child is limited from its first instruction."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def throttled(self) -> str:
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
        return f"throttled in {stat['nr_throttled']} of {stat['nr_periods']} periods"


def cpu_controller(root: Path | None) -> tuple[Path, int]:
    """The cgroup root to make ours under (`root`, or else the v1 one, or else the v2 one), and
    its version."""
    for r in [root] if root else [V1_ROOT, V2_ROOT]:
        if (r / "cpu.cfs_quota_us").is_file():
            return r, 1
        controllers = r / "cgroup.controllers"
        if controllers.is_file() and "cpu" in controllers.read_text().split():
            return r, 2
    raise Unavailable(f"no cgroup v1 cpu controller at {root or V1_ROOT} nor a cgroup v2 with "
                      f"the cpu controller at {root or V2_ROOT}")


def make_cgroup(root: Path | None = None, *, quota_us: int = QUOTA_US) -> Cgroup:
    """A cgroup limited to `quota_us` of CPU in each PERIOD_US (bench/slow.py passes its own)."""
    if os.geteuid() != 0:
        raise Unavailable("not root (a CPU cgroup needs root)")
    parent, version = cpu_controller(root)
    cg = Cgroup(parent / f"chroma-bench-{os.getpid()}", version)
    try:
        # v2: the children of `parent` get cpu.max only once it hands them the controller
        # (left on afterwards, as systemd has it).
        if version == 2 and "cpu" not in (parent / "cgroup.subtree_control").read_text().split():
            (parent / "cgroup.subtree_control").write_text("+cpu")
        cg.path.mkdir()
    except OSError as e:
        raise Unavailable(f"cannot make the cgroup {cg.path}: {e.strerror or e}") from None
    try:
        if version == 1:
            (cg.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (cg.path / "cpu.cfs_quota_us").write_text(str(quota_us))
        else:
            (cg.path / "cpu.max").write_text(f"{quota_us} {PERIOD_US}")
    except OSError as e:
        remove(cg.path)
        raise Unavailable(f"cannot limit the cgroup {cg.path}: {e.strerror or e}") from None
    return cg


def remove(path: Path) -> None:
    """Removes the cgroup. A process still in it (a child after ctrl-C, on its way out) is
    moved to the parent cgroup first; rmdir is retried for up to 5 s."""
    deadline = time.monotonic() + 5
    while True:
        try:
            for pid in (path / "cgroup.procs").read_text().split():
                try:
                    (path.parent / "cgroup.procs").write_text(pid)
                except ProcessLookupError:
                    pass  # gone meanwhile
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError as e:
            if time.monotonic() > deadline:
                print(f"pi-class: could not remove the cgroup {path}: {e.strerror or e}",
                      flush=True)
                return
            time.sleep(0.05)


def pi_press(figure: Figure, cg: Cgroup, *, quick: bool) -> None:
    """bench.run's press figures, measured in a child in the cgroup, named pi_*."""
    cmd = [sys.executable, *(f"-W{w}" for w in sys.warnoptions), "-m", "bench.run",
           "--only", "press", "--press-gap", str(PRESS_GAP_MS), *(["--quick"] if quick else [])]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True, cwd=ROOT,
                         preexec_fn=cg.enter).stdout
    for row in (json.loads(line) for line in out.splitlines() if line.startswith("{")):
        figure("pi_" + row["figure"], row["value"], row["unit"],
                   GOALS.get(row["figure"]), LIMIT)


def pi_startup(tmp: Path, figure: Figure, cg: Cgroup, *, runs: int) -> None:
    times = startup_times(tmp, runs=runs, preexec_fn=cg.enter)
    figure("pi_startup_ms", statistics.median(times["warm"]), "ms", STARTUP_GOAL,
           f"median of {runs}, bytecode cached, kept start frame, {LIMIT}")
    figure("pi_startup_cold_ms", statistics.median(times["cold"]), "ms", STARTUP_GOAL,
           f"median of {runs}, no bytecode cache for the companion, kept start frame, {LIMIT}")
    figure("pi_startup_uncached_ms", statistics.median(times["uncached"]), "ms", None,
           f"median of {runs}, bytecode cached, no kept start frame (the first start after an "
           f"install or a config change): about when the app's own frame comes, {LIMIT}")
    floor = floor_times(tmp, runs=runs, preexec_fn=cg.enter)
    figure("pi_startup_floor_ms", statistics.median(floor), "ms", None,
           f"median of {runs}: Python, Pillow and luma showing one frame, no companion; "
           f"{LIMIT}")


def bench_pi_class(tmp: Path, figure: Figure, *, quick: bool, parts: list[str],
                   root: Path | None) -> None:
    """`parts`: "press", "startup" or both. The cgroup is removed at the end, also after an
    error, ctrl-C or SIGTERM."""
    try:
        cg = make_cgroup(root)
    except Unavailable as e:
        print(f"pi-class: skipping the pi-class figures ({' and '.join(parts)}): {e}", flush=True)
        return
    term = signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    try:
        print(f"pi-class: {' and '.join(parts)} in cgroup v{cg.version} {cg.path}: {LIMIT}",
              flush=True)
        if "press" in parts:
            pi_press(figure, cg, quick=quick)
        if "startup" in parts:
            pi_startup(tmp, figure, cg, runs=1 if quick else 7)
        print(f"pi-class: the cgroup was {cg.throttled()}", flush=True)
    finally:
        signal.signal(signal.SIGTERM, term)
        remove(cg.path)
