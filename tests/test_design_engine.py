"""The one engine of designed games (companion/rules/design/engine.py;
docs/designing-a-game.md, "How the engine reads a design"): effects, floors, payments,
eliminations, end conditions, winners, the roll-off, round scores, house rules and the words.
`random_event` here is the random legal play the fuzz and mirror tests share."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.errors import IllegalEvent
from companion.games.design.sample import move_events
from companion.rules import dice as dicemod
from companion.rules.design import DesignGame, DesignState, load
from companion.rules.game import COMMON_TURN_MOVES, Header

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "designs"
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou",
         "Max", "Ned", "Oz", "Pat")


def example(name: str) -> DesignGame:
    with open(EXAMPLES / f"{name}.toml", "rb") as f:
        return DesignGame(load(tomllib.load(f)))


def start(game: DesignGame, n: int = 3, first: int = 0,
          rules: dict[str, Any] | None = None) -> tuple[Header, DesignState]:
    header = game.check_header(Header("design", NAMES[:n], first, rules or {}))
    return header, game.initial(header)


def play(game: DesignGame, state: DesignState, *events: dict[str, Any]) -> DesignState:
    for e in events:
        state = game.apply(state, e)
    return state


# --- random legal play (shared with tests/test_design_fuzz.py and test_design_mirrors.py) ---

def candidates(game: DesignGame, state: DesignState, rng: random.Random) -> list[dict]:
    """Events worth trying now, legal or not: the design's moves with a random chosen player,
    amount and dice, the round score, the common moves, a roll of the design's dice."""
    d, t = game.design, state.table
    seats = list(range(t.seats))
    out: list[dict] = move_events(d, seats, rng)
    if d.round_score is not None:
        rs = d.round_score
        out.append({"type": "score", "scores": [0 if s in t.eliminated
                                                else rng.randint(max(rs.min, -30),
                                                                 min(rs.max, 30))
                                                for s in seats]})
    out += [{"type": "next"}] * 3
    out += [{"type": k} for k in COMMON_TURN_MOVES if k != "skip_to"]
    out.append({"type": "skip_to", "player": rng.choice(seats)})
    out.append({"type": "first", "player": rng.choice(seats)})
    if state.rolling:
        out += [{"type": "roll", "dice": {"d8": rng.randint(1, 8)}}] * 6
    elif d.dice:
        out.append({"type": "roll", "dice": dicemod.roll(d.dice, rng)})
    return out


def random_event(game: DesignGame, state: DesignState, rng: random.Random) -> dict | None:
    """A random event the engine takes now, or None when none of the candidates is legal."""
    options = candidates(game, state, rng)
    rng.shuffle(options)
    for e in options:
        try:
            game.apply(state, e)
        except IllegalEvent:
            continue
        return e
    return None


# --- the examples ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_every_example_loads_and_plays_a_random_game_to_its_end(path):
    with open(path, "rb") as f:
        game = DesignGame(load(tomllib.load(f)))
    rng = random.Random(path.stem)
    header, state = start(game, 4)
    for _ in range(300):
        if state.over:
            break
        e = random_event(game, state, rng)
        assert e is not None
        state = game.apply(state, e)
    state = state if state.over else game.apply(state, {"type": "end"})
    assert state.over
    assert game.text(state, header).startswith(game.design.title)


def test_the_penalty_is_said_in_the_move_s_own_words_from_the_state_after_it():
    game = example("penalty-pot")
    header, s = start(game)
    penalty = {"type": "move", "name": "Penalty"}
    assert game.describe(penalty, header, s) == "Ann: Penalty, pays 2 to the pot"
    after = game.apply(s, penalty)
    assert game.calls(penalty, header, s, after) == [
        ("move", "Ann: Penalty, pays 2 to the pot"), ("turn", "Ben's turn")]
    assert after.tallies == ((8, 10, 10),) and after.pot == 7 and after.money == s.money == 35


