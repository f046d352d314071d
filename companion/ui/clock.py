"""The turn clock on the panel (docs/clock.md): the small clock in the top right corner of every
game's home screen, and the Time screen (each player's total, average and longest turn).

The corner clock sits in the panel's first page (rows 0-7) at the right end, in a slot of a
fixed width, so that the 1 Hz redraw changes a few columns of one page and nothing else: the
OLED driver (companion/drivers/oled.py) sends only those. The slot is as wide as the widest
thing it may show in the same format (every digit is as wide as "0"; the words), so neither
the text beside it moves when the seconds go from 9 to 10, nor when the countdown turns into
"Time!". What it shows, first that applies:

- nothing: no game, or the game is over;
- "Pause": the clock is paused (the game menu's "Pause clock");
- "Break": no press for 15 minutes, the stretch counts for nobody (companion/session/clock.py);
- "Time!", inverted: no time left of the turn limit or the time bank;
- the time left (a countdown) when a limit or a bank is set, inverted at 10 s or less;
- else the current turn's time so far.

An hour or more is shown in hours and minutes ("1h02": a bank of hours), so the slot keeps
its width and the corner changes once a minute then.

A home screen asks `corner_width(ctx)` for the room to keep, and draws the clock with
`draw_corner` (`on_white` where the corner is lit: a title bar, an inverted box).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from companion.inputs import Button
from companion.session.calls import TIME_WORDS
from companion.session.clock import Reading, clock_text, whole
from companion.ui import draw
from companion.ui.actions import Pop
from companion.ui.screen import Context, Result, ScrollList

SIZE = 9  # digits 7 px tall (rows 0-6)
# Inverted, a size smaller (digits 6 px tall, rows 1-6): the lit box keeps a row above and
# below them, so no stroke melts into the panel's edge or into what is under the box.
BOXED = 8
PAD = 2  # the box's margin left and right of the text
GAP = 2  # between the clock's slot and what a screen draws left of it
WORDS = (TIME_WORDS, "Pause", "Break")


def short_time(seconds: float, *, left: bool = False) -> str:
    """`0:07`, `12:34`; from an hour on `1h02` (hours and whole minutes)."""
    s = whole(seconds, left=left)
    if s < 3600:
        return clock_text(seconds, left=left)
    h, rest = divmod(s, 3600)
    return f"{h}h{rest // 60:02d}"


# `ctx.clock` in a start's first frame (App.ctx, companion/app/firstframe.py): the corner's room
# is kept and left blank. That frame is the one the last run kept for this start, drawn before
# the clock could be read (the ledger is folded after it: no start-up time on it); the time
# shows in the next frame, which App.run draws at once.
STARTING = "starting"


def corner(reading: Reading | str | None) -> tuple[str, bool] | None:
    """What the corner shows for `reading`: (text, inverted), or None for nothing."""
    if reading == STARTING:
        return "", False
    r = reading
    if not isinstance(r, Reading) or r.seat is None:
        return None
    if r.paused:
        return "Pause", False
    if r.on_break:
        return "Break", False
    if r.alarm == "time":
        return TIME_WORDS, True  # the same words the spoken call says
    if r.left is not None:
        return short_time(r.left, left=True), r.alarm == "warn"
    return short_time(r.elapsed), False


def _slot(text: str) -> int:
    """The slot's width for `text`: the same for every time of its format and every word."""
    digits = re.sub(r"\d", "0", text)
    return max(draw.text_size(t, SIZE)[0] for t in (digits, *WORDS)) + 2 * PAD


def corner_width(ctx: Context) -> int:
    """The columns a home screen keeps free at its top right for the clock (its slot and
    the gap before it); 0 when there is no clock to show."""
    shown = corner(ctx.clock)
    return 0 if shown is None else _slot(shown[0]) + GAP


def draw_corner(d, ctx: Context, *, on_white: bool = False) -> int:
    """Draw the clock in the top right corner (rows 0-7); returns the x where what is drawn
    left of it must end (`draw.WIDTH` when there is no clock). `on_white`: the corner is
    lit (a title bar), so the digits are dark and the inverted box is dark."""
    shown = corner(ctx.clock)
    if shown is None:
        return draw.WIDTH
    text, inverted = shown
    left = draw.WIDTH - _slot(text)
    if not text:
        return left - GAP
    ink = 0 if on_white else 1
    size, top = SIZE, 0
    if inverted:
        d.rectangle((left, 0, draw.WIDTH - 1, 7), fill=ink)
        ink = 1 - ink
        size, top = BOXED, 1
    d.text((draw.WIDTH - 1 - PAD, top), text, font=draw.font(size), fill=ink, anchor="rt")
    return left - GAP


