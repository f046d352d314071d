"""Every call and history line names the players the table's own step names, after the move
(issue 34.2; docs/speech.md: words are made from the state after the
move), in every registered kind: random skip, double skip, reverse, reverse + skip, skip to,
next and undo sequences (hypothesis), checked against `Table.step` and against what the turn
then really did, and against the seat ring's look (ui/ring.py), which blinks the same seats.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import games
from companion.errors import IllegalEvent
from companion.rules.game import Header
from companion.session import calls
from companion.session.journal import Journal
from companion.ui.ring import Look

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu",
         "Max", "Ned", "Oz", "Pat")
SIMPLE = ("next", "skip", "double_skip", "reverse", "reverse_skip", "undo")
ABOUT_TURN = ("skip", "reverse")


def named(text: str) -> list[str]:
    """The player names in `text`, in the order they appear."""
    found = [(m.start(), m.group(0)) for m in re.finditer(r"\b[A-Z][a-z]+\b", text)
             if m.group(0) in NAMES]
    return [n for _, n in sorted(found)]


def skipped_in(text: str) -> list[str]:
    """The names a call says are skipped ("Reverse: Eve and Dee are skipped, Cy's turn")."""
    text = re.sub(r"\b[A-Z][a-z]+'s turn(, )?", "", text)  # "Ann's turn, Ben is skipped"
    m = re.search(r"(?:^|: )([^:]*?) (?:is|are) skipped", text)
    return named(m.group(1)) if m else []


def turn_in(text: str) -> str | None:
    """The name of "Ben's turn" in a call (not "Ben's turn ended")."""
    m = re.search(r"\b([A-Z][a-z]+)'s turn\b(?! ended)", text)
    return m.group(1) if m else None


def passed(table) -> list[int]:
    """The seats the pending skips pass over, stepped one seat at a time (the Table's step)."""
    seat, out = table.current, []
    for _ in range(table.pending_skips):
        seat = table.step(seat)
        out.append(seat)
    return list(dict.fromkeys(out))


events = st.lists(st.one_of(st.sampled_from(SIMPLE),
                            st.tuples(st.just("skip_to"), st.integers(0, 15))),
                  min_size=1, max_size=30)


def check_game(kind: str, n: int, script: list) -> None:
    game = games.game(kind)
    n = max(game.min_players, min(n, game.max_players))
    j = Journal(Header(kind, NAMES[:n]))
    last_about_turn: tuple[list[str], str | None, int] | None = None
    for step in script:
        before = j.state
        if step == "undo":
            if not j.can_undo:
                continue
            event = j.undo()
            out = calls.of_change(j, "undo", event, 0)
            now = j.state
            if not now.over:
                # Whose turn it is now and who the skips still pending pass over, now.
                assert out[-1].kind == "turn" and turn_in(out[-1].text) == \
                    NAMES[now.table.current], out
                assert skipped_in(out[-1].text) == [NAMES[s] for s in passed(now.table)]
            last_about_turn = None
            continue
        event = {"type": step} if isinstance(step, str) else {"type": step[0],
                                                               "player": step[1] % n}
        try:
            j.append(event)
        except IllegalEvent:
            continue
        after = j.state
        t0, t1 = before.table, after.table
        out = calls.of_change(j, "append", event, 0)
        line = j.describe(len(j.events) - 1)
        # The history lines that name a player name the one the table's step names.
        if event["type"] == "next":
            assert named(line) == [NAMES[t0.current]], line
        if event["type"] == "skip_to":
            assert named(line) == [NAMES[t1.current]], line
        for c in out:
            if c.kind == "turn" and not after.over:
                assert turn_in(c.text) == NAMES[t1.current], (event, c)
            if c.kind in ABOUT_TURN:
                # Every seat the pending skips pass over now, in the direction now in force.
                want = [NAMES[s] for s in passed(t1)]
                assert skipped_in(c.text) == want, (event, c.text, want)
                # The ring blinks the same seats (its Look, from the same state).
                assert [NAMES[s] for s in dict.fromkeys(Look.of(after).skipped)] == want
                if event["type"] == "reverse":
                    assert turn_in(c.text) == NAMES[t1.upcoming], (event, c.text)
                last_about_turn = (skipped_in(c.text), turn_in(c.text), t1.pending_skips)
        if event["type"] == "next" and not after.over and last_about_turn is not None:
            # What the turn really did: the last call about the turn named who it passed
            # over (walked seat by seat from the player whose turn ended) and who plays.
            names, upcoming, _ = last_about_turn
            assert names == [NAMES[s] for s in passed(t0)], (names, t0)
            if upcoming is not None:
                assert upcoming == NAMES[t1.current]
        if t1.turns != t0.turns or t1.current != t0.current:
            last_about_turn = None


@pytest.mark.parametrize("kind", sorted(games.kinds()))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 16), script=events)
def test_every_call_names_the_players_the_tables_step_names(kind: str, n: int,
                                                            script: list) -> None:
    check_game(kind, n, script)


@pytest.mark.parametrize("kind", sorted(games.kinds()))
def test_every_kind_takes_the_common_turn_moves_the_property_runs(kind: str) -> None:
    """The property above is not vacuous: every kind takes a skip and a reverse at the
    start of a game (the log format's common events, docs/log-format.md)."""
    game = games.game(kind)
    j = Journal(Header(kind, NAMES[:max(game.min_players, 5)]))
    j.append({"type": "skip"})
    j.append({"type": "reverse"})
    assert [c.text for c in calls.of_change(j, "append", {"type": "reverse"}, 0)] == [
        "Reverse: Eve is skipped, Dee's turn"]
