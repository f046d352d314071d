"""Rainbow Rush engine (docs/rules.md, "Rainbow Rush"): the discard lock, and the replay
contract."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.cli import main
from companion.errors import IllegalEvent
from companion.games import games
from companion.rules.game import Header

G = games()["rainbow-rush"]
NAMES = ("Ann", "Ben", "Cy")
NEXT = {"type": "next"}


def play(*events):
    return G.fold(G.check_header(Header("rainbow-rush", NAMES)), events)


def test_discard_lock_countdown():
    # docs/rules.md: locked until two further turns have passed, counted down each turn.
    s = play({"type": "wild_replace"})
    assert s.discard_lock == 2
    s = G.apply(s, NEXT)
    assert s.discard_lock == 1  # the next player may not pick it up
    s = G.apply(s, NEXT)
    assert s.discard_lock == 0  # free: cleared by itself
    s = G.apply(s, NEXT)
    assert s.discard_lock == 0


def test_a_new_wild_restarts_the_lock_and_skip_to_counts_as_a_turn():
    s = play({"type": "wild_replace"}, NEXT, {"type": "wild_replace"})
    assert s.discard_lock == 2
    s = G.apply(s, {"type": "skip_to", "player": 0})
    assert s.discard_lock == 1


@settings(max_examples=100)
@given(st.lists(st.sampled_from(["wild", "next", "reverse", "skip_to"]), max_size=50))
def test_lock_is_two_minus_turns_since_the_last_wild(moves):
    s, since = play(), None
    for m in moves:
        if m == "wild":
            s, since = G.apply(s, {"type": "wild_replace"}), 0
        elif m == "next":
            s = G.apply(s, NEXT)
        elif m == "reverse":
            s = G.apply(s, {"type": "reverse"})
        else:
            s = G.apply(s, {"type": "skip_to", "player": 1})
        if m in ("next", "skip_to") and since is not None:
            since += 1
    assert s.discard_lock == (0 if since is None else max(0, 2 - since))


def test_win_and_illegal_events():
    s = play(NEXT, {"type": "win"})
    assert s.over and s.winners == (1,)
    with pytest.raises(IllegalEvent, match="over"):
        G.apply(s, {"type": "wild_replace"})
    with pytest.raises(IllegalEvent, match="seat"):
        play({"type": "win", "player": 7})
    with pytest.raises(IllegalEvent, match="unknown field"):
        play({"type": "wild_replace", "card": "red star"})
    assert play({"type": "end"}).winners == ()


def test_replay_contract(tmp_path, capsys):
    log = tmp_path / "rr.jsonl"
    lines = [{"game": "rainbow-rush", "players": list(NAMES)}, NEXT, {"type": "wild_replace"},
             NEXT]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["current"] == 2 and out["over"] is False and out["discard_lock"] == 1
