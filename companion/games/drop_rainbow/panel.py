"""The Drop Rainbow mode: the top card, which colors would fail now, the cards at stake, and
every player's colors collected (docs/rules.md, "Drop Rainbow").

Home screen: OK = "I drew": say the new card's color; NEXT = bank the side cards (ends the
turn); UP/DOWN = everyone's colors. Colors are always words or their letters, never colour.
"""

from __future__ import annotations

from companion.games.drop_rainbow.rules import RAINBOW
from companion.inputs import Button
from companion.rules.game import Header
from companion.ui import clock, draw
from companion.ui.actions import Emit, Home, Push, Toast
from companion.ui.color_picker import ColorPicker, abbreviations, color_strip
from companion.ui.modes import Mode
from companion.ui.screen import Context, Item, Result, Screen
from companion.ui.table import EndScreen

LABEL_W = 28  # the "FAIL"/"HAVE" labels in front of the strips


def draw_picker(ctx: Context) -> ColorPicker:
    """"Which color did you turn up?" with the outcome shown before OK."""
    s = ctx.state
    who = ctx.name(s.table.current)
    fails = s.failing()

    def note(c: str) -> str:
        if c == RAINBOW:
            return "!ENDS THE GAME"
        if c in fails:
            return f"!FAIL: {len(s.side) + 1} lost"
        return "success"

    return ColorPicker(f"{who} turned up:", [*s.colors, RAINBOW], note=note,
                       done=lambda c: Emit({"type": "draw", "color": c}, then=Home()))


def reveal_picker(ctx: Context) -> ColorPicker:
    return ColorPicker("First card face up:", list(ctx.state.colors),
                       done=lambda c: Emit({"type": "reveal", "color": c}, then=Home()))


class DropScreen(Screen):
    """Whose turn and the cards at stake; the top card; FAIL strip (side + top); HAVE strip
    (the current player's collected colors)."""

    def __init__(self, mode: DropRainbowMode) -> None:
        self.mode = mode

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        if s.top is None:
            clock.title_bar(d, ctx, "Drop Rainbow")
            draw.centered(d, (0, 13, draw.WIDTH, 34), "Turn up", largest=20)
            draw.centered(d, (0, 33, draw.WIDTH, 52), "the first card", largest=18)
            draw.hint(d, "OK: say its color")
            return
        seat = s.table.current
        stake = f"BANK {len(s.side)}"
        bw = draw.text_size(stake, 12)[0] + 4
        end = clock.draw_corner(d, ctx)
        d.text((1, 7), draw.clip(ctx.name(seat), end - bw - 6, 15), font=draw.font(15),
               fill=1, anchor="lm")
        draw.badge(d, (end - 1, 7), stake, 12, anchor="r")
        d.text((1, 23), "TOP", font=draw.font(draw.SMALL), fill=1, anchor="lm")
        draw.centered(d, (LABEL_W, 15, draw.WIDTH, 32), s.top.upper(), largest=17)
        d.text((1, 40), "FAIL", font=draw.font(draw.SMALL), fill=1, anchor="lm")
        color_strip(d, (LABEL_W, 33, draw.WIDTH - 1, 47), s.colors, s.failing())
        d.text((1, 57), "HAVE", font=draw.font(draw.SMALL), fill=1, anchor="lm")
        color_strip(d, (LABEL_W, 50, draw.WIDTH - 1, 63), s.colors, set(s.score[seat]))

    def on_press(self, button: Button, ctx: Context) -> Result:
        s = ctx.state
        if button is Button.OK:
            return Push(reveal_picker(ctx) if s.top is None else draw_picker(ctx))
        if button is Button.NEXT:
            if s.top is None:
                return Toast("Turn up the first card: OK")
            return Emit({"type": "bank"})
        if button in (Button.UP, Button.DOWN):
            return Push(CollectedScreen())
        if button is Button.BACK:
            return Toast("Hold BACK to undo")
        return None


