"""Penny Badger: the bank ledger (docs/rules.md, "Penny Badger"; seeds/chroma-cards-rulebook.txt).

The companion is the bank. Each turn ends with a `pass` (1 penny to the bank) or a `claim` of
N cards, unchallenged or challenged and then shown to be true or a bluff. Every settlement is
worked out by the pure function `settle`, which returns the list of transfers (who paid whom
how much and why) and the balances after them; the engine only records it and ends the turn.

Money is never created or destroyed: every transfer moves pennies between the bank and the
badgers' savings. A badger whose savings reach 0 is eliminated (skipped, may neither claim
nor challenge). The game ends at the end of a turn when the bank holds 0 or at most one
badger has savings left.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence, Union

from companion.errors import IllegalEvent
from companion.rules import table as tbl
from companion.rules.game import Call, Event, Game, Header, NextNeeds, State, and_list, move

BANK = "bank"
Party = Union[int, str]  # a seat, or BANK

# docs/rules.md, "Penny Badger": withdrawal by number of cards (N=8: the whole bank).
WITHDRAWAL: Mapping[int, int] = {1: 3, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 128}
# Penalty P(N) for N=2..7; N=1: accusers 1, the bluffing badger 2; N=8: all of the savings.
PENALTY: Mapping[int, int] = {2: 2, 3: 4, 4: 8, 5: 16, 6: 32, 7: 64}
MIN_CARDS, MAX_CARDS = 1, 8

# Reasons a transfer carries (the rulebook's words).
PASS = "pass"  # a pass: 1 penny from savings to the bank
WITHDRAW = "withdrawal"  # the bank pays a claim
DEPOSIT = "deposit"  # a penalty deposit to the bank
PENALTY_PAID = "penalty"  # a penalty paid to an opponent (accuser or claimant)


def withdrawal(cards: int, bank: int) -> int:
    """What a claim of `cards` takes from a bank holding `bank` (never more than it holds)."""
    if cards == MAX_CARDS:
        return bank
    return min(WITHDRAWAL[cards], bank)


def short_bank(cards: int, bank: int) -> bool:
    """Whether a claim of `cards` (short of the whole bank) takes all there is: the bank holds
    less than its withdrawal."""
    return cards != MAX_CARDS and withdrawal(cards, bank) < WITHDRAWAL[cards]


def penalty(cards: int, *, bluffer: bool, savings: int) -> int:
    """P(N) for one payer: the bluffing claimant (`bluffer`) or an accuser of a true claim."""
    if cards == MAX_CARDS:
        return savings
    if cards == 1:
        return 2 if bluffer else 1
    return PENALTY[cards]


@dataclass(frozen=True)
class Transfer:
    payer: Party
    payee: Party
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount,
                "reason": self.reason}


@dataclass(frozen=True)
class Settlement:
    """The outcome of one pass or claim: transfers in the order they are paid, and after them
    the bank, every badger's savings and the badgers this settlement eliminated."""

    transfers: tuple[Transfer, ...]
    bank: int
    savings: tuple[int, ...]
    eliminated: tuple[int, ...]


def clockwise_from(payer: int, seats: Iterable[int], n: int) -> list[int]:
    """`seats` in clockwise order starting from the payer's left (docs/rules.md: the next seat)."""
    return sorted(seats, key=lambda s: (s - payer) % n)


