"""Rainbow Rush (docs/rules.md, "Rainbow Rush"): turn keeping plus the discard lock.

When a wild replaces a card in a rainbow, the replaced card goes on the discard pile and may
not be picked up until two further turns have passed. `discard_lock` counts the turn ends
still to come before it is free: 2 right after the wild, 1 during the next turn, 0 (free) on
the turn after that -- the rulebook's "still on top of the discard pile 2 turns later it may
be picked up" (docs/rules-readings.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.rules.game import Event, Game, Header, State, move
from companion.rules.table import Table

LOCK_TURNS = 2


@dataclass(frozen=True)
class RainbowState(State):
    discard_lock: int = 0  # turn ends left before the replaced card may be picked up


class RainbowRush(Game[RainbowState]):
    kind = "rainbow-rush"
    title = "Rainbow Rush"
    turn_moves = ("skip_to",)
    min_players = 2
    max_players = 16

    def initial(self, header: Header) -> RainbowState:
        return RainbowState(table=Table(seats=len(header.players), current=header.first))

    @move("player")
    def move_wild_replace(self, state: RainbowState, event: Event) -> RainbowState:
        """A wild replaced a card in a rainbow; that card tops the discard pile, locked."""
        self.actor(state, event)
        return replace(state, discard_lock=LOCK_TURNS)

    @move("player")
    def move_win(self, state: RainbowState, event: Event) -> RainbowState:
        seat = self.actor(state, event)
        return replace(state, over=True, winners=(seat,))

    def end_turn(self, state: RainbowState) -> RainbowState:
        return _count_down(super().end_turn(state))

    def end_turn_to(self, state: RainbowState, seat: int) -> RainbowState:
        return _count_down(super().end_turn_to(state, seat))

    def summary(self, state: RainbowState) -> dict[str, Any]:
        out = super().summary(state)
        out["discard_lock"] = state.discard_lock
        return out

    def describe(self, event: Event, header: Header, before: RainbowState) -> str:
        kind = event.get("type")
        seat = event.get("player", before.table.current)
        who = header.name(seat) if isinstance(seat, int) and not isinstance(seat, bool) \
            and 0 <= seat < len(header.players) else str(seat)
        if kind == "wild_replace":
            return "Wild replaced a card"
        if kind == "win":
            return f"{who} wins"
        return super().describe(event, header, before)

    def text(self, state: RainbowState, header: Header) -> str:
        lock = state.discard_lock
        note = "free" if not lock else f"locked for {lock} more turn end{'s' if lock > 1 else ''}"
        return super().text(state, header) + f"\nReplaced card on the discard pile: {note}"


def _count_down(state: RainbowState) -> RainbowState:
    return replace(state, discard_lock=max(0, state.discard_lock - 1))
