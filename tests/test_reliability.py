"""Faults the box meets on a table: a loose display wire and chattering buttons.

- Display: the panel's I2C writes fail (luma's i2c raises DeviceNotFoundError on EIO, the
  partial driver turns it into OSError). The app keeps handling presses and committing, retries
  with a doubling delay through a timer on its own queue, and redraws the current frame once
  the panel answers, without any further press.
- Buttons: random bursts of up to 50 bounce edges inside the debounce window, on press and on
  release, through gpiozero's MockFactory pins: exactly one press; a hold is never also a press.
"""

from __future__ import annotations

import threading
import time

import luma.core.error
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings, strategies as st
from test_oled import Ssd1306Ram

from companion.app.core import App
from companion.drivers import oled
from companion.drivers.buttons import ButtonPanel
from companion.drivers.display import Display
from companion.drivers.oled import RecordingSerial, pack_pages
from companion.inputs import Button, ButtonInput, Gesture, Quit
from companion.testing import FakeClock, make_app


class LooseWire(RecordingSerial):
    """A serial interface whose data writes fail while `broken`, the way luma's i2c does."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False
        self.attempts = 0
        self.heal_after: int | None = None  # heal by itself after this many failed writes
        self.panel = Ssd1306Ram()

    def command(self, *cmd: int) -> None:
        super().command(*cmd)
        self.panel.command(bytes(cmd))

    def data(self, data) -> None:
        if self.broken:
            self.attempts += 1
            if self.heal_after is not None and self.attempts > self.heal_after:
                self.broken = False
            else:
                raise luma.core.error.DeviceNotFoundError("I2C device not found on address: 0x3C")
        super().data(data)
        self.panel.data(bytes(data))


def shows(wire: LooseWire, app: App) -> bool:
    """The panel's RAM holds exactly the app's current frame."""
    return bytes(wire.panel.ram) == pack_pages(app.frame())


def test_loose_wire_backs_off_keeps_committing_and_redraws(tmp_path, config):
    clock = FakeClock()
    wire = LooseWire()
    display = Display(oled.ssd1306(wire), clock=clock, retry_first=0.1, retry_max=1.0)
    app = make_app(tmp_path, config=config, kind="table", setup=False, display=display,
                   clock=clock)
    store = app.store
    scheduled: list[float] = []
    display.schedule = scheduled.append  # the app's hook posts a Tick; here we drive it
    try:
        app.render()
        app.render()  # (the first frame leaves the turn clock's corner blank: ui/clock.py)
        assert shows(wire, app)
        wire.broken = True
        for _ in range(3):
            app.handle(ButtonInput(Button.NEXT))
            app.render()  # only the first write is tried; the rest wait for the retry
        assert wire.attempts == 1 and scheduled == [0.1]
        assert len(app.journal.events) == 3 and store.resume().events == app.journal.events
        for _ in range(6):  # each scheduled retry that fails doubles the delay, up to the cap
            clock.advance(scheduled[-1])
            app.render()
        assert scheduled == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0]
        assert display.failed and not shows(wire, app)
        wire.broken = False
        clock.advance(scheduled[-1])
        app.render()  # the retry: the whole current frame goes out
        assert not display.failed and shows(wire, app)
        app.handle(ButtonInput(Button.NEXT))
        app.render()
        assert shows(wire, app)
        wire.broken = True  # a new fault starts the backoff from the beginning
        app.handle(ButtonInput(Button.NEXT))
        app.render()
        assert scheduled[-1] == 0.1
    finally:
        app.close()
        store.close()


def test_app_thread_survives_and_redraws_without_another_press(tmp_path, config):
    wire = LooseWire()
    display = Display(oled.ssd1306(wire), retry_first=0.01, retry_max=0.05)
    app = make_app(tmp_path, config=config, kind="table", setup=False, display=display,
                   clock=time.monotonic)  # the app's own thread: real timers
    store = app.store
    thread = threading.Thread(target=app.run, daemon=True)
    try:
        wire.broken = True
        wire.heal_after = 5  # five failed writes, then the wire is back by itself
        thread.start()
        for _ in range(4):
            app.post(ButtonInput(Button.NEXT))
        deadline = time.monotonic() + 30  # a hang guard, not a speed requirement
        while not (len(app.journal.events) == 4 and not display.failed and shows(wire, app)):
            assert thread.is_alive()
            assert time.monotonic() < deadline, (wire.attempts, display.failed)
            time.sleep(0.01)
        assert wire.attempts == 6
    finally:
        app.post(Quit())
        thread.join(timeout=10)
        app.close()
        store.close()
    assert not thread.is_alive()


# --- buttons ---------------------------------------------------------------------------------

PINS = {"next": 17, "roll": 27, "up": 22, "down": 23, "ok": 24, "back": 25}
DEBOUNCE, HOLD = 0.03, 0.8


def bounce(pin, clock: FakeClock, offsets: list[float], *, end_low: bool) -> None:
    """Alternating edges at the given offsets (seconds from now), then the final level."""
    start = clock.t
    level = not end_low
    for dt in sorted(offsets):
        clock.t = start + dt
        (pin.drive_low if level else pin.drive_high)()
        level = not level
    clock.t = start + (max(offsets) if offsets else 0.0)
    (pin.drive_low if end_low else pin.drive_high)()


chatter = st.lists(st.floats(0, DEBOUNCE * 0.95), max_size=49)


@pytest.fixture(scope="module")
def panel():
    """One panel for every example: gpiozero takes ~0.2 s to close six buttons."""
    got: list[object] = []
    clock = FakeClock(100.0)
    factory = MockFactory()
    with ButtonPanel(PINS, post=got.append, pin_factory=factory, clock=clock,
                     debounce=DEBOUNCE, hold_time=HOLD) as p:
        yield p, factory, clock, got


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(sorted(PINS)), press=chatter, release=chatter,
       held=st.floats(0.05, 2.0), hold=st.booleans())
def test_chatter_gives_one_press_and_a_hold_is_not_also_a_press(panel, name, press, release,
                                                                held, hold):
    panel, factory, clock, got = panel
    clock.t += 10.0  # well clear of the last example's windows
    got.clear()
    down = HOLD + held if hold else min(held, HOLD - 0.05)
    b = Button[name.upper()]
    pin = factory.pin(PINS[name])
    t0 = clock.t
    bounce(pin, clock, [0.0] + press, end_low=True)  # the first edge is the press
    clock.t = t0 + down
    panel._tick(b)  # what the panel's timer does at its deadline
    bounce(pin, clock, [0.0] + release, end_low=False)
    clock.t += DEBOUNCE + 0.01
    panel._tick(b)
    expect = Gesture.HOLD if hold else Gesture.PRESS
    assert [g for g in got if isinstance(g, ButtonInput)] == [ButtonInput(b, expect)]
