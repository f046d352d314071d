"""Flower Power engine (docs/rules.md, "Flower Power") and its replay contract."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.cli import main
from companion.errors import IllegalEvent
from companion.games import games
from companion.games.flower_power.rules import COLORS
from companion.rules.game import Header

G = games()["flower-power"]
NAMES = ("Ann", "Ben", "Cy")


def play(*events):
    return G.fold(G.check_header(Header("flower-power", NAMES)), events)


def petals(color, count, **kw):
    return {"type": "petals", "color": color, "count": count, **kw}


def test_fifth_petal_takes_the_flower():
    s = play(petals("red", 4), {"type": "next"}, petals("red", 1))
    assert s.scores == (0, 1, 0)  # Ben placed the 5th petal: +1
    assert s.garden[COLORS.index("red")] == 0


def test_flower_completed_by_a_multi_petal_play_extra_petals_start_a_new_one():
    # docs/rules.md: petals beyond the 5th of one color start a new flower of that color.
    s = play(petals("blue", 3), {"type": "next"}, petals("blue", 4))
    assert s.scores == (0, 1, 0)
    assert G.summary(s)["garden"]["blue"] == 2
    s = play(petals("green", 2), {"type": "next"}, petals("green", 3))
    assert s.scores == (0, 1, 0) and s.garden[COLORS.index("green")] == 0


def test_several_colors_in_one_turn_at_most_five_cards():
    s = play(petals("red", 4), {"type": "next"}, petals("red", 2), petals("yellow", 3))
    assert s.scores == (0, 1, 0) and s.played == 5
    with pytest.raises(IllegalEvent, match="at most 5 cards"):
        G.apply(s, petals("blue", 1))
    s = G.apply(s, {"type": "next"})
    assert s.played == 0 and s.table.current == 2


@pytest.mark.parametrize("event, msg", [
    (petals("purple", 1), "color"), (petals("logo", 1), "color"), (petals("red", 0), "count"),
    (petals("red", 6), "count"), (petals("red", True), "count"), (petals("red", "2"), "count"),
    ({"type": "petals", "color": "red"}, "missing"), (petals("red", 1, player=1), "unknown field"),
])
def test_illegal_petals(event, msg):
    with pytest.raises(IllegalEvent, match=msg):
        play(event)


@settings(max_examples=150)
@given(st.lists(st.tuples(st.sampled_from(COLORS), st.integers(1, 5), st.booleans()),
                max_size=60))
def test_petals_are_conserved(plays):
    """Every petal placed is either in the garden or in a taken flower (5 each)."""
    s, placed = play(), 0
    for color, n, end in plays:
        n = min(n, 5 - s.played)
        if n >= 1:
            s = G.apply(s, petals(color, n))
            placed += n
        if end or s.played == 5:
            s = G.apply(s, {"type": "next"})
    assert sum(s.garden) + 5 * sum(s.scores) == placed
    assert all(0 <= p <= 4 for p in s.garden)


def test_end_most_flowers_wins_ties_share_nobody_scored_nobody_wins():
    s = play(petals("red", 5), {"type": "next"}, petals("blue", 5), {"type": "next"},
             petals("green", 3), {"type": "end"})
    assert s.over and s.winners == (0, 1)
    assert play({"type": "end"}).winners == ()
    s = play(petals("red", 5), {"type": "next"}, petals("red", 5), {"type": "next"},
             {"type": "next"}, petals("red", 5), {"type": "end"})
    assert s.winners == (0,)


def test_replay_contract(tmp_path, capsys):
    log = tmp_path / "fp.jsonl"
    lines = [{"game": "flower-power", "players": list(NAMES)},
             petals("red", 4), {"type": "next"}, petals("red", 3), petals("blue", 2),
             {"type": "next"}, {"type": "end"}]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is True and out["winners"] == [1] and out["current"] == 2
    assert out["scores"] == [0, 1, 0]
    assert out["garden"] == {"red": 2, "orange": 0, "yellow": 0, "green": 0, "blue": 2}
