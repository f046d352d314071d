"""The OLED drawn in a terminal, as a luma device.

luma.emulator's `asciiblock` rescales the frame to the terminal's width with smoothing, which
blurs one-pixel strokes; this device maps pixels exactly, choosing by the terminal's size:
half blocks (1x2 pixels a cell: 128x32 cells) from 130 columns and 36 rows, quadrant blocks
(2x2 pixels: 64x32 cells) from 66 columns and 36 rows, otherwise Braille (2x4 pixels: 64x16
cells, fits an 80x24 terminal). Key help is printed under the panel, wrapped to the width and
left out where the rows run short. A terminal too small even for Braille (under 66x18) would
wrap the panel into noise: it shows the size it needs instead, until the window grows.

Two things keep the picture clean. A frame drawn at a new terminal size starts from a cleared
screen, and every line clears itself before it is written: a shrunk window wraps or cuts what
was there, a narrower frame (Braille after half blocks) or shorter key help would otherwise
leave the old characters beside it. And a frame is always written whole: when the terminal
is in non-blocking mode (a program run before in the same terminal may leave it so; npm
does) a write can stop part way, often inside a three-byte block character (a "�" where the
line is cut); the rest is written once the terminal takes more, so no frame, the last one
before an exit included, is left cut.

The seat light ring (docs/lights.md) is drawn round the panel: `terminal.ring(count)` is a
ring device like the SPI one, whose LEDs are coloured dots (24-bit ANSI colour) on the
panel's border, LED 0 at the middle of the top, clockwise; each frame it is shown draws the
panel again with them.
"""

from __future__ import annotations

import os
import select
import shutil
import sys
import textwrap
from typing import TextIO

from luma.core.device import device
from luma.core.interface.serial import noop
from PIL import Image

from companion.drivers.lights import seen

BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))
HALF = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}
# Quadrant blocks indexed by bits: 1 upper left, 2 upper right, 4 lower left, 8 lower right.
QUAD = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


def frame_text(image: Image.Image, *, columns: int, rows: int = 24) -> list[str]:
    """The image as lines of text, exactly, pixel for pixel."""
    img = image.convert("1")
    w, h = img.size
    px = img.load()
    assert px is not None  # an image made in memory has its pixels
    lines = []
    tall = rows >= h // 2 + 4  # room for the panel, its border and the key help
    if columns >= w + 2 and tall:
        for y in range(0, h, 2):
            lines.append("".join(HALF[(1 if px[x, y] else 0,
                                       1 if y + 1 < h and px[x, y + 1] else 0)]
                                 for x in range(w)))
    elif columns >= w // 2 + 2 and tall:
        for y in range(0, h, 2):
            row = []
            for x in range(0, w, 2):
                bits = 0
                for dx, dy, bit in ((0, 0, 1), (1, 0, 2), (0, 1, 4), (1, 1, 8)):
                    if x + dx < w and y + dy < h and px[x + dx, y + dy]:
                        bits |= bit
                row.append(QUAD[bits])
            lines.append("".join(row))
    else:
        for y in range(0, h, 4):
            row = []
            for x in range(0, w, 2):
                bits = 0
                for dx, dy, bit in BRAILLE_BITS:
                    if x + dx < w and y + dy < h and px[x + dx, y + dy]:
                        bits |= bit
                row.append(chr(0x2800 + bits))
            lines.append("".join(row))
    return lines


RGB = tuple[int, int, int]


def border_cells(width: int, height: int) -> list[tuple[int, int]]:
    """The (row, column) cells of a box's border `width` columns by `height` rows, clockwise
    from the middle of its top edge."""
    top = [(0, c) for c in range(width)]
    right = [(r, width - 1) for r in range(1, height)]
    bottom = [(height - 1, c) for c in range(width - 2, -1, -1)]
    left = [(r, 0) for r in range(height - 2, 0, -1)]
    cells = top + right + bottom + left
    mid = width // 2
    return cells[mid:] + cells[:mid]


def dot(rgb: RGB) -> str:
    """A LED as a coloured dot: a dark one as a grey ring. Drawn as it looks (a gamma of
    about 2.2: a seat's dim LED is a grey dot, not a black one)."""
    if not any(rgb):
        return "\x1b[90m○\x1b[0m"
    r, g, b = seen(rgb)
    return f"\x1b[38;2;{r};{g};{b}m●\x1b[0m"


