"""The test driver itself (companion/testing.py, docs/testing.md): an app made in one call,
presses and holds, the fake clock that runs the app's timers, the recording serial port."""

from __future__ import annotations

import subprocess
import sys

import pytest
from PIL import Image

from companion.config import Config, check
from companion.drivers import oled
from companion.drivers.display import Display
from companion.inputs import Button, RollResult
from companion.testing import FakeClock, RecordingSerial, choose, close, drain, make_app, press
from companion.ui.dice import RollScreen
from companion.ui.screen import Menu, TextScreen
from companion.ui.start import StartScreen
from companion.ui.table import TableScreen


@pytest.fixture
def made(tmp_path):
    apps = []

    def make(**kw):
        apps.append(make_app(tmp_path, journal=f"{len(apps)}.db", **kw))
        return apps[-1]

    yield make
    for app in apps:
        close(app)


def test_next_moves_the_turn_on_a_table_game(made):
    app = made(kind="table", setup=False)
    assert isinstance(app.top, TableScreen)
    assert app.journal.header.players == ("Ann", "Ben", "Cy", "Dee")
    press(app, Button.NEXT)
    assert app.journal.state.table.current == 1
    press(app, "NEXT", "NEXT")  # names work too, one press after the other
    assert app.journal.state.table.current == 3
    assert app.store.resume().events == app.journal.events  # committed to the journal


def test_a_new_game_starts_on_its_setup_screens(made):
    app = made(kind="table", players=("Ann", "Ben"), setup=True)
    assert isinstance(app.top, TextScreen) and app.top.title == "House rules"
    press(app, Button.OK)  # house rules read
    assert isinstance(app.top, Menu)  # who goes first
    press(app, Button.DOWN, Button.OK)  # Ben
    assert isinstance(app.top, TableScreen) and app.journal.state.table.current == 1


def test_without_a_kind_the_start_menu_and_choose(made):
    app = made()
    assert isinstance(app.top, StartScreen)
    press(app, Button.OK)  # New game
    choose(app, "Pig F", prefix=True)
    press(app, Button.OK)  # 4 players
    assert app.journal.header.game == "pig-farm"


def test_hold_back_undoes_and_hold_ok_opens_the_menu(made):
    app = made(kind="table", setup=False)
    press(app, Button.NEXT, Button.NEXT)
    press(app, Button.BACK, hold=True)
    assert app.journal.state.table.current == 1 and app.toast[0].startswith("Undone:")
    press(app, Button.OK, hold=True)
    assert isinstance(app.top, Menu)
    choose(app, "Reverse")
    assert app.journal.state.table.direction == -1


def test_the_fake_clock_runs_the_apps_timers(made):
    app = made(kind="table", setup=False, animation=0.5)
    press(app, Button.BACK, hold=True)  # nothing to undo: a toast, gone after its seconds
    assert app.toast is not None
    app.clock.advance(1.0)
    drain(app)
    assert app.toast is not None  # the clock, not the wall, decides
    app.clock.advance(2.0)
    drain(app)
    assert app.toast is None

    press(app, Button.ROLL)
    choose(app, "8-sided die")
    rolling = app.top
    assert isinstance(rolling, RollScreen) and rolling.result is None  # tumbling
    app.clock.advance(0.3)
    press(app, Button.NEXT)  # buttons wait while the dice tumble
    assert rolling.result is None and app.journal.state.table.current == 0
    app.clock.advance(0.3)  # past the animation: the tumble timer shows the result
    drain(app)
    assert rolling.result is not None and app.journal.events[-1]["type"] == "roll"


def test_fake_clock():
    clock = FakeClock(5.0)
    ran: list[tuple[str, float]] = []
    clock.call_later(2.0, lambda: ran.append(("b", clock())))
    clock.call_later(1.0, lambda: ran.append(("a", clock())))
    cancelled = clock.call_later(1.5, lambda: ran.append(("x", clock())))
    cancelled.cancel()
    assert clock() == 5.0 and clock.pending == [6.0, 7.0]
    clock.advance(1.0)
    assert ran == [("a", 6.0)]
    clock.t += 10  # setting the time moves the clock the same way
    assert ran == [("a", 6.0), ("b", 7.0)] and clock() == 16.0 and clock.pending == []
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_press_options(made):
    app = made(kind="table", setup=False)
    press(app, Button.ROLL)
    press(app, Button.OK, drain=False)  # Colors + Shapes: the result stays queued
    assert isinstance(app.top, RollScreen) and app.top.result is None
    assert isinstance(app.queue.get_nowait(), RollResult)

    other = made(kind="table", setup=False)
    frames = other.display.frames_sent
    press(other, Button.NEXT, render=False)
    assert other.journal.state.table.current == 1 and other.display.frames_sent == frames
    press(other, Button.NEXT, threaded=True)  # posted for the app's own thread
    assert other.journal.state.table.current == 1 and other.queue.qsize() == 1


def test_config_dice_and_display_options(made):
    base = Config(check({}))
    app = made(config=base, animation=0.7)
    assert app.config is not base and app.rolls.animation == 0.7
    assert base["dice"]["animation"] != 0.7  # the caller's config is left as it was
    assert made(config={"power": {"command": "true"}}).config["power"]["command"] == "true"

    rolled = []

    class Dice:
        def __init__(self, post):
            self.post = post

        def roll(self, seq, names, *, note=""):
            rolled.append(names)
            self.post(RollResult(seq, {n: 3 for n in names}))

        def close(self):
            pass

    serial = RecordingSerial()
    app = made(kind="table", setup=False, dice=Dice, display=Display(oled.ssd1306(serial)))
    press(app, Button.ROLL)
    choose(app, "8-sided die")
    assert rolled == [["d8"]] and app.top.result == {"d8": 3}
    assert serial.calls and serial.wire_bytes > 0  # the frames went out on the wire


def test_the_recording_serial_records_every_byte():
    serial = RecordingSerial()
    serial.command(0xAE, 0xD5)
    serial.data([1, 2, 3])
    assert serial.calls == [("command", b"\xae\xd5"), ("data", b"\x01\x02\x03")]
    # On the I2C wire each call is a transaction: the address and control bytes on top.
    assert serial.wire_bytes == 2 + 3 + 2 * oled.I2C_OVERHEAD
    display = Display(oled.ssd1306(serial))
    serial.clear()
    display.show(Image.new("1", (128, 64), 1))  # a frame all lit: every byte of the RAM
    assert sum(len(p) for kind, p in serial.calls if kind == "data") == 128 * 64 // 8


def test_importing_the_driver_needs_neither_pytest_nor_the_app():
    code = ("import sys, companion.testing; "
            "print(sorted(m for m in ('pytest', 'luma', 'companion.app') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
