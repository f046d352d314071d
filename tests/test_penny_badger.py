"""Penny Badger engine: docs/rules.md section "Penny Badger" (the spec), to the letter.

Every test cites the rule it pins. `settle` is the pure transfer computation; the journal
tests go through the engine the way the device and `companion replay` do.
"""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.errors import IllegalEvent
from companion.games.penny_badger.rules import (
    BANK,
    DEPOSIT,
    PASS,
    PENALTY_PAID,
    WITHDRAW,
    Transfer,
    best_catch,
    biggest_claim,
    clockwise_from,
    penalty,
    settle,
    withdrawal,
)
from companion.rules.game import Header
from companion.session.journal import Journal

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


def game(n: int = 4, *events, bank: int = 100, savings: int = 20, first: int = 0) -> Journal:
    j = Journal(Header("penny-badger", NAMES[:n] if n <= 8 else tuple(f"P{i}" for i in range(n)),
                       first, {"bank": bank, "savings": savings}))
    for e in events:
        j.append(e)
    return j


def claim(cards: int, challengers=(), truthful=None, **kw) -> dict:
    e = {"type": "claim", "cards": cards, "challengers": list(challengers), **kw}
    if truthful is not None:
        e["truthful"] = truthful
    return e


PASS_EVENT = {"type": "pass"}


def money(j: Journal) -> int:
    return j.state.bank + sum(j.state.savings)


# --- docs/rules.md "Worked example" -----------------------------------------------------------

def test_worked_example_true_branch():
    """docs/rules.md Penny Badger, worked example: seat 2's three of a kind was true."""
    j = game(4, claim(2))
    assert j.state.savings[0] == 24 and j.state.bank == 96
    j.append(PASS_EVENT)
    assert j.state.savings[1] == 19 and j.state.bank == 97
    j.append(claim(3, [0, 3], True))
    assert j.state.savings == (16, 19, 36, 12)
    assert j.state.bank == 97
    assert j.state.table.current == 3 and not j.state.over


def test_worked_example_bluff_branch():
    """docs/rules.md worked example, "Had it been a bluff": seat 2 = 8, 0 = 28, 3 = 24, bank 101."""
    j = game(4, claim(2), PASS_EVENT, claim(3, [0, 3], False))
    assert j.state.savings == (28, 19, 8, 24)
    assert j.state.bank == 101
    rec = j.state.history[-1]
    assert rec.transfers == (Transfer(2, BANK, 4, DEPOSIT), Transfer(2, 3, 4, PENALTY_PAID),
                             Transfer(2, 0, 4, PENALTY_PAID))


# --- the tables, row by row -------------------------------------------------------------------

@pytest.mark.parametrize("cards, amount", [(1, 3), (2, 4), (3, 8), (4, 16), (5, 32), (6, 64),
                                           (7, 128)])
def test_withdrawal_table_every_row_unchallenged(cards, amount):
    """docs/rules.md "Withdrawal for a claim": N=1: 3, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 128."""
    j = game(3, claim(cards), bank=500)
    assert j.state.savings == (20 + amount, 20, 20)
    assert j.state.bank == 500 - amount
    assert j.state.history[-1].transfers == (Transfer(BANK, 0, amount, WITHDRAW),)


def test_withdrawal_of_eight_is_the_whole_bank():
    """docs/rules.md: N=8: the whole bank (the game then ends with the bank at 0)."""
    j = game(3, claim(8), bank=500)
    assert j.state.bank == 0 and j.state.savings == (520, 20, 20)
    assert j.state.over and j.state.winners == (0,)


@pytest.mark.parametrize("cards", range(1, 8))
def test_withdrawal_never_exceeds_the_bank(cards):
    """docs/rules.md: "A withdrawal never exceeds what the bank holds."""
    assert withdrawal(cards, 2) == 2
    assert withdrawal(cards, 1000) == {1: 3, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 128}[cards]