def test_a_payment_moves_only_what_there_is_and_money_is_never_created():
    game = example("penalty-pot")
    header, s = start(game, rules={"pot start": 3})
    jackpot = {"type": "move", "name": "Jackpot", "amount": 20}
    assert game.describe(jackpot, header, s) == "Ann: Jackpot, takes 3 from the pot"
    after = game.apply(s, jackpot)
    assert after.pot == 0 and after.tallies[0][0] == 13 and after.money == s.money
    # The pot emptied by a move: the game is over, the richest wins.
    assert after.over and after.winners == (0,)


def test_a_player_whose_coins_reach_out_at_is_out_and_skipped():
    game = example("penalty-pot")
    header, s = start(game, rules={"coins start": 2})
    steal = {"type": "move", "name": "Steal", "player": 1}
    s = play(game, s, steal)
    assert game.describe(steal, header, s) == "Ann: Steal, takes 1 from Ben, Ben is out"
    s = game.apply(s, steal)
    assert s.table.eliminated == {1} and s.table.upcoming == 2
    with pytest.raises(IllegalEvent, match="seat 1 is eliminated"):
        game.apply(s, steal)


def test_the_current_player_put_out_ends_the_turn_and_one_left_ends_the_game():
    game = example("penalty-pot")
    header, s = start(game, n=3, rules={"coins start": 2})
    s = play(game, s, {"type": "move", "name": "Penalty"})  # Ann 0: out; Ben's turn
    assert s.table.eliminated == {0} and s.table.current == 1 and not s.over
    s = play(game, s, {"type": "move", "name": "Penalty"})  # Ben out: Cy is left
    assert s.over and s.winners == (2,)
    assert s.money == 2 * 3 + 5


def test_the_chosen_player_of_a_payment_is_not_the_current_one():
    game = example("penalty-pot")
    _, s = start(game)
    with pytest.raises(IllegalEvent, match="choose another player"):
        game.apply(s, {"type": "move", "name": "Steal", "player": 0})
    with pytest.raises(IllegalEvent, match="choose a player"):
        game.apply(s, {"type": "move", "name": "Steal"})
    with pytest.raises(IllegalEvent, match="names no player"):
        game.apply(s, {"type": "move", "name": "Penalty", "player": 1})


@pytest.mark.parametrize("event, words", [
    ({"type": "move", "name": "Nope"}, "no move 'Nope' in Penalty Pot"),
    ({"type": "move", "name": "Jackpot"}, "amount must be a whole number 1-20, not None"),
    ({"type": "move", "name": "Jackpot", "amount": 21}, "1-20, not 21"),
    ({"type": "move", "name": "Jackpot", "amount": True}, "1-20, not True"),
    ({"type": "move", "name": "Penalty", "amount": 2}, "asks for no amount"),
    ({"type": "move", "name": "Gamble"}, "a roll needs"),
    ({"type": "move", "name": "Gamble", "dice": {"d8": 3}}, "rolls d6, not d8"),
    ({"type": "move", "name": "Penalty", "dice": {"d6": 3}}, "rolls no dice"),
    ({"type": "roll", "dice": {"colors": "red"}}, "uses d6, not colors"),
    ({"type": "score", "scores": [1, 2, 3]}, "has no round score"),
])
def test_a_move_against_the_design_is_refused_in_words(event, words):
    game = example("penalty-pot")
    _, s = start(game)
    with pytest.raises(IllegalEvent, match=words.replace("(", r"\(").replace(")", r"\)")):
        game.apply(s, event)


def test_a_take_stops_at_the_floor_and_others_take_each_other_player():
    design = {"format_version": 1, "title": "Floors",
              "tallies": [{"name": "points", "start": 3, "floor": 0}],
              "moves": [{"name": "Hit", "effects": [
                  {"do": "take", "tally": "points", "amount": 2, "who": "others"}]},
                  {"name": "Drop", "ask": {"min": 1, "max": 9}, "effects": [
                      {"do": "take", "tally": "points", "amount": "ask"}]}],
              "end": [{"when": "group"}], "winner": {"by": "fewest", "tally": "points"}}
    game = DesignGame(load(design))
    header, s = start(game)
    hit = {"type": "move", "name": "Hit"}
    assert game.describe(hit, header, s) == "Ann: Hit, everyone else -2 points"
    s = game.apply(s, hit)
    assert game.describe(hit, header, s) == "Ann: Hit, everyone else -1 point"
    s = play(game, s, hit, {"type": "move", "name": "Drop", "amount": 9})
    assert s.tallies == ((0, 0, 0),)
    s = game.apply(s, {"type": "end"})
    assert s.winners == (0, 1, 2)  # fewest, ties shared


