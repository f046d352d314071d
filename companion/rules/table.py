"""The shared table: seats, whose turn, direction, pending skips, eliminated seats.

Pure functions over a frozen `Table` (docs/rules.md, "Common to all games", "Turn
semantics"). Seats are 0..n-1 clockwise; direction +1 is clockwise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from companion.errors import IllegalEvent


@dataclass(frozen=True)
class Table:
    seats: int
    current: int = 0
    direction: int = 1
    pending_skips: int = 0
    eliminated: frozenset[int] = frozenset()
    turns: int = 0  # turns ended so far (by next, skip_to, or a game move that ends the turn)
    picked: bool = False  # the table has picked who goes first (set_first)

    @property
    def active(self) -> list[int]:
        return [s for s in range(self.seats) if s not in self.eliminated]

    def step(self, seat: int, count: int = 1, direction: int | None = None) -> int:
        """The seat `count` active seats away from `seat` (eliminated seats are passed over)."""
        d = self.direction if direction is None else direction
        if not self.active:
            return seat
        for _ in range(count):
            seat = (seat + d) % self.seats
            while seat in self.eliminated:
                seat = (seat + d) % self.seats
        return seat

    @property
    def passed_over(self) -> tuple[int, ...]:
        """The seats the pending skips pass over if the turn ended now, in order, in the
        direction then in force (the Table's own step, past the eliminated). What a skip's
        call names (each seat once) and what the seat ring blinks; a later reverse changes
        it, so it is always read from the state after the move."""
        seat, out = self.current, []
        for _ in range(self.pending_skips):
            seat = self.step(seat)
            out.append(seat)
        return tuple(out)

    @property
    def upcoming(self) -> int:
        """Who plays after the current player if the turn ended now (pending skips included)."""
        return self.step(self.current, 1 + self.pending_skips)


def best_seats(values: Sequence[int], *, lowest: bool = False) -> tuple[int, ...]:
    """The seats holding the highest (or, with `lowest`, the lowest) value; ties share.

    Winners, leaders, who goes first on pips: every game asks this of a list by seat.
    """
    if not values:
        return ()
    best = min(values) if lowest else max(values)
    return tuple(s for s, v in enumerate(values) if v == best)


def leaders(scores: Sequence[int]) -> tuple[int, ...]:
    """The seats with the most points; nobody when nobody scored (the winners of a game the
    group ends by hand, in the kinds that count points up)."""
    return best_seats(scores) if max(scores, default=0) > 0 else ()


def check_seat(table: Table, seat: object, *, field: str = "player", active: bool = True) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.seats:
        raise IllegalEvent(f"{field} must be a seat number 0-{table.seats - 1}, not {seat!r}")
    if active and seat in table.eliminated:
        raise IllegalEvent(f"seat {seat} is eliminated")
    return seat


def end_turn(t: Table) -> Table:
    """`next`: play moves to the next active seat, one further for each pending skip."""
    return replace(t, current=t.upcoming, pending_skips=0, turns=t.turns + 1)


def skip(t: Table, count: int = 1) -> Table:
    return replace(t, pending_skips=t.pending_skips + count)


def reverse(t: Table) -> Table:
    return replace(t, direction=-t.direction)


def reverse_skip(t: Table) -> Table:
    return skip(reverse(t))


def skip_to(t: Table, seat: int) -> Table:
    """End the turn at once and make `seat` the current player; pending skips are dropped."""
    check_seat(t, seat)
    return replace(t, current=seat, pending_skips=0, turns=t.turns + 1)


def set_first(t: Table, seat: int) -> Table:
    """The group's pick of who goes first: sets the current player without ending a turn."""
    check_seat(t, seat)
    return replace(t, current=seat, pending_skips=0, picked=True)


def eliminate(t: Table, seat: int) -> Table:
    return replace(t, eliminated=t.eliminated | {seat})
