"""Match Patch screens: who goes first by mini-pips, whose turn, pairs per player
(docs/rules.md, "Match Patch"). On the main screen UP records a pair for the current player.
"""

from __future__ import annotations

from companion.games.match_patch.rules import MAX_PIPS
from companion.inputs import Button
from companion.rules.table import best_seats
from companion.ui import draw
from companion.ui.actions import Emit, Home, Push, Replace, Toast
from companion.ui.modes import FirstPlayer, Mode
from companion.ui.screen import Context, Item, Result, Screen, TextScreen, pick_player
from companion.ui.table import TableScreen, next_line, turn_header


def pair_event(ctx: Context, seat: int | None = None) -> Emit:
    s = ctx.state
    who = s.table.current if seat is None else seat
    event = {"type": "pair"} if seat is None else {"type": "pair", "player": seat}
    return Emit(event, then=Toast(f"{ctx.name(who)}: {s.scores[who] + 1} pairs"))


SCORES_SHOWN = 8  # cells of pairs at once; more players: the eight around the current one


def draw_scores(d, ctx: Context, box: tuple[int, int, int, int]) -> None:
    """Everyone's pairs in seat order, the current player's inverted. Up to eight players
    at once (a cell of 16 pixels holds two figures); with more, the eight of the current
    player's group (seats 1-8 or 9-16; the Pairs screen lists them all)."""
    x0, y0, x1, y1 = box
    scores = ctx.state.scores
    n = len(scores)
    shown = min(n, SCORES_SHOWN)
    first = ctx.state.table.current // shown * shown
    first = min(first, n - shown)
    w = (x1 - x0) // shown
    for col, seat in enumerate(range(first, first + shown)):
        p = scores[seat]
        cell = (x0 + col * w, y0, x0 + (col + 1) * w - 2, y1)
        cur = seat == ctx.state.table.current
        if cur:
            d.rectangle(cell, fill=1)
        text = f"{ctx.name(seat)} {p}" if n <= 4 else str(p)  # the name shortened to fit
        draw.centered(d, (cell[0] + 1, y0, cell[2], y1 + 1), text, largest=12,
                      fill=0 if cur else 1)


class MatchScreen(TableScreen):
    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        t = s.table
        turn_header(d, ctx, right="UP: +1 pair")
        draw.centered(d, (0, 12, draw.WIDTH, 37), ctx.name(t.current), largest=26)
        draw_scores(d, ctx, (0, 38, draw.WIDTH, 50))
        d.line((0, 51, draw.WIDTH, 51), fill=1)
        next_line(d, ctx, 58)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            return pair_event(ctx)
        if button is Button.ROLL:
            return None  # Match Patch uses no dice
        return super().on_press(button, ctx)


class PipsEntry(Screen):
    """Each player's mini-pip total on their 3 dealt cards, seat by seat (UP/DOWN, OK).

    The highest total goes first; on a tie the group picks among the tied players.
    """

    asks_table = True

    def __init__(self, seats: int) -> None:
        self.values = [0] * seats
        self.seat = 0

    def draw_on(self, d, ctx: Context) -> None:
        n = len(self.values)
        top = draw.title_bar(d, "Mini-pips, 3 cards", f"{self.seat + 1}/{n}")
        draw.centered(d, (0, top, draw.WIDTH, top + 15), ctx.name(self.seat), largest=15)
        draw.centered(d, (16, top + 15, draw.WIDTH - 16, 54), str(self.values[self.seat]),
                      largest=28)
        d.text((4, 36), "▲", font=draw.font(12), fill=1, anchor="lm")
        d.text((4, 48), "▼", font=draw.font(12), fill=1, anchor="lm")
        draw.hint(d, "OK: next player" if self.seat < n - 1 else "OK: who goes first?")

    def on_press(self, button: Button, ctx: Context) -> Result:
        v = self.values[self.seat]
        if button is Button.UP:
            self.values[self.seat] = min(MAX_PIPS, v + 1)
        elif button is Button.DOWN:
            self.values[self.seat] = max(0, v - 1)
        elif button is Button.OK:
            if self.seat < len(self.values) - 1:
                self.seat += 1
                return None
            return self.finish(ctx)
        elif button is Button.BACK:
            if self.seat == 0:
                return Home()  # keep the seat the game started with
            self.seat -= 1
        return None

    def on_hold(self, button: Button, ctx: Context) -> Result:
        v = self.values[self.seat]
        if button is Button.UP:
            self.values[self.seat] = min(MAX_PIPS, v + 10)
        elif button is Button.DOWN:
            self.values[self.seat] = max(0, v - 10)
        return None

    def finish(self, ctx: Context) -> Result:
        pips = list(self.values)
        top = best_seats(pips)
        if len(top) == 1:
            then: Result = [Home(), Toast(f"{ctx.name(top[0])} goes first")]
        else:
            then = Replace(tie_pick(ctx, top))
        return Emit({"type": "pips", "pips": pips}, then=then)


