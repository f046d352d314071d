"""The games the TV is checked and photographed with (companion/gallery/crowd.py): for every
kind the registry knows, at 2, 6 and its most players, a legal game well under way, and the
same game ended by the group."""

from __future__ import annotations

import pytest

from companion import games
from companion.gallery import crowd
from companion.rules.game import Header


@pytest.mark.parametrize("kind", list(games.kinds()))
def test_every_kind_has_a_legal_game_in_progress_and_over_at_each_count(kind):
    g = games.game(kind)
    counts = crowd.counts(kind)
    assert counts[-1] == g.max_players and counts[0] == max(2, g.min_players)
    assert all(g.min_players <= n <= g.max_players for n in counts)
    for n in counts:
        players, rules, events = crowd.game(kind, n)
        assert len(players) == len(set(players)) == n
        header = g.check_header(Header(kind, tuple(players), 0, rules))
        mid = g.fold(header, events)  # raises on an illegal event
        assert not mid.over and events
        players2, rules2, ended = crowd.game(kind, n, over=True)
        assert (players2, rules2, ended[:-1]) == (players, rules, events)
        assert g.fold(header, ended).over


def test_the_names_reach_the_longest_a_player_may_have():
    assert len(crowd.NAMES) >= max(g.max_players for g in games.games().values())
    assert max(len(n) for n in crowd.NAMES) == 16
