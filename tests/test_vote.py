"""The rule vote engine (docs/rules.md, "Rule vote") and the deck_owner rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion.errors import IllegalEvent
from companion.games import games
from companion.rules.game import Header
from companion.rules.vote import count

A, B, C, D = range(4)


def test_most_votes_wins():
    o = count([A, B, A, C], versions=3, deck_owner=1)
    assert o.winner == A and not o.tie and not o.by_deck_owner and not o.revote
    assert o.points == (2, 1, 1) == o.final_points  # the owner's vote counts 1: no tie


def test_clear_win_against_the_deck_owner():
    o = count([A, A, B], versions=2, deck_owner=2)
    assert o.winner == A and not o.by_deck_owner


def test_tie_broken_by_the_deck_owner_counting_two():
    o = count([A, B, A, B], versions=2, deck_owner=1)
    assert o.tie and o.winner == B and o.by_deck_owner
    assert o.points == (2, 2) and o.final_points == (2, 3)


def test_three_way_tie_broken_by_the_owner():
    o = count([A, B, C], versions=4, deck_owner=2)
    assert o.tied == (A, B, C) and o.winner == C and o.by_deck_owner


def test_tie_remains_when_the_owner_voted_outside_the_tie():
    o = count([A, A, B, B, C], versions=3, deck_owner=4)
    assert o.tie and o.revote and o.winner is None
    assert o.final_points == (2, 2, 2)


def test_tie_remains_when_the_owner_lifts_a_third_version_to_a_new_leader_tie():
    o = count([A, A, B, B, C, D], versions=4, deck_owner=5)
    assert o.revote and o.final_points == (2, 2, 1, 2)


def test_tie_without_a_deck_owner_is_voted_again():
    o = count([A, B], versions=2)
    assert o.tie and o.revote and not o.by_deck_owner


def test_unanimous_and_single_voter():
    assert count([D, D, D], versions=4).winner == D
    assert count([B], versions=2, deck_owner=0).winner == B


@pytest.mark.parametrize("votes, versions, owner, msg", [
    ([A, B], 1, None, "2-4 versions"), ([A, B], 5, None, "2-4 versions"),
    ([A, C], 2, None, "voted"), ([A, -1], 2, None, "voted"), ([A, True], 2, None, "voted"),
    ([], 2, None, "at least one"), ([A, B], 2, 2, "deck owner"), ([A, B], 2, -1, "deck owner"),
])
def test_bad_votes(votes, versions, owner, msg):
    with pytest.raises(IllegalEvent, match=msg):
        count(votes, versions=versions, deck_owner=owner)


@settings(max_examples=300)
@given(st.integers(2, 4).flatmap(lambda v: st.tuples(
    st.just(v), st.lists(st.integers(0, v - 1), min_size=1, max_size=10))),
    st.data())
def test_vote_properties(vv, data):
    versions, votes = vv
    owner = data.draw(st.one_of(st.none(), st.integers(0, len(votes) - 1)))
    o = count(votes, versions=versions, deck_owner=owner)
    assert sum(o.points) == len(votes)
    if o.winner is not None:
        assert o.final_points[o.winner] > max(p for v, p in enumerate(o.final_points)
                                              if v != o.winner)
    if not o.tie:
        assert o.final_points == o.points and not o.by_deck_owner  # owner counts 2 only on a tie
    if o.tie and owner is not None and votes[owner] in o.tied:
        assert o.winner == votes[owner]  # the owner's double always settles a tie it is in


def test_deck_owner_house_rule_is_common_to_every_game():
    for kind, game in games().items():
        h = game.check_header(Header(kind, tuple(f"P{i}" for i in range(
            max(3, game.min_players))), rules={"deck_owner": 1}))
        assert h.rules["deck_owner"] == 1
    g = games()["flower-power"]
    assert "deck_owner" not in g.check_header(Header("flower-power", ("a", "b"))).rules
    with pytest.raises(IllegalEvent, match="deck_owner"):
        g.check_header(Header("flower-power", ("a", "b"), rules={"deck_owner": 2}))
    with pytest.raises(IllegalEvent, match="deck_owner"):
        g.check_rules({"deck_owner": "Ann"})
