"""The OLED drawn in a terminal, as a luma device.

luma.emulator's `asciiblock` rescales the frame to the terminal's width with smoothing, which
blurs one-pixel strokes; this device maps pixels exactly, choosing by the terminal's size:
half blocks (1x2 pixels a cell: 128x32 cells) from 130 columns and 36 rows, quadrant blocks
(2x2 pixels: 64x32 cells) from 66 columns and 36 rows, otherwise Braille (2x4 pixels: 64x16
cells, fits an 80x24 terminal). Key help is printed under the panel, wrapped to the width and
left out where the rows run short. A terminal too small even for Braille (under 66x18) would
wrap the panel into noise: it shows the size it needs instead, until the window grows.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import TextIO

from luma.core.device import device
from luma.core.interface.serial import noop
from PIL import Image

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
        self.out.write("\x1b[2J\x1b[?25l")  # clear, hide the cursor

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
            footer = [part for line in self.footer for part in textwrap.wrap(line, columns)]
            shown = panel + footer[:max(rows - len(panel), 0)]
        text = "\x1b[H" + "\r\n".join(shown)
        self.out.write(text + "\x1b[J")
        self.out.flush()

    def cleanup(self) -> None:
        self.out.write("\x1b[?25h\r\n")
        self.out.flush()
