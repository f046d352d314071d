"""Pig Farm: the score calculator, rounds and the butcher roll (docs/rules.md, "Pig Farm").

The companion does not track cards. At the end of a round the group tells it every seat's
hand as a list of set sizes and a count of unmatched pigs; `farm_score` turns one hand into
points with a breakdown the screen shows line by line. A `sell` event carries every seat's
hand, so a whole round's scoring is one event (and one undo).

Events (docs/log-format.md, "The `pig-farm` kind"):
- `{"type":"sell","hands":[{"sets":[3,3,2],"unmatched":1}, ...one per seat]}` by the
  current player, the seller: ends the round; every hand is scored and the totals add up.
- `{"type":"butcher","die":"colors"|"shapes","face":F}`: the drawer's turn ends.
  With `"deal": true` it is a butcher dealt at the start of a round: rolled before the first
  turn, the turn does not move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Sequence, cast

from companion.errors import IllegalEvent
from companion.rules import dice as dicemod, table as tbl
from companion.rules.game import Call, Event, Game, Header, State, move

DEFAULT_TARGET = 500
MIN_SELL_SETS = 3
MIN_SET_SIZE = 2

# Sets in hand -> base points (docs/rules.md, "Pig Farm"). Past 6 sets: +50 / -50 per further set.
SELLER_TABLE: dict[int, int] = {3: 30, 4: 50, 5: 70, 6: 100}
OTHER_TABLE: dict[int, int] = {0: 0, 1: 5, 2: 15, 3: 30, 4: 0, 5: -30, 6: -50}
STEP_PAST_SIX = 50

# The seller's bonuses (docs/rules.md, "Pig Farm": "Seller only").
BONUS_THREE = 50  # each set of exactly 3
BONUS_FOUR = 150  # each set of exactly 4
BONUS_FIVE_UP = 250  # each set of 5 or more
BONUS_NO_UNMATCHED = 100  # no unmatched pig in the hand

BUTCHER_DICE = ("colors", "shapes")


def seller_base(sets: int) -> int:
    """The seller table: 3: 30, 4: 50, 5: 70, 6: 100, then +50 per further set."""
    if sets < MIN_SELL_SETS:
        raise IllegalEvent(f"a seller needs at least {MIN_SELL_SETS} sets to sell the farm, "
                           f"not {sets}")
    if sets <= 6:
        return SELLER_TABLE[sets]
    return SELLER_TABLE[6] + STEP_PAST_SIX * (sets - 6)


def other_base(sets: int) -> int:
    """The table for everyone else: 0: 0, 1: 5, 2: 15, 3: 30, 4: 0, 5: -30, 6: -50, then -50
    per further set."""
    if sets < 0:
        raise IllegalEvent(f"the number of sets cannot be negative ({sets})")
    if sets <= 6:
        return OTHER_TABLE[sets]
    return OTHER_TABLE[6] - STEP_PAST_SIX * (sets - 6)


@dataclass(frozen=True)
class FarmScore:
    """One hand's points: the base from the table plus (seller only) each bonus."""

    seller: bool
    sets: tuple[int, ...]  # the set sizes as entered
    unmatched: int
    base: int
    threes: int  # sets of exactly 3 (a bonus for the seller only)
    fours: int  # sets of exactly 4
    fives: int  # sets of 5 or more
    three_bonus: int
    four_bonus: int
    five_bonus: int
    no_unmatched_bonus: int

    @property
    def bonus(self) -> int:
        return self.three_bonus + self.four_bonus + self.five_bonus + self.no_unmatched_bonus

    @property
    def total(self) -> int:
        return self.base + self.bonus

    def lines(self) -> list[tuple[str, int]]:
        """The breakdown for people: ("3 sets", 30), ("2 sets of 3", 100), ... Base first;
        bonuses only where they apply."""
        n = len(self.sets)
        out = [(f"{n} set{'' if n == 1 else 's'}", self.base)]
        for count, label, points in ((self.threes, "of 3", self.three_bonus),
                                     (self.fours, "of 4", self.four_bonus),
                                     (self.fives, "of 5+", self.five_bonus)):
            if points:
                out.append((f"{count} set{'' if count == 1 else 's'} {label}", points))
        if self.no_unmatched_bonus:
            out.append(("no unmatched pig", self.no_unmatched_bonus))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"seller": self.seller, "sets": list(self.sets), "unmatched": self.unmatched,
                "base": self.base, "three_bonus": self.three_bonus,
                "four_bonus": self.four_bonus, "five_bonus": self.five_bonus,
                "no_unmatched_bonus": self.no_unmatched_bonus, "total": self.total}


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalEvent(f"{what} must be a whole number, not {value!r}")
    return value