class _Purse:
    """Balances while a settlement is worked out; every move is recorded as a transfer."""

    def __init__(self, bank: int, savings: Sequence[int]) -> None:
        self.bank = bank
        self.savings = list(savings)
        self.transfers: list[Transfer] = []

    def balance(self, who: Party) -> int:
        return self.bank if who == BANK else self.savings[who]  # type: ignore[index]

    def move(self, payer: Party, payee: Party, amount: int, reason: str) -> None:
        if amount <= 0:
            return
        assert amount <= self.balance(payer), "a transfer larger than the payer's balance"
        if payer == BANK:
            self.bank -= amount
        else:
            self.savings[payer] -= amount  # type: ignore[index]
        if payee == BANK:
            self.bank += amount
        else:
            self.savings[payee] += amount  # type: ignore[index]
        self.transfers.append(Transfer(payer, payee, amount, reason))

    def pay_penalty(self, payer: int, p: int, opponents: Sequence[int]) -> None:
        """docs/rules.md "Paying a penalty": P to the bank first, then P to each opponent.

        1. A payer who cannot pay the bank in full pays what they have; opponents get nothing.
        2. If the rest cannot pay every opponent in full, each gets an equal share (integer
           division) and the leftover pennies go one each to the opponents clockwise from the
           payer's left.
        """
        have = self.savings[payer]
        if have <= p:
            self.move(payer, BANK, have, DEPOSIT)
            return
        self.move(payer, BANK, p, DEPOSIT)
        rest = have - p
        order = clockwise_from(payer, opponents, len(self.savings))
        if rest >= p * len(order):
            for o in order:
                self.move(payer, o, p, PENALTY_PAID)
            return
        share, left = divmod(rest, len(order))
        for i, o in enumerate(order):
            self.move(payer, o, share + (1 if i < left else 0), PENALTY_PAID)


def settle(bank: int, savings: Sequence[int], seat: int, *, cards: int | None,
           challengers: Sequence[int] = (), truthful: bool | None = None) -> Settlement:
    """The transfers of one turn's ending, and the balances after them. Pure.

    `cards=None` is a pass. Otherwise a claim of `cards` by `seat`, challenged by
    `challengers` (empty: unchallenged, `truthful` is ignored since the cards stay hidden).
    The caller checks that the event is legal; this function only does the arithmetic.
    """
    purse = _Purse(bank, savings)
    n = len(savings)
    if cards is None:
        purse.move(seat, BANK, 1, PASS)
    elif not challengers or truthful:
        # The withdrawal is taken when the claim is made, from the bank as it is then.
        purse.move(BANK, seat, withdrawal(cards, bank), WITHDRAW)
        for accuser in clockwise_from(seat, challengers, n):
            p = penalty(cards, bluffer=False, savings=purse.savings[accuser])
            purse.pay_penalty(accuser, p, [seat])
    else:
        p = penalty(cards, bluffer=True, savings=purse.savings[seat])
        purse.pay_penalty(seat, p, challengers)
    out = tuple(s for s in range(n) if purse.savings[s] == 0 and savings[s] > 0)
    return Settlement(tuple(purse.transfers), purse.bank, tuple(purse.savings), out)


@dataclass(frozen=True)
class Record:
    """One settled turn, for the history screen, the end screen and replay --json."""

    turn: int  # 1-based number of the turn it ended
    seat: int
    cards: int | None  # None: a pass
    challengers: tuple[int, ...]
    truthful: bool | None  # None: not challenged (or a pass)
    transfers: tuple[Transfer, ...]
    eliminated: tuple[int, ...]

    @property
    def kept(self) -> int:
        """The withdrawal the claimant kept (0 for a pass or a caught bluff)."""
        return sum(t.amount for t in self.transfers if t.reason == WITHDRAW)

    @property
    def caught(self) -> bool:
        return bool(self.challengers) and self.truthful is False

    @property
    def earned(self) -> int:
        """What the accusers of a caught bluff received from the claimant."""
        if not self.caught:
            return 0
        return sum(t.amount for t in self.transfers
                   if t.reason == PENALTY_PAID and t.payee in self.challengers)

    def net(self) -> dict[Party, int]:
        """Each party's change in this settlement (zero changes left out), bank first."""
        out: dict[Party, int] = {}
        for t in self.transfers:
            out[t.payer] = out.get(t.payer, 0) - t.amount
            out[t.payee] = out.get(t.payee, 0) + t.amount
        order = sorted(out, key=lambda k: (k != BANK, -1 if k == BANK else k))
        return {k: out[k] for k in order if out[k]}

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.seat,
                "type": "pass" if self.cards is None else "claim", "cards": self.cards,
                "challengers": list(self.challengers), "truthful": self.truthful,
                "transfers": [t.to_json() for t in self.transfers],
                "eliminated": list(self.eliminated)}