def test_a_withdrawal_larger_than_the_bank_takes_what_is_there_and_ends_the_game():
    """docs/rules.md: withdrawal capped by the bank; the game ends when the bank holds 0."""
    j = game(3, claim(6), bank=50)
    assert j.state.savings[0] == 70 and j.state.bank == 0
    assert j.state.over and j.state.winners == (0,)
    assert j.state.table.current == 0  # the turn does not move on once the game is over


@pytest.mark.parametrize("cards, p", [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 32),
                                      (7, 64)])
def test_penalty_table_every_row_true_claim(cards, p):
    """docs/rules.md Penalty P(N), true claim: EACH accuser pays P to the bank and P to the claimant
    (N=1: accusers pay 1)."""
    j = game(4, claim(cards, [1, 3], True), bank=500, savings=200)
    w = withdrawal(cards, 500)
    assert j.state.savings == (200 + w + 2 * p, 200 - 2 * p, 200, 200 - 2 * p)
    assert j.state.bank == 500 - w + 2 * p


@pytest.mark.parametrize("cards, p", [(1, 2), (2, 2), (3, 4), (4, 8), (5, 16), (6, 32),
                                      (7, 64)])
def test_penalty_table_every_row_bluff(cards, p):
    """docs/rules.md Penalty P(N), bluff: no withdrawal; the claimant pays P to the bank and P to
    EACH accuser (N=1: the bluffing badger pays 2)."""
    j = game(4, claim(cards, [1, 3], False), bank=500, savings=200)
    assert j.state.savings == (200 - 3 * p, 200 + p, 200, 200 + p)
    assert j.state.bank == 500 + p


def test_penalty_function_matches_the_table():
    assert [penalty(n, bluffer=False, savings=99) for n in range(1, 9)] == \
        [1, 2, 4, 8, 16, 32, 64, 99]
    assert [penalty(n, bluffer=True, savings=99) for n in range(1, 9)] == \
        [2, 2, 4, 8, 16, 32, 64, 99]


def test_unchallenged_claim_keeps_the_withdrawal_and_truthful_is_ignored():
    """docs/rules.md: "Unchallenged claim: the withdrawal is kept; the cards are never revealed."""
    j = game(3, claim(3, [], False))
    assert j.state.savings[0] == 28 and j.state.history[-1].truthful is None


def test_a_claim_may_leave_out_the_challengers_list():
    j = game(3, {"type": "claim", "cards": 2})
    assert j.state.savings[0] == 24


def test_pass_pays_one_to_the_bank():
    """docs/rules.md: a pass pays 1 penny from savings to the bank; nobody may challenge."""
    j = game(3, PASS_EVENT)
    assert j.state.savings == (19, 20, 20) and j.state.bank == 101
    assert j.state.history[-1].transfers == (Transfer(0, BANK, 1, PASS),)
    with pytest.raises(IllegalEvent, match="unknown field 'challengers'"):
        j.check({"type": "pass", "challengers": [0]})


# --- paying a penalty: the order, short funds, leftover pennies ------------------------------

def test_payer_who_cannot_cover_the_bank_pays_what_they_have_and_is_out():
    """docs/rules.md "Paying a penalty" 1: bank first; short -> all to the bank, out, opponents
    get nothing."""
    s = settle(100, [20, 15, 3, 20], 2, cards=5, challengers=[0, 1], truthful=False)
    assert s.transfers == (Transfer(2, BANK, 3, DEPOSIT),)
    assert s.savings == (20, 15, 0, 20) and s.bank == 103 and s.eliminated == (2,)


def test_payer_with_exactly_the_bank_share_is_out_and_opponents_get_nothing():
    s = settle(100, [20, 15, 16, 20], 2, cards=5, challengers=[0, 1], truthful=False)
    assert s.transfers == (Transfer(2, BANK, 16, DEPOSIT),)
    assert s.eliminated == (2,)


def test_accuser_who_cannot_cover_the_bank_pays_it_all_to_the_bank():
    """Rule 1 for an accuser of a true claim: the claimant gets nothing from them."""
    s = settle(100, [20, 5, 20], 0, cards=4, challengers=[1], truthful=True)
    assert s.transfers == (Transfer(BANK, 0, 16, WITHDRAW), Transfer(1, BANK, 5, DEPOSIT))
    assert s.savings == (36, 0, 20) and s.bank == 89 and s.eliminated == (1,)


