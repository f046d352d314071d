"""`make bench ARGS=--pi-class`: CPU instructions per press and per clock tick, counted by
valgrind, and the time they imply on a Pi Zero 2 W.

A CPU quota cannot slow a burst shorter than its period (docs/performance.md, "Pi-class"), so
the cgroup's press figures understate a Pi. Instructions do not depend on the host: one child
process runs under `valgrind --tool=callgrind`, which writes its counts out (and zeroes them)
each time the child calls `binascii.crc_hqx` (`--dump-before=binascii_crc_hqx`, a C function
nothing else in the companion calls). The child calls it between two pieces of work, so each
dump is the instructions of one press, one tick, or one piece of the calibration:

- a press: the app on a FakeClock (a 60 s turn limit, so the clock is on), the press handled
  as the app thread does it (`press` of companion/testing.py: the input, what it set off, the
  frame drawn and written by our partial ssd1306 driver into a RecordingSerial, the SQLite
  commit), cycling through bench/presses.py's press scripts on Table, Penny Badger and Pig Farm
  after one cycle of warm-up each (the first frames fill the text caches: start-up work).
- the same presses on games whose TurnClock is stopped (bench/clock.py's StoppedClock, no
  limit): the app as before the clock (pi_press_minstr_*_clock_off).
- a tick: a new game's clock moved one second (no press): the Tick("clock") handled and
  the frame drawn (and sent when it changed), 2-44 s into a 60 s limit.
- empty: two marks back to back, the cost of the mark itself (subtracted from the others).
- calibration, in a second process under callgrind that runs nothing else (as the
  benchmark's own runs are): the loop of github.com/alexdedyura/cpu-benchmark
  (cpu-benchmark.py as of 1d19ded, 2024-03-30), run CALIB_SMALL and CALIB_LARGE times: the
  difference gives the instructions of one iteration on this machine's interpreter. (In the
  app's process it counted 18.65 to 19.10 M an iteration, depending on what ran before: the
  allocator's state; 18.77 M in a process of its own, the closer match.)

Its rate: a Raspberry Pi 3B+ (Cortex-A53, 1.4 GHz, Python 3.11.2 on a 64-bit kernel) took an
average of PI3_SECONDS for one attempt (CALIB_ITERATIONS iterations) of that benchmark
(PI_SOURCE). The instructions of one attempt here, over those seconds, scaled from 1.4 GHz to
the Pi Zero 2 W's 1.0 GHz (the same Cortex-A53 core), is the rate in x86-64 instructions of
this interpreter per second at which a Pi Zero 2 W runs such code. A press or a tick in
milliseconds is its count over that rate. What it leaves out and how far to trust it:
docs/performance.md ("The turn clock").

Counts are exact and repeat to a fraction of a percent; the p50/p99 are over the presses and ticks counted (nearest
rank: with 150 presses, p99 is the second largest).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from bench.common import Figure

MARK = "binascii_crc_hqx"
PI_SOURCE = ("https://github.com/alexdedyura/cpu-benchmark/issues/20 : a Raspberry Pi 3B+ "
             "(BCM2837B0, Cortex-A53 at 1.4 GHz, 64-bit kernel 6.6.20+rpt-rpi-v8, Python "
             "3.11.2) took on average 245 s per attempt of cpu-benchmark.py (10,000 "
             "iterations of a float and integer loop; the script as of commit 1d19ded)")
PI3_SECONDS = 245.0
PI3_GHZ = 1.4
ZERO2_GHZ = 1.0
CALIB_ITERATIONS = 10_000
CALIB_SMALL, CALIB_LARGE = 2, 5
GOALS = {"press": 16.0, "tick": 5.0}  # ms, p99 (issue 28)
LIMIT = {"turn_limit": 60}
# A designed game against the built-in kind it mirrors (issue 37): Match Patch and
# examples/designs/patch-pairs.toml, the same moves on both: UP (a pair, as both panels have
# it), NEXT (the turn ends), hold BACK (undo). Goal: p99 within 10%. (DOWN is left out: the
# design opens its tallies screen there, Match Patch shows its scores on its home screen.)
MIRROR = ("match-patch", "examples/designs/patch-pairs.toml")
MIRROR_SCRIPT = ("UP", "UP", "NEXT", "UP", "NEXT", "UP", "!BACK", "NEXT", "UP", "!BACK")
MIRROR_GOAL = 1.10


def calib_workload() -> None:
    """One iteration of cpu-benchmark.py's loop (github.com/alexdedyura/cpu-benchmark,
    commit 1d19ded), as the Pi's 245 s were measured with it."""
    for x in range(1, 1000):
        3.141592 * 2**x
    for x in range(1, 10000):
        float(x) / 3.141592
    for x in range(1, 10000):
        float(3.141592) / x


