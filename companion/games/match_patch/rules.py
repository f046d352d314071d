"""Match Patch (docs/rules.md, "Match Patch"): who goes first by mini-pips, pairs per player.

Who goes first: the highest mini-pip total on the 3 dealt cards. When two or more share it the
rulebook's tie-breaks are social, so the group picks among the tied players (a `first` event);
until then the current player stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalEvent
from companion.rules import table as tbl
from companion.rules.game import Event, Game, Header, State, move
from companion.rules.table import Table

MAX_PIPS = 99  # a sanity bound on a 3-card mini-pip total, to catch a mistyped entry


@dataclass(frozen=True)
class MatchPatchState(State):
    scores: tuple[int, ...] = ()  # pairs, by seat
    pips: tuple[int, ...] | None = None  # the latest mini-pip totals, by seat
    tied: tuple[int, ...] = ()  # seats tied on the highest total, waiting for the group's pick

    @property
    def asks_table(self) -> bool:
        """A tie for the most mini-pips: the group picks who goes first, nobody's turn
        (docs/clock.md)."""
        return bool(self.tied)


class MatchPatch(Game[MatchPatchState]):
    kind = "match-patch"
    title = "Match Patch"
    turn_moves = ("skip_to",)
    min_players = 2
    max_players = 16

    def initial(self, header: Header) -> MatchPatchState:
        n = len(header.players)
        return MatchPatchState(table=Table(seats=n, current=header.first), scores=(0,) * n)

    @move(required=("pips",))
    def move_pips(self, state: MatchPatchState, event: Event) -> MatchPatchState:
        pips = event["pips"]
        n = state.table.seats
        if not isinstance(pips, list) or len(pips) != n:
            raise IllegalEvent(f"pips: \"pips\" must list one mini-pip total per seat ({n})")
        for seat, p in enumerate(pips):
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= MAX_PIPS:
                raise IllegalEvent(f"pips: seat {seat}'s total must be 0-{MAX_PIPS}, not {p!r}")
        if state.table.turns:
            raise IllegalEvent("pips: only before the first turn ends")
        top = tbl.best_seats(pips)
        if len(top) == 1:
            return replace(state, table=tbl.set_first(state.table, top[0]), pips=tuple(pips),
                           tied=())
        return replace(state, pips=tuple(pips), tied=top)

    @move(required=("player",))
    def move_first(self, state: MatchPatchState, event: Event) -> MatchPatchState:
        # docs/rules.md, "Match Patch": on a tie "the group picks among the tied players".
        if state.tied and event["player"] not in state.tied:
            tied = ", ".join(str(s) for s in state.tied)
            raise IllegalEvent(f"first: seats {tied} are tied for the most mini-pips; "
                               f"the group picks one of them")
        new = super().move_first(state, event)
        return replace(new, tied=())

    @move("player")
    def move_pair(self, state: MatchPatchState, event: Event) -> MatchPatchState:
        seat = self.actor(state, event)
        scores = list(state.scores)
        scores[seat] += 1
        return replace(state, scores=tuple(scores), tied=())

    def end_turn(self, state: MatchPatchState) -> MatchPatchState:
        return replace(super().end_turn(state), tied=())

    def final_winners(self, state: MatchPatchState) -> tuple[int, ...]:
        return tbl.leaders(state.scores)

    def summary(self, state: MatchPatchState) -> dict[str, Any]:
        out = super().summary(state)
        out["scores"] = list(state.scores)
        return out

    def describe(self, event: Event, header: Header, before: MatchPatchState) -> str:
        kind = event.get("type")
        if kind == "pips":
            return "Mini-pips " + " ".join(str(p) for p in event.get("pips", []))
        if kind == "pair":
            seat = event.get("player", before.table.current)
            ok = isinstance(seat, int) and 0 <= seat < len(header.players)
            return f"Pair for {header.name(seat) if ok else seat}"
        return super().describe(event, header, before)

    def text(self, state: MatchPatchState, header: Header) -> str:
        lines = [super().text(state, header)]
        lines.append("Pairs: " + ", ".join(f"{header.name(s)} {n}"
                                           for s, n in enumerate(state.scores)))
        return "\n".join(lines)
