"""What a press asks for, on the app thread: a button goes to the top screen (a hold of BACK is
Undo, a hold of OK the game's menu), the roller's own button rolls, the power button asks
whether to power off. Each becomes an action, carried out by `perform`.

The functions here are given a `PressHost`, what they use of the app (declared below): the
screen stack, the journal and its game's mode, whether a roll is tumbling, `ctx` and `perform`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from companion.inputs import Button, ButtonInput, Gesture, RollerPress, ShutdownRequest
from companion.ui import actions as A, power
from companion.ui.dice import roller_press
from companion.ui.screen import Context, Screen

if TYPE_CHECKING:
    from companion.session.journal import Journal


class Tumbling(Protocol):
    """Whether a roll is tumbling on top (rolls.py's Rolls)."""

    def tumbling(self) -> bool: ...


class PressHost(Protocol):
    """What a press uses of the app (App satisfies it)."""

    stack: list[Screen]
    journal: Journal | None

    @property
    def top(self) -> Screen: ...

    @property
    def mode(self) -> Any: ...

    @property
    def rolls(self) -> Tumbling: ...

    def ctx(self) -> Context: ...

    def perform(self, action: Any) -> bool: ...


def on_button(app: PressHost, b: ButtonInput) -> None:
    """A button of the panel, or a phone's (bridge.py): to the top screen, but for the holds
    the game keeps for itself (BACK: Undo; OK: its menu)."""
    if app.rolls.tumbling():
        return  # a roll is tumbling: buttons wait for the result
    if b.gesture is Gesture.HOLD and app.journal is not None:
        if b.button is Button.BACK:
            app.perform(A.Undo())
            return
        if b.button is Button.OK and not app.journal.state.over:
            from companion.ui.modes import menu_hold
            app.perform(menu_hold(app.stack, app.mode, app.ctx()))
            return
    app.perform(app.top.handle(b, app.ctx()))


def on_roller_press(app: PressHost, press: RollerPress) -> None:
    """The roller's own button: roll now, without the dice menu (ui/dice.py)."""
    if app.rolls.tumbling():
        return  # a roll is tumbling: like every button, it waits for the result
    app.perform(roller_press(app.top, app.ctx()))


def on_shutdown_request(app: PressHost, request: ShutdownRequest) -> None:
    """The power button: the question whether to power off (ui/power.py)."""
    app.perform(power.ask(app.top))
