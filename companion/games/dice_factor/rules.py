"""Dice Factor (docs/rules.md, "Dice Factor"): the roll-off, the two targets, the 8-sided die,
hand limits, and the winner.

The companion does not see the cards; it keeps what the table would otherwise have to
remember: who goes first, what the Colors and Shapes dice show, what the 8-sided die means,
and how many cards each player may hold.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence, cast

from companion.errors import IllegalEvent
from companion.rules import dice as dicemod, table as tbl
from companion.rules.game import Call, Event, Game, Header, State, move
from companion.rules.table import Table

HAND = 5  # the hand limit everyone starts with
LOSE_TURN = range(1, 6)  # 8-sided die 1-5: the player loses the turn


@dataclass(frozen=True)
class DiceFactorState(State):
    colors: str | None = None  # the Colors die's face on the table (None before the first roll)
    shapes: str | None = None
    hand_limits: tuple[int, ...] = ()
    roll_off: tuple[int, ...] | None = None  # the latest roll-off's rolls, by seat
    roll_again: bool = False  # the last move was a roll-off with every roll shared

    @property
    def asks_table(self) -> bool:
        """A roll-off with every roll shared: all roll again, nobody's turn until they do
        or play begins (docs/clock.md)."""
        return self.roll_again


def roll_off_winner(rolls: Sequence[int]) -> int | None:
    """The seat with the highest roll nobody else rolled, or None when every roll is shared.

    docs/rules.md, "Dice Factor": tied players are out of the running; 8, 8, 6, 3 -> the 6.
    """
    unique = [r for r in set(rolls) if list(rolls).count(r) == 1]
    if not unique:
        return None
    return list(rolls).index(max(unique))


def roll_off_words(header: Header, rolls: Any) -> str:
    """The roll-off's history line and call: each player's roll, then who goes first (the
    winner `roll_off_winner` finds, as the engine does): "Roll-off: Ann 4, Ben 6: Ben goes
    first"; every roll shared (the panel's "Tie: roll again"): "Roll-off: Ann 4, Ben 4: a
    tie, roll again"."""
    if not isinstance(rolls, list) or len(rolls) != len(header.players):
        return "Roll-off"
    each = ", ".join(f"{header.name(s)} {r}" for s, r in enumerate(rolls))
    try:
        winner = roll_off_winner(rolls)
    except TypeError:  # not rolls the engine takes: the rolls alone
        return f"Roll-off: {each}"
    if winner is None:
        return f"Roll-off: {each}: a tie, roll again"
    return f"Roll-off: {each}: {header.name(winner)} goes first"