def test_first_to_reach_the_target_ends_the_game_and_the_target_is_a_house_rule():
    game = example("ten-rounds")
    header, s = start(game, rules={"target": 20})
    s = play(game, s, {"type": "first", "player": 0})
    s = play(game, s, *[{"type": "move", "name": "Bonus"}] * 3)
    assert not s.over and s.tallies[0] == (15, 0, 0)
    s = game.apply(s, {"type": "move", "name": "Bonus"})
    assert s.over and s.winners == (0,)
    with pytest.raises(IllegalEvent, match="house rule target 0 is where points starts"):
        start(game, rules={"target": 0})
    with pytest.raises(IllegalEvent, match="unknown house rule 'bank'"):
        start(game, rules={"bank": 3})


def test_round_scores_count_rounds_and_the_last_round_ends_the_game():
    game = example("ten-rounds")
    header, s = start(game, rules={"rounds": 2})
    s = play(game, s, {"type": "first", "player": 1})
    score = {"type": "score", "scores": [5, -10, 30]}
    assert game.describe(score, header, s) == "Round 1 scores: Ann 5, Ben -10, Cy 30"
    s = play(game, s, score)
    assert s.round == 1 and s.tallies[0] == (5, -10, 30) and not s.over
    s = play(game, s, {"type": "score", "scores": [50, 0, 0]})
    assert s.over and s.winners == (0,)


def test_rounds_without_a_round_score_are_counted_in_turns():
    design = {"format_version": 1, "title": "Laps", "tallies": [{"name": "laps"}],
              "moves": [{"name": "Lap", "effects": [{"do": "add", "tally": "laps",
                                                     "amount": 1}]}],
              "end": [{"when": "rounds", "rounds": 2}],
              "winner": {"by": "most", "tally": "laps"}}
    game = DesignGame(load(design))
    _, s = start(game)
    s = play(game, s, {"type": "move", "name": "Lap"}, *[{"type": "next"}] * 5)
    assert s.round == 1 and not s.over
    s = game.apply(s, {"type": "next"})
    assert s.over and s.winners == (0,)


def test_the_roll_off_asks_the_table_and_the_tied_roll_again():
    game = example("ten-rounds")
    header, s = start(game)
    assert s.asks_table and game.question(s, None) == {
        "kind": "roll_off", "seats": [0, 1, 2], "contenders": [0, 1, 2]}
    assert game.next_refusal(s, {"type": "next"}) == "Roll for who goes first"
    with pytest.raises(IllegalEvent, match="rolling for who goes first"):
        game.apply(s, {"type": "move", "name": "Bonus"})
    s = play(game, s, *[{"type": "roll", "dice": {"d8": f}} for f in (5, 7)])
    roll = {"type": "roll", "dice": {"d8": 7}}
    after = game.apply(s, roll)
    assert game.calls(roll, header, s, after) == [
        ("roll", "Cy rolled 7"), ("move", "Ben and Cy tie: they roll again")]
    assert after.rolling == (1, 2) and after.asks_table
    with pytest.raises(IllegalEvent, match="seat 0 is not in the roll-off"):
        game.apply(after, {"type": "roll", "dice": {"d8": 3}, "player": 0})
    s = play(game, after, {"type": "roll", "dice": {"d8": 2}, "player": 2})
    roll = {"type": "roll", "dice": {"d8": 3}}
    after = game.apply(s, roll)
    assert game.calls(roll, header, s, after) == [
        ("roll", "Ben rolled 3"), ("turn", "Ben goes first")]
    assert not after.asks_table and after.table.current == 1 and after.table.turns == 0


