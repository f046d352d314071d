"""Drop Rainbow: press your luck (docs/rules.md, "Drop Rainbow"; seeds/drop-rainbow.txt).

The companion tallies the whole game from the colors called out as cards turn up: the face-up
top card, the cards "to the side", each player's score cards, and the turn.

Card accounting (never lost, never duplicated): every colored card turned up is exactly one of
the top card, a side card, a score card or a discarded card. The rainbow card scores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalEvent
from companion.rules import table as tbl
from companion.rules.game import Event, Game, Header, NextNeeds, State, move
from companion.rules.table import Table

RAINBOW = "rainbow"
DEFAULT_COLORS = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
NAME_MAX = 10  # characters: a color name must fit the screen's big word


@dataclass(frozen=True)
class DropRainbowState(State):
    colors: tuple[str, ...] = DEFAULT_COLORS  # the seven suit colors (header rule)
    top: str | None = None  # the face-up top card; None until the first card is revealed
    side: tuple[str, ...] = ()  # cards to the side of the deck, oldest first
    score: tuple[tuple[str, ...], ...] = ()  # score cards by seat, in the order banked
    discarded: int = 0  # side cards lost to failures
    turned: int = 0  # colored cards turned up so far (the rainbow not counted)
    ended_by: str = ""  # "seven" (all seven colors), "rainbow", or "group" (the end event)

    def failing(self) -> set[str]:
        """Colors that would fail on the next draw: the side cards plus the top card, which
        moves to the side before the new card is compared."""
        return set(self.side) | ({self.top} if self.top and self.top != RAINBOW else set())

    def collected(self, seat: int) -> list[str]:
        """The distinct colors among a seat's score cards, in the game's color order."""
        have = set(self.score[seat])
        return [c for c in self.colors if c in have]


class DropRainbow(Game[DropRainbowState]):
    kind = "drop-rainbow"
    title = "Drop Rainbow"
    turn_moves = ()
    min_players = 2
    max_players = 5
    default_rules = {"colors": list(DEFAULT_COLORS)}

    def check_rule(self, key: str, value: Any) -> Any:
        if key != "colors":
            return super().check_rule(key, value)
        if not isinstance(value, (list, tuple)) or len(value) != len(DEFAULT_COLORS):
            raise IllegalEvent(f"house rule colors must be a list of 7 color names, "
                               f"not {value!r}")
        seen: set[str] = set()
        for name in value:
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise IllegalEvent(f"house rule colors: {name!r} is not a color name")
            if len(name) > NAME_MAX:
                raise IllegalEvent(f"house rule colors: {name!r} is longer than "
                                   f"{NAME_MAX} characters")
            if name.lower() == RAINBOW:
                raise IllegalEvent("house rule colors: 'rainbow' is the rainbow card, "
                                   "not a suit color")
            if name.lower() in seen:
                raise IllegalEvent(f"house rule colors: {name!r} appears twice")
            seen.add(name.lower())
        return list(value)

    def initial(self, header: Header) -> DropRainbowState:
        n = len(header.players)
        colors = tuple(header.rules.get("colors", DEFAULT_COLORS))
        return DropRainbowState(table=Table(seats=n, current=header.first), colors=colors,
                                score=((),) * n)

    # --- checks --------------------------------------------------------------------------------

    def _check_color(self, state: DropRainbowState, event: Event, *, rainbow: bool) -> str:
        c = event["color"]
        if c in state.colors or (rainbow and c == RAINBOW):
            return c
        allowed = ", ".join(state.colors) + (f" or {RAINBOW}" if rainbow else "")
        if c == RAINBOW:
            raise IllegalEvent(f"{event['type']}: the rainbow card is shuffled into the bottom "
                               f"half of the deck, so it cannot be the first card")
        raise IllegalEvent(f"{event['type']}: color must be one of {allowed}, not {c!r}")

    def _check_revealed(self, state: DropRainbowState, event: Event) -> str:
        """The top card, once the first card is turned up."""
        if state.top is None:
            raise IllegalEvent(f"{event['type']}: turn up the first card first (reveal)")
        return state.top

    # --- moves ---------------------------------------------------------------------------------

    @move(required=("color",))
    def move_reveal(self, state: DropRainbowState, event: Event) -> DropRainbowState:
        """Set-up: the first face-up card."""
        if state.top is not None:
            raise IllegalEvent("reveal: the first card is already face up")
        return replace(state, top=self._check_color(state, event, rainbow=False),
                       turned=state.turned + 1)

    @move("player", required=("color",))
    def move_draw(self, state: DropRainbowState, event: Event) -> DropRainbowState:
        """The top card moves to the side; `color` is the card turned up in its place."""
        self._check_is_current(state, event)
        top = self._check_revealed(state, event)
        c = self._check_color(state, event, rainbow=True)
        side = state.side + (top,)
        if c == RAINBOW:
            # The drawer takes every card turned over; the rainbow itself scores nothing.
            drawer = state.table.current
            new = self._banked(replace(state, top=RAINBOW, side=side), drawer)
            if self._has_all(new, drawer):
                return replace(new, over=True, winners=(drawer,), ended_by="seven")
            return replace(new, over=True, winners=self._most(new), ended_by="rainbow")
        if c in side:  # failure: the side cards are discarded, the new card stays on top
            failed = replace(state, top=c, side=(), discarded=state.discarded + len(side),
                             turned=state.turned + 1)
            return self.end_turn(failed)
        return replace(state, top=c, side=side, turned=state.turned + 1)  # success

    @move("player")
    def move_bank(self, state: DropRainbowState, event: Event) -> DropRainbowState:
        """The current player keeps the side cards as score cards (none: nothing); turn ends."""
        self._check_is_current(state, event)
        self._check_revealed(state, event)
        seat = state.table.current
        new = self._banked(state, seat)
        if self._has_all(new, seat):
            return replace(new, over=True, winners=(seat,), ended_by="seven")
        return self.end_turn(new)

    def next_needs(self, state: DropRainbowState) -> NextNeeds | None:
        """The box's NEXT banks the side cards (with none: the rules' bank at the start of a
        turn, which is a bare next). So a bare NEXT needs a choice first while side cards
        wait (bank them or draw) and before the first card is turned up (the panel's NEXT
        says so too)."""
        if state.top is None:
            return NextNeeds(("reveal",), "Turn up the first card first")
        if state.side:
            return NextNeeds(("bank", "draw"), "Bank the side cards or draw first")
        return None

    # --- turn endings --------------------------------------------------------------------------

    def end_turn(self, state: DropRainbowState) -> DropRainbowState:
        if state.side:
            raise IllegalEvent(f"seat {state.table.current} has {len(state.side)} side "
                               f"card(s): bank them or draw")
        return super().end_turn(state)

    def end_turn_to(self, state: DropRainbowState, seat: int) -> DropRainbowState:
        if state.side:
            raise IllegalEvent(f"seat {state.table.current} has {len(state.side)} side "
                               f"card(s): bank them or draw")
        return super().end_turn_to(state, seat)

    @move(required=("player",))
    def move_first(self, state: DropRainbowState, event: Event) -> DropRainbowState:
        """The group's pick of who starts; never while side cards wait (they are the
        current player's to bank or lose)."""
        if state.side:
            raise IllegalEvent(f"first: seat {state.table.current} has {len(state.side)} side "
                               f"card(s): bank them or draw")
        return super().move_first(state, event)

    @move()
    def move_end(self, state: DropRainbowState, event: Event) -> DropRainbowState:
        return replace(super().move_end(state, event), ended_by="group")

    def final_winners(self, state: DropRainbowState) -> tuple[int, ...]:
        return self._most(state)

    # --- helpers -------------------------------------------------------------------------------

    def _banked(self, state: DropRainbowState, seat: int) -> DropRainbowState:
        score = list(state.score)
        score[seat] = score[seat] + state.side
        return replace(state, side=(), score=tuple(score))

    def _has_all(self, state: DropRainbowState, seat: int) -> bool:
        return set(state.colors) <= set(state.score[seat])

    def _most(self, state: DropRainbowState) -> tuple[int, ...]:
        """Most score cards wins; equal counts share the win; nobody wins with none."""
        counts = [len(s) for s in state.score]
        return tbl.best_seats(counts) if max(counts) > 0 else ()

    # --- for replay and the screen -------------------------------------------------------------

    def summary(self, state: DropRainbowState) -> dict[str, Any]:
        out = super().summary(state)
        out.update(top=state.top, side=list(state.side),
                   score_cards=[len(s) for s in state.score],
                   colors=[state.collected(s) for s in range(state.table.seats)],
                   discarded=state.discarded, ended_by=state.ended_by or None)
        return out

    def describe(self, event: Event, header: Header, before: DropRainbowState) -> str:
        who = header.name(before.table.current)
        kind = event.get("type")
        if kind == "reveal":
            return f"First card {str(event.get('color')).upper()}"
        if kind == "draw":
            c = str(event.get("color"))
            if c == RAINBOW:
                return f"{who} drew the RAINBOW"
            fails = isinstance(before, DropRainbowState) and c in before.failing()
            return f"{who} drew {c.upper()}" + (" (fail)" if fails else "")
        if kind == "bank":
            n = len(before.side) if isinstance(before, DropRainbowState) else 0
            return f"{who} banked {n}"
        return super().describe(event, header, before)

    def text(self, state: DropRainbowState, header: Header) -> str:
        lines = [super().text(state, header)]
        lines.append(f"Top card: {state.top or 'not turned up yet'}")
        lines.append("Side: " + (", ".join(state.side) or "none"))
        for seat in range(state.table.seats):
            have = state.collected(seat)
            lines.append(f"  {header.name(seat)}: {len(state.score[seat])} score cards; "
                         f"colors {', '.join(have) or 'none'} ({len(have)}/7)")
        return "\n".join(lines)
