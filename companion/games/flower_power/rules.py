"""Flower Power (docs/rules.md, "Flower Power"): the community garden and the flowers each
player has taken.

The garden holds at most one flower in progress per color, 0-4 petals each. The player who
places a flower's 5th petal takes it (+1); petals beyond the 5th start a new flower of that
color. A player plays 1-5 cards a turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalEvent
from companion.rules import table as tbl
from companion.rules.game import Event, Game, Header, State, move
from companion.rules.table import Table

COLORS = ("red", "orange", "yellow", "green", "blue")
PETALS = 5  # petals to a flower
MAX_CARDS = 5  # cards a player may play in one turn


@dataclass(frozen=True)
class FlowerState(State):
    garden: tuple[int, ...] = (0,) * len(COLORS)  # petals of the flower in progress, by color
    scores: tuple[int, ...] = ()  # flowers taken, by seat
    played: int = 0  # cards the current player has played this turn


class FlowerPower(Game[FlowerState]):
    kind = "flower-power"
    title = "Flower Power"
    turn_moves = ("skip_to",)
    min_players = 2
    max_players = 16

    def initial(self, header: Header) -> FlowerState:
        n = len(header.players)
        return FlowerState(table=Table(seats=n, current=header.first), scores=(0,) * n)

    @move(required=("color", "count"))
    def move_petals(self, state: FlowerState, event: Event) -> FlowerState:
        color, count = event["color"], event["count"]
        if color not in COLORS:
            raise IllegalEvent(f"petals: color must be one of {', '.join(COLORS)}, "
                               f"not {color!r}")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_CARDS:
            raise IllegalEvent(f"petals: count must be 1-{MAX_CARDS}, not {count!r}")
        if state.played + count > MAX_CARDS:
            raise IllegalEvent(f"petals: a player plays at most {MAX_CARDS} cards a turn "
                               f"({state.played} played already)")
        i = COLORS.index(color)
        total = state.garden[i] + count
        garden = list(state.garden)
        garden[i] = total % PETALS
        scores = list(state.scores)
        scores[state.table.current] += total // PETALS
        return replace(state, garden=tuple(garden), scores=tuple(scores),
                       played=state.played + count)

    def with_table(self, state: FlowerState, table: Table) -> FlowerState:
        # A new player's turn starts with no cards played (next, skip_to, first).
        if table.current != state.table.current or table.turns != state.table.turns:
            return replace(state, table=table, played=0)
        return replace(state, table=table)

    def final_winners(self, state: FlowerState) -> tuple[int, ...]:
        return tbl.leaders(state.scores)

    def summary(self, state: FlowerState) -> dict[str, Any]:
        out = super().summary(state)
        out["scores"] = list(state.scores)
        out["garden"] = dict(zip(COLORS, state.garden))
        return out

    def describe(self, event: Event, header: Header, before: FlowerState) -> str:
        if event.get("type") == "petals":
            n = event.get("count")
            return f"{header.name(before.table.current)}: {n} {event.get('color')} " \
                   f"petal{'s' if n != 1 else ''}"
        return super().describe(event, header, before)

    def text(self, state: FlowerState, header: Header) -> str:
        lines = [super().text(state, header)]
        lines.append("Garden: " + ", ".join(f"{c} {p}" for c, p in zip(COLORS, state.garden)))
        lines.append("Flowers: " + ", ".join(f"{header.name(s)} {n}"
                                             for s, n in enumerate(state.scores)))
        return "\n".join(lines)