class TerminalRing:
    """The seat light ring drawn by a `terminal` round its panel: `count`, `brightness`,
    `show(pixels)`, `close()` (dark), as the SPI ring has."""

    def __init__(self, term: terminal, count: int) -> None:
        self.term = term
        self.count = count
        self.brightness = 1.0  # the emulator draws the colours as they are
        self.pixels: list[RGB] = [(0, 0, 0)] * count

    def show(self, pixels) -> None:
        if len(pixels) != self.count:
            raise ValueError(f"{len(pixels)} pixels for a ring of {self.count}")
        self.pixels = [(int(r), int(g), int(b)) for r, g, b in pixels]
        if self.term.image is not None:
            self.term.display(self.term.image)

    def close(self) -> None:
        self.show([(0, 0, 0)] * self.count)
        self.term.leds = None

    def __enter__(self) -> TerminalRing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class terminal(device):
    """A luma device that draws to a text stream (stdout by default)."""

    def __init__(self, width: int = 128, height: int = 64, *, out: TextIO | None = None,
                 footer: list[str] | None = None, columns: int | None = None,
                 rows: int | None = None, **kwargs) -> None:
        super().__init__(serial_interface=noop(), **kwargs)
        self.capabilities(width, height, rotate=0, mode="1")
        self.out = out or sys.stdout
        self.footer = footer or []
        self.columns = columns
        self.rows = rows
        self.image: Image.Image | None = None
        self.persist = True  # leave the last frame on screen at exit
        self.drawn_size: tuple[int, int] | None = None  # the terminal size of the last frame
        self.leds: TerminalRing | None = None  # the seat lights round the panel (ring())
        self.write("\x1b[2J\x1b[?25l")  # clear, hide the cursor

    @property
    def min_size(self) -> tuple[int, int]:
        """Columns and rows of the smallest terminal that shows the panel (Braille, bordered)."""
        return self.width // 2 + 2, self.height // 4 + 2

    def display(self, image: Image.Image) -> None:
        self.image = image.copy()
        size = shutil.get_terminal_size((80, 24))
        columns, rows = self.columns or size.columns, self.rows or size.lines
        need_columns, need_rows = self.min_size
        if columns < need_columns or rows < need_rows:
            message = (f"The panel needs a terminal of at least {need_columns}x{need_rows}; "
                       f"this one is {columns}x{rows}. Make the window bigger (q quits).")
            shown = textwrap.wrap(message, max(columns, 1))[:max(rows, 1)]
        else:
            lines = frame_text(image, columns=columns, rows=rows)
            width = len(lines[0])
            panel = ["┌" + "─" * width + "┐", *(f"│{line}│" for line in lines),
                     "└" + "─" * width + "┘"]
            if self.leds is not None:
                panel = self._with_leds(panel, self.leds.pixels)
            footer = [part for line in self.footer for part in textwrap.wrap(line, columns)]
            shown = panel + footer[:max(rows - len(panel), 0)]
        # A new size: clear it all (the terminal wrapped or cut the old frame its own way).
        # Each line clears itself first ("\x1b[K" at its start: at its end, after a line as
        # wide as the terminal, it would erase the last character), then the rest goes.
        clear = "\x1b[2J" if (columns, rows) != self.drawn_size else ""
        self.drawn_size = (columns, rows)
        self.write(clear + "\x1b[H" + "\r\n".join("\x1b[K" + line for line in shown)
                   + "\x1b[J")

    def ring(self, count: int) -> TerminalRing:
        """The seat light ring round this panel (companion run --emulator gives it the app)."""
        self.leds = TerminalRing(self, count)
        return self.leds

    @staticmethod
    def _with_leds(panel: list[str], pixels: list[RGB]) -> list[str]:
        rows = [list(line) for line in panel]
        cells = border_cells(len(rows[0]), len(rows))
        for i, rgb in enumerate(pixels):
            r, c = cells[round(i * len(cells) / len(pixels)) % len(cells)]
            rows[r][c] = dot(rgb)
        return ["".join(row) for row in rows]

    def write(self, text: str) -> None:
        """Write `text` whole: to the stream's file descriptor, if it has one, waiting while a
        non-blocking terminal is full (a plain write would raise part way, and the frame
        would stay cut); else through the stream (a StringIO in tests)."""
        try:
            fd = self.out.fileno()
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
            self.out.write(text)
            self.out.flush()
            return
        self.out.flush()  # anything the stream still holds goes first
        data = memoryview(text.encode(getattr(self.out, "encoding", None) or "utf-8",
                                      "replace"))
        while data:
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                select.select([], [fd], [])  # until the terminal takes more

    def cleanup(self) -> None:
        self.write("\x1b[?25h\r\n")
