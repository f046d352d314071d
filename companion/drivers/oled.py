"""Partial updates for the SSD1306 and SH1106: send only the 8-pixel pages that changed.

luma's stock drivers repack and resend the whole 1024-byte frame on every `display()`. These
subclasses keep what the panel holds (one byte per column per page, as the chip stores it),
compare it with the new frame and send, for each changed region, a column/page window and then
only the bytes inside it. An unchanged frame costs nothing on the wire.

- SSD1306 (horizontal addressing, as luma's init sets it): a window may span several pages
  (COLUMNADDR c0 c1, PAGEADDR p0 p1); the data fills it column by column, page by page. A small
  dynamic programme picks, page by page, between one window per changed run and one window
  over a block of pages, whichever costs fewer bytes on the wire.
- SH1106 (page addressing only, 132-column RAM with the 128 visible columns at
  `page_address_offset`): one window per changed run within a page (page, column low/high nibble).

When a write fails the driver forgets what the panel holds, so the next frame is sent in full:
after a loose wire the panel's RAM is not known. luma's i2c turns EIO/EREMOTEIO into its own
`DeviceNotFoundError`, which is not an OSError; it is re-raised as one so the `Display` wrapper
can keep the app running and retry.
"""

from __future__ import annotations

import errno
import re
from typing import Iterable

import luma.core.error
from luma.oled.device import sh1106 as _Sh1106, ssd1306 as _Ssd1306
from PIL import Image

# Byte with its bits in reverse order: PIL packs mode "1" pixels MSB first, the chips want the
# top pixel of each 8-pixel column in bit 0.
_REVERSE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
_RUN = re.compile(rb"[^\x00]+")

# Bytes on the I2C wire per transaction besides the payload: the address byte and the
# control byte (0x00 for commands, 0x40 for data). luma's i2c sends each `command()` and each
# `data()` block (up to 4096 bytes through smbus2's i2c_rdwr) as one transaction.
I2C_OVERHEAD = 2
I2C_BLOCK = 4096