# --- the child, under valgrind ---------------------------------------------------------------

def child(tmp: Path, presses: int, ticks: int) -> None:
    """The work, each piece between two marks; its labels go to tmp/labels.json."""
    import binascii

    from bench.clock import stop_clock
    from bench.presses import new_app, press_script
    from companion.drivers import oled
    from companion.drivers.display import Display
    from companion.drivers.oled import RecordingSerial
    from companion.testing import FakeClock, drain, press

    labels: list[str] = []

    def mark(label: str) -> None:
        """The end of the piece before (dumped by valgrind) and the start of `label`."""
        binascii.crc_hqx(b"", 0)
        labels.append(label)

    kinds = ("table", "penny-badger", "pig-farm")

    def app_for(kind: str, where: str, rules, clock: FakeClock):
        d = tmp / f"{kind}-{where}"
        d.mkdir()
        return new_app(d, kind, ("Ann", "Ben", "Cy", "Dee"),
                       Display(oled.ssd1306(RecordingSerial())), clock, rules=rules)

    def one_press(app, b: str, counted: bool = True) -> None:
        press(app, b[1:], hold=True) if b.startswith("!") else press(app, b)
        app.flush_snapshot()
        if app.lights.deferred:  # the ring's share, after the frame (App.run): its own piece
            if counted:
                mark("ring-after")
            app.lights.flush()

    for _ in range(20):
        mark("empty")
    # The presses: with the clock (a 60 s limit), the same with the clock stopped, and with
    # the clock and a 24-LED seat light ring (the SPI driver's encoding on a NullSpi; its
    # animations' later frames are ticks of their own, not part of the press).
    for label, rules, stopped in (("press", LIMIT, False), ("press-off", None, True),
                                  ("press-ring", LIMIT, False)):
        for i, kind in enumerate(kinds):
            mark("set-up")
            app, store = app_for(kind, label, rules, FakeClock())
            if stopped:
                stop_clock(app)
            if label == "press-ring":
                from bench.ring import BenchRing
                app.lights.attach(BenchRing())
                app.lights.deferred = True  # as App.run has it: the ring after the frame
            app.render()
            script = press_script(kind)
            mark("warm-up")
            for b in script:
                one_press(app, b, counted=False)
            n = presses // 3 + (1 if i < presses % 3 else 0)
            for j in range(n):
                b = script[j % len(script)]
                mark(f"{label} {kind} {b}")
                one_press(app, b)
            mark("set-up")  # what follows the last piece is not part of it
            app.close()
            store.close()
    # A designed game and the built-in kind it mirrors, the same presses on both.
    import tomllib

    from bench.common import ROOT
    from companion import games
    builtin, path = MIRROR
    design = games.design_kind(tomllib.loads((ROOT / path).read_text(encoding="utf-8"))).kind
    for label, kind in (("mirror-builtin", builtin), ("mirror-design", design)):
        mark("set-up")
        d = tmp / label
        d.mkdir()
        app, store = new_app(d, kind, ("Ann", "Ben", "Cy", "Dee"),
                             Display(oled.ssd1306(RecordingSerial())), FakeClock(), rules=LIMIT)
        app.render()
        mark("warm-up")
        for b in MIRROR_SCRIPT:
            one_press(app, b, counted=False)
        for j in range(presses // 3):
            mark(f"{label} {MIRROR_SCRIPT[j % len(MIRROR_SCRIPT)]}")
            one_press(app, MIRROR_SCRIPT[j % len(MIRROR_SCRIPT)], counted=False)
        mark("set-up")
        app.close()
        store.close()
    # The ticks: a new game each, its clock moved one second at a time.
    for i, kind in enumerate(kinds):
        clock = FakeClock()
        app, store = app_for(kind, "ticks", LIMIT, clock)
        mark("warm-up")
        app.render()
        clock.advance(1.0)
        drain(app)
        app.render()
        n = ticks // 3 + (1 if i < ticks % 3 else 0)
        for _ in range(min(n, 43)):  # before the warning at 50 s: only the clock changes
            mark(f"tick {kind}")
            clock.advance(1.0)
            drain(app)
            app.render()
            app.flush_snapshot()
        mark("set-up")
        app.close()
        store.close()
    mark("end")
    (tmp / "labels.json").write_text(json.dumps(labels))


def calib_child(tmp: Path) -> None:
    """The calibration, in a process of its own (the interpreter, the standard library and
    the loop, as the benchmark's own runs are): CALIB_SMALL, then CALIB_LARGE iterations."""
    import binascii

    labels: list[str] = []
    for label, n in (("empty", 0), (f"calib {CALIB_SMALL}", CALIB_SMALL),
                     (f"calib {CALIB_LARGE}", CALIB_LARGE)):
        binascii.crc_hqx(b"", 0)
        labels.append(label)
        for _ in range(n):
            calib_workload()
    binascii.crc_hqx(b"", 0)
    labels.append("end")
    (tmp / "labels.json").write_text(json.dumps(labels))


# --- the parent ------------------------------------------------------------------------------

class Unavailable(Exception):
    """Why the counts cannot be made: the one line printed instead of the figures."""


SUMMARY = re.compile(rb"^(?:summary|totals): (\d+)", re.M)


def callgrind(tmp: Path, args: list[str]) -> dict[str, list[int]]:
    """Runs `python -m bench.instructions ARGS` (a child that writes its labels to
    tmp/labels.json) under callgrind; returns the instructions of each piece by label
    ("press", "press-off", "tick", "empty", "calib N", ...), the mark's own cost not yet
    subtracted."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise Unavailable("valgrind not found (apt-get install valgrind)")
    from bench.common import ROOT
    out = tmp / "callgrind"
    out.mkdir()
    cmd = [valgrind, "--tool=callgrind", f"--dump-before={MARK}", "--dump-line=no",
           f"--callgrind-out-file={out / 'cg.out'}", sys.executable, "-W",
           "ignore::DeprecationWarning", "-m", "bench.instructions", *args]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise Unavailable(f"valgrind's child failed ({done.returncode}): "
                          f"{done.stderr.strip().splitlines()[-1:]}")
    labels = json.loads((tmp / "labels.json").read_text())
    by: dict[str, list[int]] = {}
    # Dump k+1 holds what ran between the k-th mark and the next: labels[k-1].
    for k, label in enumerate(labels[:-1], start=1):
        m = SUMMARY.search((out / f"cg.out.{k + 1}").read_bytes())
        if m is None:
            raise Unavailable(f"no instruction count in {out / f'cg.out.{k + 1}'}")
        key = label.split()[0] if label.startswith(("press", "tick ", "mirror-")) else label
        by.setdefault(key, []).append(int(m.group(1)))
    return by


def counts(tmp: Path, *, presses: int, ticks: int) -> dict[str, list[int]]:
    """The pieces of `child` by label, then the calibration's ("calib N", its marks'
    "calib empty")."""
    (tmp / "app").mkdir()
    (tmp / "calib").mkdir()
    by = callgrind(tmp / "app", ["--child", str(tmp / "app"), str(presses), str(ticks)])
    calib = callgrind(tmp / "calib", ["--calib", str(tmp / "calib")])
    by["calib empty"] = calib.pop("empty")
    return {**by, **calib}


def bench_instructions(tmp: Path, figure: Figure, *, quick: bool) -> None:
    from bench.common import pct

    presses, ticks = (30, 15) if quick else (150, 90)
    try:
        by = counts(tmp, presses=presses, ticks=ticks)
    except Unavailable as e:
        print(f"pi-class: skipping the instruction counts: {e}", flush=True)
        return
    empty = statistics.median(by["empty"])
    # The difference of the two runs of the loop: the marks and any first-run cost cancel.
    per_iteration = (by[f"calib {CALIB_LARGE}"][0] - by[f"calib {CALIB_SMALL}"][0]) \
        / (CALIB_LARGE - CALIB_SMALL)
    # x86-64 instructions of this interpreter per second on a Pi Zero 2 W
    rate = per_iteration * CALIB_ITERATIONS / PI3_SECONDS * ZERO2_GHZ / PI3_GHZ
    figure("pi_rate_minstr_per_s", rate / 1e6, "Minstr/s", None,
           f"cpu-benchmark.py: {per_iteration / 1e6:.2f} M instructions an iteration here "
           f"x {CALIB_ITERATIONS} / {PI3_SECONDS:g} s on a Pi 3B+ x {ZERO2_GHZ:g}/{PI3_GHZ:g} "
           f"GHz", source=PI_SOURCE)
    off = [max(0.0, x - empty) for x in by["press-off"]]
    for p in (50, 99):
        figure(f"pi_press_minstr_p{p}_clock_off", pct(off, p) / 1e6, "Minstr", None,
               f"{len(off)} presses, callgrind, the app's TurnClock stopped (bench/clock.py)")
    ring = [max(0.0, x - empty) for x in by["press-ring"]]
    for p in (50, 99):
        figure(f"pi_press_minstr_p{p}_ring_on", pct(ring, p) / 1e6, "Minstr", None,
               f"{len(ring)} presses to their frame, callgrind, clock on and a 24-LED ring "
               "(bench/ring.py BenchRing: the SPI driver on a NullSpi)")
    after = [max(0.0, x - empty) for x in by["ring-after"]]
    for p in (50, 99):
        figure(f"pi_ring_after_press_minstr_p{p}", pct(after, p) / 1e6, "Minstr", None,
               f"{len(after)} presses: the ring's work after the panel's frame (its "
               "animation worked out, its first frame encoded and sent)")
    mirror = {k: [max(0.0, x - empty) for x in by[f"mirror-{k}"]] for k in ("builtin", "design")}
    for k, what in (("builtin", f"{MIRROR[0]}, built in"), ("design", f"{MIRROR[1]}, designed")):
        for p in (50, 99):
            figure(f"pi_press_minstr_p{p}_mirror_{k}", pct(mirror[k], p) / 1e6, "Minstr", None,
                   f"{len(mirror[k])} presses of {what}: the same presses on both, clock on")
    figure("pi_press_design_vs_builtin_p99", pct(mirror["design"], 99)
           / pct(mirror["builtin"], 99), "x", MIRROR_GOAL,
           "p99 of a press in the designed game over the built-in kind it mirrors (issue 37)")
    for what in ("press", "tick"):
        xs = [max(0.0, x - empty) for x in by[what]]
        note = f"{len(xs)} {what}{'es' if what == 'press' else 's'}, callgrind, clock on " \
            "(turn_limit 60 s)"
        for p in (50, 99):
            figure(f"pi_{what}_minstr_p{p}", pct(xs, p) / 1e6, "Minstr", None, note)
        for p in (50, 99):
            figure(f"pi_{what}_cpu_ms_p{p}", pct(xs, p) / rate * 1000, "ms",
                   GOALS[what] if p == 99 else None,
                   note + " / pi_rate_minstr_per_s: CPU time on a Pi Zero 2 W",
                   source=PI_SOURCE)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="the child of bench_instructions (run by it)")
    ap.add_argument("--child", nargs=3, metavar=("DIR", "PRESSES", "TICKS"))
    ap.add_argument("--calib", metavar="DIR")
    args = ap.parse_args(argv)
    if args.calib:
        calib_child(Path(args.calib))
    elif args.child:
        child(Path(args.child[0]), int(args.child[1]), int(args.child[2]))
    else:
        ap.error("--child or --calib")
    return 0


if __name__ == "__main__":
    sys.exit(main())
