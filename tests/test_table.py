"""The shared table engine: docs/rules.md "Common to all games", docs/rules.md "Turn semantics"."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion.errors import IllegalEvent
from companion.games import games
from companion.rules.game import Header
from companion.rules.table import Table, eliminate, end_turn

GAME = games()["table"]


def play(n: int, *events: dict, first: int = 0):
    h = GAME.check_header(Header("table", tuple(f"P{i}" for i in range(n)), first))
    return GAME.fold(h, events)


def test_next_goes_clockwise_and_wraps():
    s = play(4, {"type": "next"}, {"type": "next"}, {"type": "next"})
    assert s.table.current == 3
    assert play(4, *[{"type": "next"}] * 4).table.current == 0


def test_skip_passes_over_the_next_player():
    # docs/rules.md: "Skip: the next player loses a turn".
    s = play(4, {"type": "skip"}, {"type": "next"})
    assert s.table.current == 2 and s.table.pending_skips == 0


def test_skips_stack():
    # docs/rules.md: "stackable: two skips pass over two players".
    s = play(5, {"type": "skip"}, {"type": "skip"})
    assert s.table.pending_skips == 2 and s.table.upcoming == 3
    assert GAME.apply(s, {"type": "next"}).table.current == 3


def test_double_skip_passes_over_two():
    s = play(5, {"type": "double_skip"}, {"type": "next"})
    assert s.table.current == 3


def test_reverse_flips_direction_at_once():
    s = play(4, {"type": "reverse"})
    assert s.table.direction == -1 and s.table.upcoming == 3
    assert GAME.apply(s, {"type": "next"}).table.current == 3


def test_reverse_with_two_players_changes_nothing_about_who_is_next():
    # docs/rules.md: "Reverse ... With two players it changes nothing about who is next."
    s = play(2, {"type": "reverse"})
    assert s.table.upcoming == 1
    assert GAME.apply(s, {"type": "next"}).table.current == 1


def test_reverse_skip_skips_in_the_new_direction():
    # docs/rules.md: "Reverse-then-skip: reverse, then the next player (in the new direction) loses
    # a turn."
    s = play(4, {"type": "reverse_skip"}, {"type": "next"}, first=1)
    assert s.table.direction == -1
    assert s.table.current == 3  # from seat 1 counter-clockwise: seat 0 skipped, seat 3 plays


def test_skip_to_jumps_and_drops_pending_skips():
    s = play(5, {"type": "skip"}, {"type": "skip_to", "player": 3})
    assert s.table.current == 3 and s.table.pending_skips == 0 and s.table.turns == 1


def test_skip_with_two_players_gives_the_same_player_another_turn():
    s = play(2, {"type": "skip"}, {"type": "next"})
    assert s.table.current == 0


def test_first_sets_the_current_player_without_a_turn():
    s = play(4, {"type": "first", "player": 2})
    assert s.table.current == 2 and s.table.turns == 0


def test_roll_is_recorded():
    s = play(3, {"type": "roll", "dice": {"colors": "logo", "d8": 8}})
    assert s.last_roll == {"colors": "logo", "d8": 8}


def test_end_ends_with_no_winners():
    s = play(3, {"type": "end"})
    assert s.over and s.winners == ()
    with pytest.raises(IllegalEvent, match="over"):
        GAME.apply(s, {"type": "next"})


def test_eliminated_seats_are_passed_over():
    t = eliminate(eliminate(Table(seats=5), 1), 2)
    assert end_turn(t).current == 3
    t = Table(seats=5, current=3, direction=-1, eliminated=frozenset({1, 2}))
    assert end_turn(t).current == 0


@pytest.mark.parametrize("event, message", [
    ({"type": "jump"}, "unknown event type 'jump'"),
    ({"type": "skip_to"}, "missing field 'player'"),
    ({"type": "skip_to", "player": 9}, "seat number 0-3"),
    ({"type": "skip_to", "player": True}, "seat number"),
    ({"type": "next", "palyer": 1}, "unknown field 'palyer'"),
    ({"type": "next", "player": 2}, "it is seat 0's turn"),
    ({"type": "roll", "dice": {}}, "a roll needs"),
    ({"type": "roll", "dice": {"d8": 0}}, "not a face of the 8-sided die"),
    ({"type": "roll", "dice": {"d20": 3}}, "unknown die 'd20'"),
    ({"type": "roll", "dice": {"colors": "purple"}}, "not a face of the Colors die"),
    ({"type": "roll", "dice": {"d6": "3"}}, "not a face"),
    ({}, "needs a \"type\""),
    ("next", "must be a JSON object"),
])
def test_illegal_events_are_refused_with_a_message(event, message):
    s = play(4)
    with pytest.raises(IllegalEvent, match=message):
        GAME.apply(s, event)


def test_header_checks():
    with pytest.raises(IllegalEvent, match="2-16 players"):
        GAME.check_header(Header("table", ("A",)))
    with pytest.raises(IllegalEvent, match="first must be a seat"):
        GAME.check_header(Header("table", ("A", "B"), 2))
    with pytest.raises(IllegalEvent, match="unknown house rule"):
        GAME.check_header(Header("table", ("A", "B"), 0, {"bank": 5}))


turn_events = st.sampled_from([
    {"type": "next"}, {"type": "skip"}, {"type": "double_skip"}, {"type": "reverse"},
    {"type": "reverse_skip"}])


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 16), events=st.lists(turn_events, max_size=60),
       target=st.integers(0, 15))
def test_turn_invariants(n, events, target):
    s = play(n, *events)
    t = s.table
    assert 0 <= t.current < n and t.direction in (1, -1) and t.pending_skips >= 0
    assert t.turns == sum(e["type"] == "next" for e in events)
    # `next` lands exactly where `upcoming` said it would.
    assert GAME.apply(s, {"type": "next"}).table.current == t.upcoming
    # skip_to always lands on the named seat.
    assert GAME.apply(s, {"type": "skip_to", "player": target % n}).table.current == target % n


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 8), events=st.lists(turn_events, max_size=30))
def test_apply_never_changes_the_state_it_was_given(n, events):
    s = play(n, *events)
    before = repr(s)
    for e in ({"type": "next"}, {"type": "reverse"}, {"type": "skip"}):
        GAME.apply(s, e)
    assert repr(s) == before


def test_best_seats_ties_share_and_lowest_wins_when_asked():
    from companion.rules.table import best_seats
    assert best_seats([3, 7, 7, 1]) == (1, 2)
    assert best_seats([3, 7, 7, 1], lowest=True) == (3,)
    assert best_seats([0, 0]) == (0, 1)
    assert best_seats([]) == ()


def test_the_home_screen_opens_the_menu_its_mode_makes():
    """Issue 36: the home screen is handed what it needs of its mode (the menu OK opens),
    so ui/table.py names nothing of ui/modes.py, which builds it."""
    from companion.config import Config, check
    from companion.inputs import Button
    from companion.session.journal import Journal
    from companion.ui.actions import Push
    from companion.ui.screen import Context, Menu
    from companion.ui.table import TableScreen

    menu = Menu("Menu", [])

    class Mode:
        def menu(self, ctx):
            return menu

    ctx = Context(config=Config(check({})), journal=Journal(Header("table", ("Ann", "Ben"))))
    assert TableScreen(Mode()).on_press(Button.OK, ctx) == Push(menu)
