"""Coin Toss: the rules (README.md here). Pure: state + event -> new state.

Each turn the player whose turn it is calls heads or tails and a real coin is tossed; the
companion records whether the call was right. A right call scores a point. The toss ends the
turn. The first player to reach the target (house rule `target`, default 3) wins at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalEvent
from companion.rules.game import Event, Game, Header, State, move
from companion.rules.table import Table


@dataclass(frozen=True)
class CoinState(State):
    points: tuple[int, ...] = ()  # right calls, by seat
    target: int = 3


class CoinToss(Game[CoinState]):
    kind = "coin-toss"
    title = "Coin Toss"
    turn_moves = ("skip_to",)  # the panel menu offers it (Mode.turn_actions reads it)
    min_players = 2
    max_players = 4  # the panel shows every player's points on one line
    default_rules = {"target": 3}

    def check_rule(self, key: str, value: Any) -> Any:
        value = super().check_rule(key, value)
        if key == "target" and not 1 <= value <= 99:
            raise IllegalEvent(f"house rule target must be 1-99, not {value}")
        return value

    def initial(self, header: Header) -> CoinState:
        n = len(header.players)
        return CoinState(table=Table(seats=n, current=header.first), points=(0,) * n,
                         target=header.rules["target"])  # the defaults merged in

    @move(required=("right",))
    def move_toss(self, state: CoinState, event: Event) -> CoinState:
        """The current player's call was right (a point) or wrong; the turn passes."""
        right = event["right"]
        if not isinstance(right, bool):
            raise IllegalEvent(f"toss: right must be true or false, not {right!r}")
        seat = state.table.current
        points = list(state.points)
        points[seat] += int(right)
        state = replace(state, points=tuple(points))
        if points[seat] >= state.target:
            return replace(state, over=True, winners=(seat,))
        return self.end_turn(state)

    def final_winners(self, state: CoinState) -> tuple[int, ...]:
        best = max(state.points, default=0)
        return tuple(s for s, p in enumerate(state.points) if p == best) if best else ()

    def summary(self, state: CoinState) -> dict[str, Any]:
        out = super().summary(state)
        out["points"] = list(state.points)
        out["target"] = state.target
        return out

    def describe(self, event: Event, header: Header, before: State) -> str:
        if event.get("type") == "toss":
            who = header.name(before.table.current)
            return f"{who} called it {'right' if event.get('right') else 'wrong'}"
        return super().describe(event, header, before)

    def text(self, state: CoinState, header: Header) -> str:
        points = ", ".join(f"{header.name(s)} {p}" for s, p in enumerate(state.points))
        return super().text(state, header) + f"\nPoints (first to {state.target}): {points}"