class TiePick(FirstPlayer):
    """The group picks among the players tied on the highest mini-pip total."""

    def __init__(self, mode: Mode, ctx: Context, tied: tuple[int, ...]) -> None:
        super().__init__(mode, ctx)
        self.title = "Tie: who goes first?"
        self.items = [Item(ctx.name(s), Emit({"type": "first", "player": s}, then=Home()))
                      for s in tied]
        owner = ctx.playing.header.rules.get("deck_owner")
        self.seats = list(tied)
        self.cursor = self.seats.index(owner) if owner in tied else 0

    def draw_on(self, d, ctx: Context) -> None:
        top = draw.title_bar(d, "Tie: who goes first?")
        owner = ctx.playing.header.rules.get("deck_owner")
        lines = ["Tied: the group picks."]
        if owner in self.seats:
            lines.append(f"Else: {ctx.name(owner)} (deck owner)")
        for i, line in enumerate(lines):
            d.text((2, top + i * 10), draw.clip(line, draw.WIDTH - 4, draw.SMALL),
                   font=draw.font(draw.SMALL), fill=1)
        y = top + 22
        d.rectangle((0, y, draw.WIDTH - 1, draw.HEIGHT - 1), fill=1)
        d.text((6, (y + draw.HEIGHT) // 2), "▲▼", font=draw.font(12), fill=0, anchor="lm")
        draw.centered(d, (22, y + 1, draw.WIDTH - 2, draw.HEIGHT - 1),
                      ctx.name(self.seats[self.cursor]), largest=24, fill=0)


def tie_pick(ctx: Context, tied: tuple[int, ...]) -> TiePick:
    from companion.games import mode_for
    return TiePick(mode_for(ctx.playing.header.game), ctx, tied)


def scores_screen(ctx: Context) -> Screen:
    return TextScreen("Pairs", [f"{ctx.name(s)}: {n}" for s, n in enumerate(ctx.state.scores)])


class MatchPatchMode(Mode):
    kind = "match-patch"
    first_player_text = "Highest mini-pips on the 3 dealt cards."
    house_rules_text = (
        "Who goes first: enter each player's mini-pips on the 3 dealt cards; the highest "
        "total goes first. On a tie the group picks among the tied players, failing that "
        "the deck owner.",
        "UP on the main screen: a pair for the player whose turn it is. A pair for "
        "someone else: menu, Pair for…",
        "End the game from the menu when the Match Patch is empty: most pairs wins "
        "(a tie shares the win).",
        "Hold BACK to undo the last action, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return MatchScreen(self)

    def first_player_screen(self, ctx: Context) -> Screen:
        return PipsEntry(len(ctx.playing.header.players))

    def game_actions(self, ctx: Context) -> list[Item]:
        return [
            Item("Pair (+1)", lambda c: [Home(), pair_event(c)]),
            Item("Pair for…", lambda c: Push(pick_player(
                "Pair for whom?", c, lambda s: [Home(), pair_event(c, s)],
                cursor=c.state.table.current))),
            Item("Pairs so far", lambda c: Push(scores_screen(c))),
            Item("Who first: mini-pips", lambda c: Push(PipsEntry(len(c.journal.header.players)))),
            Item("Who first: group pick", lambda c: Push(FirstPlayer(self, c))),
        ]
