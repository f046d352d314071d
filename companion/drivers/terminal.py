"""The OLED drawn in a terminal, as a luma device.

luma.emulator's `asciiblock` rescales the frame to the terminal's width with smoothing, which
blurs one-pixel strokes; this device maps pixels exactly: one character cell per pixel column
and two pixel rows (upper/lower half blocks) when the terminal is at least 130 columns wide,
otherwise Braille cells of 2x4 pixels (64 columns). Key help is printed under the panel.
"""

from __future__ import annotations

import shutil
import sys
from typing import TextIO

from luma.core.device import device
from luma.core.interface.serial import noop
from PIL import Image

BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))
HALF = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}


def frame_text(image: Image.Image, *, columns: int) -> list[str]:
    """The image as lines of text, exactly, pixel for pixel."""
    img = image.convert("1")
    w, h = img.size
    px = img.load()
    lines = []
    if columns >= w + 2:
        for y in range(0, h, 2):
            lines.append("".join(HALF[(1 if px[x, y] else 0,
                                       1 if y + 1 < h and px[x, y + 1] else 0)]
                                 for x in range(w)))
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
                 footer: list[str] | None = None, columns: int | None = None, **kwargs) -> None:
        super().__init__(serial_interface=noop(), **kwargs)
        self.capabilities(width, height, rotate=0, mode="1")
        self.out = out or sys.stdout
        self.footer = footer or []
        self.columns = columns
        self.image: Image.Image | None = None
        self.persist = True  # leave the last frame on screen at exit
        self.out.write("\x1b[2J\x1b[?25l")  # clear, hide the cursor

    def display(self, image: Image.Image) -> None:
        self.image = image.copy()
        cols = self.columns or shutil.get_terminal_size((80, 24)).columns
        lines = frame_text(image, columns=cols)
        width = len(lines[0])
        border = "┌" + "─" * width + "┐"
        body = [f"│{line}│" for line in lines]
        text = "\x1b[H" + "\r\n".join([border, *body, "└" + "─" * width + "┘", *self.footer])
        self.out.write(text + "\x1b[J")
        self.out.flush()

    def cleanup(self) -> None:
        self.out.write("\x1b[?25h\r\n")
        self.out.flush()
