"""The app with the dice roller attached (issue 7, "done means"): ROLL on the companion rolls
on the roller and its result drives the game; the roller's own button rolls the game's dice
at once (issue 14: no dice menu); pulling the
cable mid-game only switches to software rolls with a note on screen; plugging it back in
brings the roller back. The roller is tests/mpy/boardsim.py: the firmware's own code on a pty.
"""

from __future__ import annotations

import queue
import random
import sys
import time
from pathlib import Path

import pytest

from companion.drivers.dice import SoftwareDice
from companion.drivers.roller import DiceRoller
from companion.inputs import Button, ButtonInput, Gesture, RollerPress
from companion.testing import choose, press
from companion.ui.dice import RollScreen
from companion.ui.screen import Menu
from companion.ui.table import TableScreen

sys.path.insert(0, str(Path(__file__).resolve().parent / "mpy"))
import boardsim  # noqa: E402

WAIT = 10  # s: only reached when something is broken


def pump_until(app, done, what: str) -> None:
    """Handle queued inputs (as the app thread would) until `done()`."""
    deadline = time.monotonic() + WAIT
    while not done():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            pytest.fail(f"timed out waiting for {what}")
        try:
            item = app.queue.get(timeout=min(remaining, 0.5))
        except queue.Empty:
            continue
        app.handle(item)
    app.render()


def roll_both(app) -> list:
    """ROLL, then "Colors + Shapes"; wait until the roll is recorded and shown."""
    before = len(app.journal.events)
    press(app, Button.ROLL, drain=False)
    assert isinstance(app.top, Menu)
    press(app, Button.OK, drain=False)
    pump_until(app, lambda: len(app.journal.events) > before
               and isinstance(app.top, RollScreen) and app.top.result is not None, "the roll")
    return app.journal.events[-1]


@pytest.fixture
def board():
    b = boardsim.Board(seed=11)
    yield b
    b.close()


def test_rolls_go_through_the_roller_and_survive_unplugging(make_app, board):
    app = make_app()
    roller = DiceRoller(post=app.post, comports=board.ports, backoff=(0.02, 0.1), timeout=2.0,
                        fallback=SoftwareDice(post=app.post, rng=random.Random(3)))
    app.dice = roller
    try:
        pump_until(app, lambda: app.toast and "connected" in app.toast[0], "the handshake")
        for _ in range(5):  # new game, table, 4 players, house rules, first player
            press(app, Button.OK, drain=False)
        assert isinstance(app.top, TableScreen)

        # ROLL on the companion: the roller rolls, and its faces are what the game records.
        event = roll_both(app)
        rolled = [line for line in board.sent if line.startswith(b"ROLLED")]
        assert rolled, board.sent
        words = rolled[-1].split(b"*")[0].decode().split()[2:]
        assert event == {"type": "roll", "dice": dict(w.split("=") for w in words)}
        assert app.rolls.dice_note == "Roller" and app.top.note == ""
        assert any(line.startswith(b"ROLL ") for line in board.received)

        # The roller's own button rolls now: the same dice as last time, no menu.
        press(app, Button.OK, drain=False)  # back to the table
        before = len(app.journal.events)
        board.press()
        pump_until(app, lambda: len(app.journal.events) > before
                   and isinstance(app.top, RollScreen) and app.top.result is not None,
                   "the roller's button")
        assert not any(isinstance(s, Menu) for s in app.stack)
        assert set(app.journal.events[-1]["dice"]) == {"colors", "shapes"}
        assert app.rolls.dice_note == "Roller"
        press(app, Button.OK, drain=False)

        # Pull the cable: the next roll is a software roll, marked on screen.
        board.unplug()
        pump_until(app, lambda: app.toast and "unplugged" in app.toast[0], "the unplug")
        event = roll_both(app)
        assert event["type"] == "roll" and app.rolls.dice_note == ""  # no "Software" in the title
        assert app.top.note == "Roller unplugged: software roll"

        # Plug it back in: the roller rolls again.
        press(app, Button.OK, drain=False)
        board.plug()
        pump_until(app, lambda: app.toast and "connected" in app.toast[0], "the replug")
        sent_before = len(board.sent)
        roll_both(app)
        assert app.rolls.dice_note == "Roller"
        assert any(line.startswith(b"ROLLED") for line in board.sent[sent_before:])
    finally:
        roller.close()