@dataclass(frozen=True)
class PennyState(State):
    bank: int = 0
    savings: tuple[int, ...] = ()
    history: tuple[Record, ...] = ()

    @property
    def money(self) -> int:
        """The bank and every badger's savings: all the pennies there are."""
        return self.bank + sum(self.savings)


# --- words for people (screens, undo toast, replay text) ------------------------------------

def party_name(who: Party, names: Sequence[str]) -> str:
    return "bank" if who == BANK else names[who]  # type: ignore[index]


def claim_words(cards: int) -> str:
    """'a wild', 'a pair', '3 of a kind'..."""
    if cards == 1:
        return "a wild"
    if cards == 2:
        return "a pair"
    return f"{cards} of a kind"


def payment_words(transfers: Sequence[Transfer], eliminated: Sequence[int],
                  names: Sequence[str]) -> str:
    """Who paid whom in one settlement, in the order paid: "bank paid Cy 8; Dee paid bank 4
    and Cy 4; Dee is out" (a claim on an empty bank: "bank had nothing to pay")."""
    parts: list[str] = []
    by_payer: dict[Party, list[Transfer]] = {}
    for t in transfers:
        by_payer.setdefault(t.payer, []).append(t)
    for payer, ts in by_payer.items():
        paid = and_list([f"{party_name(t.payee, names)} {t.amount}" for t in ts])
        parts.append(f"{party_name(payer, names)} paid {paid}")
    parts += [f"{names[s]} is out" for s in eliminated]
    return "; ".join(parts) or "nothing moved"


def pays_words(transfers: Sequence[Transfer], eliminated: Sequence[int],
               names: Sequence[str]) -> str:
    """What each badger paid in all, for the spoken call: "Ben pays 4", "Ann pays 2 and Cy
    pays 2; Cy is out" (payment_words says whom to, for the history)."""
    totals: dict[Party, int] = {}
    for t in transfers:
        if t.payer != BANK:
            totals[t.payer] = totals.get(t.payer, 0) + t.amount
    parts = [and_list([f"{party_name(p, names)} pays {n}" for p, n in totals.items()])]
    parts += [f"{names[s]} is out" for s in eliminated]
    return "; ".join(p for p in parts if p)


def record_title(record: Record, names: Sequence[str]) -> str:
    who = names[record.seat]
    if record.cards is None:
        return f"{who} passed"
    what = f"{who} claimed {claim_words(record.cards)}"
    if not record.challengers:
        return what
    return what + (": true" if record.truthful else ": bluff")


def net_line(record: Record, names: Sequence[str]) -> str:
    return ", ".join(f"{party_name(k, names)} {v:+d}" for k, v in record.net().items())


def biggest_claim(history: Iterable[Record]) -> Record | None:
    """The claim whose kept withdrawal was largest (the earliest on a tie); None if none kept."""
    best: Record | None = None
    for r in history:
        if r.kept > 0 and (best is None or r.kept > best.kept):
            best = r
    return best


def best_catch(history: Iterable[Record]) -> Record | None:
    """The caught bluff that earned its accusers the most (the earliest on a tie)."""
    best: Record | None = None
    for r in history:
        if r.caught and (best is None or r.earned > best.earned):
            best = r
    return best


def end_reason(state: PennyState) -> str:
    if not state.over:
        return ""
    if state.bank == 0:
        return "The bank is empty"
    if sum(1 for s in state.savings if s > 0) <= 1:
        return "One badger left"
    return "Ended by the group"


PASS_OR_CLAIM = NextNeeds(("pass", "claim"), "Pass or claim first")