def test_the_design_s_turn_moves_are_its_live_moves():
    game = example("penalty-pot")
    _, s = start(game)
    assert game.turn_moves == ("skip", "reverse")
    assert game.next_refusal(s, {"type": "skip_to", "player": 1}) == \
        "Penalty Pot has no Skip to player"
    assert game.next_refusal(s, {"type": "skip"}) is None


def test_the_money_is_the_pot_and_the_purses_or_none():
    assert start(example("penalty-pot"))[1].money == 35
    assert start(example("patch-pairs"))[1].money is None


def test_summary_and_text_show_the_tallies_and_the_pot():
    game = example("penalty-pot")
    header, s = start(game)
    s = play(game, s, {"type": "move", "name": "Penalty"})
    summary = game.summary(s)
    assert summary["tallies"] == {"coins": [8, 10, 10]} and summary["pot"] == 7
    assert summary["eliminated"] == [] and summary["round"] == 0
    assert "Coins: Ann 8, Ben 10, Cy 10" in game.text(s, header)
    assert "Pot: 7" in game.text(s, header)


def test_the_game_takes_the_design_s_players():
    game = example("penalty-pot")
    with pytest.raises(IllegalEvent, match="Penalty Pot takes 2-8 players, not 9"):
        start(game, 9)


def test_next_seat_each_game_is_the_next_seat():
    game = example("penalty-pot")
    assert game.first_seat(4, None) == 0
    assert game.first_seat(4, 3) == 0 and game.first_seat(4, 1) == 2
    assert example("patch-pairs").first_seat(4, 1) == 0


def test_a_move_that_ends_the_turn_passes_over_the_player_it_put_out():
    design = {"format_version": 1, "title": "Lives",
              "tallies": [{"name": "lives", "start": 1, "out_at": 0}],
              "moves": [{"name": "Hit", "effects": [
                  {"do": "take", "tally": "lives", "amount": 1, "who": "chosen"},
                  {"do": "end_turn"}]}],
              "end": [{"when": "one_left"}], "winner": {"by": "last_left"}}
    game = DesignGame(load(design))
    header, s = start(game, 4)
    hit = {"type": "move", "name": "Hit", "player": 1}
    assert game.describe(hit, header, s) == "Ann: Hit, Ben -1 life, Ben is out"
    s = game.apply(s, hit)
    assert s.table.eliminated == {1} and s.table.current == 2 and s.table.turns == 1
    s = play(game, s, {"type": "move", "name": "Hit", "player": 3},
             {"type": "move", "name": "Hit", "player": 2})
    assert s.over and s.winners == (0,)


def test_a_round_score_after_each_round_of_turns_is_asked_of_the_table():
    design = {"format_version": 1, "title": "Scored laps", "tallies": [{"name": "points"}],
              "moves": [], "round_score": {"tally": "points", "min": 0, "max": 9,
                                           "when": "turns"},
              "end": [{"when": "rounds", "rounds": 2}],
              "winner": {"by": "most", "tally": "points"}}
    game = DesignGame(load(design))
    header, s = start(game)
    score = {"type": "score", "scores": [1, 2, 3]}
    with pytest.raises(IllegalEvent, match="typed when the round of turns is over"):
        game.apply(s, score)
    s = play(game, s, *[{"type": "next"}] * 3)
    assert s.scoring and s.asks_table and s.round == 0
    assert game.question(s, None) == {"kind": "round_score", "round": 1}
    assert game.next_refusal(s, {"type": "next"}) == "Type the round's scores first"
    with pytest.raises(IllegalEvent, match="the round is over: type its scores first"):
        game.apply(s, {"type": "next"})
    s = game.apply(s, score)
    assert not s.scoring and s.round == 1 and s.tallies[0] == (1, 2, 3)
    assert game.question(s, None) is None
    s = play(game, s, *[{"type": "next"}] * 3, {"type": "score", "scores": [9, 0, 0]})
    assert s.over and s.winners == (0,) and game.summary(s)["round"] == 2


