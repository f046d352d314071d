"""`make bench ARGS="--only clock"`: what the turn clock (issue 28, docs/clock.md) costs.

The clock runs in every game while a turn runs: a tick once a second (Tick("clock"), scheduled
after each frame) redraws the panel when the seconds shown change. A house rule `turn_limit`
only adds what is left and the alarms. So "clock off" is not a setting a group can choose;
here it is the same app with its TurnClock replaced by `StoppedClock` (no reading, so nothing
drawn, and no tick), which is what the app did before the clock. The journal still keeps each
event's time (that is the store's, not the clock's). docs/performance.md compares against the
commit before the clock as well.

- press_to_frame_*_clock_off / _clock_on / _clock_limit: bench/presses.py's press-to-frame
  (MockFactory pins, the real app thread, our partial ssd1306 driver) on games with the clock
  stopped, running (no limit) and with a 60 s turn limit. The three are measured in rounds,
  one after the other, so that a busy machine slows them alike.
- idle_cpu_percent_clock / _clock_off: App.run on a thread of this process on the real
  monotonic clock (its timers real threads), drawing with our partial ssd1306 driver into a
  RecordingSerial, left alone on a running turn of a 120 s limit game; the process's CPU
  time (time.process_time) over the wall time. `clock_ticks_per_s` says the tick ran.
- bytes_clock_tick_*: bytes on the I2C wire per tick while only the clock changes (the app
  on a FakeClock moved one second at a time, no press), our ssd1306 and sh1106 drivers, on
  the Table, Penny Badger and Pig Farm home screens, with and without a limit (up to 45 s of
  a 60 s limit: before the warning). The goal is one page's window (`page_window_bytes`: a
  whole 128-column page rewritten). bytes_clock_alarm_max: the most a tick sent from 45 to
  65 s of a 60 s limit, where the warning (10 s left) and "Time!" change more than the digits.
  The figures measure whatever the screens draw: a screen that draws no clock sends nothing.
"""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path
from typing import Any, Callable

from bench.common import Figure, pct
from bench.presses import PressTimes, new_app, press_times
from companion.app.clock import TurnClock
from companion.testing import FakeClock, drain

FOUR = ("Ann", "Ben", "Cy", "Dee")
KINDS = ("table", "penny-badger", "pig-farm")
LIMIT = {"turn_limit": 60}
IDLE_LIMIT = {"turn_limit": 120}  # no warning within an idle run of up to 100 s


class StoppedClock(TurnClock):
    """A turn clock that never reads and never ticks: the app as it was before the clock."""

    def reading(self) -> None:
        return None

    def schedule(self) -> None:
        pass


def stop_clock(app) -> None:
    """`attach` for bench/presses.py's press_times: the app without its clock."""
    app.turn_clock = StoppedClock(app)


# --- press to frame -----------------------------------------------------------------------------

VARIANTS: dict[str, tuple[dict[str, Any] | None, Callable | None]] = {
    "clock_off": (None, stop_clock),
    "clock_on": (None, None),
    "clock_limit": (LIMIT, None),
}


def bench_clock_press(tmp: Path, figure: Figure, *, presses: int, rounds: int) -> None:
    """`presses` presses for each variant, in `rounds` rounds of off, on, limit."""
    times = {name: PressTimes() for name in VARIANTS}
    for r in range(rounds):
        for name, (rules, attach) in VARIANTS.items():
            d = tmp / f"press-{name}-{r}"
            d.mkdir()
            press_times(d, presses=presses // rounds, attach=attach, rules=rules,
                        times=times[name])
    notes = {"clock_off": "the app's TurnClock stopped (no reading, no tick)",
             "clock_on": "no limit: the clock runs and ticks",
             "clock_limit": "turn_limit 60 s"}
    for name, t in times.items():
        note = f"{len(t.handed)} presses in {rounds} rounds; {notes[name]}"
        figure(f"press_to_frame_p50_ms_{name}", pct(t.handed, 50), "ms", None, note)
        figure(f"press_to_frame_p99_ms_{name}", pct(t.handed, 99), "ms", 3.0, note)


# --- idle CPU -----------------------------------------------------------------------------------

def idle_run(tmp: Path, *, seconds: float, stopped: bool) -> dict[str, float]:
    """App.run on a thread, left alone for `seconds` on a running turn. Returns the CPU
    percent of this process, the clock ticks handled a second, and the bytes written."""
    from companion.app.core import run_safely
    from companion.drivers import oled
    from companion.drivers.display import Display
    from companion.drivers.oled import RecordingSerial
    from companion.inputs import Quit, Tick

    tmp.mkdir()
    serial = RecordingSerial()
    app, store = new_app(tmp, "table", FOUR, Display(oled.ssd1306(serial)), rules=IDLE_LIMIT)
    if stopped:
        stop_clock(app)
    ticks = [0]
    original = app.handle

    def handle(item) -> None:
        if isinstance(item, Tick) and item.token == "clock":
            ticks[0] += 1
        original(item)

    app.handle = handle
    thread = threading.Thread(target=run_safely, args=(app,), daemon=True)
    thread.start()
    try:
        time.sleep(0.5)  # the first frame drawn, the first tick scheduled
        serial.clear()
        ticks[0] = 0
        c0, t0 = time.process_time(), time.monotonic()
        time.sleep(seconds)
        c1, t1 = time.process_time(), time.monotonic()
        counted = ticks[0]
        sent = serial.wire_bytes
    finally:
        app.post(Quit())
        thread.join(10)
        store.close()
    return {"cpu": (c1 - c0) / (t1 - t0) * 100, "ticks": counted / (t1 - t0), "bytes": sent}


