"""Rolls: a roll from ROLL to its result committed (`Rolls`), and the screen stack's
`as_top` and `pop_to` that a timer's action is carried out with.

`Rolls` owns the roll under way (`pending`), its number (`seq`: a result for an older one is
ignored) and the dice note of the last result ("Roller"). It is given a `RollHost`, what it uses
of the app: the screen stack, the journal, the dice, the timers, `emit` and `perform`. It runs
on the app thread (App.handle gives it each `RollResult`, and the "tumble" `Tick`s).
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.app.timers import Scheduler
from companion.inputs import RollResult, Tick
from companion.rules import dice as dicemod
from companion.ui import actions as A
from companion.ui.dice import RollScreen, make_event
from companion.ui.screen import Screen

if TYPE_CHECKING:
    from companion.session.journal import Journal

log = logging.getLogger(__name__)

TUMBLE_EVERY = 0.08  # seconds between tumbling frames of a roll
TOKEN = "tumble"


class RollHost(Protocol):
    """What a roll uses of the app (App satisfies it)."""

    stack: list[Screen]
    journal: Journal | None
    rng: random.Random
    dice: Any  # the dice driver: roll(seq, dice), its result posted as a RollResult
    timers: Scheduler
    clock: Callable[[], float]

    @property
    def top(self) -> Screen: ...

    def emit(self, event: dict) -> bool: ...

    def perform(self, action: Any) -> bool: ...


class PendingRoll:
    """A roll asked of the dice: its number, what it rolls, its screen, when it began, and
    its result once it came."""

    def __init__(self, seq: int, roll: A.Roll, screen: RollScreen, started: float) -> None:
        self.seq = seq
        self.roll = roll
        self.screen = screen
        self.started = started
        self.result: RollResult | None = None



class Rolls:
    """The roll under way, from ROLL to its result committed. `animation`: the seconds a roll
    tumbles at least; `deadline`: a roll with no result by then is rolled in software (the
    roller driver falls back after its own timeout, so this only guards against a result lost
    on the way)."""

    def __init__(self, host: RollHost, *, animation: float, deadline: float) -> None:
        self.host = host
        self.animation = animation
        self.deadline = deadline
        self.seq = 0
        self.pending: PendingRoll | None = None
        self.dice_note = ""  # "Roller" when the last result came from the roller

    def tumbling(self) -> bool:
        """Whether a roll is tumbling on top: presses wait for its result (a press meant for
        the result would otherwise act on the tumbling screen)."""
        p = self.pending
        return p is not None and p.screen is self.host.top and p.screen.result is None

    def start(self, roll: A.Roll) -> None:
        for name in roll.dice:
            dicemod.die(name)  # an unknown die is refused (IllegalEvent) before anything changes
        h = self.host
        self.seq += 1
        screen = RollScreen(roll, rng=h.rng)
        if isinstance(h.top, RollScreen):
            h.stack[-1] = screen  # ROLL again on a result: replace, do not pile up
        else:
            h.stack.append(screen)
        self.pending = PendingRoll(self.seq, roll, screen, h.clock())
        h.timers.after(TUMBLE_EVERY, Tick(TOKEN, {"seq": self.seq}))
        h.dice.roll(self.seq, list(roll.dice))

    def on_tumble(self, tick: Tick) -> None:
        """A tumbling frame is due: the next one, or the result once the dice have settled."""
        p, h = self.pending, self.host
        if p is None or p.seq != tick.data.get("seq"):
            return
        if p.result is not None and h.clock() - p.started >= self.animation - 0.01:
            self.finish(p)
        elif p.result is None and h.clock() - p.started >= self.deadline:
            log.warning("no result for roll %s: rolling in software", p.seq)
            self.on_result(RollResult(
                p.seq, dicemod.roll(p.roll.dice, random.SystemRandom()),
                note="No answer from the dice: software roll"))
        else:
            p.screen.tumble()
            h.timers.after(TUMBLE_EVERY, Tick(TOKEN, {"seq": p.seq}))

    def on_result(self, r: RollResult) -> None:
        p = self.pending
        if p is None or r.seq != p.seq or p.result is not None:
            log.info("ignoring a roll result for an old request (%s)", r.seq)
            return
        p.result = r
        # The title says which dice rolled only when the roller did: a box without one never
        # shows a word about it (a fallback to the box's own roll says why, in the hint line).
        self.dice_note = "Roller" if r.source == "roller" else ""
        if self.host.clock() - p.started >= self.animation:
            self.finish(p)

    def finish(self, p: PendingRoll) -> None:
        h = self.host
        self.pending = None
        if p.screen not in h.stack:
            return  # the player left (undo) before the dice settled: nothing is recorded
        assert p.result is not None
        event = make_event(p.roll)(p.result.dice)
        if h.journal is not None and event is not None:
            if not h.emit(event):
                pop_to(h.stack, p.screen, inclusive=True)
                return
        p.screen.settle(p.result.dice, p.result.note)
        as_top(h.stack, h.perform, p.screen, lambda: p.roll.then)


def pop_to(stack: list[Screen], screen: Screen, *, inclusive: bool = False) -> None:
    """Close the screens above `screen` (and `screen` itself when `inclusive`); the home
    screen stays."""
    if screen in stack:
        i = stack.index(screen)
        del stack[max(1, i + (0 if inclusive else 1)):]


def as_top(stack: list[Screen], perform: Callable[[Any], bool], screen: Screen,
           act: Callable[[], Any]) -> None:
    """Do what `screen` asks from a timer (its tick, a roll's `then`) as if it were on
    top: the screens covering it (a menu, the power-off question) are lifted off while
    `act()` runs and its actions are carried out (`perform`), then put back on top, so a
    timer never acts on, or is stopped by, a screen that is not its own. If the game
    changed screens meanwhile (its end, an undo), the covering screens are dropped with the
    old stack (a new list put in the app's `stack` in its place is not touched)."""
    i = next((k for k, s in enumerate(stack) if s is screen), None)
    if i is None:  # no longer on the stack (the game ended under it): nothing to lift
        perform(act())
        return
    covering = stack[i + 1:]
    del stack[i + 1:]
    base = stack[0]
    try:
        perform(act())
    finally:
        if covering and stack and stack[0] is base:
            stack.extend(covering)
