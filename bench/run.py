"""`make bench`: the companion's speed and footprint, one JSON object per figure, then a table.

Run: `.venv/bin/python -m bench.run` (`--quick` for a smoke run with small counts;
`--pi-class` for the press and start-up figures at about a Pi Zero 2 W's speed, bench/pi_class.py,
and the instructions of a press and a clock tick with the time they imply on a Pi Zero 2 W,
bench/instructions.py).

Figures (docs/performance.md, issue 9):
- press_to_frame_*: from a gpiozero MockFactory pin edge (the release that completes a press)
  to the frame handed to the display (`Display.show` called), through the real app thread and
  queue, over presses on the Table, Penny Badger and Pig Farm screens. `press_to_wire_*` goes on
  to the end of the write (our partial ssd1306 driver into a recording serial interface).
- bytes_*: bytes on the I2C wire for one interaction, with our partial driver and with luma's
  stock driver fed the same frames in the same run (both behind the same `Display` wrapper, so
  the difference is the partial update only). `ms_*_400khz` converts them at 400 kHz.
- startup_ms: process start (Popen) to the first frame on the dummy display, resuming a game.
- idle_cpu_percent / rss_mb: the real `companion run` (dummy display, mock gpiozero pins,
  default config) left alone for 10 s.
- replay_10k_ms: folding a 10,000-event table journal; replay_10k_store_ms: the same loaded
  from SQLite (`Store.resume`); undo_10k_ms: one undo at its end, committed to disk.
- rss_<N>k_events_mb: `companion run` (no web) that resumed an N-event game and took 200 more
  presses; rss_growth_kb_per_1k_events: how that grows with N (issue 20: flat).
  rss_live_*: a game pressed live, NEXT after NEXT with the clock ticking, in a process of
  its own (bench/memory.py); rss_live_growth_kb_per_1k_events from 5,000 to 20,000 presses.
- the turn clock's (issue 28, `--only clock`, bench/clock.py): press to frame with the clock
  stopped, running and limited; idle CPU with its 1 Hz tick; bytes on the wire per tick.
- the seat lights' (issue 27, `--only ring`, bench/ring.py): press to frame with the ring off
  and on, and what the ring adds to the app thread's work for a press and for a frame of it.
- the skill ratings' (issue 38, `--only ratings`, bench/ratings.py): every rating over 5,000
  games of 20 players folded, one more finished game folded into the kept ones, and the app
  thread's time for the press that starts a new game on such a journal (the favourite shown).

This is the one runner: it imports the benchmarks and hands each its `figure`. What they
share with it is in modules of their own, none of which imports this one: bench/common.py
(the root, the percentile), bench/presses.py (the app pressed, press to frame),
bench/processes.py (the companion as a process: start-up, CPU, memory) and
bench/journals.py (journals to resume).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from bench.common import ROOT, pct
from bench.journals import resumable_journal, table_events
from bench.presses import new_app, press_times, step
from bench.processes import env_for, floor_times, proc_cpu_seconds, proc_rss_mb, startup_times
from companion.testing import FakeClock

FIGURES: list[dict[str, Any]] = []


def figure(name: str, value: float, unit: str, goal: float | None = None,
           note: str = "", source: str | None = None) -> None:
    """Prints the figure's JSON line; `source`, when given (a published measurement the
    figure is derived from), is in it too."""
    row: dict[str, Any] = {"figure": name, "value": round(value, 3), "unit": unit,
                           "goal": goal}
    if source is not None:
        row["source"] = source
    FIGURES.append({**row, "note": note})
    print(json.dumps(row), flush=True)


# --- an app on a fake clock, drawing into our driver and luma's stock one ----------------------

class TwinDisplay:
    """Hands every frame to two `Display`s: our partial ssd1306 and luma's stock one (and the
    same for the sh1106), each on a recording serial interface."""

    def __init__(self) -> None:
        from luma.oled.device import sh1106 as stock_sh1106, ssd1306 as stock_ssd1306

        from companion.drivers import oled
        from companion.drivers.display import Display
        from companion.drivers.oled import RecordingSerial

        self.serials = {k: RecordingSerial() for k in
                        ("ours", "stock", "ours_sh1106", "stock_sh1106")}
        self.displays = {
            "ours": Display(oled.ssd1306(self.serials["ours"])),
            "stock": Display(stock_ssd1306(self.serials["stock"])),
            "ours_sh1106": Display(oled.sh1106(self.serials["ours_sh1106"])),
            "stock_sh1106": Display(stock_sh1106(self.serials["stock_sh1106"])),
        }
        self.schedule = None

    def show(self, image) -> bool:
        sent = [d.show(image) for d in self.displays.values()]
        return sent[0]

    def wire(self) -> dict[str, int]:
        return {k: s.wire_bytes for k, s in self.serials.items()}

    def close(self) -> None:
        pass


def interaction(app, twin: TwinDisplay, buttons: list[str]) -> dict[str, int]:
    before = twin.wire()
    for b in buttons:
        step(app, *b.split(":"))
    after = twin.wire()
    return {k: after[k] - before[k] for k in after}


def bench_bytes(tmp: Path, *, repeat: int) -> None:
    from companion.drivers.oled import i2c_ms

    totals: dict[str, dict[str, list[int]]] = {}

    def add(name: str, d: dict[str, int]) -> None:
        for k, v in d.items():
            totals.setdefault(name, {}).setdefault(k, []).append(v)

    four = ("Ann", "Ben", "Cy", "Dee")
    # A turn change: NEXT on the Table home screen.
    twin = TwinDisplay()
    app, store = new_app(tmp, "table", four, twin, FakeClock())
    app.render()
    for _ in range(repeat):
        add("turn_change", interaction(app, twin, ["NEXT"]))
    app.close(), store.close()

    # A claim settlement (Penny Badger): on the accusers screen, OK on "No challenge" records
    # the claim and shows the settlement. Undo (hold BACK) keeps the bank from running dry.
    twin = TwinDisplay()
    app, store = new_app(tmp, "penny-badger", four, twin, FakeClock())
    app.render()
    from companion.games.penny_badger.panel import Accusers, SettlementScreen
    for i in range(repeat):
        for b in ["NEXT"] + ["UP"] * (1 + i % 3) + ["OK"]:  # the turn screen, 1-3 cards
            step(app, b)
        assert isinstance(app.top, Accusers), app.top  # (DOWN here measured a pass instead)
        add("claim", interaction(app, twin, ["OK"]))
        assert isinstance(app.top, SettlementScreen), app.top
        step(app, "OK")  # back to the ledger
        step(app, "BACK", "hold")
    app.close(), store.close()

    # A score entry step (Pig Farm): UP on a set box of the hand entry screen.
    twin = TwinDisplay()
    app, store = new_app(tmp, "pig-farm", four, twin, FakeClock())
    app.render()
    for b in ["OK", "OK", "UP"]:  # menu, "Sell the farm", add a first set (2 pigs)
        step(app, b)
    for i in range(repeat):
        add("score_step", interaction(app, twin, ["UP" if i % 8 < 4 else "DOWN"]))
    app.close(), store.close()

    for name, per in totals.items():
        ours = statistics.mean(per["ours"])
        stock = statistics.mean(per["stock"])
        figure(f"bytes_{name}", ours, "bytes", round(0.4 * stock),
               "ssd1306, ours; goal 40% of stock")
        figure(f"bytes_{name}_stock", stock, "bytes", None, "ssd1306, luma stock")
        figure(f"bytes_{name}_sh1106", statistics.mean(per["ours_sh1106"]), "bytes",
               round(0.4 * statistics.mean(per["stock_sh1106"])), "sh1106, ours")
        figure(f"bytes_{name}_sh1106_stock", statistics.mean(per["stock_sh1106"]), "bytes",
               None, "sh1106, luma stock")
        figure(f"ms_{name}_400khz", i2c_ms(round(ours)), "ms", None, "ssd1306, ours")
        figure(f"ms_{name}_stock_400khz", i2c_ms(round(stock)), "ms", None, "ssd1306, stock")


# --- press to frame through MockFactory pins and the app thread (bench/presses.py) --------------

def bench_press_to_frame(tmp: Path, *, presses: int, attach=None, suffix: str = "",
                         gap: float = 0.0) -> None:
    """`attach(app)`, when given, sets something up beside the app (bench/web.py: the web and
    its SSE clients) and returns what stops it; the figures are then named with `suffix`.
    `gap`: seconds between one frame and the next press (0: back to back)."""
    t = press_times(tmp, presses=presses, attach=attach, gap=gap)
    handed, sent, by_kind = t.handed, t.sent, t.by_kind
    note = f"{len(handed)} presses" + (", web on, 5 SSE clients" if attach else "") \
        + (f", {gap * 1000:g} ms apart" if gap else "")
    figure("press_to_frame_p50_ms" + suffix, pct(handed, 50), "ms", None, note)
    figure("press_to_frame_p99_ms" + suffix, pct(handed, 99), "ms", 3.0, note)
    if attach is not None:
        return
    figure("press_to_wire_p50_ms", pct(sent, 50), "ms", None, "to the end of the write")
    figure("press_to_wire_p99_ms", pct(sent, 99), "ms", None, "to the end of the write")
    for kind, xs in by_kind.items():
        figure(f"press_to_frame_p50_ms_{kind.replace('-', '_')}", pct(xs, 50), "ms", None,
               f"{len(xs)} presses")
        figure(f"press_to_frame_p99_ms_{kind.replace('-', '_')}", pct(xs, 99), "ms", None,
               f"{len(xs)} presses")


# --- processes (bench/processes.py) -------------------------------------------------------------

def bench_startup(tmp: Path, *, runs: int) -> None:
    times = startup_times(tmp, runs=runs)
    figure("startup_ms", statistics.median(times["warm"]), "ms", 400.0,
           f"median of {runs}, resuming a 200-event game, bytecode cached, kept start frame")
    figure("startup_cold_ms", statistics.median(times["cold"]), "ms", None,
           f"median of {runs}, no bytecode cache, kept start frame")
    figure("startup_uncached_ms", statistics.median(times["uncached"]), "ms", None,
           f"median of {runs}, bytecode cached, no kept start frame")
    figure("startup_floor_ms", statistics.median(floor_times(tmp, runs=runs)), "ms", None,
           f"median of {runs}: Python, Pillow and luma showing one frame, no companion")


def bench_idle(tmp: Path, *, seconds: float) -> None:
    journal = resumable_journal(tmp, 200)
    p = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--no-web", "--display", "dummy",
                          "--journal", str(journal)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, cwd=ROOT,
                         env=env_for(tmp, GPIOZERO_PIN_FACTORY="mock"))
    try:
        time.sleep(2.0)  # start-up done
        if p.poll() is not None:
            raise RuntimeError(f"companion run exited with {p.returncode}")
        c0 = proc_cpu_seconds(p.pid)
        t0 = time.monotonic()
        time.sleep(seconds)
        c1 = proc_cpu_seconds(p.pid)
        t1 = time.monotonic()
        rss = proc_rss_mb(p.pid)
    finally:
        p.terminate()
        p.wait(30)
    figure("idle_cpu_percent", (c1 - c0) / (t1 - t0) * 100, "%", 1.0,
           f"{seconds:g} s, mock pins, default config")
    figure("rss_mb", rss, "MB", 60.0, "VmRSS after the idle period")


# --- journal -----------------------------------------------------------------------------------

def bench_journal(tmp: Path, *, events: int, runs: int) -> None:
    from companion.rules.game import Header
    from companion.session.journal import Journal
    from companion.session.store import Store

    header = Header("table", ("Ann", "Ben", "Cy", "Dee"))
    evs = table_events(events, random.Random(5))
    folds = []
    for _ in range(runs):
        t0 = time.perf_counter()
        Journal(header, evs)
        folds.append((time.perf_counter() - t0) * 1000)
    path = tmp / "big.db"
    with Store(path) as st:
        game = st.new_game(header)
        with st.transaction() as db:  # one transaction for the set-up, not 10,000 fsyncs
            for i, e in enumerate(evs):
                game.sink.insert(db, i, e)  # type: ignore[attr-defined]  # the same INSERT (and checksums) as play
    loads, undos, opens, verifies = [], [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        with Store(path) as st:  # integrity check, replay check and checksums of the open game
            opens.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            assert st.verify(1) == []
            verifies.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            j = st.resume()
            loads.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            j.undo()
            undos.append((time.perf_counter() - t0) * 1000)
            j.redo()
    figure("replay_10k_ms", statistics.median(folds), "ms", 300.0,
           f"fold of {events} table events, median of {runs}")
    figure("replay_10k_store_ms", statistics.median(loads), "ms", None,
           "Store.resume: read from SQLite and fold")
    figure("undo_10k_ms", statistics.median(undos), "ms", None,
           "one undo at the end, committed (synchronous=FULL)")
    figure("open_10k_ms", statistics.median(opens), "ms", None,
           "Store(): integrity check, then the open game replayed and its checksums verified")
    figure("verify_10k_ms", statistics.median(verifies), "ms", None,
           "the checksums of 10,000 rows (SHA-256 chain), as doctor and start-up check them")


# --- memory over a long game -------------------------------------------------------------------

def long_journal(tmp: Path, events: int) -> Path:
    """A journal whose open table game has `events` events, written with play's own INSERT (in
    one transaction, not one fsync per event)."""
    from companion.rules.game import Header
    from companion.session.store import Store

    path = tmp / f"long-{events}.db"
    if not path.exists():
        with Store(path) as st:
            j = st.new_game(Header("table", ("Ann", "Ben", "Cy", "Dee")))
            with st.transaction() as db:
                for i, e in enumerate(table_events(events, random.Random(11))):
                    j.sink.insert(db, i, e)  # type: ignore[attr-defined]  # the store's GameSink
    return path


def rss_after(tmp: Path, events: int, *, presses: int) -> float:
    """VmRSS of `companion run` (no web, dummy display) that resumed a game of `events` events
    and then took `presses` more presses (NEXT and ROLL, each one committed) on stdin."""
    journal = long_journal(tmp, events)
    p = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--no-web", "--display",
                          "dummy", "--input", "stdin", "--ack", "--journal", str(journal)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=ROOT, text=True, bufsize=1,
                         env=env_for(tmp, XDG_CONFIG_HOME=str(tmp / "no-config")))
    try:
        if p.stdout.readline().strip() != "ready":
            raise RuntimeError("companion run did not start")
        acked = 0
        for i in range(presses):
            p.stdin.write("NEXT\n")
            p.stdin.flush()
            while acked <= i:  # one press, one committed event: wait for its ack
                line = p.stdout.readline()
                if not line:
                    raise RuntimeError(f"companion run exited with {p.poll()}")
                acked += line.startswith("ack ")
        return proc_rss_mb(p.pid)
    finally:
        p.stdin.close()
        p.wait(60)


def bench_memory(tmp: Path, *, counts: tuple[int, ...], presses: int,
                 live: tuple[int, ...]) -> None:
    """Issue 20: memory must not grow with the length of the game, resumed (`counts` events,
    then `presses`) or played live (issue 35.4: VmRSS after each of `live` presses)."""
    rss = {n: rss_after(tmp, n, presses=presses) for n in counts}
    for n, mb in rss.items():
        figure(f"rss_{n // 1000}k_events_mb", mb, "MB", 60.0 if n >= 40_000 else None,
               f"companion run, no web: a {n}-event game resumed, then {presses} presses")
    lo, hi = min(counts), max(counts)
    figure("rss_growth_kb_per_1k_events", (rss[hi] - rss[lo]) * 1024 / ((hi - lo) / 1000),
           "kB", 50.0, f"from {lo} to {hi} events (756 kB before the checkpoints)")
    # Issue 35.4: a game played live, press by press, with the clock ticking (bench/memory.py).
    from bench.memory import live_rss
    kb: dict[int, int] = {int(n): v for n, v in live_rss(tmp / "live", live)["rss_kb"].items()}
    for n, v in kb.items():
        figure(f"rss_live_{n / 1000:g}k_presses_mb", v / 1024, "MB", None,
               f"a table game pressed live: {n} NEXTs, the clock ticking")
    lo, hi = min(kb), max(kb)
    figure("rss_live_growth_kb_per_1k_events", (kb[hi] - kb[lo]) / ((hi - lo) / 1000), "kB",
           50.0, f"from {lo} to {hi} presses (582 kB before 35.4: the clock's ledger, SQLite's "
           "page cache)")


# --- main --------------------------------------------------------------------------------------

def table(rows: list[dict[str, Any]]) -> str:
    out = [f"{'figure':38} {'value':>10} {'unit':6} {'goal':>8}  ok"]
    for r in rows:
        goal = r["goal"]
        lower_is_better = True
        ok = "" if goal is None else ("yes" if (r["value"] <= goal) == lower_is_better else "MISS")
        out.append(f"{r['figure']:38} {r['value']:>10g} {r['unit']:6} "
                   f"{'' if goal is None else format(goal, 'g'):>8}  {ok}")
    return "\n".join(out)


def bench_web(tmp: Path, figure, *, quick: bool) -> None:
    from bench.web import bench_web as run_web
    run_web(tmp, figure, bench_press_to_frame, quick=quick)


def bench_stats(tmp: Path, figure, *, quick: bool) -> None:
    from bench.stats import bench_stats as run_stats
    run_stats(tmp, figure, quick=quick)


def bench_ratings(tmp: Path, figure, *, quick: bool) -> None:
    from bench.ratings import bench_ratings as run_ratings
    run_ratings(tmp, figure, quick=quick)


def bench_clock(tmp: Path, figure, *, quick: bool) -> None:
    from bench.clock import bench_clock as run_clock
    run_clock(tmp, figure, quick=quick)


def bench_ring(tmp: Path, figure, *, quick: bool) -> None:
    from bench.ring import bench_ring as run_ring
    run_ring(tmp, figure, quick=quick)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small counts: a smoke run")
    ap.add_argument("--only", nargs="*", default=None,
                    help="bytes press startup idle journal memory web stats ratings clock ring "
                         "(default: all; with --pi-class: press startup instructions)")
    ap.add_argument("--pi-class", action="store_true",
                    help="only press and startup, in a CPU cgroup limited to 12%% of one core "
                         "(about a Pi Zero 2 W; bench/pi_class.py), and the instructions of a "
                         "press and a clock tick under valgrind with the time they imply on a "
                         "Pi Zero 2 W (bench/instructions.py): figures pi_*")
    ap.add_argument("--cgroup-root", type=Path, default=None,
                    help="with --pi-class: the cgroup root to make the cgroup under "
                         "(default: /sys/fs/cgroup/cpu, else /sys/fs/cgroup)")
    ap.add_argument("--press-gap", type=float, default=0.0, metavar="MS",
                    help="milliseconds between a frame and the next press (default 0: back "
                         "to back; --pi-class presses at a player's pace, 100 ms apart)")
    args = ap.parse_args(argv)
    q = args.quick
    parts: dict[str, Callable[[Path], None]] = {
        "bytes": lambda t: bench_bytes(t, repeat=4 if q else 16),
        "press": lambda t: bench_press_to_frame(t, presses=60 if q else 1000,
                                                gap=args.press_gap / 1000),
        "startup": lambda t: bench_startup(t, runs=1 if q else 7),
        "idle": lambda t: bench_idle(t, seconds=1.0 if q else 10.0),
        "journal": lambda t: bench_journal(t, events=1000 if q else 10_000, runs=1 if q else 5),
        "memory": lambda t: bench_memory(t, counts=(1000, 4000) if q else
                                         (10_000, 40_000, 100_000), presses=20 if q else 200,
                                         live=(500, 1000, 2000) if q else (5000, 10_000, 20_000)),
        "web": lambda t: bench_web(t, figure, quick=q),
        "stats": lambda t: bench_stats(t, figure, quick=q),
        "ratings": lambda t: bench_ratings(t, figure, quick=q),
        "clock": lambda t: bench_clock(t, figure, quick=q),
        "ring": lambda t: bench_ring(t, figure, quick=q),
    }
    with tempfile.TemporaryDirectory() as d:
        if args.pi_class:
            from bench.pi_class import bench_pi_class
            cgroup = [p for p in ("press", "startup") if args.only is None or p in args.only]
            if cgroup:
                bench_pi_class(Path(d), figure, quick=q, root=args.cgroup_root, parts=cgroup)
            if args.only is None or "instructions" in args.only:
                from bench.instructions import bench_instructions
                bench_instructions(Path(d), figure, quick=q)
        else:
            for name, fn in parts.items():
                if args.only is None or name in args.only:
                    fn(Path(d))
    print()
    print(table(FIGURES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
