"""Flower Power screens: the garden as five flowers with their petals, whose turn, the
flowers each player has taken (docs/rules.md, "Flower Power").

On the main screen UP/DOWN pick a flower (color) and OK enters how many petals of it the
player just placed; NEXT ends the turn.
"""

from __future__ import annotations

import math

from companion.games.flower_power.rules import COLORS, MAX_CARDS, PETALS
from companion.inputs import Button
from companion.ui import clock, draw
from companion.ui.actions import Emit, Home, Push, Toast
from companion.ui.modes import Mode
from companion.ui.screen import Context, Item, Menu, NumberEntry, Result, Screen, TextScreen
from companion.ui.table import TableScreen

LETTERS = {c: c[0].upper() for c in COLORS}  # R O Y G B: all different


def draw_flower(d, center: tuple[int, int], radius: int, petals: int) -> None:
    """A flower of five petal places around a middle: placed petals filled, the rest dotted."""
    cx, cy = center
    pr = max(3, radius * 2 // 5)  # petal radius
    for k in range(PETALS):
        a = math.radians(-90 + 72 * k)
        px, py = cx + (radius - pr) * math.cos(a), cy + (radius - pr) * math.sin(a)
        box = (px - pr, py - pr, px + pr, py + pr)
        if k < petals:
            d.ellipse(box, fill=1)
        else:
            d.ellipse((px - 1, py - 1, px + 1, py + 1), fill=1)
    m = max(2, radius // 4)
    d.ellipse((cx - m, cy - m, cx + m, cy + m), fill=0, outline=1)


def draw_garden(d, garden: tuple[int, ...], box: tuple[int, int, int, int], *,
                cursor: int | None = None) -> None:
    """Five flowers side by side, the color's initial under each; the picked one underlined."""
    x0, y0, x1, y1 = box
    w = (x1 - x0) // len(COLORS)
    r = min(w // 2 - 1, (y1 - y0 - 12) // 2)
    for i, (color, petals) in enumerate(zip(COLORS, garden)):
        cx = x0 + i * w + w // 2
        draw_flower(d, (cx, y0 + r), r, petals)
        label = f"{LETTERS[color]}{petals}"
        if i == cursor:
            draw.badge(d, (cx - draw.text_size(label, 11)[0] // 2 - 2, y1 - 6), label, 11)
        else:
            d.text((cx, y1 - 6), label, font=draw.font(11), fill=1, anchor="mm")


class FlowerScreen(TableScreen):
    """Whose turn and their flowers; the garden; cards played this turn and who is next."""

    def __init__(self, mode: Mode) -> None:
        super().__init__(mode)
        self.cursor = 0

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        t = s.table
        draw.direction_arrow(d, (6, 8), 5, t.direction)
        score = f"{s.scores[t.current]} FLOWER{'S' if s.scores[t.current] != 1 else ''}"
        box = draw.badge(d, (clock.draw_corner(d, ctx) - 1, 8), score, 10, anchor="r")
        draw.centered(d, (13, 0, box[0] - 2, 17), ctx.name(t.current), largest=18)
        draw_garden(d, s.garden, (0, 19, draw.WIDTH, 53), cursor=self.cursor)
        d.line((0, 54, draw.WIDTH, 54), fill=1)
        played = f"played {s.played}/{MAX_CARDS}"
        pw = draw.text_size(played, draw.SMALL)[0]
        d.text((draw.WIDTH - 1, 58), played, font=draw.font(draw.SMALL), fill=1, anchor="rm")
        nxt = draw.clip("Next: " + ctx.name(t.upcoming), draw.WIDTH - pw - 4, 11)
        d.text((1, 59), nxt, font=draw.font(11), fill=1, anchor="lm")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            self.cursor = (self.cursor - 1) % len(COLORS)
        elif button is Button.DOWN:
            self.cursor = (self.cursor + 1) % len(COLORS)
        elif button is Button.OK:
            return Push(petal_entry(ctx, COLORS[self.cursor]))
        elif button is Button.ROLL:
            return None  # Flower Power uses no dice
        else:
            return super().on_press(button, ctx)
        return None


def petal_entry(ctx: Context, color: str) -> Screen:
    """How many `color` petals the current player placed (at most what is left of 5 cards)."""
    s = ctx.state
    left = MAX_CARDS - s.played
    if left < 1:
        return TextScreen("Petals", [f"{MAX_CARDS} cards played this turn: that is all.",
                                     "NEXT ends the turn."])
    have = s.garden[COLORS.index(color)]

    def describe(n: int) -> str:
        return "takes the flower!" if have + n >= PETALS else f"{have + n} of {PETALS} petals"

    def done(n: int):
        who = ctx.name(s.table.current)
        then: list = [Home()]
        if have + n >= PETALS:
            then.append(Toast(f"{who} takes the {color} flower!", 3.0))
        return Emit({"type": "petals", "color": color, "count": n}, then=then)

    return NumberEntry(f"{color.capitalize()} petals placed", value=1, lo=1, hi=left,
                       done=done, describe=describe)


def color_menu(ctx: Context) -> Menu:
    return Menu("Color of petals?", [
        Item(f"{c.capitalize()} ({p}/{PETALS})", (lambda cx, c=c: Push(petal_entry(cx, c))))
        for c, p in zip(COLORS, ctx.state.garden)])


def scores_screen(ctx: Context) -> Screen:
    return TextScreen("Flowers taken", [f"{ctx.name(s)}: {n}"
                                        for s, n in enumerate(ctx.state.scores)])


class FlowerPowerMode(Mode):
    kind = "flower-power"
    first_player_text = "Who most recently gave flowers to someone?"
    house_rules_text = (
        "Play 1 to 5 cards a turn as petals; shapes do not matter.",
        "One flower per color grows at a time. Whoever places a flower's 5th petal takes it "
        "(1 point); extra petals start a new flower of that color.",
        "On the main screen: UP/DOWN pick a color, OK enters the petals, NEXT ends the turn.",
        "End the game from the menu when the flowers are finished: most flowers wins "
        "(a tie shares the win).",
        "Hold BACK to undo the last action, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return FlowerScreen(self)

    def game_actions(self, ctx: Context) -> list[Item]:
        return [Item("Play petals…", lambda c: Push(color_menu(c))),
                Item("Flowers taken", lambda c: Push(scores_screen(c)))]
