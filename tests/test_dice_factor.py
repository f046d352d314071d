"""Dice Factor engine (docs/rules.md, "Dice Factor") and its replay contract."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.cli import main
from companion.errors import IllegalEvent
from companion.games import games
from companion.games.dice_factor.rules import roll_off_winner
from companion.rules.game import Header

G = games()["dice-factor"]
NAMES = ("Ann", "Ben", "Cy", "Dee")


def play(*events, players=NAMES, first=0):
    return G.fold(G.check_header(Header("dice-factor", players, first)), events)


# --- who goes first (docs/rules.md, "Dice Factor": the highest roll nobody else rolled) ----------

@pytest.mark.parametrize("rolls, winner", [
    ([8, 8, 6, 3], 2),  # docs/rules.md example: 8, 8, 6, 3 -> the player with 6
    ([5, 5], None),  # every roll shared: all roll again
    ([8, 7, 7], 0),  # the unique 8 wins
    ([3, 3, 3, 3], None),
    ([1, 2, 2, 1], None),
    ([2, 8, 8, 1], 0),
    ([4, 6], 1),
])
def test_roll_off_examples(rolls, winner):
    assert roll_off_winner(rolls) == winner
    s = play({"type": "roll_off", "rolls": rolls}, players=NAMES[:len(rolls)] + tuple(
        f"P{i}" for i in range(len(rolls) - 4)), first=1 if len(rolls) > 1 else 0)
    assert s.table.current == (1 if winner is None else winner)  # unchanged on a full tie
    assert s.roll_off == tuple(rolls)
    assert s.table.turns == 0  # choosing who goes first is not a turn


@settings(max_examples=200)
@given(st.lists(st.integers(1, 8), min_size=2, max_size=10))
def test_roll_off_winner_is_the_highest_unique_roll(rolls):
    w = roll_off_winner(rolls)
    unique = [r for r in rolls if rolls.count(r) == 1]
    if not unique:
        assert w is None
    else:
        assert rolls[w] == max(unique) and rolls.count(rolls[w]) == 1
        assert all(r <= rolls[w] or rolls.count(r) > 1 for r in rolls)


@pytest.mark.parametrize("rolls", [[8, 8, 6], [8, 8, 6, 9], [8, 8, 6, 0], [8, "8", 6, 3],
                                   [8, True, 6, 3], "8863", None])
def test_roll_off_refuses_bad_rolls(rolls):
    with pytest.raises(IllegalEvent, match="roll_off"):
        play({"type": "roll_off", "rolls": rolls})


def test_roll_off_only_before_the_first_turn():
    with pytest.raises(IllegalEvent, match="before the first turn"):
        play({"type": "next"}, {"type": "roll_off", "rolls": [1, 2, 3, 4]})


# --- targets ------------------------------------------------------------------------------------

def test_targets_set_by_rolls_and_rerolls():
    s = play({"type": "roll", "dice": {"colors": "green", "shapes": "pentagon"}})
    assert (s.colors, s.shapes) == ("green", "pentagon")
    s = G.apply(s, {"type": "roll", "dice": {"shapes": "logo"}})  # 8 / dice card: one die
    assert (s.colors, s.shapes) == ("green", "logo")
    assert G.summary(s)["targets"] == {"colors": "green", "shapes": "logo"}


def test_d8_with_a_target_die_is_refused():
    with pytest.raises(IllegalEvent, match="on its own"):
        play({"type": "roll", "dice": {"d8": 3, "colors": "red"}})


# --- the 8-sided die (turn option 3) -------------------------------------------------------------

@pytest.mark.parametrize("face", range(1, 9))
def test_d8_outcomes(face):
    s = play({"type": "roll", "dice": {"colors": "red", "shapes": "star"}},
             {"type": "roll", "dice": {"d8": face}})
    if face <= 5:  # 1-5: lose the turn; the companion ends it
        assert s.table.current == 1 and s.table.turns == 1
    else:  # 6-8: the player acts, the turn goes on
        assert s.table.current == 0 and s.table.turns == 0
    assert s.last_roll == {"d8": face}
    assert (s.colors, s.shapes) == ("red", "star")  # the d8 never changes a target


def test_d8_lose_turn_honours_pending_skips():
    s = play({"type": "skip"}, {"type": "roll", "dice": {"d8": 2}})
    assert s.table.current == 2


def test_d8_lose_turn_by_someone_else_is_refused():
    with pytest.raises(IllegalEvent, match="turn"):
        play({"type": "roll", "player": 2, "dice": {"d8": 2}})


# --- hand limits (docs/rules.md: 5, +1 per add a card, moved by trade hands) -------------

def test_hand_limits_through_add_a_card_and_trade_hands():
    s = play({"type": "add_card"})  # Ann: 6
    assert s.hand_limits == (6, 5, 5, 5)
    s = G.apply(s, {"type": "next"})
    s = G.apply(s, {"type": "trade_hands", "player": 0})  # Ben takes Ann's 6-card hand
    assert s.hand_limits == (5, 6, 5, 5)
    s = G.apply(s, {"type": "add_card"})
    assert s.hand_limits == (5, 7, 5, 5)
    s = G.apply(s, {"type": "add_card", "player": 3})
    assert s.hand_limits == (5, 7, 5, 6)
    s = G.apply(s, {"type": "trade_hands", "player": 3})
    assert s.hand_limits == (5, 6, 5, 7)
    assert G.summary(s)["hand_limits"] == [5, 6, 5, 7]


@settings(max_examples=100)
@given(st.lists(st.one_of(st.just(("add",)), st.tuples(st.just("trade"), st.integers(0, 3)),
                          st.just(("next",))), max_size=40))
def test_hand_limits_total_is_5_per_player_plus_add_cards(moves):
    s = play()
    adds = 0
    for m in moves:
        if m[0] == "add":
            s, adds = G.apply(s, {"type": "add_card"}), adds + 1
        elif m[0] == "next":
            s = G.apply(s, {"type": "next"})
        elif m[1] != s.table.current:
            s = G.apply(s, {"type": "trade_hands", "player": m[1]})
    assert sum(s.hand_limits) == 5 * 4 + adds
    assert min(s.hand_limits) >= 5


@pytest.mark.parametrize("event, msg", [
    ({"type": "trade_hands", "player": 0}, "themself"),
    ({"type": "trade_hands", "player": 9}, "seat"),
    ({"type": "trade_hands"}, "missing"),
    ({"type": "add_card", "player": -1}, "seat"),
    ({"type": "win", "player": 1}, "targets"),
])
def test_illegal_events(event, msg):
    with pytest.raises(IllegalEvent, match=msg):
        play(event)


def test_win_ends_the_game():
    s = play({"type": "roll", "dice": {"colors": "red", "shapes": "star"}},
             {"type": "win", "player": 3})
    assert s.over and s.winners == (3,)
    with pytest.raises(IllegalEvent, match="over"):
        G.apply(s, {"type": "next"})


def test_replay_contract(tmp_path, capsys):
    log = tmp_path / "df.jsonl"
    lines = [{"game": "dice-factor", "players": list(NAMES), "first": 0, "rules": {}},
             {"type": "roll_off", "rolls": [8, 8, 6, 3]},
             {"type": "roll", "dice": {"colors": "green", "shapes": "logo"}},
             {"type": "add_card"},
             {"type": "trade_hands", "player": 0},
             {"type": "roll", "dice": {"d8": 4}},
             {"type": "win", "player": 1}]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["current"] == 3 and out["direction"] == 1
    assert out["over"] is True and out["winners"] == [1]
    assert out["targets"] == {"colors": "green", "shapes": "logo"}
    assert out["hand_limits"] == [6, 5, 5, 5]
    assert out["last_roll"] == {"d8": 4}


def test_roll_off_refuses_decimal_rolls():
    with pytest.raises(IllegalEvent, match="8-sided die"):
        play({"type": "roll_off", "rolls": [8.0, 8, 6, 3]})
