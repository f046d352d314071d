"""Pig Farm engine: the score calculator, rounds, the target and the butcher roll.

The spec is docs/rules.md, section "Pig Farm" (original text: seeds/chroma-cards-rulebook.txt,
"Pig Farm"). Readings where it is silent are in docs/rules-readings.md.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion import cli
from companion.errors import ConfigError, IllegalEvent
from companion.games import check_config
from companion.games.pig_farm.rules import FarmScore, PigFarm, farm_score, other_base, seller_base
from companion.rules.game import Header
from companion.session.journal import Journal

NAMES = ("Ann", "Ben", "Cy", "Dee")


def journal(n: int = 4, *, target=500, first: int = 0) -> Journal:
    return Journal(Header("pig-farm", NAMES[:n] if n <= 4 else tuple(f"P{i}" for i in range(n)),
                          first, {"target": target}))


def hand(sets, unmatched=0):
    return {"sets": list(sets), "unmatched": unmatched}


def sell(*hands):
    return {"type": "sell", "hands": list(hands)}


# --- docs/rules.md "Pig Farm": the five rulebook examples ---------------------------------------


def test_rulebook_seller_3_3_2_with_unmatched_pigs_scores_130():
    s = farm_score([3, 3, 2], 2, seller=True)
    assert (s.base, s.three_bonus, s.total) == (30, 100, 130)


def test_rulebook_seller_3_4_2_2_2_with_unmatched_pigs_scores_270():
    s = farm_score([3, 4, 2, 2, 2], 1, seller=True)
    assert (s.base, s.three_bonus, s.four_bonus, s.total) == (70, 50, 150, 270)


def test_rulebook_non_seller_with_3_sets_scores_30_with_no_bonus_for_the_set_of_3():
    s = farm_score([3, 2, 2], 1, seller=False)
    assert (s.base, s.bonus, s.total) == (30, 0, 30)


def test_rulebook_non_seller_with_4_sets_scores_0():
    assert farm_score([2, 2, 2, 2], 1, seller=False).total == 0


def test_rulebook_non_seller_with_5_sets_scores_minus_30_and_no_bonus_for_sets_of_3():
    s = farm_score([3, 3, 2, 2, 2], 1, seller=False)
    assert (s.base, s.bonus, s.total) == (-30, 0, -30)


# --- every row of both tables (sets of 2 and an unmatched pig: base points only) ---------------

SELLER_ROWS = {3: 30, 4: 50, 5: 70, 6: 100, 7: 150, 8: 200, 9: 250, 10: 300, 12: 400}
OTHER_ROWS = {0: 0, 1: 5, 2: 15, 3: 30, 4: 0, 5: -30, 6: -50, 7: -100, 8: -150, 9: -200,
              10: -250, 12: -350}


@pytest.mark.parametrize("sets,points", sorted(SELLER_ROWS.items()))
def test_seller_table_row(sets, points):
    assert seller_base(sets) == points
    s = farm_score([2] * sets, 1, seller=True)
    assert (s.base, s.bonus, s.total) == (points, 0, points)


@pytest.mark.parametrize("sets,points", sorted(OTHER_ROWS.items()))
def test_non_seller_table_row(sets, points):
    assert other_base(sets) == points
    s = farm_score([2] * sets, 1, seller=False)
    assert (s.base, s.bonus, s.total) == (points, 0, points)


@pytest.mark.parametrize("sets", [0, 1, 2])
def test_a_seller_with_fewer_than_3_sets_is_refused(sets):
    with pytest.raises(IllegalEvent, match="at least 3 sets"):
        farm_score([2] * sets, 0, seller=True)


def test_past_six_sets_each_further_set_is_50_more_or_50_less():
    for n in range(6, 30):
        assert seller_base(n + 1) - seller_base(n) == 50
        assert other_base(n + 1) - other_base(n) == -50


# --- every bonus alone and combined ------------------------------------------------------------


@pytest.mark.parametrize("sizes,field,points", [
    ([3, 2, 2], "three_bonus", 50),
    ([4, 2, 2], "four_bonus", 150),
    ([5, 2, 2], "five_bonus", 250),
    ([6, 2, 2], "five_bonus", 250),
    ([9, 2, 2], "five_bonus", 250),
])
def test_each_set_size_bonus_alone(sizes, field, points):
    s = farm_score(sizes, 1, seller=True)
    assert getattr(s, field) == points
    assert s.bonus == points
    assert s.total == 30 + points


def test_no_unmatched_bonus_alone():
    s = farm_score([2, 2, 2], 0, seller=True)
    assert (s.no_unmatched_bonus, s.bonus, s.total) == (100, 100, 130)


def test_no_unmatched_bonus_is_for_the_seller_only():
    s = farm_score([2, 2, 2], 0, seller=False)
    assert (s.no_unmatched_bonus, s.total) == (0, 30)
    assert farm_score([], 0, seller=False).total == 0


def test_every_bonus_combined():
    # 7 sets: 150; two of 3: +100; one of 4: +150; two of 5+: +500; no unmatched: +100.
    s = farm_score([3, 3, 4, 5, 7, 2, 2], 0, seller=True)
    assert (s.base, s.three_bonus, s.four_bonus, s.five_bonus, s.no_unmatched_bonus) == \
        (150, 100, 150, 500, 100)
    assert s.total == 1000
    assert s.lines() == [("7 sets", 150), ("2 sets of 3", 100), ("1 set of 4", 150),
                         ("2 sets of 5+", 500), ("no unmatched pig", 100)]


def test_the_same_hand_for_a_non_seller_has_no_bonus_at_all():
    s = farm_score([3, 3, 4, 5, 7, 2, 2], 0, seller=False)
    assert (s.bonus, s.total) == (0, -100)
    assert s.lines() == [("7 sets", -100)]


def test_bonuses_count_each_set():
    assert farm_score([3, 3, 3, 3], 1, seller=True).total == 50 + 4 * 50
    assert farm_score([4, 4, 4], 1, seller=True).total == 30 + 3 * 150
    assert farm_score([5, 6, 5], 0, seller=True).total == 30 + 3 * 250 + 100


@pytest.mark.parametrize("n", [7, 8, 9, 12])
def test_many_sets_both_ways_with_bonuses(n):
    sizes = [3] + [2] * (n - 1)
    assert farm_score(sizes, 0, seller=True).total == SELLER_ROWS[n] + 50 + 100
    assert farm_score(sizes, 0, seller=False).total == OTHER_ROWS[n]


# --- bad hands ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sizes,unmatched,message", [
    ([3, 1, 2], 0, "2 or more pigs, not 1"),
    ([3, 0, 2], 0, "2 or more pigs, not 0"),
    ([3, -2, 2], 0, "not -2"),
    ([3, 3, 2], -1, "cannot be negative"),
    ([3, "3", 2], 0, "whole number"),
    ([3, 3.0, 2], 0, "whole number"),
    ([3, True, 2], 0, "whole number"),
    ([3, 3, 2], None, "whole number"),
    ("332", 0, "list of set sizes"),
])
def test_bad_hands_are_refused_with_a_clear_message(sizes, unmatched, message):
    for seller in (True, False):
        with pytest.raises(IllegalEvent, match=message):
            farm_score(sizes, unmatched, seller=seller)


# --- property tests ----------------------------------------------------------------------------

sizes_st = st.lists(st.integers(min_value=2, max_value=12), max_size=16)


@settings(max_examples=300, deadline=None)
@given(sizes_st, st.integers(min_value=0, max_value=30))
def test_property_a_non_seller_never_gets_a_bonus(sizes, unmatched):
    s = farm_score(sizes, unmatched, seller=False)
    assert s.bonus == 0
    assert s.total == s.base == other_base(len(sizes))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=2, max_value=12), min_size=3, max_size=16),
       st.integers(min_value=0, max_value=30))
def test_property_the_seller_scores_at_least_the_seller_table_entry(sizes, unmatched):
    s = farm_score(sizes, unmatched, seller=True)
    assert s.total >= seller_base(len(sizes))
    assert s.total == s.base + sum(points for _, points in s.lines()[1:])
    # The bonus is exactly the rule: 50 / 150 / 250 per set, 100 with nothing unmatched.
    expect = sum(50 if k == 3 else 150 if k == 4 else 250 if k >= 5 else 0 for k in sizes)
    assert s.bonus == expect + (100 if unmatched == 0 else 0)


hands_st = st.tuples(sizes_st, st.integers(min_value=0, max_value=9))


@st.composite
def games(draw):
    """A game: seat count, then a list of moves (turn, butcher or sell) with hands that are
    legal for whoever is selling at that point."""
    n = draw(st.integers(min_value=2, max_value=6))
    moves = draw(st.lists(st.one_of(
        st.just(("next",)),
        st.tuples(st.just("butcher"), st.sampled_from(["colors", "shapes"]),
                  st.integers(min_value=0, max_value=5)),
        st.tuples(st.just("sell"), st.lists(hands_st, min_size=n, max_size=n),
                  st.lists(st.integers(min_value=2, max_value=8), min_size=3, max_size=9))),
        max_size=40))
    return n, moves


@settings(max_examples=150, deadline=None)
@given(games())
def test_property_totals_equal_the_sum_of_round_scores(game):
    n, moves = game
    j = journal(n, target=None)
    expected = [0] * n
    from companion.rules import dice as dicemod
    for m in moves:
        if m[0] == "next":
            j.append({"type": "next"})
        elif m[0] == "butcher":
            die = dicemod.die(m[1])
            j.append({"type": "butcher", "die": m[1], "face": die.faces[m[2]]})
        else:
            hands = [hand(s, u) for s, u in m[1]]
            seller = j.state.table.current
            hands[seller]["sets"] = m[2]
            j.append(sell(*hands))
            for seat, h in enumerate(hands):
                expected[seat] += farm_score(h["sets"], h["unmatched"],
                                             seller=seat == seller).total
    s = j.state
    assert list(s.scores) == expected
    assert [sum(r.points[seat] for r in s.results) for seat in range(n)] == expected
    assert s.rounds == sum(1 for m in moves if m[0] == "sell")
    assert not s.over  # open-ended
    # Undoing every event gives back every earlier total, down to zeros.
    while j.can_undo:
        j.undo()
        assert list(j.state.scores) == [sum(r.points[seat] for r in j.state.results)
                                        for seat in range(n)]
    assert list(j.state.scores) == [0] * n


# --- rounds, the target and the winners --------------------------------------------------------


def test_selling_scores_every_hand_ends_the_round_and_the_seat_after_the_seller_starts():
    j = journal()
    j.append({"type": "next"})  # Ben's turn
    j.append(sell(hand([2, 2], 1), hand([3, 3, 2], 1), hand([2, 2, 2, 2, 2]), hand([])))
    s = j.state
    assert s.scores == (15, 130, -30, 0)
    assert s.rounds == 1 and s.results[0].seller == 1
    assert s.table.current == 2
    assert s.at_deal  # a new round: a dealt butcher may be rolled again
    assert not s.over


def test_totals_add_up_over_rounds():
    j = journal()
    j.append(sell(hand([3, 3, 2], 1), hand([2]), hand([2, 2]), hand([2, 2, 2])))
    j.append(sell(hand([2, 2, 2, 2]), hand([4, 2, 2], 0), hand([2]), hand([])))
    assert j.state.scores == (130 + 0, 5 + 280, 15 + 5, 30 + 0)
    assert [list(r.points) for r in j.state.results] == [[130, 5, 15, 30], [0, 280, 5, 0]]


def test_the_game_ends_when_a_round_ends_with_a_total_at_the_target():
    j = journal(3, target=300)
    j.append(sell(hand([4, 2, 2], 0), hand([2]), hand([])))  # Ann sells: 30 + 150 + 100
    assert j.state.scores == (280, 5, 0)
    assert not j.state.over
    j.append(sell(hand([2, 2]), hand([2, 2, 2], 1), hand([2])))  # Ben sells: 30
    assert j.state.scores == (295, 35, 5)
    assert not j.state.over
    j.append(sell(hand([2]), hand([]), hand([2, 2, 2], 1)))  # Cy sells; Ann reaches 300
    assert j.state.scores == (300, 35, 35)
    assert j.state.over and j.state.winners == (0,)
    with pytest.raises(IllegalEvent, match="over"):
        j.append({"type": "next"})


def test_the_highest_total_wins_even_when_someone_else_crossed_the_target_first():
    j = journal(2, target=100)
    j.append(sell(hand([2, 2, 2], 1), hand([2, 2, 2])))  # 30, 30
    j.append(sell(hand([2, 2, 2]), hand([5, 5, 5], 0)))  # Ben sells: 30+750+100
    assert j.state.over and j.state.winners == (1,)


def test_tied_leaders_share_the_win():
    j = journal(3, target=30)
    j.append(sell(hand([2, 2, 2], 1), hand([2, 2, 2]), hand([2])))
    assert j.state.scores == (30, 30, 5)
    assert j.state.over and j.state.winners == (0, 1)


def test_an_open_ended_game_never_ends_by_score_and_the_group_ends_it():
    j = journal(2, target=None)
    for _ in range(5):
        seller = j.state.table.current
        hands = [hand([2]), hand([2])]
        hands[seller] = hand([5, 5, 5, 5, 5, 5, 5, 5], 0)
        j.append(sell(*hands))
    assert not j.state.over and max(j.state.scores) > 5000
    j.append({"type": "end"})
    assert j.state.over and j.state.winners == (0,)


def test_ending_before_any_round_names_no_winner():
    j = journal(2)
    j.append({"type": "end"})
    assert j.state.over and j.state.winners == ()


def test_undo_reverses_a_whole_rounds_scoring_and_redo_brings_it_back():
    j = journal(target=200)
    j.append({"type": "next"})
    before = j.state
    j.append(sell(hand([2]), hand([5, 4, 3], 0), hand([2, 2, 2]), hand([2, 2])))
    after = j.state
    assert after.over and after.winners == (1,) and after.scores == (5, 580, 30, 15)
    j.undo()
    assert j.state == before
    assert j.state.scores == (0, 0, 0, 0) and j.state.rounds == 0 and not j.state.over
    assert j.state.table.current == 1
    j.redo()
    assert j.state == after


# --- illegal sells -----------------------------------------------------------------------------


@pytest.mark.parametrize("event,message", [
    (sell(hand([3, 3]), hand([2]), hand([2]), hand([2])), "seller.*at least 3 sets"),
    (sell(hand([3, 3, 2]), hand([1]), hand([2]), hand([2])), "hand 1.*2 or more pigs, not 1"),
    (sell(hand([3, 3, 2]), hand([2], -1), hand([2]), hand([2])), "hand 1.*negative"),
    (sell(hand([3, 3, 2]), hand([2])), "one hand per seat \\(4\\)"),
    ({"type": "sell", "hands": "all"}, "one hand per seat"),
    (sell(hand([3, 3, 2]), [2], hand([2]), hand([2])), "hand 1.*must be an object"),
    (sell(hand([3, 3, 2]), {"sets": 3}, hand([2]), hand([2])), "hand 1.*list of set sizes"),
    (sell(hand([3, 3, 2]), {"unmatched": 1}, hand([2]), hand([2])), "missing field 'sets'"),
    (sell({"sets": [3, 3, 2]}, hand([2]), hand([2]), hand([2])), "seller.*'unmatched'"),
    (sell(hand([3, 3, 2]), hand([2]) | {"pigs": 4}, hand([2]), hand([2])),
     "unknown field 'pigs'"),
    ({"type": "sell"}, "missing field 'hands'"),
    ({"type": "sell", "player": 2, "hands": [hand([3, 3, 2])] * 4}, "seat 0's turn"),
])
def test_illegal_sells_are_refused_and_change_nothing(event, message):
    j = journal()
    with pytest.raises(IllegalEvent, match=message):
        j.append(event)
    assert j.state.scores == (0, 0, 0, 0) and j.events == []


def test_a_non_seller_may_leave_out_unmatched():
    j = journal(2)
    j.append(sell(hand([3, 3, 2], 1), {"sets": [2, 2]}))
    assert j.state.scores == (130, 15)


# --- the butcher -------------------------------------------------------------------------------


@pytest.mark.parametrize("die,face", [("colors", "red"), ("colors", "blue"),
                                      ("shapes", "star"), ("shapes", "pentagon")])
def test_a_butcher_on_either_die_ends_the_drawers_turn(die, face):
    j = journal()
    j.append({"type": "next"})
    j.append({"type": "butcher", "die": die, "face": face})
    s = j.state
    assert s.table.current == 2 and s.table.turns == 2
    b = s.last_butcher
    assert (b.player, b.die, b.face, b.deal, b.round) == (1, die, face, False, 1)
    assert s.last_roll == {die: face}
    assert j.describe(1) == f"Butcher: All {face.upper()} pigs out"


@pytest.mark.parametrize("die", ["colors", "shapes"])
def test_the_logo_face_means_the_pigs_are_safe(die):
    j = journal()
    j.append({"type": "butcher", "die": die, "face": "logo"})
    assert j.state.table.current == 1
    assert j.describe(0) == "Butcher: Logo: pigs are safe"
    assert j.summary()["last_butcher"]["verdict"] == "Logo: pigs are safe"


def test_a_butcher_at_the_deal_is_rolled_before_the_first_turn_without_moving_the_turn():
    j = journal(first=2)
    j.append({"type": "butcher", "die": "colors", "face": "green", "deal": True})
    j.append({"type": "butcher", "die": "shapes", "face": "logo", "deal": True, "player": 0})
    s = j.state
    assert s.table.current == 2 and s.table.turns == 0
    assert (s.last_butcher.player, s.last_butcher.deal) == (0, True)
    assert j.describe(0) == "Butcher at the deal: All GREEN pigs out"
    j.append({"type": "next"})
    with pytest.raises(IllegalEvent, match="before the first turn"):
        j.append({"type": "butcher", "die": "colors", "face": "red", "deal": True})


def test_a_deal_butcher_is_allowed_again_at_the_start_of_the_next_round():
    j = journal(2)
    j.append({"type": "next"})
    j.append(sell(hand([2]), hand([2, 2, 2], 1)))
    assert j.state.table.current == 0
    j.append({"type": "butcher", "die": "shapes", "face": "cross", "deal": True})
    assert j.state.table.current == 0 and j.state.last_butcher.round == 2


@pytest.mark.parametrize("event,message", [
    ({"type": "butcher", "die": "d8", "face": 3}, "\"colors\" or \"shapes\""),
    ({"type": "butcher", "die": "colors", "face": "star"}, "not a face of the Colors die"),
    ({"type": "butcher", "die": "shapes", "face": "red"}, "not a face of the Shapes die"),
    ({"type": "butcher", "die": "colors"}, "missing field 'face'"),
    ({"type": "butcher", "die": "colors", "face": "red", "deal": "yes"}, "true or false"),
    ({"type": "butcher", "die": "colors", "face": "red", "player": 3}, "seat 0's turn"),
    ({"type": "butcher", "die": "colors", "face": "red", "deal": True, "player": 9},
     "seat number"),
])
def test_bad_butchers_are_refused(event, message):
    j = journal()
    with pytest.raises(IllegalEvent, match=message):
        j.append(event)


# --- the target house rule ---------------------------------------------------------------------


@pytest.mark.parametrize("value,stored", [(500, 500), (250, 250), (None, None), (0, None),
                                          ("off", None), ("OFF", None)])
def test_target_values_accepted(value, stored):
    assert PigFarm().check_rules({"target": value}) == {"target": stored}
    j = Journal(Header("pig-farm", NAMES, 0, {"target": value}))
    assert j.state.target == stored
    assert j.summary()["target"] == stored


@pytest.mark.parametrize("value", [-1, True, "500", "on", 2.5, [500]])
def test_target_values_refused(value):
    with pytest.raises(IllegalEvent, match="target must be a positive whole number"):
        PigFarm().check_rules({"target": value})


def test_the_default_target_is_500():
    j = Journal(Header("pig-farm", NAMES))
    assert j.state.target == 500 and j.header.rules == {"target": 500}


@pytest.mark.parametrize("toml_value,stored", [(0, None), ("off", None), (750, 750)])
def test_target_in_the_config_file(toml_value, stored):
    data = check_config({"rules": {"pig-farm": {"target": toml_value}}})
    assert data["rules"]["pig-farm"] == {"target": stored}


def test_a_bad_target_in_the_config_names_the_key():
    with pytest.raises(ConfigError, match="rules.pig-farm.*target"):
        check_config({"rules": {"pig-farm": {"target": -5}}})


def test_unknown_house_rule_refused():
    with pytest.raises(IllegalEvent, match="unknown house rule 'bank'"):
        PigFarm().check_rules({"bank": 100})


@pytest.mark.parametrize("n", [1, 13])
def test_player_count_is_2_to_12(n):
    with pytest.raises(IllegalEvent, match="2-12 players"):
        Journal(Header("pig-farm", tuple(f"P{i}" for i in range(n))))


# --- replay (the log-format contract) ----------------------------------------------------------


def write_log(path, header, events):
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n")
    return path


def test_replay_json_has_the_contract_fields(tmp_path, capsys):
    log = write_log(tmp_path / "pig.jsonl",
                    {"game": "pig-farm", "players": list(NAMES), "rules": {"target": None}},
                    [{"type": "butcher", "die": "colors", "face": "red", "deal": True},
                     {"type": "next"},
                     {"type": "butcher", "die": "shapes", "face": "logo"},
                     sell(hand([2]), hand([2, 2]), hand([3, 3, 2], 0), hand([2, 2, 2, 2, 2])),
                     {"type": "next"}])
    assert cli.main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == [5, 15, 230, -30]
    assert out["rounds"] == 1
    assert out["current"] == 0 and out["direction"] == 1
    assert out["over"] is False and out["winners"] == []
    assert out["target"] is None
    assert out["round_points"] == [[5, 15, 230, -30]] and out["sellers"] == [2]
    assert out["last_butcher"] == {"player": 1, "die": "shapes", "face": "logo", "deal": False,
                                   "round": 1, "verdict": "Logo: pigs are safe"}


def test_replay_json_of_a_finished_game(tmp_path, capsys):
    log = write_log(tmp_path / "pig.jsonl", {"game": "pig-farm", "players": ["A", "B"]},
                    [sell(hand([5, 5, 5], 0), hand([2])),  # 30 + 750 + 100 = 880
                     ])
    assert cli.main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is True and out["winners"] == [0]
    assert out["scores"] == [880, 5] and out["rounds"] == 1 and out["target"] == 500


def test_replay_text(tmp_path, capsys):
    log = write_log(tmp_path / "pig.jsonl", {"game": "pig-farm", "players": ["A", "B"]},
                    [sell(hand([3, 3, 2], 1), hand([2]))])
    assert cli.main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Rounds scored: 1; target: 500 points" in out
    assert "A: 130" in out and "B: 5" in out


def test_replay_refuses_a_sell_with_fewer_than_3_sets_naming_the_line(tmp_path, capsys):
    log = write_log(tmp_path / "pig.jsonl", {"game": "pig-farm", "players": ["A", "B"]},
                    [{"type": "next"}, sell(hand([2]), hand([3, 3], 0)), {"type": "next"}])
    assert cli.main(["replay", str(log), "--json"]) == 1
    err = capsys.readouterr()
    assert err.out == ""
    assert "line 3" in err.err and "at least 3 sets" in err.err


def test_farm_score_breakdown_json():
    s = farm_score([4, 2, 2], 0, seller=True)
    assert isinstance(s, FarmScore)
    assert s.to_json() == {"seller": True, "sets": [4, 2, 2], "unmatched": 0, "base": 30,
                           "three_bonus": 0, "four_bonus": 150, "five_bonus": 0,
                           "no_unmatched_bonus": 100, "total": 280}


def test_the_log_format_example_prints_what_the_doc_says(tmp_path, capsys):
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
    section = doc.split("## The `pig-farm` kind", 1)[1].split("\n## ", 1)[0]
    example = section.split("Example:\n```\n", 1)[1].split("```", 1)[0]
    printed = section.split("`companion replay --json` prints\n`", 1)[1].split("`", 1)[0]
    log = tmp_path / "example.jsonl"
    log.write_text(example, encoding="utf-8")
    assert cli.main(["replay", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(printed)


def test_a_sale_line_names_each_players_points():
    """History lines carry the amounts (issue #18 part 7): a sale says what each scored, as
    the move scored it (docs/rules.md, "Pig Farm": the seller's 130 = 30 + 2 x 50)."""
    j = journal(3)
    j.append(sell(hand([3, 3, 2], unmatched=1), hand([2]), hand([])))
    assert j.describe(0) == (f"{NAMES[0]} sold the farm (round 1): {NAMES[0]} 130, "
                             f"{NAMES[1]} 5, {NAMES[2]} 0")


def test_a_butcher_is_the_roll_the_web_shows_with_whose_it_was():
    """The snapshot's `roll` names the seat whose butcher set the last roll (Game.records_roll:
    the kind says which of its moves roll)."""
    from companion.session.journal import Journal
    from companion.web.snapshot import last_roll

    j = Journal(Header("pig-farm", ("Ann", "Ben", "Cy")),
                [{"type": "next"}, {"type": "butcher", "die": "shapes", "face": "star"}])
    assert last_roll(j) == {"dice": {"shapes": "star"}, "player": 1, "n": 2}
