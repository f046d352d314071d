"""The app with the dice roller attached (issue 7, "done means"): ROLL on the companion rolls
on the roller and its result drives the game; the roller's own button is ROLL; pulling the
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
from companion.inputs import Button, ButtonInput
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


def press(app, button: Button) -> None:
    app.handle(ButtonInput(button))
    app.render()


def roll_both(app) -> list:
    """ROLL, then "Colors + Shapes"; wait until the roll is recorded and shown."""
    before = len(app.journal.events)
    press(app, Button.ROLL)
    assert isinstance(app.top, Menu)
    press(app, Button.OK)
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
            press(app, Button.OK)
        assert isinstance(app.top, TableScreen)

        # ROLL on the companion: the roller rolls, and its faces are what the game records.
        event = roll_both(app)
        rolled = [line for line in board.sent if line.startswith(b"ROLLED")]
        assert rolled, board.sent
        words = rolled[-1].split(b"*")[0].decode().split()[2:]
        assert event == {"type": "roll", "dice": dict(w.split("=") for w in words)}
        assert app.dice_note == "Roller" and app.top.note == ""
        assert any(line.startswith(b"ROLL ") for line in board.received)

        # The roller's own button is the ROLL button.
        press(app, Button.OK)  # back to the table
        board.press()
        pump_until(app, lambda: isinstance(app.top, Menu), "the roller's button")
        press(app, Button.BACK)

        # Pull the cable: the next roll is a software roll, marked on screen.
        board.unplug()
        pump_until(app, lambda: app.toast and "unplugged" in app.toast[0], "the unplug")
        event = roll_both(app)
        assert event["type"] == "roll" and app.dice_note == "Software"
        assert app.top.note == "Roller unplugged: software roll"

        # Plug it back in: the roller rolls again.
        press(app, Button.OK)
        board.plug()
        pump_until(app, lambda: app.toast and "connected" in app.toast[0], "the replug")
        sent_before = len(board.sent)
        roll_both(app)
        assert app.dice_note == "Roller"
        assert any(line.startswith(b"ROLLED") for line in board.sent[sent_before:])
    finally:
        roller.close()