class DiceFactor(Game[DiceFactorState]):
    kind = "dice-factor"
    title = "Dice Factor"
    turn_moves = ("skip", "reverse", "skip_to")
    min_players = 2
    max_players = 16

    def initial(self, header: Header) -> DiceFactorState:
        n = len(header.players)
        return DiceFactorState(table=Table(seats=n, current=header.first),
                               hand_limits=(HAND,) * n)

    # --- who goes first -----------------------------------------------------------------------

    @move(required=("rolls",))
    def move_roll_off(self, state: DiceFactorState, event: Event) -> DiceFactorState:
        rolls = event["rolls"]
        n = state.table.seats
        if not isinstance(rolls, list) or len(rolls) != n:
            raise IllegalEvent(f"roll_off: \"rolls\" must list one 8-sided roll per seat ({n})")
        for seat, r in enumerate(rolls):
            if type(r) is not int or r not in dicemod.D8.faces:
                raise IllegalEvent(f"roll_off: seat {seat} rolled {r!r}; an 8-sided die "
                                   f"shows 1-8")
        if state.table.turns:
            raise IllegalEvent("roll_off: only before the first turn ends")
        winner = roll_off_winner(rolls)
        table = state.table if winner is None else tbl.set_first(state.table, winner)
        return replace(state, table=table, roll_off=tuple(rolls), roll_again=winner is None)

    def apply(self, state: DiceFactorState, event: Event) -> DiceFactorState:
        new = super().apply(state, event)
        if new.roll_again and event.get("type") != "roll_off":
            new = replace(new, roll_again=False)  # play began without the roll-off's answer
        return new

    # --- dice -----------------------------------------------------------------------------------

    @move("player", required=("dice",))
    def move_roll(self, state: DiceFactorState, event: Event) -> DiceFactorState:
        self.actor(state, event)
        dice = dicemod.check_roll(event["dice"])
        if "d8" in dice and ("colors" in dice or "shapes" in dice):
            raise IllegalEvent("roll: the 8-sided die is rolled on its own, not with the "
                               "Colors or Shapes die")
        # The Colors and Shapes dice have text faces (check_roll checked them).
        colors = cast("str | None", dice.get("colors", state.colors))
        shapes = cast("str | None", dice.get("shapes", state.shapes))
        new = replace(state, last_roll=dice, colors=colors, shapes=shapes)
        if dice.get("d8") in LOSE_TURN:
            self._check_is_current(state, event)
            return self.end_turn(new)  # 1-5: the player loses the turn; the companion ends it
        return new

    # --- action cards ---------------------------------------------------------------------------

    @move(required=("player",))
    def move_trade_hands(self, state: DiceFactorState, event: Event) -> DiceFactorState:
        """The current player trades hands with `player`; the hand limits go with the hands."""
        other = tbl.check_seat(state.table, event["player"])
        me = state.table.current
        if other == me:
            raise IllegalEvent("trade_hands: a player cannot trade hands with themself")
        limits = list(state.hand_limits)
        limits[me], limits[other] = limits[other], limits[me]
        return replace(state, hand_limits=tuple(limits))

    @move("player")
    def move_add_card(self, state: DiceFactorState, event: Event) -> DiceFactorState:
        seat = self.actor(state, event)
        limits = list(state.hand_limits)
        limits[seat] += 1
        return replace(state, hand_limits=tuple(limits))

    @move("player")
    def move_win(self, state: DiceFactorState, event: Event) -> DiceFactorState:
        seat = self.actor(state, event)
        if state.colors is None and state.shapes is None:
            raise IllegalEvent("win: the targets have not been rolled yet")
        return replace(state, over=True, winners=(seat,))

    # --- for replay and the screen --------------------------------------------------------------

    def summary(self, state: DiceFactorState) -> dict[str, Any]:
        out = super().summary(state)
        out["targets"] = {"colors": state.colors, "shapes": state.shapes}
        out["hand_limits"] = list(state.hand_limits)
        return out

    def describe(self, event: Event, header: Header, before: DiceFactorState) -> str:
        kind = event.get("type")
        seat = event.get("player")
        named = header.name(seat) if isinstance(seat, int) and not isinstance(seat, bool) \
            and 0 <= seat < len(header.players) else None
        cur = header.name(before.table.current)
        if kind == "roll_off":
            return roll_off_words(header, event.get("rolls"))
        if kind == "roll" and self.loses_turn(event):
            return f"{super().describe(event, header, before)}: {named or cur} loses the turn"
        if kind == "trade_hands":
            return f"{cur} traded hands with {named}"
        if kind == "add_card":
            return f"{named or cur}: add a card"
        if kind == "win":
            return f"{named or cur} wins"
        return super().describe(event, header, before)

    @staticmethod
    def loses_turn(event: Event) -> bool:
        """A roll of the 8-sided die that ends the turn (1-5)."""
        dice = event.get("dice")
        return isinstance(dice, dict) and dice.get("d8") in LOSE_TURN

    def roll_calls(self, event: Event, header: Header, before: DiceFactorState,
                   after: DiceFactorState) -> list[Call]:
        """A roll that loses the turn says so as a move, so that the turn call after it has
        its reason even when roll calls are off: "Ann rolled 3: Ann loses the turn"."""
        if self.loses_turn(event) and after.table.turns > before.table.turns:
            return [("move", self.describe(event, header, before))]
        return super().roll_calls(event, header, before, after)

    def move_calls(self, event: Event, header: Header, before: DiceFactorState,
                   after: DiceFactorState) -> list[Call]:
        """The roll-off says every roll and who goes first (its history line), as a turn
        call: "Roll-off: Ann 4, Ben 6: Ben goes first"; a tie names nobody's turn, so it is
        a move: "Roll-off: Ann 4, Ben 4: a tie, roll again"."""
        if event.get("type") == "roll_off":
            line = self.describe(event, header, before)
            return [("turn" if roll_off_winner(event["rolls"]) is not None else "move", line)]
        return super().move_calls(event, header, before, after)

    def text(self, state: DiceFactorState, header: Header) -> str:
        lines = [super().text(state, header)]
        lines.append(f"Targets: colors {state.colors or '-'}, shapes {state.shapes or '-'}")
        lines.append("Hand limits: " + ", ".join(f"{header.name(s)} {n}"
                                                 for s, n in enumerate(state.hand_limits)))
        return "\n".join(lines)