def bench_clock_idle(tmp: Path, figure: Figure, *, seconds: float) -> None:
    on = idle_run(tmp / "idle-on", seconds=seconds, stopped=False)
    off = idle_run(tmp / "idle-off", seconds=seconds, stopped=True)
    figure("idle_cpu_percent_clock", on["cpu"], "%", 1.5,
           f"{seconds:g} s, App.run on a thread, a running turn (turn_limit 120 s), "
           f"partial ssd1306 into a RecordingSerial, process_time / wall time")
    figure("idle_cpu_percent_clock_off", off["cpu"], "%", None,
           "the same with the app's TurnClock stopped")
    figure("clock_ticks_per_s", on["ticks"], "1/s", None,
           f"Tick('clock') handled a second in the idle run ({on['bytes']} B written)")


# --- bytes per tick -----------------------------------------------------------------------------

def page_window_bytes() -> dict[str, int]:
    """Wire bytes for rewriting one whole page (8 rows x 128 columns) with our drivers: the
    goal for a tick."""
    from PIL import Image, ImageDraw

    from companion.drivers import oled
    from companion.drivers.oled import RecordingSerial

    out = {}
    for name, make in (("ssd1306", oled.ssd1306), ("sh1106", oled.sh1106)):
        serial = RecordingSerial()
        device = make(serial)
        blank = Image.new("1", (128, 64))
        device.display(blank)
        serial.clear()
        page = blank.copy()
        ImageDraw.Draw(page).rectangle((0, 0, 127, 7), fill=1)
        device.display(page)
        out[name] = serial.wire_bytes
    return out


class TwoPanels:
    """Hands every frame to our ssd1306 and sh1106 drivers, each on a RecordingSerial."""

    def __init__(self) -> None:
        from companion.drivers import oled
        from companion.drivers.display import Display
        from companion.drivers.oled import RecordingSerial

        self.serials = {"ssd1306": RecordingSerial(), "sh1106": RecordingSerial()}
        self.displays = [Display(oled.ssd1306(self.serials["ssd1306"])),
                         Display(oled.sh1106(self.serials["sh1106"]))]
        self.schedule = None

    def show(self, image) -> bool:
        return [d.show(image) for d in self.displays][0]

    def wire(self) -> dict[str, int]:
        return {k: s.wire_bytes for k, s in self.serials.items()}

    def close(self) -> None:
        pass


def tick_bytes(tmp: Path, kind: str, rules: dict[str, Any] | None, *, start: int, stop: int
               ) -> dict[str, list[int]]:
    """Bytes each driver wrote for each tick from `start` to `stop` seconds into a turn (the
    app on a FakeClock, no press)."""
    clock = FakeClock()
    panels = TwoPanels()
    app, store = new_app(tmp, kind, FOUR, panels, clock, rules=rules)
    out: dict[str, list[int]] = {"ssd1306": [], "sh1106": []}
    try:
        app.render()
        clock.advance(start)
        drain(app)
        app.render()
        for _ in range(start, stop):
            before = panels.wire()
            clock.advance(1.0)
            drain(app)
            app.render()
            after = panels.wire()
            for k in out:
                out[k].append(after[k] - before[k])
    finally:
        app.close()
        store.close()
    return out


def bench_clock_bytes(tmp: Path, figure: Figure) -> None:
    window = page_window_bytes()
    plain: dict[str, list[int]] = {"ssd1306": [], "sh1106": []}
    alarm: list[int] = []
    for kind in KINDS:
        for rules in (None, LIMIT):
            d = tmp / f"bytes-{kind}-{'limit' if rules else 'nolimit'}"
            d.mkdir()
            got = tick_bytes(d, kind, rules, start=0, stop=45)
            for k in plain:
                plain[k] += got[k]
        d = tmp / f"bytes-{kind}-alarm"
        d.mkdir()
        alarm += tick_bytes(d, kind, LIMIT, start=45, stop=65)["ssd1306"]
    n = len(plain["ssd1306"])
    note = (f"{n} ticks, no press: Table, Penny Badger, Pig Farm home screens, no limit and "
            f"60 s limit (0-45 s); goal one page's window")
    figure("bytes_clock_tick_mean", statistics.mean(plain["ssd1306"]), "bytes",
           window["ssd1306"], "ssd1306, ours; " + note)
    figure("bytes_clock_tick_max", max(plain["ssd1306"]), "bytes", window["ssd1306"],
           "ssd1306, ours; " + note)
    figure("bytes_clock_tick_max_sh1106", max(plain["sh1106"]), "bytes", window["sh1106"],
           "sh1106, ours; " + note)
    figure("bytes_clock_ticks_silent", sum(b == 0 for b in plain["ssd1306"]) / n * 100, "%",
           None, "ticks that sent nothing (the frame did not change)")
    figure("bytes_clock_alarm_max", max(alarm), "bytes", None,
           "ssd1306: the most one tick sent from 45 to 65 s of a 60 s limit (warning, Time!)")
    figure("page_window_bytes", window["ssd1306"], "bytes", None,
           f"one whole page rewritten, ssd1306 (sh1106: {window['sh1106']})")


def bench_clock(tmp: Path, figure: Figure, *, quick: bool) -> None:
    bench_clock_bytes(tmp, figure)
    bench_clock_press(tmp, figure, presses=90 if quick else 600, rounds=1 if quick else 4)
    bench_clock_idle(tmp, figure, seconds=1.0 if quick else 10.0)
