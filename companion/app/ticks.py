"""What each timer's `Tick` does, on the app thread: its token names the part that asked for it
(the kept first frame, the turn clock, the seat lights, the toast, a roll's tumbling), and any
other token is a screen's own timer (A.After), carried out as if that screen were on top.

`on_tick` is given a `TickHost`, what it uses of the app (declared below): those parts, the
screen stack, `perform` and `ctx`.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.app import firstframe
from companion.app.rolls import as_top
from companion.inputs import Tick
from companion.ui.screen import Context, Screen


class ClockTicks(Protocol):
    """The turn clock's tick (clock.py's TurnClock)."""

    def on_tick(self) -> None: ...


class PartTicks(Protocol):
    """The seat lights' animation frames (lights.py's Lights)."""

    def on_tick(self, tick: Tick) -> None: ...


class RollTicks(Protocol):
    """A roll's tumbling frames (rolls.py's Rolls)."""

    def on_tumble(self, tick: Tick) -> None: ...


class TickHost(firstframe.FrameHost, Protocol):
    """What a tick uses of the app (App satisfies it)."""

    stack: list[Screen]
    toast: tuple[str, float] | None  # (text, until when)

    @property
    def turn_clock(self) -> ClockTicks: ...

    @property
    def lights(self) -> PartTicks: ...

    @property
    def rolls(self) -> RollTicks: ...

    def perform(self, action: Any) -> bool: ...

    def ctx(self) -> Context: ...


def on_tick(app: TickHost, tick: Tick) -> None:
    """A timer's tick, to the part that asked for it; else a screen's own timer (A.After),
    which goes to that screen while it is on the stack, covered or not: a menu or a
    question opened during the Chaos call must not stop its second."""
    if tick.token == "startframe":
        firstframe.on_tick(app)
    elif tick.token == "clock":
        app.turn_clock.on_tick()
    elif tick.token == "lights":
        app.lights.on_tick(tick)
    elif tick.token == "toast":
        if app.toast and app.clock() >= app.toast[1] - 0.01:
            app.toast = None
    elif tick.token == "tumble":
        app.rolls.on_tumble(tick)
    else:
        screen = tick.data.get("screen")
        if screen is not None and any(s is screen for s in app.stack):
            as_top(app.stack, app.perform, screen,
                   lambda: screen.on_tick(tick.token, tick.data, app.ctx()))
