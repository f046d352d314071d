"""The `table` game kind's screens: whose turn (biggest), direction, who is next, skips."""

from __future__ import annotations

from typing import Protocol

from companion.inputs import Button
from companion.ui import clock, draw
from companion.ui.actions import Emit, Push, Toast
from companion.ui.again import HINT, end_menu
from companion.ui.dice import dice_menu, draw_glyph
from companion.ui.records import end_title
from companion.ui.screen import Context, Result, Screen


class HasMenu(Protocol):
    """What the home screen asks of its game's screens (a `Mode`, companion/ui/modes.py,
    which builds this screen: so it is handed in, not imported): the menu OK opens."""

    def menu(self, ctx: Context) -> Screen: ...


def turn_header(d, ctx: Context, *, right: str | None = None) -> None:
    """Top row: direction arrow and word on the left; the turn clock in the top right corner
    (companion/ui/clock.py), and left of it `right` (default: the last roll). The word
    "clockwise" / "counter-clock" is left out where it does not fit beside them: the arrow
    says it too."""
    t = ctx.state.table
    draw.direction_arrow(d, (6, 6), 5, t.direction)
    x = clock.draw_corner(d, ctx)
    if right is None:
        roll = ctx.state.last_roll
        if roll:
            for die, face in reversed(list(roll.items())):
                if die in ("d8", "d6"):
                    w = draw.text_size(str(face), 12)[0]
                    x -= w + 1
                    d.text((x, 6), str(face), font=draw.font(12), fill=1, anchor="lm")
                else:
                    x -= 12
                    draw_glyph(d, die, face, (x, 0, x + 11, 11))
                x -= 2
    elif right:
        d.text((x - 1, 6), right, font=draw.font(draw.SMALL), fill=1, anchor="rm")
        x -= draw.text_size(right, draw.SMALL)[0] + 3
    word = "clockwise" if t.direction == 1 else "counter-clock"
    if 14 + draw.text_size(word, draw.SMALL)[0] <= x:
        d.text((14, 6), word, font=draw.font(draw.SMALL), fill=1, anchor="lm")


def next_line(d, ctx: Context, y: int) -> None:
    """Bottom row: who is next, and the skips waiting (inverted, so they are not missed)."""
    t = ctx.state.table
    label = "Next: "
    d.text((1, y), label, font=draw.font(draw.SMALL), fill=1, anchor="lm")
    x = 1 + draw.text_size(label, draw.SMALL)[0] + 1
    skips = t.pending_skips
    badge = f"SKIP {skips}" if skips > 1 else ("SKIP" if skips else "")
    room = draw.WIDTH - x - (draw.text_size(badge, 12)[0] + 6 if badge else 0)
    # On a baseline that keeps a descender ("Cy", "Guy") on the panel's last row.
    d.text((x, min(y + 3, draw.HEIGHT - 3)), draw.clip(ctx.name(t.upcoming), room, 12),
           font=draw.font(12), fill=1, anchor="ls")
    if badge:
        draw.badge(d, (draw.WIDTH - 1, y), badge, 12, anchor="r")


class TableScreen(Screen):
    """Home screen of a game: NEXT ends the turn, ROLL opens the dice, OK the menu."""

    def __init__(self, mode: HasMenu) -> None:
        self.mode = mode

    def draw_on(self, d, ctx: Context) -> None:
        t = ctx.state.table
        turn_header(d, ctx)
        draw.centered(d, (0, 13, draw.WIDTH, 50), ctx.name(t.current), largest=34)
        d.line((0, 51, draw.WIDTH, 51), fill=1)
        next_line(d, ctx, 58)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.NEXT:
            return Emit({"type": "next"})
        if button is Button.ROLL:
            return Push(dice_menu(ctx))
        if button is Button.OK:
            return Push(self.mode.menu(ctx))
        if button is Button.BACK:
            return Toast("Hold BACK to undo")
        return None


class EndScreen(Screen):
    """The game is over: the winners, big. Every game kind's end screen but Penny Badger's is
    this one or built on it, changing the words: the title (`heading`; the line of history
    replaces it when there is one), the small `label` over the names, a `detail` line under
    them (a score: the names then sit a line higher), the words when nobody won (`nobody`)
    and the bottom row's `hint`. OK offers play again or leave; `more_buttons` open the
    game's own figures (`more`); hold BACK undoes."""

    label_size = draw.SMALL
    nobody = "Game ended"
    hint = HINT
    more_buttons: tuple[Button, ...] = ()

    def heading(self, ctx: Context) -> str:
        return "Game over"

    def label(self, ctx: Context) -> str:
        """Over the names ("": no line)."""
        n = len(ctx.state.winners)
        return "" if not n else "Winner" if n == 1 else "Shared win"

    def detail(self, ctx: Context) -> str:
        return ""

    def more(self, ctx: Context) -> Screen:
        raise NotImplementedError

    def winners(self, ctx: Context) -> str:
        """The winners' names, "Ann & Ben"; with many, as many as fit and how many more."""
        return draw.name_list([ctx.name(w) for w in ctx.state.winners], draw.WIDTH,
                              draw.SMALL, " & ")

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        top = draw.title_bar(d, end_title(ctx, self.heading(ctx)))
        label = self.label(ctx)
        if label:
            d.text((draw.WIDTH // 2, top + 1), label, font=draw.font(self.label_size), fill=1,
                   anchor="mt")
        names_top = top + 1 + self.label_size
        if not s.winners:
            draw.centered(d, (0, names_top, draw.WIDTH, 48) if label else
                          (0, top, draw.WIDTH, 50), self.nobody, largest=22)
        elif detail := self.detail(ctx):
            draw.centered(d, (0, names_top, draw.WIDTH, names_top + 17),
                          self.winners(ctx), largest=26)
            d.text((draw.WIDTH // 2, 47), detail, font=draw.font(12), fill=1, anchor="mm")
        else:
            draw.centered(d, (0, names_top, draw.WIDTH, 51), self.winners(ctx), largest=28)
        draw.hint(d, self.hint)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.OK:
            return Push(end_menu(ctx))
        if button in self.more_buttons:
            return Push(self.more(ctx))
        return None
