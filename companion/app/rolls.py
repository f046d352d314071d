"""Rolls and timers: the one-shot timers that post a `Tick`, a roll from ROLL to its result
committed, and what each `Tick` does.

The timers' own thread only posts; every function below runs on the app thread, on the App it is
given (the one thread that changes its state).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import random
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.app import firstframe
from companion.inputs import RollResult, Tick
from companion.rules import dice as dicemod
from companion.ui import actions as A
from companion.ui.dice import RollScreen, make_event
from companion.ui.screen import Screen

if TYPE_CHECKING:
    from companion.app.core import App

log = logging.getLogger(__name__)

TUMBLE_EVERY = 0.08  # seconds between tumbling frames of a roll


class Scheduler(Protocol):
    """What the app asks of its timers (`App.timers`): a tick posted after some seconds, and
    all of them stopped at close. `Timers` runs them on threads; the test driver's on a fake
    clock (companion/testing.py)."""

    def after(self, seconds: float, tick: Tick) -> None: ...

    def close(self) -> None: ...


class Timers:
    """One-shot timers that post a `Tick` to the queue, all on one thread of their own (made
    with the first): `after` only files the tick and wakes it. A thread a timer, as before,
    cost a thread start on the app thread for each tick (milliseconds on a busy Pi, and the
    seat lights' animations ask for 25 ticks a second). Cancelled together on close."""

    def __init__(self, post: Callable[[object], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.post = post
        self.clock = clock
        self._due: list[tuple[float, int, Tick]] = []  # a heap: (when, order, tick)
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def after(self, seconds: float, tick: Tick) -> None:
        with self._wake:
            if self._closed:
                return
            heapq.heappush(self._due, (self.clock() + max(0.0, seconds), next(self._order),
                                       tick))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="timers", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed and (not self._due or self._due[0][0] > self.clock()):
                    self._wake.wait(None if not self._due else self._due[0][0] - self.clock())
                if self._closed:
                    return
                _, _, tick = heapq.heappop(self._due)
            try:
                self.post(tick)
            except Exception:  # one tick lost, not every timer after it (the only thread)
                log.exception("timers: posting %r failed", tick)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._due.clear()
            self._wake.notify()


class PendingRoll:
    def __init__(self, seq: int, roll: A.Roll, screen: RollScreen, started: float) -> None:
        self.seq = seq
        self.roll = roll
        self.screen = screen
        self.started = started
        self.result: RollResult | None = None


def tumbling(app: App) -> bool:
    """Whether a roll is tumbling on top: presses wait for its result (a press meant for the
    result would otherwise act on the tumbling screen)."""
    p = app.pending
    return p is not None and p.screen is app.top and p.screen.result is None


def start_roll(app: App, roll: A.Roll) -> None:
    for name in roll.dice:
        dicemod.die(name)  # an unknown die is refused (IllegalEvent) before anything changes
    app.roll_seq += 1
    screen = RollScreen(roll, rng=app.rng)
    if isinstance(app.top, RollScreen):
        app.stack[-1] = screen  # ROLL again on a result: replace, do not pile up
    else:
        app.stack.append(screen)
    app.pending = PendingRoll(app.roll_seq, roll, screen, app.clock())
    app.timers.after(TUMBLE_EVERY, Tick("tumble", {"seq": app.roll_seq}))
    app.dice.roll(app.roll_seq, list(roll.dice))


def on_tick(app: App, tick: Tick) -> None:
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
        p = app.pending
        if p is None or p.seq != tick.data.get("seq"):
            return
        if p.result is not None and app.clock() - p.started >= app.animation - 0.01:
            finish_roll(app, p)
        elif p.result is None and app.clock() - p.started >= app.roll_deadline:
            log.warning("no result for roll %s: rolling in software", p.seq)
            on_roll_result(app, RollResult(
                p.seq, dicemod.roll(p.roll.dice, random.SystemRandom()),
                note="No answer from the dice: software roll"))
        else:
            p.screen.tumble()
            app.timers.after(TUMBLE_EVERY, Tick("tumble", {"seq": p.seq}))
    else:
        # A screen's own timer (A.After) goes to that screen while it is on the stack,
        # covered or not: a menu or a question opened during the Chaos call must not
        # stop its second.
        screen = tick.data.get("screen")
        if screen is not None and any(s is screen for s in app.stack):
            as_top(app, screen, lambda: screen.on_tick(tick.token, tick.data, app.ctx()))


def on_roll_result(app: App, r: RollResult) -> None:
    p = app.pending
    if p is None or r.seq != p.seq or p.result is not None:
        log.info("ignoring a roll result for an old request (%s)", r.seq)
        return
    p.result = r
    # The title says which dice rolled only when the roller did: a box without one never
    # shows a word about it (a fallback to the box's own roll says why, in the hint line).
    app.dice_note = "Roller" if r.source == "roller" else ""
    if app.clock() - p.started >= app.animation:
        finish_roll(app, p)


def finish_roll(app: App, p: PendingRoll) -> None:
    app.pending = None
    if p.screen not in app.stack:
        return  # the player left (undo) before the dice settled: nothing is recorded
    assert p.result is not None
    event = make_event(p.roll)(p.result.dice)
    if app.journal is not None and event is not None:
        if not app.emit(event):
            pop_to(app, p.screen, inclusive=True)
            return
    p.screen.settle(p.result.dice, p.result.note)
    as_top(app, p.screen, lambda: p.roll.then)


def pop_to(app: App, screen: Screen, *, inclusive: bool = False) -> None:
    if screen in app.stack:
        i = app.stack.index(screen)
        del app.stack[max(1, i + (0 if inclusive else 1)):]


def as_top(app: App, screen: Screen, act: Callable[[], Any]) -> None:
    """Do what `screen` asks from a timer (its tick, a roll's `then`) as if it were on
    top: the screens covering it (a menu, the power-off question) are lifted off while
    `act()` runs and its actions are carried out, then put back on top, so a timer never
    acts on, or is stopped by, a screen that is not its own. If the game changed screens
    meanwhile (its end, an undo), the covering screens are dropped with the old stack."""
    i = next((k for k, s in enumerate(app.stack) if s is screen), None)
    if i is None:  # no longer on the stack (the game ended under it): nothing to lift
        app.perform(act())
        return
    covering = app.stack[i + 1:]
    del app.stack[i + 1:]
    base = app.stack[0]
    try:
        app.perform(act())
    finally:
        if covering and app.stack and app.stack[0] is base:
            app.stack.extend(covering)
