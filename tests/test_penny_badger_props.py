"""Penny Badger property tests (hypothesis): random games of random sizes, many moves each.

docs/rules.md "Penny Badger": total money never changes; a badger whose savings reach 0 is
eliminated and skipped; the game ends at the end of a turn when the bank holds 0 or at most
one badger has savings. Checked after every move of every game: money is constant, no
balance is negative, eliminated badgers never act, pay or receive, and the game has either
ended (with winners holding the most savings) or can continue.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.errors import IllegalEvent
from companion.games.penny_badger.rules import BANK, settle
from companion.rules.game import Header
from companion.session.journal import Journal

MOVES = ("pass", "claim", "claim", "claim", "skip", "reverse", "undo")


def check_invariants(j: Journal, total: int) -> None:
    s = j.state
    assert s.bank >= 0 and all(v >= 0 for v in s.savings)
    assert s.bank + sum(s.savings) == total
    assert s.table.eliminated == frozenset(i for i, v in enumerate(s.savings) if v == 0)
    if s.over:
        top = max(s.savings)
        assert s.winners and all(s.savings[w] == top for w in s.winners)
        assert s.winners == tuple(i for i, v in enumerate(s.savings) if v == top)
    else:
        # It can continue: money in the bank, two badgers with savings, one of them to play.
        assert s.bank > 0
        assert len(s.table.active) >= 2
        assert s.table.current in s.table.active and s.savings[s.table.current] > 0


def check_last_settlement(j: Journal) -> None:
    """The badgers out before the settlement neither acted, paid nor received in it."""
    before = j.previous_state
    rec = j.state.history[-1]
    out = before.table.eliminated
    assert rec.seat not in out and not set(rec.challengers) & out
    for t in rec.transfers:
        assert t.amount > 0
        assert t.payer not in out and t.payee not in out
        assert t.payer != t.payee
    assert set(rec.eliminated) == j.state.table.eliminated - out


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(2, 16), bank=st.integers(1, 300),
       savings=st.integers(1, 60))
def test_random_games_keep_every_penny(data, n, bank, savings):
    j = Journal(Header("penny-badger", tuple(f"P{i}" for i in range(n)), 0,
                       {"bank": bank, "savings": savings}))
    total = bank + n * savings
    for _ in range(60):
        if j.state.over:
            break
        s = j.state
        kind = data.draw(st.sampled_from(MOVES))
        if kind == "undo":
            if j.can_undo:
                j.undo()
                check_invariants(j, total)
            continue
        if kind in ("skip", "reverse"):
            j.append({"type": kind})
            check_invariants(j, total)
            continue
        if kind == "pass":
            j.append({"type": "pass"})
        else:
            others = [x for x in s.table.active if x != s.table.current]
            accusers = data.draw(st.lists(st.sampled_from(others), unique=True,
                                          max_size=len(others)))
            event = {"type": "claim", "cards": data.draw(st.integers(1, 8)),
                     "challengers": accusers}
            if accusers:
                event["truthful"] = data.draw(st.booleans())
            j.append(event)
        check_last_settlement(j)
        check_invariants(j, total)
    # Replaying the events gives the same state (the journal's promise on resume).
    assert j.game.fold(j.header, j.events) == j.state


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n=st.integers(2, 16), savings=st.integers(1, 8),
       bank=st.integers(1, 40))
def test_every_game_ends_if_everybody_keeps_passing(data, n, savings, bank):
    """A pass always costs a penny, so a game of passes ends after at most every penny of
    savings: the game always ends or can continue, never sticks."""
    j = Journal(Header("penny-badger", tuple(f"P{i}" for i in range(n)), 0,
                       {"bank": bank, "savings": savings}))
    for _ in range(data.draw(st.integers(0, 5))):
        others = [x for x in j.state.table.active if x != j.state.table.current]
        j.append({"type": "claim", "cards": 2, "challengers": others[:1], "truthful": False})
        if j.state.over:
            break
    turns = 0
    while not j.state.over:
        j.append({"type": "pass"})
        turns += 1
        assert turns <= n * savings + 40
    assert len(j.state.table.active) == 1 and j.state.winners == tuple(j.state.table.active)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), n=st.integers(2, 16), bank=st.integers(0, 500),
       cards=st.integers(1, 8))
def test_settle_moves_money_and_never_creates_it(data, n, bank, cards):
    """The pure transfer computation on any balances (not only ones a game can reach)."""
    savings = data.draw(st.lists(st.integers(1, 200), min_size=n, max_size=n))
    seat = data.draw(st.integers(0, n - 1))
    others = [x for x in range(n) if x != seat]
    accusers = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    truthful = data.draw(st.booleans())
    s = settle(bank, savings, seat, cards=cards, challengers=accusers, truthful=truthful)
    assert s.bank + sum(s.savings) == bank + sum(savings)
    assert s.bank >= 0 and min(s.savings) >= 0
    # Replaying the transfers reproduces the balances.
    b, sv = bank, list(savings)
    for t in s.transfers:
        if t.payer == BANK:
            b -= t.amount
        else:
            sv[t.payer] -= t.amount
        if t.payee == BANK:
            b += t.amount
        else:
            sv[t.payee] += t.amount
        assert b >= 0 and min(sv) >= 0
    assert (b, tuple(sv)) == (s.bank, s.savings)
    # Only the claimant and the accusers are touched; the bank never pays a penalty.
    touched = {seat, *accusers, BANK}
    assert all(t.payer in touched and t.payee in touched for t in s.transfers)
    assert all(t.payer != BANK or t.reason == "withdrawal" for t in s.transfers)
    # Nobody pays more than the penalty table allows.
    for payer in {t.payer for t in s.transfers if t.payer != BANK}:
        paid = sum(t.amount for t in s.transfers if t.payer == payer)
        assert paid <= savings[payer]


@settings(max_examples=100, deadline=None)
@given(n=st.integers(3, 8), seat=st.integers(0, 7), cards=st.integers(0, 12))
def test_illegal_claims_change_nothing(n, seat, cards):
    j = Journal(Header("penny-badger", tuple(f"P{i}" for i in range(n))))
    before = j.state
    event = {"type": "claim", "cards": cards, "challengers": [seat % n], "truthful": True}
    legal = 1 <= cards <= 8 and seat % n != 0
    try:
        j.append(event)
    except IllegalEvent:
        assert not legal and j.state is before and not j.events
    else:
        assert legal
