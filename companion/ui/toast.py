"""What the app draws over a screen's frame, or in its place: the toast (a short message
boxed over the lower part) and the error frame (when a screen fails to draw)."""

from __future__ import annotations

from typing import Sequence

from PIL import ImageDraw

from companion.ui import draw
from companion.ui.screen import wrap


def error_frame():
    """What the panel shows when a screen fails to draw: the way out, in big letters."""
    img, d = draw.blank()
    draw.centered(d, (0, 0, draw.WIDTH, 30), "Screen error", largest=20)
    draw.centered(d, (0, 32, draw.WIDTH, 47), "The game is saved.", largest=12)
    draw.centered(d, (0, 48, draw.WIDTH, 63), "BACK or hold BACK", largest=12)
    return img


def toast_lines(text: str, names: Sequence[str] = ()) -> list[str]:
    """A toast's text in at most two lines. The players' `names` in it are shortened first
    ("Undone: Bartholo… claimed 3 of a kind: true"), the longest first, as far as two
    letters; a text that needs more still ends in "…" on the second line, so a cut is seen
    as one (not "Not saved: database or disk is" for "... is full")."""
    lines = wrap(text, draw.WIDTH - 8, 12)
    longest = sorted({n for n in names if n in text}, key=len, reverse=True)
    for keep in range(max((len(n) for n in longest), default=0) - 2, 1, -1):
        if len(lines) <= 2:
            break
        short = text
        for n in longest:
            if len(n) > keep + 1:
                short = short.replace(n, n[:keep] + "…")
        lines = wrap(short, draw.WIDTH - 8, 12)
    if len(lines) > 2:
        lines = [lines[0], draw.clip(" ".join(lines[1:]), draw.WIDTH - 8, 12)]
    return lines


def draw_toast(img, text: str, names: Sequence[str] = ()) -> None:
    """A boxed message over the lower part of the frame, up to two lines (`toast_lines`)."""
    d = ImageDraw.Draw(img)
    lines = toast_lines(text, names)
    h = 14 * len(lines) + 4
    y0 = draw.HEIGHT - h
    d.rectangle((0, y0 - 2, draw.WIDTH - 1, draw.HEIGHT - 1), fill=0)
    d.rectangle((1, y0 - 1, draw.WIDTH - 2, draw.HEIGHT - 1), outline=1, fill=1)
    for i, line in enumerate(lines):
        d.text((draw.WIDTH // 2, y0 + 2 + 14 * i + 7), line, font=draw.font(12), fill=0,
               anchor="mm")
