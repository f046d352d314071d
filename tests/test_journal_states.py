"""The journal keeps a checkpoint every CHECKPOINT_EVERY events and the recent states, not every
state (issue 20): `state_at(i)` must still be exactly the fold of the first i events, through
any mix of appends, undos (to any depth) and redos, in every scoring kind."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from companion import games
from companion.errors import IllegalEvent
from companion.gallery.sample import header, sampled
from companion.session import journal as journalmod
from companion.session.journal import EventLog, Journal


def fold(j: Journal, events) -> list:
    states = [j.game.initial(j.header)]
    for e in events:
        states.append(j.game.apply(states[-1], e))
    return states


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(sorted(sampled())), every=st.sampled_from([1, 2, 3, 5, 8, 64]),
       seed=st.integers(0, 2**32))
def test_state_at_is_the_fold_of_the_events_before_it(kind, every, seed):
    """A random game of 60 steps: runs of new events, undos of any depth (across checkpoints
    and back to the start), redos; after each step the states are checked against a plain
    fold of a plain list of events."""
    rng = random.Random(seed)
    saved = journalmod.CHECKPOINT_EVERY
    journalmod.CHECKPOINT_EVERY = every
    try:
        j = Journal(header(rng, kind))
        ref: list[dict] = []  # the model: a plain list of events and a redo list
        redo: list[dict] = []
        for _ in range(60):
            op = rng.choice(["add", "add*", "add*", "undo", "undo*", "redo", "redo*"])
            if op.startswith("add"):
                for _ in range(rng.randint(1, 40) if op == "add*" else 1):
                    e = games.get(kind).sample(rng, len(j.header.players), j.state)
                    try:
                        j.append(e)
                    except IllegalEvent:
                        continue
                    ref.append(e)
                    redo.clear()
            elif op.startswith("undo"):
                for _ in range(min(rng.randint(1, 80) if op == "undo*" else 1, len(ref))):
                    assert j.undo() == ref[-1]
                    redo.append(ref.pop())
            else:
                for _ in range(min(rng.randint(1, 30) if op == "redo*" else 1, len(redo))):
                    assert j.redo() == redo[-1]
                    ref.append(redo.pop())
            assert j.events == ref and j.redo_stack == redo
            states = fold(j, ref)
            assert j.state == states[-1]
            assert j.previous_state == states[max(0, len(ref) - 1)]
            for _ in range(10):  # random old states: from checkpoints, the blocks, the tail
                i = rng.randint(0, len(ref))
                assert j.state_at(i) == states[i]
            if rng.random() < 0.3:  # a walk over the whole game (it leaves blocks cached)
                assert [j.state_at(i) for i in range(len(ref) + 1)] == states
        states = fold(j, ref)
        assert [j.state_at(i) for i in range(len(ref), -1, -1)] == states[::-1]
        assert Journal(j.header, ref).state == j.state  # a replay of what is stored
    finally:
        journalmod.CHECKPOINT_EVERY = saved


def test_undo_of_a_long_game_to_the_start_and_redo_to_the_end():
    rng = random.Random(4)
    j = Journal(header(rng, "table"))
    for _ in range(1000):
        j.append(games.get("table").sample(rng, len(j.header.players), j.state))
    states = fold(j, list(j.events))
    while j.can_undo:
        j.undo()
        assert j.state == states[len(j.events)]
    while j.can_redo:
        j.redo()
    assert j.state == states[-1] and len(j.events) == 1000


def test_a_long_game_keeps_few_states():
    j = Journal(header(random.Random(1), "table"))
    for _ in range(10_000):
        j.append({"type": "next"})
    n = journalmod.CHECKPOINT_EVERY
    assert len(j._marks) == 10_000 // n + 1
    assert len(j._tail) <= 2 * n + 1
    assert len(j.events._texts) == 1  # ten thousand "next"s, one text


def test_state_at_out_of_range_is_an_index_error():
    j = Journal(header(random.Random(1), "table"), [{"type": "next"}])
    assert j.state_at(-1) == j.state
    with pytest.raises(IndexError):
        j.state_at(2)


def test_the_event_log_reads_as_stored_and_cannot_be_changed_through_a_read():
    log = EventLog([{"type": "claim", "challengers": (1, 2)}])
    assert log == [{"type": "claim", "challengers": [1, 2]}]  # as the journal stores it
    log[0]["type"] = "pass"
    assert log[0]["type"] == "claim"
    assert log[:] == [{"type": "claim", "challengers": [1, 2]}] and len(log) == 1
