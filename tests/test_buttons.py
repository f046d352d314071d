"""Buttons: gpiozero MockFactory pins through our own debounce and press/hold detection."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from companion.drivers.buttons import ButtonPanel
from companion.drivers.press import PressDetector
from companion.inputs import Button, ButtonInput, Gesture
from companion.testing import FakeClock

PINS = {"next": 17, "roll": 27, "up": 22, "down": 23, "ok": 24, "back": 25}


# --- the pure detector ------------------------------------------------------------------------

def test_press_is_reported_on_release():
    d = PressDetector(debounce=0.03, hold_time=0.8)
    assert d.edge(True, 0.0) == []
    assert d.edge(False, 0.2) == [Gesture.PRESS]
    assert d.due() is None


def test_hold_is_reported_at_the_hold_time_and_release_adds_no_press():
    d = PressDetector(debounce=0.03, hold_time=0.8)
    d.edge(True, 0.0)
    assert d.due() == pytest.approx(0.8)
    assert d.tick(0.5) == []
    assert d.tick(0.8) == [Gesture.HOLD]
    assert d.due() is None
    assert d.edge(False, 2.0) == []


def test_fifty_edges_inside_the_debounce_window_give_one_press():
    d = PressDetector(debounce=0.03, hold_time=0.8)
    out = d.edge(True, 0.0)
    for k in range(1, 51):  # chatter: alternating levels, all within 30 ms, ending pressed
        out += d.edge(k % 2 == 0, k * 0.0005)
    assert d.due() == pytest.approx(0.8)  # the level left behind is "pressed", as accepted
    out += d.tick(0.03)  # the window closes: nothing new
    assert out == []
    out += d.edge(False, 0.2)
    for k in range(1, 51):  # release bounce, ending released
        out += d.edge(k % 2 == 1, 0.2 + k * 0.0005)
    out += d.edge(False, 0.2 + 51 * 0.0005)
    if d.due() is not None:
        out += d.tick(d.due())
    assert out == [Gesture.PRESS]


def test_a_glitch_shorter_than_the_window_that_ends_released_is_one_short_press():
    # The first edge is accepted at once (fast response); the level left when the window
    # closes decides whether the press ended.
    d = PressDetector(debounce=0.03, hold_time=0.8)
    d.edge(True, 0.0)
    d.edge(False, 0.01)
    assert d.tick(0.03) == [Gesture.PRESS]


# --- the gpiozero panel on MockFactory --------------------------------------------------------

@pytest.fixture
def panel():
    q: queue.Queue = queue.Queue()
    clock = FakeClock(0.0)
    factory = MockFactory()
    with ButtonPanel(PINS, post=q.put, pin_factory=factory, clock=clock, debounce=0.03,
                     hold_time=0.2) as p:
        yield p, q, factory, clock


def test_panel_press(panel):
    p, q, factory, clock = panel
    pin = factory.pin(PINS["next"])
    pin.drive_low()
    clock.t += 0.1
    pin.drive_high()
    assert q.get(timeout=30) == ButtonInput(Button.NEXT, Gesture.PRESS)
    assert q.empty()


def test_panel_hold_back_fires_once_without_a_press(panel):
    p, q, factory, clock = panel
    pin = factory.pin(PINS["back"])
    clock.t = 5.0
    pin.drive_low()
    clock.t = 5.5  # past the hold time; the panel's timer wakes the detector
    assert q.get(timeout=30) == ButtonInput(Button.BACK, Gesture.HOLD)
    clock.t = 6.0
    pin.drive_high()
    with pytest.raises(queue.Empty):
        q.get(timeout=0.3)


def test_panel_bounce(panel):
    p, q, factory, clock = panel
    pin = factory.pin(PINS["ok"])
    clock.t = 10.0
    for k in range(50):  # 50 edges while the clock stands still: all inside the window
        (pin.drive_low if k % 2 == 0 else pin.drive_high)()
    pin.drive_low()
    clock.t = 10.05
    pin.drive_high()
    assert q.get(timeout=30) == ButtonInput(Button.OK, Gesture.PRESS)
    with pytest.raises(queue.Empty):
        q.get(timeout=0.3)


def test_panel_releases_its_pins():
    factory = MockFactory()
    with ButtonPanel(PINS, post=lambda _: None, pin_factory=factory) as p:
        assert len(p.devices) == 6
    # After close the pins are free again: a new panel can claim them.
    with ButtonPanel(PINS, post=lambda _: None, pin_factory=factory):
        pass


def test_panel_with_a_pin_clash_releases_what_it_took():
    from companion.errors import DeviceError

    factory = MockFactory()
    with pytest.raises(DeviceError, match="button ROLL on GPIO 17"):
        ButtonPanel({"next": 17, "roll": 17}, post=lambda _: None, pin_factory=factory)
    ButtonPanel({"next": 17}, post=lambda _: None, pin_factory=factory).close()


def test_run_on_a_machine_without_gpio_says_so_in_one_line(tmp_path, capsys, monkeypatch):
    from gpiozero import BadPinFactory, Device

    from companion.cli import main

    def no_library():
        raise BadPinFactory("Unable to load any default pin factory!")

    # As on a laptop: no pin library loads (and no other test's factory is left in place).
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_library))
    code = main(["run", "--display", "dummy", "--journal", str(tmp_path / "j.db")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert "no GPIO pin library" in err and "companion run --emulator" in err