class CollectedScreen(Screen):
    """Everyone's score: a grid, one row a player (name, score cards), one column a color
    (its letters on top); a filled box = that color is among the player's score cards."""

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        n = s.table.seats
        x0 = 58
        w = (draw.WIDTH - x0) / len(s.colors)
        short = abbreviations(s.colors)
        d.text((1, 5), "cards", font=draw.font(draw.SMALL), fill=1, anchor="lm")
        for i, c in enumerate(s.colors):
            cx = round(x0 + (i + 0.5) * w)
            d.text((cx, 5), short[c], font=draw.font(draw.SMALL), fill=1, anchor="mm")
        row_h = min(12, (draw.HEIGHT - 11) // n)
        for seat in range(n):
            y = 11 + seat * row_h
            cy = y + row_h // 2
            if seat == s.table.current:
                d.rectangle((0, y, 42, y + row_h - 1), fill=1)
            size = draw.SMALL + 1 if row_h >= 12 else draw.SMALL
            d.text((1, cy), draw.clip(ctx.name(seat), 41, size), font=draw.font(size),
                   fill=0 if seat == s.table.current else 1, anchor="lm")
            d.text((x0 - 3, cy), str(len(s.score[seat])), font=draw.font(size), fill=1,
                   anchor="rm")
            have = set(s.score[seat])
            for i, c in enumerate(s.colors):
                cx = round(x0 + (i + 0.5) * w)
                r = min(4, row_h // 2 - 1)
                d.rectangle((cx - r, cy - r, cx + r, cy + r), outline=1,
                            fill=1 if c in have else 0)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.BACK, Button.OK, Button.UP, Button.DOWN):
            return Home()
        return None


class DropEnd(EndScreen):
    """Game over: why (all seven colors / the rainbow), the winner big, their score cards."""

    label_size = draw.SMALL + 1
    nobody = "No winner"
    hint = "OK: again / leave  ▲▼: all"
    more_buttons = (Button.UP, Button.DOWN)

    def label(self, ctx: Context) -> str:
        return {"seven": "ALL 7 COLORS", "rainbow": "RAINBOW: most cards"}.get(
            ctx.state.ended_by, "most cards")

    def detail(self, ctx: Context) -> str:
        s = ctx.state
        return f"{len(s.score[s.winners[0]])} score cards"

    def more(self, ctx: Context) -> Screen:
        return CollectedScreen()


class DropRainbowMode(Mode):
    kind = "drop-rainbow"
    house_rules_text = (
        "OK: say the color you turned up. NEXT: bank the side cards (your turn ends). "
        "UP/DOWN: everyone's colors.",
        "A draw moves the top card to the side. The new card's color already at the side "
        "(FAIL row): the side cards are discarded, the new card stays on top, the turn ends.",
        "Otherwise it is a success: draw again or bank.",
        "Banking with no side cards gets nothing (a pass). A turn with side cards ends only "
        "by banking or failing.",
        "All seven colors among your score cards: you win at once.",
        "The rainbow card: its drawer banks the side cards (the rainbow scores nothing) and "
        "the most score cards wins; equal counts share the win. If that bank completes "
        "seven colors, the drawer wins outright.",
        "Hold BACK to undo, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return DropScreen(self)

    def end_screen(self, ctx: Context) -> Screen:
        return DropEnd()

    def house_rules(self, header: Header) -> list[str]:
        return [*self.house_rules_text, "Colors: " + ", ".join(header.rules["colors"])]

    def game_actions(self, ctx: Context) -> list[Item]:
        s = ctx.state
        if s.top is None:
            return [Item("Turn up first card…", lambda c: Push(reveal_picker(c)))]
        return [
            Item("Drew a card…", lambda c: Push(draw_picker(c))),
            Item(f"Bank {len(s.side)} side card{'' if len(s.side) == 1 else 's'}",
                 Emit({"type": "bank"}, then=Home())),
            Item("Everyone's colors", lambda c: Push(CollectedScreen())),
        ]
