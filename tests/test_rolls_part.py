"""The rolls and the timers built alone, without an App (companion/app/rolls.py, timers.py):
a `Rolls` given a small host of its own (a screen stack, dice that note what they are asked,
timers that note what they are asked to post, `emit` and `perform` that note what they are
handed), and `Timers` given only a `post`."""

from __future__ import annotations

import queue
import random
from typing import Any

import pytest

from companion.app.rolls import TOKEN, Rolls, as_top, pop_to
from companion.app.timers import Timers
from companion.errors import IllegalEvent
from companion.inputs import RollResult, Tick
from companion.testing import FakeClock, RecordingTimers
from companion.ui import actions as A
from companion.ui.dice import RollScreen
from companion.ui.screen import Screen, TextScreen


class Dice:
    def __init__(self) -> None:
        self.asked: list[tuple[int, list[str]]] = []

    def roll(self, seq: int, names: list[str]) -> None:
        self.asked.append((seq, names))


class Host:
    """What a roll uses of the app, and no more (rolls.RollHost)."""

    def __init__(self, *, journal: Any = None, emits: bool = True) -> None:
        self.stack: list[Screen] = [TextScreen("Home", ["the game"])]
        self.journal = journal
        self.rng = random.Random(1)
        self.dice = Dice()
        self.timers = RecordingTimers()
        self.clock = FakeClock()
        self.emitted: list[dict] = []
        self.performed: list[Any] = []
        self._emits = emits

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def emit(self, event: dict) -> bool:
        self.emitted.append(event)
        return self._emits

    def perform(self, action: Any) -> bool:
        self.performed.append(action)
        return True


def test_a_roll_tumbles_until_its_result_then_emits_and_does_its_then():
    host = Host(journal=object())
    rolls = Rolls(host, animation=0.5, deadline=3.0)
    then = A.Toast("rolled")
    rolls.start(A.Roll(("d6",), then=then))
    screen = host.top
    assert isinstance(screen, RollScreen) and rolls.seq == 1 and rolls.tumbling()
    assert host.dice.asked == [(1, ["d6"])]
    assert host.timers.ticks[-1][1] == Tick(TOKEN, {"seq": 1})
    rolls.on_result(RollResult(1, {"d6": 4}, source="roller"))
    assert rolls.dice_note == "Roller" and host.emitted == []  # still tumbling: 0.5 s
    host.clock.advance(0.5)
    rolls.on_tumble(Tick(TOKEN, {"seq": 1}))
    assert host.emitted == [{"type": "roll", "dice": {"d6": 4}}]
    assert screen.result == {"d6": 4} and host.performed == [then]
    assert rolls.pending is None and not rolls.tumbling()


def test_a_result_for_an_older_roll_is_ignored():
    host = Host()
    rolls = Rolls(host, animation=0.0, deadline=3.0)
    rolls.start(A.Roll(("d6",)))
    rolls.start(A.Roll(("d6",)))  # ROLL again: replaces the roll screen, does not pile up
    assert len(host.stack) == 2 and rolls.seq == 2
    rolls.on_result(RollResult(1, {"d6": 2}))
    assert rolls.pending is not None and rolls.pending.result is None
    rolls.on_result(RollResult(2, {"d6": 5}))
    assert rolls.pending is None and host.top.result == {"d6": 5}


def test_no_result_by_the_deadline_is_a_software_roll():
    host = Host()
    rolls = Rolls(host, animation=0.0, deadline=3.0)
    rolls.start(A.Roll(("d6",)))
    host.clock.advance(3.0)
    rolls.on_tumble(Tick(TOKEN, {"seq": 1}))
    assert host.top.result is not None and "software roll" in host.top.note


def test_an_unknown_die_is_refused_before_anything_changes():
    host = Host()
    rolls = Rolls(host, animation=0.0, deadline=3.0)
    with pytest.raises(IllegalEvent):
        rolls.start(A.Roll(("d7",)))
    assert rolls.seq == 0 and len(host.stack) == 1 and host.dice.asked == []


def test_a_refused_result_closes_the_roll_screen():
    host = Host(journal=object(), emits=False)
    rolls = Rolls(host, animation=0.0, deadline=3.0)
    rolls.start(A.Roll(("d6",), then=A.Toast("never")))
    rolls.on_result(RollResult(1, {"d6": 1}))
    assert len(host.stack) == 1 and host.performed == []


def test_as_top_lifts_the_covering_screens_while_the_screen_acts():
    home, timed, menu = (TextScreen(t, []) for t in ("Home", "Timed", "Menu"))
    stack: list[Screen] = [home, timed, menu]
    seen: list[list[Screen]] = []

    def perform(action: Any) -> bool:
        seen.append(list(stack))
        return True

    as_top(stack, perform, timed, lambda: A.Toast("tick"))
    assert seen == [[home, timed]] and stack == [home, timed, menu]
    pop_to(stack, timed)
    assert stack == [home, timed]
    pop_to(stack, timed, inclusive=True)
    assert stack == [home]
    pop_to(stack, home, inclusive=True)  # the home screen stays
    assert stack == [home]


def test_timers_post_their_ticks_in_order_and_none_after_close():
    posted: queue.SimpleQueue = queue.SimpleQueue()
    timers = Timers(posted.put)
    timers.after(0.05, Tick("second"))
    timers.after(0.0, Tick("first"))
    assert posted.get(timeout=5) == Tick("first")
    assert posted.get(timeout=5) == Tick("second")
    timers.close()
    timers.after(0.0, Tick("late"))
    with pytest.raises(queue.Empty):
        posted.get(timeout=0.2)
