"""Card colors on a one-bit panel: always as words (or their letters), never as colour.

`ColorPicker` asks "which color?" with one big word at a time (UP/DOWN, OK); `color_strip`
draws a row of letter slots, inverted where a color is marked (e.g. "would fail", "collected").
Used by the Chaos and Drop Rainbow modes.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from companion.inputs import Button
from companion.ui import draw
from companion.ui.actions import Pop
from companion.ui.screen import Context, Result, Screen


def abbreviations(colors: Sequence[str]) -> dict[str, str]:
    """The shortest prefix (upper case) that tells each color apart from the others.

    The default Drop Rainbow colors give R O Y G B I V.
    """
    out = {}
    lower = [c.lower() for c in colors]
    for c, low in zip(colors, lower):
        n = 1
        while n < len(low) and any(o != low and o.startswith(low[:n]) for o in lower):
            n += 1
        out[c] = c[:n].upper()
    return out


def color_strip(d, box: tuple[int, int, int, int], colors: Sequence[str],
                marked: set[str] | frozenset[str], *, size: int = 11) -> None:
    """One slot per color with its letters; marked slots are inverted (white on black)."""
    x0, y0, x1, y1 = box
    short = abbreviations(colors)
    w = (x1 - x0 + 1) / len(colors)
    for i, c in enumerate(colors):
        a = round(x0 + i * w)
        b = round(x0 + (i + 1) * w) - 2
        on = c in marked
        d.rectangle((a, y0, b, y1), outline=1, fill=1 if on else 0)
        label = short[c]
        s = draw.fit(label, b - a - 1, y1 - y0 - 1, largest=size)
        d.text(((a + b + 1) // 2, (y0 + y1 + 1) // 2), label, font=draw.font(s),
               fill=0 if on else 1, anchor="mm")


class ColorPicker(Screen):
    """Choose a color: one big word, UP/DOWN to change, OK to choose, BACK to leave.

    `note(color)` may return a short warning shown under the word (inverted when it starts
    with "!" , e.g. "!FAILS"), `done(color)` says what choosing does.
    """

    def __init__(self, title: str, colors: Sequence[str], *, done: Callable[[str], Any],
                 note: Callable[[str], str] | None = None, cursor: int = 0) -> None:
        self.title = title
        self.colors = list(colors)
        self.done = done
        self.note = note
        self.cursor = max(0, min(cursor, len(self.colors) - 1))

    @property
    def color(self) -> str:
        return self.colors[self.cursor]

    def draw_on(self, d, ctx: Context) -> None:
        top = draw.title_bar(d, self.title, f"{self.cursor + 1}/{len(self.colors)}")
        note = self.note(self.color) if self.note else ""
        bottom = 50 if note else 63
        mid = (top + bottom) // 2
        d.polygon([(3, mid - 4), (7, mid - 10), (11, mid - 4)], fill=1)
        d.polygon([(3, mid + 4), (7, mid + 10), (11, mid + 4)], fill=1)
        draw.centered(d, (14, top, draw.WIDTH - 2, bottom), self.color.upper(), largest=28)
        if note.startswith("!"):
            draw.badge(d, (draw.WIDTH // 2 - draw.text_size(note[1:], 12)[0] // 2 - 2, 57),
                       note[1:], 12)
        elif note:
            draw.centered(d, (0, 51, draw.WIDTH, 64), note, largest=12)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            self.cursor = (self.cursor - 1) % len(self.colors)
        elif button is Button.DOWN:
            self.cursor = (self.cursor + 1) % len(self.colors)
        elif button is Button.OK:
            return self.done(self.color)
        elif button is Button.BACK:
            return Pop()
        return None