PAYMENTS = {"format_version": 1, "title": "Payments",
            "tallies": [{"name": "coins", "start": 3, "money": True}], "pot": {"start": 4},
            "moves": [{"name": n, "effects": [{"do": "pay", "amount": a, "from": f, "to": t}]}
                      for n, a, f, t in (("Gift", 2, "current", "others"),
                                         ("Birthday", 2, "others", "current"),
                                         ("Refund", 5, "pot", "chosen"),
                                         ("Fine", 1, "chosen", "pot"),
                                         ("Tax", 1, "others", "pot"),
                                         ("Dole", 1, "pot", "others"),
                                         ("Give", 9, "current", "chosen"))],
            "end": [{"when": "group"}], "winner": {"by": "most", "tally": "coins"}}


@pytest.mark.parametrize("name, player, words, coins, pot", [
    ("Gift", None, "Ann: Gift, pays 2 to Ben and 1 to Cy", (0, 5, 4), 4),
    ("Birthday", None, "Ann: Birthday, everyone else pays 2", (7, 1, 1), 4),
    ("Refund", 2, "Ann: Refund, the pot pays 4 to Cy", (3, 3, 7), 0),
    ("Fine", 1, "Ann: Fine, Ben pays 1 to the pot", (3, 2, 3), 5),
    ("Tax", None, "Ann: Tax, everyone else pays 1 to the pot", (3, 2, 2), 6),
    ("Dole", None, "Ann: Dole, the pot pays 1 to everyone else", (3, 4, 4), 2),
    ("Give", 1, "Ann: Give, pays 3 to Ben", (0, 6, 3), 4),
])
def test_each_payment_moves_what_there_is_and_says_it(name, player, words, coins, pot):
    game = DesignGame(load(PAYMENTS))
    header, s = start(game)
    e = {"type": "move", "name": name} | ({"player": player} if player is not None else {})
    assert game.describe(e, header, s) == words
    after = game.apply(s, e)
    assert (after.tallies[0], after.pot, after.money) == (coins, pot, 13)


def test_one_of_a_tally_is_said_in_the_singular():
    """"+1 pair", not "+1 pairs" (a new user's findings, issue 37): the group's own plural
    loses its final "s" for 1 or -1, and only then."""
    from companion.rules.design.effects import unit
    assert [unit("pairs", n) for n in (1, -1, 2, 0, -3)] == ["pair", "pair", "pairs", "pairs", "pairs"]
    assert unit("victory points", 1) == "victory point" and unit("glass", 1) == "glass"
    assert (unit("lives", -1), unit("pennies", 1), unit("pies", 1)) == ("life", "penny", "pie")
    game = example("patch-pairs")
    header, s = start(game)
    assert game.describe({"type": "move", "name": "Pair"}, header, s) == "Ann: Pair, +1 pair"
    assert game.describe({"type": "move", "name": "Pair for", "player": 2}, header, s) \
        == "Ann: Pair for, Cy +1 pair"


def test_the_dice_a_roll_may_use_now():
    """What the phone offers for ROLL and "Record a roll" (the snapshot's `dice`): the
    design's dice, the 8-sided die alone while the table rolls for who goes first; a built-in
    kind does not say (None: every die)."""
    from companion.rules.game import Game
    game = example("patch-pairs")
    header, s = start(game)
    assert game.dice_now(s) == ()
    assert example("penalty-pot").dice_now(start(example("penalty-pot"))[1]) == ("d6",)
    with open(EXAMPLES / "patch-pairs.toml", "rb") as f:
        design = tomllib.load(f)
    design["turn_order"]["first"] = "roll_off"  # no dice, but the roll-off's 8-sided die
    game = DesignGame(load(design))
    header, s = start(game, 2)
    assert s.rolling and game.dice_now(s) == ("d8",)
    s = play(game, s, {"type": "roll", "dice": {"d8": 3}}, {"type": "roll", "dice": {"d8": 5}})
    assert not s.rolling and s.table.current == 1 and game.dice_now(s) == ()
    table = Game()
    assert table.dice_now(table.initial(Header("table", ("Ann", "Ben"), 0, {}))) is None