def wire_bytes(calls: Iterable[tuple[str, bytes]]) -> int:
    """Bytes on the I2C wire for recorded ("command"|"data", payload) calls."""
    total = 0
    for _kind, payload in calls:
        blocks = max(1, -(-len(payload) // I2C_BLOCK))
        total += len(payload) + I2C_OVERHEAD * blocks
    return total


def i2c_ms(nbytes: int, *, hz: int = 400_000) -> float:
    """Milliseconds to clock `nbytes` over I2C: 9 bit times per byte (8 data bits + ACK)."""
    return nbytes * 9 / hz * 1000


class RecordingSerial:
    """A luma serial interface that records every call instead of talking to a bus.

    Used by the tests (with a model of the panel RAM) and by the benchmark (to count bytes).
    """

    def __init__(self) -> None:
        self.calls: list[tuple[str, bytes]] = []

    def command(self, *cmd: int) -> None:
        self.calls.append(("command", bytes(cmd)))

    def data(self, data) -> None:
        self.calls.append(("data", bytes(data)))

    def cleanup(self) -> None:
        pass

    @property
    def wire_bytes(self) -> int:
        return wire_bytes(self.calls)

    def clear(self) -> None:
        self.calls.clear()


def pack_pages(image: Image.Image) -> bytes:
    """A mode "1" image (already rotated to the panel) -> page-major GDDRAM bytes.

    Byte `p * width + x` holds pixels (x, 8p .. 8p+7), the top one in bit 0.
    """
    w, h = image.size
    pages = h // 8
    # After the transpose each row is one panel column, packed 8 pixels per byte.
    cols = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSE)
    return b"".join(cols[p::pages] for p in range(pages))


class _Partial:
    """What both chips share: the cache of what the panel holds and the error translation."""

    _sent: bytes | None
    _pages: int
    _w: int

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode  # type: ignore[attr-defined]
        assert image.size == self.size  # type: ignore[attr-defined]
        new = pack_pages(self.preprocess(image))  # type: ignore[attr-defined]
        old = self._sent
        if new == old:
            return
        self._sent = None  # unknown until every write below has gone through
        if old is None:
            old = bytes(b ^ 0xFF for b in new)  # every byte differs: a full frame
        try:
            self._send(old, new)
        except luma.core.error.DeviceNotFoundError as e:
            raise OSError(errno.EIO, str(e)) from e
        self._sent = new

    def _send(self, old: bytes, new: bytes) -> None:
        raise NotImplementedError

    def _page_runs(self, old: bytes, new: bytes, gap: int) -> list[list[tuple[int, int]]]:
        """Per page, the (first, last) columns of its changed runs (merged across `gap`)."""
        w = self._w
        out: list[list[tuple[int, int]]] = [[] for _ in range(self._pages)]
        x = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
        for m in _RUN.finditer(x):
            a, b = m.start(), m.end() - 1
            while a <= b:  # a run may cross into the next page: cut it there
                p, a0 = divmod(a, w)
                b0 = min(b - p * w, w - 1)
                runs = out[p]
                if runs and a0 - runs[-1][1] - 1 <= gap:
                    runs[-1] = (runs[-1][0], b0)
                else:
                    runs.append((a0, b0))
                a = p * w + b0 + 1
        return out


class ssd1306(_Partial, _Ssd1306):
    """luma's ssd1306 with partial updates (same constructor)."""

    WINDOW = 6 + I2C_OVERHEAD  # COLUMNADDR c0 c1 PAGEADDR p0 p1
    OPEN = WINDOW + I2C_OVERHEAD  # a window and its data transaction, before the payload

    def __init__(self, serial_interface=None, width: int = 128, height: int = 64,
                 rotate: int = 0, **kwargs) -> None:
        self._sent = None
        super().__init__(serial_interface, width=width, height=height, rotate=rotate, **kwargs)

    def plan(self, old: bytes, new: bytes) -> list[tuple[int, int, int, int]]:
        """Windows (page0, page1, col0, col1), inclusive, covering every changed byte.

        best[i] is the cheapest cover of pages < i: page i-1 is either clean, covered by its
        own runs, or the last of a block of pages sent as one window over their column span.
        """
        runs = self._page_runs(old, new, gap=self.OPEN)
        n = self._pages
        best: list[tuple[int, list[tuple[int, int, int, int]]]] = [(0, [])]
        for i in range(1, n + 1):
            p = i - 1
            if not runs[p]:
                best.append(best[p])
                continue
            own = sum(self.OPEN + b - a + 1 for a, b in runs[p])
            cand = (best[p][0] + own, best[p][1] + [(p, p, a, b) for a, b in runs[p]])
            lo, hi = 10**9, -1
            for start in range(p, -1, -1):  # block of pages start..p
                if runs[start]:
                    lo, hi = min(lo, runs[start][0][0]), max(hi, runs[start][-1][1])
                if start == p:
                    continue
                cost = best[start][0] + self.OPEN + (p - start + 1) * (hi - lo + 1)
                if cost < cand[0]:
                    cand = (cost, best[start][1] + [(start, p, lo, hi)])
            best.append(cand)
        return best[n][1]

    def _send(self, old: bytes, new: bytes) -> None:
        w, c = self._w, self._const
        for p0, p1, c0, c1 in self.plan(old, new):
            self.command(c.COLUMNADDR, self._colstart + c0, self._colstart + c1,
                         c.PAGEADDR, p0, p1)
            if p0 == p1:
                self.data(new[p0 * w + c0:p0 * w + c1 + 1])
            else:
                self.data(b"".join(new[p * w + c0:p * w + c1 + 1] for p in range(p0, p1 + 1)))


class sh1106(_Partial, _Sh1106):
    """luma's sh1106 with partial updates (same constructor, including the column offset)."""

    OPEN = 3 + 2 * I2C_OVERHEAD  # page, column low, column high; then the data transaction

    def __init__(self, serial_interface=None, width: int = 128, height: int = 64,
                 rotate: int = 0, page_address_offset: int = 0x02, **kwargs) -> None:
        self._sent = None
        super().__init__(serial_interface, width=width, height=height, rotate=rotate,
                         page_address_offset=page_address_offset, **kwargs)

    def plan(self, old: bytes, new: bytes) -> list[tuple[int, int, int, int]]:
        return [(p, p, a, b) for p, runs in enumerate(self._page_runs(old, new, gap=self.OPEN))
                for a, b in runs]

    def _send(self, old: bytes, new: bytes) -> None:
        w = self._w
        for p, _p, c0, c1 in self.plan(old, new):
            col = c0 + self._page_address_offset
            self.command(0xB0 + p, col & 0x0F, 0x10 | (col >> 4))
            self.data(new[p * w + c0:p * w + c1 + 1])


def device(kind: str, serial_interface, *, rotate: int = 0):
    """The partial-update device for `kind` ("ssd1306" or "sh1106"), 128x64."""
    chip = sh1106 if kind == "sh1106" else ssd1306
    return chip(serial_interface, width=128, height=64, rotate=rotate)