def test_accuser_short_after_the_bank_pays_the_rest_to_the_claimant_and_is_out():
    """Rule 2 with one opponent: the rest of the savings, not the full P."""
    s = settle(100, [20, 11, 20], 0, cards=4, challengers=[1], truthful=True)
    assert s.transfers[1:] == (Transfer(1, BANK, 8, DEPOSIT), Transfer(1, 0, 3, PENALTY_PAID))
    assert s.savings == (20 + 16 + 3, 0, 20) and s.eliminated == (1,)


def test_short_funds_shared_between_two_accusers_leftover_to_the_left():
    """Rule 2: equal integer shares; the odd penny goes clockwise from the payer's left."""
    # Seat 1 bluffs a 4 of a kind (P=8) with 13: 8 to the bank, 5 left for seats 0 and 3.
    s = settle(100, [20, 13, 20, 20], 1, cards=4, challengers=[0, 3], truthful=False)
    # Clockwise from seat 1's left: 2, 3, 0 -> seat 3 first.
    assert s.transfers == (Transfer(1, BANK, 8, DEPOSIT), Transfer(1, 3, 3, PENALTY_PAID),
                           Transfer(1, 0, 2, PENALTY_PAID))
    assert s.savings == (22, 0, 20, 23) and s.eliminated == (1,)


@pytest.mark.parametrize("payer, accusers, expected", [
    # 6 seats; payer bluffs 4 of a kind (P=8) holding 13: 5 pennies for 3 accusers:
    # 1 each, the 2 leftover pennies to the first two accusers clockwise from the payer's left.
    (0, [2, 4, 5], {2: 2, 4: 2, 5: 1}),
    (3, [0, 1, 5], {5: 2, 0: 2, 1: 1}),
    (5, [1, 3, 4], {1: 2, 3: 2, 4: 1}),
    (2, [0, 1, 3], {3: 2, 0: 2, 1: 1}),
    (4, [3, 5, 0], {5: 2, 0: 2, 3: 1}),
])
def test_short_funds_shared_among_three_accusers_for_several_payer_seats(payer, accusers,
                                                                         expected):
    savings = [20] * 6
    savings[payer] = 13
    s = settle(100, savings, payer, cards=4, challengers=accusers, truthful=False)
    got = {t.payee: t.amount for t in s.transfers if t.reason == PENALTY_PAID}
    assert got == expected
    assert [t.payee for t in s.transfers if t.reason == PENALTY_PAID] == list(expected)
    assert s.savings[payer] == 0 and s.eliminated == (payer,)


def test_two_accusers_with_the_payer_between_them_counterclockwise_play_changes_nothing():
    """The leftover goes clockwise from the payer's left, whatever the direction of play."""
    j = game(4, {"type": "reverse"}, claim(4, [1, 3], False), savings=13, first=2)
    # Seat 2 pays 8 to the bank, 5 left: clockwise from seat 2's left is 3 then 1.
    assert j.state.savings == (13, 15, 0, 16)


def test_clockwise_from_the_payers_left():
    assert clockwise_from(2, [0, 1, 3, 4], 5) == [3, 4, 0, 1]
    assert clockwise_from(4, [0, 3], 5) == [0, 3]


def test_short_funds_in_a_played_game_house_rule_savings():
    """The same sharing through the journal: 5 badgers with 13 each, seat 3 bluffs four."""
    j = game(5, claim(4, [0, 1, 4], False), savings=13, first=3)
    # 8 to the bank, 5 left for 3 accusers: 1 each, leftovers to seats 4 then 0.
    assert j.state.savings == (15, 14, 13, 0, 15)
    assert j.state.bank == 108
    assert j.state.table.eliminated == frozenset({3})
    assert j.state.table.current == 4


# --- N = 8 ------------------------------------------------------------------------------------