# --- the roller's own button, without the board (issue 14, item 4) --------------------------

def table_game(make_app):
    app = make_app()
    for _ in range(5):  # new game, table, 4 players, house rules, first player
        press(app, Button.OK, drain=False)
    assert isinstance(app.top, TableScreen)
    return app


def roller_button(app) -> None:
    """What the roller driver posts for its button, handled as the app thread would."""
    app.handle(RollerPress())
    pump_until(app, lambda: app.queue.empty(), "the roll")


def test_roller_button_rolls_the_default_dice_with_no_menu(make_app):
    from companion.ui.dice import DEFAULT_DICE
    app = table_game(make_app)
    roller_button(app)
    assert isinstance(app.top, RollScreen) and app.top.result is not None
    assert len(app.stack) == 2  # home, result: no menu on the way
    assert app.journal.events[-1]["type"] == "roll"
    assert tuple(app.journal.events[-1]["dice"]) == DEFAULT_DICE == ("colors", "shapes")


def test_roller_button_rolls_the_dice_last_rolled(make_app):
    app = table_game(make_app)
    press(app, Button.ROLL, drain=False)
    choose(app, "8-sided die")
    pump_until(app, lambda: app.top.result is not None, "the d8")
    press(app, Button.OK, drain=False)  # back to the table
    press(app, Button.NEXT, drain=False)
    roller_button(app)
    assert [type(s) for s in app.stack] == [TableScreen, RollScreen]
    assert list(app.journal.events[-1]["dice"]) == ["d8"]
    # On the result: the same dice again, not a pile of result screens.
    roller_button(app)
    assert [type(s) for s in app.stack] == [TableScreen, RollScreen]
    rolls = [e for e in app.journal.events if e["type"] == "roll"]
    assert len(rolls) == 3 and all(list(e["dice"]) == ["d8"] for e in rolls)
    # After an undo of all three, nothing was rolled: back to the default pair.
    for _ in range(4):
        app.handle(ButtonInput(Button.BACK, Gesture.HOLD))
    roller_button(app)
    assert list(app.journal.events[-1]["dice"]) == ["colors", "shapes"]


def test_roller_button_on_the_dice_menu_rolls_the_dice_under_the_cursor(make_app):
    app = table_game(make_app)
    press(app, Button.ROLL, drain=False)
    assert isinstance(app.top, Menu)
    press(app, Button.DOWN, drain=False)
    press(app, Button.DOWN, drain=False)  # "Shapes die"
    roller_button(app)
    assert isinstance(app.top, RollScreen)
    assert app.journal.events[-1] == {"type": "roll", "dice": dict(app.top.result)}
    assert list(app.top.result) == ["shapes"]


def test_roller_button_elsewhere_is_the_roll_button(make_app):
    app = table_game(make_app)
    app.handle(ButtonInput(Button.OK, Gesture.HOLD))  # the game's menu: ROLL does nothing
    menu = app.top
    events = list(app.journal.events)
    roller_button(app)
    assert app.top is menu and app.journal.events == events


def test_roller_button_waits_while_the_dice_tumble(make_app):
    app = make_app(animation=0.6)
    for _ in range(5):
        press(app, Button.OK, drain=False)
    roller_button(app)  # starts a roll; the result is in, the animation is not over
    rolling = app.top
    assert isinstance(rolling, RollScreen) and rolling.result is None
    app.handle(RollerPress())
    assert app.top is rolling and app.rolls.pending.screen is rolling