def farm_score(set_sizes: Sequence[int], unmatched: int, *, seller: bool) -> FarmScore:
    """Score one hand (docs/rules.md, "Pig Farm").

    `set_sizes` lists the pigs in each set (4 alike is one set of 4); `unmatched` counts the
    pigs in no set. Refused with IllegalEvent: a set smaller than 2, a negative count, and a
    seller with fewer than 3 sets.
    """
    if isinstance(set_sizes, (str, bytes)) or not isinstance(set_sizes, Sequence):
        raise IllegalEvent(f"sets must be a list of set sizes such as [3, 3, 2], "
                           f"not {set_sizes!r}")
    sizes = tuple(_whole(s, "a set size") for s in set_sizes)
    for s in sizes:
        if s < MIN_SET_SIZE:
            raise IllegalEvent(f"a set has {MIN_SET_SIZE} or more pigs, not {s}")
    unmatched = _whole(unmatched, "unmatched")
    if unmatched < 0:
        raise IllegalEvent(f"unmatched pigs cannot be negative ({unmatched})")
    threes = sum(1 for s in sizes if s == 3)
    fours = sum(1 for s in sizes if s == 4)
    fives = sum(1 for s in sizes if s >= 5)
    if seller:
        return FarmScore(True, sizes, unmatched, seller_base(len(sizes)), threes, fours, fives,
                         BONUS_THREE * threes, BONUS_FOUR * fours, BONUS_FIVE_UP * fives,
                         BONUS_NO_UNMATCHED if unmatched == 0 else 0)
    return FarmScore(False, sizes, unmatched, other_base(len(sizes)), threes, fours, fives,
                     0, 0, 0, 0)


def butcher_verdict(die: str, face: str) -> str:
    """What every player does after a butcher roll, in the words the screen shows."""
    if face == dicemod.LOGO:
        return "Logo: pigs are safe"
    return f"All {str(face).upper()} pigs out"


@dataclass(frozen=True)
class RoundResult:
    """One finished round: who sold and every seat's scored hand."""

    seller: int
    hands: tuple[FarmScore, ...]

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(h.total for h in self.hands)


@dataclass(frozen=True)
class Butcher:
    player: int  # who rolled: the drawer, or the seat dealt the butcher
    die: str
    face: str
    deal: bool
    round: int  # 1-based round it was rolled in


@dataclass(frozen=True)
class PigFarmState(State):
    scores: tuple[int, ...] = ()  # totals by seat
    results: tuple[RoundResult, ...] = ()  # finished rounds, oldest first
    target: int | None = DEFAULT_TARGET  # None: an open-ended game
    round_start: int = 0  # table.turns when the current round began (for deal-time butchers)
    last_butcher: Butcher | None = None

    @property
    def rounds(self) -> int:
        return len(self.results)

    @property
    def at_deal(self) -> bool:
        """No turn has ended yet in the current round: a dealt butcher may still be rolled."""
        return self.table.turns == self.round_start


