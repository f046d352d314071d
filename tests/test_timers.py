"""Timers run on under other screens (issue 14, item 3): a screen's own timer reaches it while
it is on the stack, whatever covers it (a menu, the power-off question, a toast), and acts as
if it were on top; the covering screens stay where they are. The timers are recorded, not
waited for: each test hands the app the tick it asked for, with a fake clock."""

from __future__ import annotations

from companion.games.chaos.panel import ChaosCall, ChaosScreen
from companion.inputs import Button, Notice, RollResult, ShutdownRequest, Tick
from companion.testing import choose, press
from companion.ui import actions as A
from companion.ui.dice import RollScreen
from companion.ui.screen import Confirm, Menu, TextScreen
from companion.ui.table import TableScreen


def recording(app) -> list[Tick]:
    """Replace the app's timers with a list of the ticks it asks for."""
    asked: list[Tick] = []
    app.timers.after = lambda seconds, tick: asked.append(tick)
    return asked


def last(asked: list[Tick], token: str) -> Tick:
    return [t for t in asked if t.token == token][-1]


def start(app, game: str) -> None:
    press(app, Button.OK)  # "New game"
    choose(app, game)
    press(app, Button.OK)  # 4 players
    press(app, Button.OK)  # house rules read
    press(app, Button.OK)  # the first player / dealer


def test_the_chaos_call_runs_out_under_the_menu(make_app):
    app = make_app()
    start(app, "Chaos")
    assert isinstance(app.top, ChaosScreen)
    asked = recording(app)
    press(app, Button.ROLL)
    call = app.top
    assert isinstance(call, ChaosCall)
    press(app, Button.OK, hold=True)  # the menu, opened during the second
    menu = app.top
    assert isinstance(menu, Menu) and app.stack[-2] is call

    app.clock.advance(0.4)
    app.handle(last(asked, "call"))
    assert call.outcome is None and app.top is menu
    again = last(asked, "call")
    assert again.data["screen"] is call  # re-armed for the call, not for the menu

    app.clock.advance(0.7)
    app.handle(again)
    assert call.outcome == "late"  # the second ran out under the menu: DRAW 3
    assert app.top is menu
    press(app, Button.BACK)
    assert app.top is call and call.outcome == "late"


def test_the_chaos_call_runs_out_under_a_toast_and_the_power_question(make_app):
    app = make_app()
    start(app, "Chaos")
    asked = recording(app)
    press(app, Button.ROLL)
    call = app.top
    app.handle(Notice("Roller connected"))
    app.handle(ShutdownRequest())
    question = app.top
    assert isinstance(question, Confirm) and app.toast is not None
    app.clock.advance(1.2)
    app.handle(last(asked, "call"))
    assert call.outcome == "late" and app.top is question


def test_a_tick_for_a_screen_that_is_gone_is_dropped(make_app):
    app = make_app()
    start(app, "Chaos")
    asked = recording(app)
    press(app, Button.ROLL)
    call = app.top
    press(app, Button.BACK)  # the call cancelled
    assert isinstance(app.top, ChaosScreen)
    app.clock.advance(1.2)
    app.handle(last(asked, "call"))
    assert call.outcome is None and isinstance(app.top, ChaosScreen)


def test_a_roll_settles_under_the_power_question_and_its_then_acts_on_it(make_app):
    """A roll's follow-up (dice-factor's d8 replaces the roll by its outcome) acts on the
    roll's screen, not on the question that covers it."""
    app = make_app()
    start(app, "Table")
    assert isinstance(app.top, TableScreen)
    outcome = TextScreen("Outcome", ["after the roll"])
    app.perform(A.Roll(("d8",), title="8-sided die", then=A.Replace(outcome)))
    assert isinstance(app.top, RollScreen)
    app.handle(ShutdownRequest())  # the question covers the tumbling dice
    question = app.top
    assert isinstance(question, Confirm)
    item = app.queue.get_nowait()
    assert isinstance(item, RollResult)
    app.handle(item)
    assert app.journal.events[-1]["type"] == "roll"
    assert app.stack[-2:] == [outcome, question]
    press(app, Button.BACK)  # "no" to the question: the outcome is there
    assert app.top is outcome


class SilentDice:
    """Dice that never answer: the watchdog must roll in software."""

    def roll(self, seq, names, *, note=""):
        pass

    def close(self):
        pass


def test_the_roll_watchdog_fires_under_a_menu_and_a_toast(make_app):
    app = make_app(animation=0.6)
    start(app, "Table")
    app.dice = SilentDice()
    asked = recording(app)
    press(app, Button.ROLL)  # the dice menu
    press(app, Button.OK)  # Colors + Shapes: tumbling
    rolling = app.top
    assert isinstance(rolling, RollScreen) and rolling.result is None
    app.handle(Notice("Roller unplugged"))
    app.handle(ShutdownRequest())
    question = app.top
    app.clock.advance(app.rolls.deadline + 0.1)
    app.handle(last(asked, "tumble"))  # the watchdog: a software roll
    app.clock.advance(app.rolls.animation)
    app.handle(last(asked, "tumble"))
    assert rolling.result is not None and "software roll" in rolling.note
    assert app.journal.events[-1] == {"type": "roll", "dice": rolling.result}
    assert app.top is question and app.stack[-2] is rolling
