"""Match Patch engine (docs/rules.md, "Match Patch") and its replay contract."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.errors import IllegalEvent
from companion.games import games
from companion.rules.game import Header

G = games()["match-patch"]
NAMES = ("Ann", "Ben", "Cy", "Dee")


def play(*events, first=0):
    return G.fold(G.check_header(Header("match-patch", NAMES, first)), events)


def test_highest_pips_goes_first():
    s = play({"type": "pips", "pips": [12, 15, 9, 3]})
    assert s.table.current == 1 and s.tied == () and s.table.turns == 0


def test_pips_tie_leaves_the_current_player_until_the_group_picks():
    # docs/rules.md: on a tie the group picks among the tied players.
    s = play({"type": "pips", "pips": [12, 15, 15, 3]}, first=3)
    assert s.table.current == 3 and s.tied == (1, 2)
    s = G.apply(s, {"type": "first", "player": 2})
    assert s.table.current == 2 and s.tied == ()


def test_pips_tie_everyone():
    s = play({"type": "pips", "pips": [7, 7, 7, 7]})
    assert s.table.current == 0 and s.tied == (0, 1, 2, 3)


@pytest.mark.parametrize("pips", [[1, 2, 3], [1, 2, 3, -1], [1, 2, 3, 100], [1, 2, 3, 1.5],
                                  [1, 2, 3, False], "1234"])
def test_bad_pips(pips):
    with pytest.raises(IllegalEvent, match="pips"):
        play({"type": "pips", "pips": pips})


def test_pips_only_before_the_first_turn():
    with pytest.raises(IllegalEvent, match="before the first turn"):
        play({"type": "next"}, {"type": "pips", "pips": [1, 2, 3, 4]})


def test_pairs_count_for_the_current_player_or_the_named_one():
    s = play({"type": "pair"}, {"type": "pair"}, {"type": "next"}, {"type": "pair"},
             {"type": "pair", "player": 3})
    assert s.scores == (2, 1, 0, 1)
    with pytest.raises(IllegalEvent, match="seat"):
        G.apply(s, {"type": "pair", "player": 4})


def test_end_most_pairs_wins():
    s = play({"type": "pair"}, {"type": "pair", "player": 2}, {"type": "pair", "player": 2},
             {"type": "end"})
    assert s.over and s.winners == (2,)
    s = play({"type": "pair"}, {"type": "pair", "player": 2}, {"type": "end"})
    assert s.winners == (0, 2)


def test_replay_contract(tmp_path, capsys):
    log = tmp_path / "mp.jsonl"
    lines = [{"game": "match-patch", "players": list(NAMES)},
             {"type": "pips", "pips": [12, 15, 9, 3]}, {"type": "pair"}, {"type": "next"},
             {"type": "pair"}, {"type": "pair", "player": 1}, {"type": "end"}]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["current"] == 2 and out["over"] is True and out["winners"] == [1]
    assert out["scores"] == [0, 2, 1, 0]


def test_on_a_pips_tie_the_pick_must_be_one_of_the_tied_players():
    # docs/rules.md, "Match Patch": "the group picks among the tied players".
    s = play({"type": "pips", "pips": [10, 20, 20, 5]})
    with pytest.raises(IllegalEvent, match="seats 1, 2 are tied"):
        G.apply(s, {"type": "first", "player": 3})
    assert G.apply(s, {"type": "first", "player": 2}).table.current == 2
