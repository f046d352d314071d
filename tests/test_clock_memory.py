"""The turn clock's ledger keeps nothing per event (issue 35.4): RSS grew about 580 kB per
1,000 presses in a live game, the ledger's tuples, turns and reach floats of every event.
It now keeps a checkpoint of its sums every CHECKPOINT_EVERY segments and the last few events;
whatever the order of appends, undos (past the kept ones and past checkpoints), redos and
pauses, it reads as a ledger folded afresh from the same rows."""

from __future__ import annotations

import math
import tracemalloc
from array import array

from hypothesis import given, settings, strategies as st

from companion.session.clock import BREAK_AFTER, CHECKPOINT_EVERY, RECENT, Ledger


def _timeline(gaps: list[float], seats: int = 3) -> tuple[array, array, array]:
    times, who, numbers = array("d"), array("i"), array("i")
    t, turn = 0.0, 0
    for i, gap in enumerate(gaps):
        t += gap
        turn += 1
        times.append(math.nan if gap == 7.0 else t)  # some times unknown (a log without)
        who.append(i % seats)
        numbers.append(turn)
    return times, who, numbers


def _same(a: Ledger, b: Ledger, now: float) -> None:
    assert a.read(now) == b.read(now)
    assert a.per_seat() == b.per_seat()
    assert a.breaks == b.breaks
    assert a.playing_seconds() == b.playing_seconds()


ops = st.lists(st.one_of(
    st.tuples(st.just("append"), st.integers(1, 3 * CHECKPOINT_EVERY)),
    st.tuples(st.just("undo"), st.integers(1, 2 * RECENT + CHECKPOINT_EVERY)),
    st.tuples(st.just("pause"), st.floats(0, 60_000), st.floats(1, BREAK_AFTER * 2)),
), max_size=12)
gap = st.sampled_from([0.0, 1.0, 2.5, 7.0, 30.0, BREAK_AFTER + 1.0, -40.0])  # -40: set back


@settings(max_examples=60, deadline=None)
@given(st.lists(gap, min_size=1, max_size=700), ops)
def test_a_long_game_folded_step_by_step_reads_as_one_folded_afresh(gaps, steps):
    times, seats, numbers = _timeline(gaps)
    ledger, spans, n = Ledger(0, 0, 3), [], 0
    for op in steps:
        if op[0] == "append":
            n = min(len(times), n + op[1])
        elif op[0] == "undo":
            n = max(0, n - op[1])
        else:
            spans.append((op[1], op[1] + op[2]))
        ledger.update(times[:n], seats[:n], numbers[:n], spans)
        fresh = Ledger(0, 0, 3)
        fresh.update(times[:n], seats[:n], numbers[:n], spans)
        now = max([t for t in times[:n] if t == t], default=0.0) + 5
        _same(ledger, fresh, now)


def test_an_undo_refolds_from_the_last_checkpoint_not_the_game():
    times, seats, numbers = _timeline([3.0] * 5000)
    ledger = Ledger(0, 0, 3)
    ledger.update(times, seats, numbers)
    folded = []
    original = ledger._fold
    ledger._fold = lambda k, *a: (folded.append(k), original(k, *a))  # type: ignore[method-assign]
    ledger.update(times[:-1], seats[:-1], numbers[:-1])
    assert len(folded) <= CHECKPOINT_EVERY
    fresh = Ledger(0, 0, 3)
    fresh.update(times[:-1], seats[:-1], numbers[:-1])
    _same(ledger, fresh, times[-2] + 1)


def test_a_ledger_keeps_a_few_bytes_an_event_not_hundreds():
    """Before: about 490 bytes an event (a tuple, a float and a turn object for each)."""
    events = 20_000
    times, seats, numbers = _timeline([2.0] * events, seats=4)
    ledger = Ledger(0, 0, 4)
    ledger.update(times[:1000], seats[:1000], numbers[:1000])
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for k in range(1001, events + 1, 7):  # a press (or a few) at a time, as the app does
            ledger.update(times[:k], seats[:k], numbers[:k])
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown / (events - 1000) < 16, f"{grown / (events - 1000):.0f} bytes an event"


def test_a_game_folded_at_once_keeps_only_the_last_events_to_compare():
    """A resumed game is folded in one update: it kept every event's copy (12 bytes each)."""
    times, seats, numbers = _timeline([2.0] * 10_000)
    ledger = Ledger(0, 0, 3)
    ledger.update(times, seats, numbers)
    assert len(ledger._recent_times) <= 2 * RECENT
    ledger.update(times[:-3], seats[:-3], numbers[:-3])  # an undo of three still compares
    fresh = Ledger(0, 0, 3)
    fresh.update(times[:-3], seats[:-3], numbers[:-3])
    _same(ledger, fresh, times[-4] + 1)