def title_bar(d, ctx: Context, title: str, right: str = "") -> int:
    """draw.title_bar with the clock in its right end (dark on the lit bar); returns the y
    where content may start. For a main screen whose top row is a title bar."""
    top = draw.title_bar(d, title, right, keep=corner_width(ctx))
    draw_corner(d, ctx, on_white=True)
    return top


# --- the Time screen ---------------------------------------------------------------------------

class TimeScreen(ScrollList):
    """Each player's total, average and longest turn this game, the most time first, four
    at a time (UP/DOWN scroll); OK or BACK leaves. Redrawn with every tick of the clock, so
    the current turn's seconds count up in its player's line. The figures' columns are as
    wide as their widest figure (of every player, so scrolling moves nothing sideways); the
    names get the rest."""

    ROWS = 4
    ROW_H = 12
    title = "Time"
    NAME_SIZE = 12
    SIZE = 11
    NAMES_MIN = 36  # "Ann", "Finn" whole at NAME_SIZE
    LABELS = ("total", "avg", "long")  # in the title bar, over each column
    COL_GAP = 4
    END = draw.WIDTH - 5  # the last column's right edge: the scroll bar is right of it

    def __init__(self) -> None:
        self.first = 0
        self._rights: list[int] = []
        self._names_end = 0
        self._size = self.SIZE

    def lines(self, ctx: Context) -> Sequence[Any]:
        r = ctx.clock
        if not isinstance(r, Reading) or r.played <= 0:
            return []
        seats = sorted(range(len(r.totals)), key=lambda s: (-r.totals[s], s))
        return [(s, short_time(r.totals[s]), _or_dash(r.average(s)), short_time(r.longest[s]))
                for s in seats]

    def columns(self, lines: Sequence[Any], size: int) -> tuple[list[int], int]:
        """Each figure column's right edge at font `size`, and where the names must end."""
        rights: list[int] = []
        right = self.END
        for k in range(len(self.LABELS) - 1, -1, -1):
            rights.insert(0, right)
            wide = max([draw.text_size(line[k + 1], size)[0] for line in lines]
                       + [draw.text_size(self.LABELS[k], draw.SMALL)[0]])
            right -= wide + self.COL_GAP
        return rights, right

    def layout(self, lines: Sequence[Any]) -> None:
        """The figures' size and columns: SIZE, or a size smaller where the names would get
        less than NAMES_MIN columns."""
        for size in (self.SIZE, draw.SMALL):
            self._rights, self._names_end = self.columns(lines, size)
            self._size = size
            if self._names_end >= self.NAMES_MIN:
                return

    def header(self, d, ctx: Context, lines: Sequence[Any]) -> int:
        d.rectangle((0, 0, draw.WIDTH - 1, 11), fill=1)
        d.text((2, 6), self.title, font=draw.font(draw.SMALL), fill=0, anchor="lm")
        for right, label in zip(self._rights, self.LABELS):
            d.text((right, 6), label, font=draw.font(draw.SMALL), fill=0, anchor="rm")
        return 13

    def draw_on(self, d, ctx: Context) -> None:
        lines = self.lines(ctx)
        self._rights = []
        if lines:
            self.layout(lines)
        top = self.header(d, ctx, lines)
        if not lines:
            draw.centered(d, (0, top, draw.WIDTH, draw.HEIGHT), "No turns timed yet",
                          largest=13)
            return
        self.draw_lines(d, ctx, top, lines)

    def draw_line(self, d, ctx: Context, i: int, line: Any, y: int) -> None:
        seat, *figures = line
        mid = y + self.ROW_H // 2
        name = draw.clip(ctx.name(seat), self._names_end - 1, self.NAME_SIZE)
        d.text((1, mid), name, font=draw.font(self.NAME_SIZE), fill=1, anchor="lm")
        for right, text in zip(self._rights, figures):
            d.text((right, mid), text, font=draw.font(self._size), fill=1, anchor="rm")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.OK, Button.BACK):
            return Pop()
        return super().on_press(button, ctx)


def _or_dash(seconds: float | None) -> str:
    return "-" if seconds is None else short_time(seconds)