def test_eight_true_with_accusers_all_their_savings_go_to_the_bank():
    """docs/rules.md: "For N=8 the penalty is the payer's whole savings, so under rule 1 all of it
    goes to the bank." The claimant empties the bank; the accusers refill it and are out."""
    j = game(4, claim(8, [1, 2], True))
    s = j.state
    assert s.savings == (120, 0, 0, 20)
    assert s.bank == 40
    assert s.table.eliminated == frozenset({1, 2})
    assert not s.over  # the bank holds 40 and two badgers have savings
    assert s.table.current == 3


def test_eight_bluff_the_claimant_pays_everything_to_the_bank():
    j = game(4, claim(8, [1, 2], False))
    s = j.state
    assert s.savings == (0, 20, 20, 20) and s.bank == 120
    assert s.table.eliminated == frozenset({0}) and s.table.current == 1
    rec = s.history[-1]
    assert rec.transfers == (Transfer(0, BANK, 20, DEPOSIT),) and rec.earned == 0


# --- eliminations and the end of the game ----------------------------------------------------

def test_accusers_eliminated_together_in_one_settlement():
    """docs/rules.md: a badger whose savings reach 0, by any payment, is eliminated and skipped."""
    j = game(5, claim(5, [1, 2, 3], True), savings=20)
    # P=16: each accuser pays 16 to the bank and only 4 of 16 to the claimant.
    assert j.state.savings == (20 + 32 + 12, 0, 0, 0, 20)
    assert j.state.history[-1].eliminated == (1, 2, 3)
    assert j.state.table.current == 4
    assert not j.state.over
    j.append(PASS_EVENT)
    assert j.state.table.current == 0  # 1, 2, 3 are skipped


def test_claimant_eliminated_by_a_bluff_and_skipped():
    j = game(4, claim(5, [2], False), first=1)
    assert j.state.savings == (20, 0, 24, 20) and j.state.bank == 116
    assert j.state.table.current == 2
    j.append(PASS_EVENT)
    j.append(PASS_EVENT)
    j.append(PASS_EVENT)
    assert j.state.table.current == 2  # 3 -> 0 -> (1 is out) -> 2


def test_pass_with_the_last_penny_eliminates():
    j = game(3, PASS_EVENT, savings=1)
    assert j.state.savings == (0, 1, 1) and j.state.table.eliminated == frozenset({0})
    assert j.state.table.current == 1 and not j.state.over


def test_game_ends_when_one_badger_is_left_with_savings():
    """docs/rules.md: the game ends at the end of a turn when at most one badger has savings."""
    j = game(3, PASS_EVENT, PASS_EVENT, savings=1)
    assert j.state.over and j.state.winners == (2,)
    assert j.summary()["eliminated"] == [0, 1]


def test_game_ends_by_an_empty_bank():
    j = game(3, claim(3), claim(2), bank=12)
    assert j.state.bank == 0 and j.state.over
    assert j.state.savings == (28, 24, 20) and j.state.winners == (0,)


def test_equal_savings_share_the_win():
    """docs/rules.md: "equal savings share the win"."""
    j = game(3, claim(2), claim(2), bank=8)
    assert j.state.over and j.state.winners == (0, 1)


def test_bank_emptied_then_refilled_in_the_same_turn_plays_on():
    """Reading: the end check is after every payment of the turn (docs/rules.md), so a true
    challenged claim that empties the bank but is refilled by the deposits plays on."""
    j = game(3, claim(3, [1], True), bank=8)
    assert j.state.bank == 4 and not j.state.over


def test_the_group_ending_the_game_names_the_richest():
    j = game(3, claim(3), {"type": "end"})
    assert j.state.over and j.state.winners == (0,)


def test_nothing_after_the_game_is_over():
    j = game(3, claim(8))
    with pytest.raises(IllegalEvent, match="the game is over"):
        j.check(PASS_EVENT)


# --- turn order -------------------------------------------------------------------------------

def test_skip_and_reverse_cards_change_who_is_next():
    """docs/rules.md: only skip and reverse action cards change the companion's state."""
    j = game(4, {"type": "skip"}, PASS_EVENT)
    assert j.state.table.current == 2
    j.append({"type": "reverse"})
    j.append(claim(2))
    assert j.state.table.current == 1 and j.state.savings[2] == 24