class PennyBadger(Game[PennyState]):
    kind = "penny-badger"
    title = "Penny Badger"
    # docs/rules.md: of the action cards only skip and reverse change the companion's state
    # (Skip to player would end a badger's turn with no penny paid).
    turn_moves = ("skip", "reverse")
    min_players = 2  # the rulebook: "Number of Players: 2+"
    max_players = 16  # what the companion's screens lay out
    default_rules = {"bank": 100, "savings": 20}
    RULE_LIMITS = {"bank": (1, 9999), "savings": (1, 999)}

    def check_rule(self, key: str, value: Any) -> Any:
        value = super().check_rule(key, value)
        lo, hi = self.RULE_LIMITS[key]
        if not lo <= value <= hi:
            raise IllegalEvent(f"house rule {key} must be {lo}-{hi} pennies, not {value}")
        return value

    def initial(self, header: Header) -> PennyState:
        base = super().initial(header)
        n = len(header.players)
        return PennyState(table=base.table, bank=header.rules["bank"],
                          savings=(header.rules["savings"],) * n)

    # --- turn ends ---------------------------------------------------------------------------

    def finished(self, state: PennyState) -> bool:
        """docs/rules.md: the bank holds 0, or at most one badger is left with savings."""
        return state.bank == 0 or sum(1 for s in state.savings if s > 0) <= 1

    def end_turn(self, state: PennyState) -> PennyState:
        """The game-end check happens at the end of every turn, after every payment."""
        if self.finished(state):
            return replace(state, over=True, winners=self.final_winners(state))
        return super().end_turn(state)

    def end_turn_to(self, state: PennyState, seat: int) -> PennyState:
        if self.finished(state):
            return replace(state, over=True, winners=self.final_winners(state))
        return super().end_turn_to(state, seat)

    def next_needs(self, state: PennyState) -> NextNeeds | None:
        """A badger's turn ends by a pass (a penny to the bank) or a claim, never by a bare
        NEXT (no penny paid): the box's NEXT asks "pass or claim", a phone's takes the player
        to the same choice, and a bare one from any live input is refused in these words.
        A log's bare `next` still folds (docs/log-format.md)."""
        return PASS_OR_CLAIM

    def final_winners(self, state: PennyState) -> tuple[int, ...]:
        """The most savings wins; equal savings share the win."""
        return tbl.best_seats(state.savings) if max(state.savings, default=0) > 0 else ()

    # --- moves -------------------------------------------------------------------------------

    @move("player")
    def move_pass(self, state: PennyState, event: Event) -> PennyState:
        seat = self._claimant(state, event)
        return self._settled(state, seat, None, (), None)

    @move("player", "challengers", "truthful", required=("cards",))
    def move_claim(self, state: PennyState, event: Event) -> PennyState:
        seat = self._claimant(state, event)
        cards = event["cards"]
        if isinstance(cards, bool) or not isinstance(cards, int) \
                or not MIN_CARDS <= cards <= MAX_CARDS:
            raise IllegalEvent(f"claim: cards must be a number {MIN_CARDS}-{MAX_CARDS}, "
                               f"not {cards!r}")
        raw = event.get("challengers", [])
        if not isinstance(raw, list):
            raise IllegalEvent(f"claim: challengers must be a list of seats, not {raw!r}")
        challengers: list[int] = []
        for c in raw:
            c = tbl.check_seat(state.table, c, field="a challenger", active=False)
            if c == seat:
                raise IllegalEvent(f"claim: seat {c} cannot challenge their own claim")
            if c in state.table.eliminated:
                raise IllegalEvent(f"claim: seat {c} is eliminated and cannot challenge")
            if c in challengers:
                raise IllegalEvent(f"claim: seat {c} is named twice as a challenger")
            challengers.append(c)
        truthful = event.get("truthful")
        if truthful is not None and not isinstance(truthful, bool):
            raise IllegalEvent(f"claim: truthful must be true or false, not {truthful!r}")
        if challengers and truthful is None:
            raise IllegalEvent("claim: a challenged claim needs \"truthful\" (true or false)")
        if not challengers:
            truthful = None  # the cards are never revealed
        return self._settled(state, seat, cards, tuple(challengers), truthful)

    def _claimant(self, state: PennyState, event: Event) -> int:
        seat = self.actor(state, event)
        self._check_is_current(state, event)
        return seat

    def _settled(self, state: PennyState, seat: int, cards: int | None,
                 challengers: tuple[int, ...], truthful: bool | None) -> PennyState:
        s = settle(state.bank, state.savings, seat, cards=cards, challengers=challengers,
                   truthful=truthful)
        t = state.table
        for out in s.eliminated:
            t = tbl.eliminate(t, out)
        record = Record(turn=state.table.turns + 1, seat=seat, cards=cards,
                        challengers=challengers, truthful=truthful, transfers=s.transfers,
                        eliminated=s.eliminated)
        new = replace(state, table=t, bank=s.bank, savings=s.savings,
                      history=state.history + (record,))
        return self.end_turn(new)

    # --- for replay and the screen -----------------------------------------------------------

    def summary(self, state: PennyState) -> dict[str, Any]:
        out = super().summary(state)
        out["bank"] = state.bank
        out["savings"] = list(state.savings)
        out["eliminated"] = sorted(state.table.eliminated)
        out["settlements"] = [r.to_json() for r in state.history]
        return out

    def describe(self, event: Event, header: Header, before: PennyState) -> str:
        kind = event.get("type")
        seat = event["player"] if isinstance(event.get("player"), int) \
            and 0 <= event["player"] < len(header.players) else before.table.current
        who = header.name(seat)
        if kind == "pass":
            return f"{who} passed" + self._paid(before, header, seat, None, (), None)
        if kind == "claim":
            cards = event.get("cards")
            what = claim_words(cards) if isinstance(cards, int) and 1 <= cards <= 8 \
                else "a claim"
            raw = event.get("challengers") or []
            if not raw:
                return f"{who} claimed {what}" + self._paid(before, header, seat, cards, (),
                                                            None)
            truthful = bool(event.get("truthful"))
            by = clockwise_from(seat, raw, len(header.players)) \
                if all(isinstance(c, int) for c in raw) else raw
            accusers = and_list([header.name(c) if isinstance(c, int) else str(c)
                                 for c in by])
            return (f"{who} claimed {what}, challenged by {accusers}, "
                    + ("true" if truthful else "a bluff")
                    + self._paid(before, header, seat, cards, tuple(raw), truthful))
        return super().describe(event, header, before)

    def move_calls(self, event: Event, header: Header, before: PennyState,
                   after: PennyState) -> list[Call]:
        """A challenged claim: "Bluff called: Ben pays 4" or "True claim: Cy pays 4"; an
        unchallenged claim: its history line; a pass: nothing (the turn call says it)."""
        if event.get("type") not in ("pass", "claim") or len(after.history) \
                <= len(before.history):
            return super().move_calls(event, header, before, after)
        r = after.history[-1]
        if r.cards is None:
            return [("move", pays_words((), r.eliminated, header.players))] \
                if r.eliminated else []
        if not r.challengers:
            return super().move_calls(event, header, before, after)
        head = "True claim" if r.truthful else "Bluff called"
        return [("move", f"{head}: {pays_words(r.transfers, r.eliminated, header.players)}")]

    @staticmethod
    def _paid(before: PennyState, header: Header, seat: int, cards: int | None,
              challengers: tuple[int, ...], truthful: bool | None) -> str:
        """": bank paid Ann 4; Ben paid bank 2 and Ann 2; Ben is out": who paid whom, worked
        out by `settle` from the state before (as the engine did), for the history lines."""
        try:
            s = settle(before.bank, before.savings, seat, cards=cards,
                       challengers=challengers, truthful=truthful)
        except (AttributeError, IndexError, KeyError, TypeError, AssertionError):
            return ""  # not a state this event can settle on: the words without amounts
        return ": " + payment_words(s.transfers, s.eliminated, header.players)

    def text(self, state: PennyState, header: Header) -> str:
        lines = [super().text(state, header), f"Bank: {state.bank}"]
        for s, v in enumerate(state.savings):
            out = " (eliminated)" if s in state.table.eliminated else ""
            lines.append(f"  {header.name(s)}: {v}{out}")
        return "\n".join(lines)