class PigFarm(Game[PigFarmState]):
    kind: ClassVar[str] = "pig-farm"
    title: ClassVar[str] = "Pig Farm"
    turn_moves: ClassVar[tuple[str, ...]] = ("skip_to",)
    # The rulebook says "2+" and adds decks for more than 4; 12 keeps the scoreboard usable.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 12
    default_rules: ClassVar[dict[str, Any]] = {"target": DEFAULT_TARGET}

    # --- house rules --------------------------------------------------------------------------

    def check_rule(self, key: str, value: Any) -> Any:
        """`target`: a positive whole number of points; None (JSON null), 0 or "off" (the
        TOML config has no null) make the game open-ended, which is stored as None."""
        if key != "target":
            return super().check_rule(key, value)
        if value is None or (isinstance(value, str) and value.strip().lower() == "off"):
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise IllegalEvent(f"house rule target must be a positive whole number of points, "
                               f"or 0 / \"off\" / null for an open-ended game, not {value!r}")
        return value or None

    # --- state --------------------------------------------------------------------------------

    def initial(self, header: Header) -> PigFarmState:
        base = super().initial(header)
        return PigFarmState(table=base.table, scores=(0,) * len(header.players),
                            target=header.rules.get("target", DEFAULT_TARGET))

    # --- moves --------------------------------------------------------------------------------

    @move("player", required=("hands",))
    def move_sell(self, state: PigFarmState, event: Event) -> PigFarmState:
        self._check_is_current(state, event)
        seller = state.table.current
        hands = event["hands"]
        n = state.table.seats
        if not isinstance(hands, list) or len(hands) != n:
            raise IllegalEvent(f"sell: hands must be a list with one hand per seat ({n}), "
                               f"not {_short(hands)}")
        scored = tuple(self._score_hand(h, seat, seller) for seat, h in enumerate(hands))
        result = RoundResult(seller, scored)
        totals = tuple(t + p for t, p in zip(state.scores, result.points))
        # The next round starts with the seat after the seller; pending skips are dropped.
        table = tbl.end_turn(replace(state.table, pending_skips=0))
        new = replace(state, table=table, scores=totals, results=state.results + (result,),
                      round_start=table.turns)
        if state.target is not None and max(totals) >= state.target:
            new = replace(new, over=True, winners=tbl.best_seats(totals))
        return new

    def _score_hand(self, hand: object, seat: int, seller: int) -> FarmScore:
        who = "the seller" if seat == seller else f"seat {seat}"
        where = f"sell: hand {seat} ({who})"
        if not isinstance(hand, dict):
            raise IllegalEvent(f"{where} must be an object such as "
                               f"{{\"sets\": [3, 3, 2], \"unmatched\": 1}}, not {_short(hand)}")
        extra = set(hand) - {"sets", "unmatched"}
        if extra:
            raise IllegalEvent(f"{where}: unknown field {sorted(extra)[0]!r} "
                               f"(allowed: sets, unmatched)")
        if "sets" not in hand:
            raise IllegalEvent(f"{where}: missing field 'sets'")
        if "unmatched" not in hand and seat == seller:
            raise IllegalEvent(f"{where}: missing field 'unmatched' (the seller's +100 "
                               f"depends on it)")
        sets = hand["sets"]
        if not isinstance(sets, list):
            raise IllegalEvent(f"{where}: sets must be a list of set sizes such as [3, 3, 2], "
                               f"not {_short(sets)}")
        try:
            return farm_score(sets, hand.get("unmatched", 0), seller=seat == seller)
        except IllegalEvent as e:
            raise IllegalEvent(f"{where}: {e}") from None

    @move("player", "deal", required=("die", "face"))
    def move_butcher(self, state: PigFarmState, event: Event) -> PigFarmState:
        die = event["die"]
        if die not in BUTCHER_DICE:
            raise IllegalEvent(f"butcher: die must be \"colors\" or \"shapes\", not {die!r}")
        face = cast(str, dicemod.die(die).check(event["face"]))  # colors, shapes: text faces
        deal = event.get("deal", False)
        if not isinstance(deal, bool):
            raise IllegalEvent(f"butcher: deal must be true or false, not {deal!r}")
        if deal:
            if not state.at_deal:
                raise IllegalEvent("butcher: a butcher at the deal is rolled before the first "
                                   "turn of the round; a turn has already ended")
            who = self.actor(state, event)  # any seat may have been dealt the butcher
        else:
            self._check_is_current(state, event)
            who = state.table.current
        new = replace(state, last_roll={die: face},
                      last_butcher=Butcher(who, die, face, deal, state.rounds + 1))
        return new if deal else self.end_turn(new)

    def final_winners(self, state: PigFarmState) -> tuple[int, ...]:
        """The group ended the game: the leaders win, if any round was scored."""
        return tbl.best_seats(state.scores) if state.results else ()

    # --- for replay and the screen ------------------------------------------------------------

    def records_roll(self, event: Event) -> bool:
        """A butcher is a roll of the Colors or Shapes die (its face is the last roll)."""
        return event.get("type") == "butcher" or super().records_roll(event)

    def summary(self, state: PigFarmState) -> dict[str, Any]:
        out = super().summary(state)
        b = state.last_butcher
        out.update({
            "scores": list(state.scores),
            "rounds": state.rounds,
            "target": state.target,
            "round_points": [list(r.points) for r in state.results],
            "sellers": [r.seller for r in state.results],
            "last_butcher": None if b is None else {
                "player": b.player, "die": b.die, "face": b.face, "deal": b.deal,
                "round": b.round, "verdict": butcher_verdict(b.die, b.face)},
        })
        return out

    def describe(self, event: Event, header: Header, before: PigFarmState) -> str:
        kind = event.get("type")
        if kind == "sell":
            seller = header.name(before.table.current)
            text = f"{sold_words(seller)} (round {before.rounds + 1})"
            try:  # the round's points, as the move scored them
                points = self.apply(before, event).results[-1].points
            except (IllegalEvent, AttributeError, IndexError):
                return text
            return text + ": " + ", ".join(f"{header.name(seat)} {p}"
                                           for seat, p in enumerate(points))
        if kind == "butcher":
            verdict = butcher_verdict(event.get("die", ""), event.get("face", ""))
            return ("Butcher at the deal: " if event.get("deal") else "Butcher: ") + verdict
        return super().describe(event, header, before)

    def move_calls(self, event: Event, header: Header, before: PigFarmState,
                   after: PigFarmState) -> list[Call]:
        """A sale: "Ann sold the farm for 230" (the seller's points of the round)."""
        if event.get("type") == "sell" and len(after.results) > len(before.results):
            r = after.results[-1]
            return [("move", f"{sold_words(header.name(r.seller))} for {r.points[r.seller]}")]
        return super().move_calls(event, header, before, after)

    def text(self, state: PigFarmState, header: Header) -> str:
        lines = [super().text(state, header)]
        target = "off (open-ended)" if state.target is None else f"{state.target} points"
        lines.append(f"Rounds scored: {state.rounds}; target: {target}")
        for seat in sorted(range(len(header.players)), key=lambda s: -state.scores[s]):
            lines.append(f"  {header.name(seat)}: {state.scores[seat]}")
        if state.last_butcher is not None:
            b = state.last_butcher
            lines.append(f"Last butcher ({header.name(b.player)}, round {b.round}"
                         f"{', at the deal' if b.deal else ''}): {butcher_verdict(b.die, b.face)}")
        return "\n".join(lines)


def sold_words(seller: str) -> str:
    """"Ann sold the farm": the history line's and the spoken call's start."""
    return f"{seller} sold the farm"


def _short(value: object) -> str:
    s = repr(value)
    return s if len(s) <= 40 else s[:37] + "..."