def test_next_and_skip_to_are_accepted_and_move_no_money():
    """docs/rules.md, "Turn semantics": common events are accepted in every game kind."""
    j = game(4, {"type": "next"}, {"type": "skip_to", "player": 3})
    assert j.state.table.current == 3 and money(j) == 180 and j.state.bank == 100


# --- illegal events: refused with a message, nothing changes ----------------------------------

@pytest.mark.parametrize("event, words", [
    (claim(0), "cards must be a number 1-8"),
    (claim(9), "cards must be a number 1-8"),
    ({"type": "claim", "cards": "3"}, "cards must be a number 1-8"),
    ({"type": "claim", "cards": True}, "cards must be a number 1-8"),
    ({"type": "claim"}, "missing field 'cards'"),
    (claim(3, [3], True), "cannot challenge their own claim"),
    (claim(3, [2], True), "seat 2 is eliminated and cannot challenge"),
    (claim(3, [1, 1], True), "named twice"),
    (claim(3, [7], True), "a challenger must be a seat number 0-3"),
    (claim(3, ["Ben"], True), "a challenger must be a seat number 0-3"),
    (claim(3, [1]), "needs \"truthful\""),
    (claim(3, [1], truthful="yes"), "truthful must be true or false"),
    ({"type": "claim", "cards": 3, "challengers": 1}, "challengers must be a list"),
    (claim(3, player=2), "seat 2 is eliminated"),
    (claim(3, player=1), "it is seat 3's turn"),
    ({"type": "pass", "player": 2}, "seat 2 is eliminated"),
    ({"type": "claim", "cards": 3, "bet": 4}, "unknown field 'bet'"),
])
def test_illegal_events_are_refused_and_change_nothing(event, words):
    # Seat 2 is out (a bluffed eight), seat 3 to play.
    j = game(4, PASS_EVENT, PASS_EVENT, claim(8, [1], False), first=0)
    assert j.state.table.eliminated == frozenset({2}) and j.state.table.current == 3
    before = (j.state, len(j.events))
    with pytest.raises(IllegalEvent, match=words.replace("(", r"\(")):
        j.append(event)
    assert (j.state, len(j.events)) == before


@pytest.mark.parametrize("rules, words", [
    ({"bank": 0}, "bank must be 1-9999"),
    ({"savings": 0}, "savings must be 1-999"),
    ({"savings": "20"}, "savings must be like 20"),
    ({"bank": True}, "bank must be like 100"),
    ({"pennies": 3}, "unknown house rule 'pennies'"),
])
def test_bad_house_rules_are_refused(rules, words):
    with pytest.raises(IllegalEvent, match=words):
        Journal(Header("penny-badger", NAMES[:3], 0, rules))


def test_player_counts_from_the_rulebook():
    """Rulebook: "Number of Players: 2+"; the screens lay out up to 16."""
    with pytest.raises(IllegalEvent, match="2-16 players"):
        game(1)
    with pytest.raises(IllegalEvent, match="2-16 players"):
        game(17)
    assert game(16).state.savings == (20,) * 16


# --- undo, the end-screen facts, words ---------------------------------------------------------

def test_undo_reverses_a_whole_settlement_and_an_elimination():
    j = game(4, claim(2), claim(8, [0, 2], True))
    assert j.state.table.eliminated == frozenset({0, 2})
    j.undo()
    assert j.state.savings == (24, 20, 20, 20) and j.state.bank == 96
    assert j.state.table.eliminated == frozenset() and j.state.table.current == 1
    j.undo()
    assert j.state.savings == (20,) * 4 and j.state.history == ()


def test_biggest_claim_and_best_catch():
    """End screen: the biggest kept withdrawal, and the caught bluff that paid accusers most."""
    j = game(4, claim(3), claim(2, [0], False), claim(4, [0, 1], False), claim(5, [2], True),
             bank=500, savings=100)
    hist = j.state.history
    assert biggest_claim(hist) is hist[3] and hist[3].kept == 32
    assert best_catch(hist) is hist[2] and hist[2].earned == 16
    assert biggest_claim(()) is None and best_catch(hist[:1]) is None


