"""An app on a fake clock, pressed the way the tests press it, and press to frame through
gpiozero MockFactory pins and the app thread: what bench/run.py's press figures, and those of
bench/clock.py, bench/ring.py, bench/instructions.py and bench/profile.py, are measured with.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from companion.testing import FakeClock, make_app, press

# The app, its presses and the fake clock (standing still unless moved; the app's timers run
# on it) are the test driver's (companion/testing.py): the benchmark presses what the tests do.
Clock = FakeClock  # (bench/profile.py's name for it)


def new_app(tmp: Path, kind: str, players: tuple[str, ...], display, clock=time.monotonic,
            rules: dict[str, Any] | None = None):
    """An app resuming a new `kind` game (its journal `<kind>.db` in `tmp`) with house `rules`:
    default config, no dice animation, seeded dice. Returns (app, store)."""
    app = make_app(tmp, journal=f"{kind}.db", kind=kind, players=players, rules=rules,
                   setup=False, display=display, clock=clock, seed=7, strict=False)
    return app, app.store


def step(app, button: str, gesture: str = "press") -> None:
    """One input handled the way the app thread does it, then the frame drawn."""
    press(app, button, hold=gesture == "hold")


class TimedDisplay:
    """Our partial ssd1306 on a recording serial; notes when a frame is handed over and sent."""

    def __init__(self) -> None:
        from companion.drivers import oled
        from companion.drivers.display import Display
        from companion.drivers.oled import RecordingSerial

        self.serial = RecordingSerial()
        self.inner = Display(oled.ssd1306(self.serial))
        self.schedule = None
        self.waiting = False  # a press was handled; the next frame is its frame
        self.handed = self.sent = 0.0
        self.done = threading.Event()

    def show(self, image) -> bool:
        t = time.perf_counter()
        sent = self.inner.show(image)
        if self.waiting:
            self.waiting = False
            self.handed, self.sent = t, time.perf_counter()
            self.done.set()
        self.serial.clear()  # keep memory flat over thousands of frames
        return sent

    def close(self) -> None:
        pass


def press_script(kind: str) -> list[str]:
    """A cycle of presses on a mode's screens that comes back where it started.
    "!X" is posted straight to the queue (a hold of X, not timed: pins would need 0.8 s)."""
    if kind == "table":
        return ["NEXT", "NEXT", "ROLL", "DOWN", "UP", "BACK", "OK", "DOWN", "BACK", "NEXT",
                "!BACK"]
    if kind == "penny-badger":
        return ["NEXT", "OK", "OK", "NEXT", "DOWN", "DOWN", "OK", "OK", "OK", "UP", "DOWN",
                "!BACK", "!BACK"]
    return ["NEXT", "OK", "OK", "UP", "UP", "UP", "NEXT", "UP", "UP", "DOWN", "ROLL", "UP",
            "BACK", "OK", "DOWN", "UP", "!BACK"]


class PressTimes:
    """Press-to-frame samples in ms: `handed` (to `Display.show`), `sent` (to the end of the
    write), and `handed` by kind."""

    def __init__(self) -> None:
        self.handed: list[float] = []
        self.sent: list[float] = []
        self.by_kind: dict[str, list[float]] = {}


def press_times(tmp: Path, *, presses: int, attach=None, gap: float = 0.0,
                rules: dict[str, Any] | None = None, times: PressTimes | None = None
                ) -> PressTimes:
    """`presses` presses through MockFactory pins and the app thread, a third on each mode,
    added to `times` (a new PressTimes when None) and returned. `attach(app)`, when given,
    sets something up beside the app and returns what stops it (or None). `gap`: seconds
    between one frame and the next press (0: back to back). `rules`: the games' house rules."""
    from gpiozero.pins.mock import MockFactory

    from companion.app.core import run_safely
    from companion.drivers.buttons import ButtonPanel
    from companion.games import load_config as load
    from companion.inputs import Button, ButtonInput, Gesture, Quit

    out = times if times is not None else PressTimes()
    per_kind = {"table": presses // 3, "penny-badger": presses // 3}
    per_kind["pig-farm"] = presses - sum(per_kind.values())
    for kind, n in per_kind.items():
        display = TimedDisplay()
        app, store = new_app(tmp, kind, ("Ann", "Ben", "Cy", "Dee"), display, rules=rules)
        original = app.handle

        def handle(item, original=original, display=display) -> None:
            original(item)
            if isinstance(item, ButtonInput):
                display.waiting = True

        app.handle = handle
        detach = attach(app) if attach is not None else None
        clock = FakeClock()
        factory = MockFactory()
        cfg = load(None)
        panel = ButtonPanel(cfg.pins(), post=app.post, pin_factory=factory, clock=clock)
        thread = threading.Thread(target=run_safely, args=(app,), daemon=True)
        thread.start()
        script = press_script(kind)
        done = 0
        i = 0
        while done < n:
            name = script[i % len(script)]
            i += 1
            display.done.clear()
            if name.startswith("!"):
                app.post(ButtonInput(Button[name[1:]], Gesture.HOLD))
                display.done.wait(10)
                continue
            pin = factory.pin(cfg.pins()[name.lower()])
            if gap:
                time.sleep(gap)
            clock.t += 1.0
            pin.drive_low()
            clock.t += 0.1
            t0 = time.perf_counter()
            pin.drive_high()  # the press is complete on release
            if not display.done.wait(10):
                raise RuntimeError(f"no frame after {name} on {kind}")
            out.handed.append((display.handed - t0) * 1000)
            out.sent.append((display.sent - t0) * 1000)
            out.by_kind.setdefault(kind, []).append(out.handed[-1])
            done += 1
        app.post(Quit())
        thread.join(10)
        if detach is not None:
            detach()
        panel.close()
        store.close()
    return out
