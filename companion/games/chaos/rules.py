"""Chaos: the shedding game (docs/rules.md, "Chaos"; seeds/chaos-base-set.txt).

The companion keeps the turn, the direction, the announced color, the two draw stacks and the
round points. Cards in hand are not tracked.

Turn-ending (our reading of the seed text, see docs/rules-readings.md):
- Pick a Color, Pick a Color Draw 4 and Two Train are wild/black cards: each is the one card a
  player discards in a turn and can never be the last card of a Color Dump, so playing one ends
  the turn at once (pending skips apply, as with `next`).
- The Draw 4 stack is owed by the current player: while it is above 0 the current player must
  either answer with another Draw 4 (`draw_four`) or take the cards (`take_draw_four`);
  nothing else is accepted (except `roll`, `first`, `round_points` and `end`).
- Taking a stack (`take_draw_four`, `take_train`) does not end the turn: "after drawing, you may
  choose to play or pass" (`next`).
- The Two Train stays on "Train!" across turns; whoever draws instead of playing takes it.
- Skip, double skip, reverse, reverse-then-skip, swap hands and color dump are colored cards
  (they can close a Color Dump): they leave the turn open and NEXT ends it, as in every game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from companion.errors import IllegalEvent
from companion.rules import table as tbl
from companion.rules.game import Call, Event, Game, Header, NextNeeds, State, move
from companion.rules.table import Table

# The four card colors ("making sure it's either blue, green, orange, or red").
COLORS: tuple[str, ...] = ("red", "orange", "green", "blue")
TARGET = 500  # "If a player reaches 500 points, the player with the least number of points wins"
DRAW_FOUR = 4
TWO_TRAIN = 2
# Events the current player may still send while a Draw 4 stack is waiting for them.
ALLOWED_WHILE_OWING = frozenset({"draw_four", "take_draw_four", "roll", "first", "round_points",
                                 "end"})


@dataclass(frozen=True)
class ChaosState(State):
    color: str | None = None  # the last announced color (Pick a Color, Draw 4, Color Dump)
    train: int = 0  # cards on "Train!": 2 per black Two Train card
    draw_stack: int = 0  # Draw 4 stack the current player owes
    scores: tuple[int, ...] = ()  # bad points by seat
    rounds: int = 0  # rounds scored
    starter: int = 0  # who went first in this round (the seat after the dealer)
    dealing: bool = False  # a round was just scored: the table picks who deals the next

    @property
    def asks_table(self) -> bool:
        """Who deals the next round is the whole table's question: nobody's turn runs
        until it is answered or play begins (docs/clock.md)."""
        return self.dealing


def first_in_direction(table: Table, seats: Iterable[int]) -> int:
    """Skip to Most: the first of `seats` met going round from the current player.

    The player after the current one comes first; the current player (who may also hold the
    most cards) comes last. docs/rules.md, "Common to all games": "on a tie for most cards the first
    of the tied players in the current direction is chosen".
    """
    wanted = {tbl.check_seat(table, s) for s in seats}
    if not wanted:
        raise IllegalEvent("skip to most: mark at least one player")
    seat = table.current
    for _ in range(table.seats):
        seat = table.step(seat)
        if seat in wanted:
            return seat
    raise IllegalEvent("skip to most: none of the marked players is still playing")


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten", "eleven", "twelve")


def owed_words(cards: int) -> str:
    """"draw four", "draw eight", "draw 16": what the Draw 4 stack makes the next player
    draw, said as the card is named (a number in words while there is one)."""
    word = NUMBER_WORDS[cards] if 0 <= cards < len(NUMBER_WORDS) else str(cards)
    return f"draw {word}"


class Chaos(Game[ChaosState]):
    kind = "chaos"
    title = "Chaos"
    turn_moves = ("skip", "double_skip", "reverse", "reverse_skip")
    own_turn_moves = ("skip_to",)  # Skip to most: its own screen (MarkMost) emits a skip_to
    min_players = 3
    max_players = 16
    default_rules = {}

    def initial(self, header: Header) -> ChaosState:
        n = len(header.players)
        return ChaosState(table=Table(seats=n, current=header.first), scores=(0,) * n,
                          starter=header.first)

    def apply(self, state: ChaosState, event: Event) -> ChaosState:
        if isinstance(state, ChaosState) and state.draw_stack and not state.over \
                and isinstance(event, dict) and isinstance(event.get("type"), str) \
                and event["type"] in self.moves \
                and event["type"] not in ALLOWED_WHILE_OWING:
            raise IllegalEvent(f"{event['type']}: seat {state.table.current} must first take "
                               f"the {state.draw_stack} cards of the Draw 4 stack "
                               f"(take_draw_four) or answer with a Draw 4")
        new = super().apply(state, event)
        # Any move after the scoring answers "who deals?" or begins the round without it.
        if new.dealing and event.get("type") != "round_points":
            new = replace(new, dealing=False)
        return new

    # --- cards ---------------------------------------------------------------------------------

    def _color(self, event: Event) -> str:
        c = event["color"]
        if c not in COLORS:
            raise IllegalEvent(f"{event['type']}: color must be one of {', '.join(COLORS)}, "
                               f"not {c!r}")
        return c

    @move("player", required=("color",))
    def move_pick_color(self, state: ChaosState, event: Event) -> ChaosState:
        """Pick a Color: the announced color stays on screen; the card ends the turn."""
        self._check_is_current(state, event)
        return self.end_turn(replace(state, color=self._color(event)))

    @move("player", required=("color",))
    def move_draw_four(self, state: ChaosState, event: Event) -> ChaosState:
        """Pick a Color Draw 4: the next player owes 4 more (or answers with a Draw 4)."""
        self._check_is_current(state, event)
        return self.end_turn(replace(state, color=self._color(event),
                                     draw_stack=state.draw_stack + DRAW_FOUR))

    @move("player")
    def move_two_train(self, state: ChaosState, event: Event) -> ChaosState:
        """A black Two Train card on "Train!": +2 to the train; the card ends the turn."""
        self._check_is_current(state, event)
        return self.end_turn(replace(state, train=state.train + TWO_TRAIN))

    @move("player")
    def move_take_train(self, state: ChaosState, event: Event) -> ChaosState:
        """The current player draws the train's total; the train is scrapped. Turn goes on."""
        self._check_is_current(state, event)
        if not state.train:
            raise IllegalEvent("take_train: there is no Two Train to take")
        return replace(state, train=0)

    @move("player")
    def move_take_draw_four(self, state: ChaosState, event: Event) -> ChaosState:
        """The current player draws the Draw 4 stack; then they may play or pass."""
        self._check_is_current(state, event)
        if not state.draw_stack:
            raise IllegalEvent("take_draw_four: there is no Draw 4 stack to take")
        return replace(state, draw_stack=0)

    @move("player", required=("players",))
    def move_swap_hands(self, state: ChaosState, event: Event) -> ChaosState:
        """Swap Hands: recorded for the history; the companion counts no cards, so nothing
        it keeps changes. The turn stays open (NEXT ends it)."""
        self._check_is_current(state, event)
        pair = event["players"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise IllegalEvent(f"swap_hands: players must be a list of two seats, not {pair!r}")
        a, b = (tbl.check_seat(state.table, s, field="players") for s in pair)
        if a == b:
            raise IllegalEvent("swap_hands: name two different players")
        return state

    @move("player", required=("color",))
    def move_color_dump(self, state: ChaosState, event: Event) -> ChaosState:
        """Color Dump: the dumped color is now the color on "Discard!". Turn stays open, so a
        last action card of the dump (skip, reverse...) can follow before NEXT."""
        self._check_is_current(state, event)
        return replace(state, color=self._color(event))

    # --- rounds --------------------------------------------------------------------------------

    @move(required=("points",))
    def move_round_points(self, state: ChaosState, event: Event) -> ChaosState:
        points = event["points"]
        n = state.table.seats
        if not isinstance(points, list) or len(points) != n:
            raise IllegalEvent(f"round_points: points must be a list of {n} numbers, "
                               f"one per seat")
        for seat, p in enumerate(points):
            if isinstance(p, bool) or not isinstance(p, int) or p < 0:
                raise IllegalEvent(f"round_points: seat {seat}'s points must be a whole "
                                   f"number 0 or more, not {p!r}")
        if 0 not in points:
            raise IllegalEvent("round_points: the round ends when a player is out of cards, "
                               "so at least one player has 0 points")
        scores = tuple(s + p for s, p in zip(state.scores, points))
        # A new round: direction card back to clockwise, nothing on the stacks, no color.
        table = replace(state.table, direction=1, pending_skips=0)
        new = replace(state, table=table, scores=scores, rounds=state.rounds + 1, color=None,
                      train=0, draw_stack=0, dealing=True)
        if max(scores) >= TARGET:
            return replace(new, over=True, winners=self.final_winners(new), dealing=False)
        return new

    @move(required=("player",))
    def move_first(self, state: ChaosState, event: Event) -> ChaosState:
        new = super().move_first(state, event)
        return replace(new, starter=new.table.current)

    def next_needs(self, state: ChaosState) -> NextNeeds | None:
        """While a Draw 4 stack is owed, NEXT needs a choice first: take the stack, or
        answer with a Draw 4 (the engine refuses any other move then, in the log too)."""
        if not state.draw_stack:
            return None
        return NextNeeds(("take_draw_four", "draw_four"),
                         f"Take the Draw 4 stack ({state.draw_stack} cards) or answer with a "
                         f"Draw 4 first")

    def final_winners(self, state: ChaosState) -> tuple[int, ...]:
        """Fewest points wins (ties share); before any round is scored, nobody."""
        if not state.rounds:
            return ()
        return tbl.best_seats(state.scores, lowest=True)

    # --- for replay and the screen -------------------------------------------------------------

    def question(self, state: ChaosState, last: Event | None) -> dict[str, Any] | None:
        """After a round is scored and the game goes on: who deals the next one? The dealing
        passes on: the one suggested is the seat that went first last round."""
        if state.dealing:  # the question the clock counts as nobody's turn (asks_table)
            return {"kind": "dealer", "suggested": state.starter}
        return None

    def summary(self, state: ChaosState) -> dict[str, Any]:
        out = super().summary(state)
        out.update(color=state.color, train=state.train, draw_stack=state.draw_stack,
                   scores=list(state.scores), rounds=state.rounds)
        return out

    def describe(self, event: Event, header: Header, before: ChaosState) -> str:
        who = header.name(before.table.current) if isinstance(before, State) else "?"
        kind = event.get("type")
        if kind == "pick_color":
            return f"{who} picked {str(event.get('color')).upper()}"
        if kind == "draw_four":
            return f"{who}: Draw 4, {str(event.get('color')).upper()}"
        if kind == "two_train":
            return f"{who}: Two Train +2"
        if kind == "take_train":
            return f"{who} took the train ({getattr(before, 'train', 0)})"
        if kind == "take_draw_four":
            return f"{who} drew {getattr(before, 'draw_stack', 0)}"
        if kind == "swap_hands":
            pair = event.get("players") or []
            if isinstance(pair, list) and len(pair) == 2 and all(
                    isinstance(s, int) and 0 <= s < len(header.players) for s in pair):
                return f"Swap: {header.name(pair[0])} & {header.name(pair[1])}"
            return "Swap hands"
        if kind == "color_dump":
            return f"{who}: Color Dump {str(event.get('color')).upper()}"
        if kind == "round_points":
            points = event.get("points")
            if isinstance(points, list) and len(points) == len(header.players):
                return "Round points: " + ", ".join(f"{header.name(seat)} {p}"
                                                    for seat, p in enumerate(points))
            return "Round points"
        return super().describe(event, header, before)

    def move_calls(self, event: Event, header: Header, before: ChaosState,
                   after: ChaosState) -> list[Call]:
        """A Draw 4 is called out with the game's own shout and what the next player owes:
        "Chaos: draw four", stacked "Chaos: draw eight" (docs/speech.md)."""
        if event.get("type") == "draw_four":
            return [("move", f"{self.title}: {owed_words(after.draw_stack)}")]
        return super().move_calls(event, header, before, after)

    def text(self, state: ChaosState, header: Header) -> str:
        lines = [super().text(state, header)]
        lines.append(f"Color: {state.color or 'none called'}")
        lines.append(f"Two Train: {state.train}   Draw 4 stack: {state.draw_stack}")
        lines.append(f"Rounds: {state.rounds}")
        for seat, pts in enumerate(state.scores):
            lines.append(f"  {header.name(seat)}: {pts} points")
        return "\n".join(lines)