def test_describe_says_who_paid_whom():
    """The history lines (panel, undo toast, web) name the accusers and every payment: "Olu
    claimed 3 of a kind, true" said nothing of who paid whom (issue 18, item 7)."""
    j = game(4, claim(2), PASS_EVENT, claim(3, [0, 3], False), claim(1, [0], True))
    assert [j.describe(i) for i in range(4)] == [
        "Ann claimed a pair: bank paid Ann 4",
        "Ben passed: Ben paid bank 1",
        "Cy claimed 3 of a kind, challenged by Dee and Ann, a bluff: "
        "Cy paid bank 4, Dee 4 and Ann 4",
        "Dee claimed a wild, challenged by Ann, true: bank paid Dee 3; Ann paid bank 1 and Dee 1"]
    # Each line's amounts are the settlement the engine recorded.
    for i, record in enumerate(j.state.history):
        for t in record.transfers:
            payer = "bank" if t.payer == "bank" else NAMES[t.payer]
            assert payer + " paid" in j.describe(i) and f" {t.amount}" in j.describe(i)
    # A true claim whose accusers cannot pay in full, and a badger going out.
    j = game(3, claim(7, [1, 2], True), bank=200, savings=40)
    assert j.describe(0) == ("Ann claimed 7 of a kind, challenged by Ben and Cy, true: bank paid "
                             "Ann 128; Ben paid bank 40; Cy paid bank 40; Ben is out; Cy is out")


# --- replay (docs/log-format.md) -----------------------------------------------------

def write_log(path, header, *events):
    path.write_text("\n".join(json.dumps(x) for x in (header, *events)) + "\n")
    return str(path)


def test_replay_json_contract_fields(tmp_path, capsys):
    log = write_log(tmp_path / "pb.jsonl", {"game": "penny-badger", "players": list(NAMES[:4])},
                    claim(2), PASS_EVENT, claim(3, [0, 3], True), {"type": "claim", "cards": 8,
                                                                    "challengers": [0],
                                                                    "truthful": False})
    assert main(["replay", log, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bank"] == 97 + 12 and out["savings"] == [16, 19, 36, 0]
    assert out["eliminated"] == [3] and out["current"] == 0 and out["direction"] == 1
    assert out["over"] is False and out["winners"] == []
    assert out["settlements"][2]["transfers"][0] == {"payer": "bank", "payee": 2, "amount": 8,
                                                     "reason": "withdrawal"}


def test_replay_defaults_and_game_over(tmp_path, capsys):
    log = write_log(tmp_path / "pb.jsonl", {"game": "penny-badger", "players": ["A", "B"],
                                            "first": 1, "rules": {"bank": 10}},
                    claim(4))
    assert main(["replay", log, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {**out, "bank": 0, "savings": [20, 30], "over": True, "winners": [1],
                   "eliminated": [], "current": 1}


def test_replay_rejects_a_claim_by_an_eliminated_player(tmp_path, capsys):
    log = write_log(tmp_path / "pb.jsonl", {"game": "penny-badger", "players": ["A", "B", "C"],
                                            "rules": {"savings": 1}},
                    PASS_EVENT, claim(2, player=0))
    assert main(["replay", log, "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "line 3:" in captured.err and "eliminated" in captured.err


def test_replay_text(tmp_path, capsys):
    log = write_log(tmp_path / "pb.jsonl", {"game": "penny-badger", "players": ["Ann", "Ben"]},
                    claim(2))
    assert main(["replay", log]) == 0
    out = capsys.readouterr().out
    assert "Bank: 96" in out and "Ann: 24" in out and "Ben: 20" in out


def test_truthful_null_means_not_revealed_on_an_unchallenged_claim():
    # docs/log-format.md: "truthful" may be left out when nobody challenges; a null says the same.
    j = game(4, {"type": "claim", "cards": 2, "challengers": [], "truthful": None})
    assert j.state.savings[0] == 24 and j.state.bank == 96
    with pytest.raises(IllegalEvent, match="needs \"truthful\""):
        game(4, {"type": "claim", "cards": 2, "challengers": [1], "truthful": None})
