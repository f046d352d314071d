"""Partial OLED updates: byte for byte, the panel ends with the image luma's stock driver gives.

Both drivers write to a `RecordingSerial`; a model of each chip's display RAM applies the
recorded commands and data the way the datasheets describe. After every frame of a random
sequence, the RAM our driver leaves must equal the RAM the stock driver leaves.
"""

from __future__ import annotations

import errno

import luma.core.error
import pytest
from hypothesis import given, settings, strategies as st
from luma.oled.device import sh1106 as StockSh1106, ssd1306 as StockSsd1306
from PIL import Image, ImageDraw

from companion.drivers import oled
from companion.drivers.oled import RecordingSerial, wire_bytes


class Ssd1306Ram:
    """SSD1306 GDDRAM: 128 columns x 8 pages, horizontal and page addressing."""

    ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
            0xDB: 1, 0x8D: 1, 0xA3: 2}
    COLS = 128

    def __init__(self) -> None:
        self.ram = bytearray(self.COLS * 8)
        self.mode = 2  # page addressing after reset
        self.col0, self.col1, self.page0, self.page1 = 0, 127, 0, 7
        self.col = self.page = 0

    def command(self, cmd: bytes) -> None:
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = self.ARGS.get(op, 0)
            args = cmd[i + 1:i + 1 + n]
            assert len(args) == n, f"command {op:#x} cut short"
            self.apply(op, args)
            i += 1 + n

    def apply(self, op: int, args: bytes) -> None:
        if op == 0x20:
            self.mode = args[0] & 3
        elif op == 0x21:
            self.col0, self.col1 = args
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = args[0] & 7, args[1] & 7
            self.page = self.page0
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)

    def data(self, payload: bytes) -> None:
        for b in payload:
            assert 0 <= self.col < self.COLS and 0 <= self.page < 8
            self.ram[self.page * self.COLS + self.col] = b
            if self.mode == 0:  # horizontal: wrap the column window, then the page window
                self.col += 1
                if self.col > self.col1:
                    self.col = self.col0
                    self.page = self.page0 if self.page >= self.page1 else self.page + 1
            else:
                self.col = self.col + 1 if self.col < self.COLS - 1 else 0


class Sh1106Ram(Ssd1306Ram):
    """SH1106: 132 columns x 8 pages, page addressing only; the column stops at 131."""

    ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
    COLS = 132

    def apply(self, op: int, args: bytes) -> None:
        if 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)

    def data(self, payload: bytes) -> None:
        for b in payload:
            assert self.col < self.COLS, "write past column 131"
            self.ram[self.page * self.COLS + self.col] = b
            self.col += 1


def replay(model, calls) -> None:
    for kind, payload in calls:
        (model.command if kind == "command" else model.data)(payload)


def pair(kind: str, rotate: int, offset: int = 2):
    """(stock device, our device, stock serial, our serial)."""
    s1, s2 = RecordingSerial(), RecordingSerial()
    if kind == "sh1106":
        return (StockSh1106(s1, rotate=rotate, page_address_offset=offset),
                oled.sh1106(s2, rotate=rotate, page_address_offset=offset), s1, s2)
    return StockSsd1306(s1, rotate=rotate), oled.ssd1306(s2, rotate=rotate), s1, s2


def ram_model(kind: str):
    return Sh1106Ram() if kind == "sh1106" else Ssd1306Ram()


# --- frames ------------------------------------------------------------------------------------

def edit(size):
    w, h = size
    rect = st.tuples(st.just("rect"), st.integers(-4, w + 4), st.integers(-4, h + 4),
                     st.integers(0, w), st.integers(0, h), st.integers(0, 1))
    text = st.tuples(st.just("text"), st.integers(-10, w), st.integers(-10, h),
                     st.text("AB01 +-", min_size=1, max_size=8), st.integers(0, 1))
    dot = st.tuples(st.just("dot"), st.integers(0, w - 1), st.integers(0, h - 1), st.integers(0, 1))
    noise = st.tuples(st.just("noise"), st.binary(min_size=w * h // 8, max_size=w * h // 8))
    return st.one_of(rect, text, dot, dot, noise)


def frames(size, edits):
    img = Image.new("1", size)
    out = []
    for step in edits:
        for op in step:
            d = ImageDraw.Draw(img)
            if op[0] == "rect":
                _, x, y, dw, dh, fill = op
                d.rectangle((x, y, x + dw, y + dh), fill=fill)
            elif op[0] == "text":
                _, x, y, s, fill = op
                d.text((x, y), s, fill=fill)
            elif op[0] == "dot":
                _, x, y, fill = op
                d.point((x, y), fill=fill)
            else:
                img = Image.frombytes("1", size, op[1])
        out.append(img.copy())
    return out


@st.composite
def scenario(draw):
    kind = draw(st.sampled_from(["ssd1306", "sh1106"]))
    rotate = draw(st.integers(0, 3))
    offset = draw(st.sampled_from([0, 2])) if kind == "sh1106" else 0
    size = (64, 128) if rotate % 2 else (128, 64)
    edits = draw(st.lists(st.lists(edit(size), max_size=4), min_size=1, max_size=10))
    return kind, rotate, offset, frames(size, edits)


@settings(max_examples=150, deadline=None)
@given(scenario())
def test_panel_ram_matches_stock_driver_after_every_frame(case):
    kind, rotate, offset, seq = case
    stock, ours, s1, s2 = pair(kind, rotate, offset)
    m1, m2 = ram_model(kind), ram_model(kind)
    replay(m1, s1.calls)
    replay(m2, s2.calls)
    for img in seq:
        s1.clear()
        s2.clear()
        stock.display(img)
        ours.display(img)
        replay(m1, s1.calls)
        replay(m2, s2.calls)
        assert m2.ram == m1.ram
        assert s2.wire_bytes <= s1.wire_bytes


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_unchanged_frame_sends_nothing_and_one_pixel_sends_little(kind):
    _, ours, _, serial = pair(kind, 0)
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((10, 10), "Ann's turn", fill=1)
    ours.display(img)
    serial.clear()
    ours.display(img.copy())
    assert serial.calls == []
    img.putpixel((100, 40), 1)
    ours.display(img)
    assert len([c for c in serial.calls if c[0] == "data"]) == 1
    assert serial.calls[-1][1] and len(serial.calls[-1][1]) == 1


def test_stock_frame_costs_1034_wire_bytes_as_the_issue_says():
    stock, _, serial, _ = pair("ssd1306", 0)
    serial.clear()
    stock.display(Image.new("1", (128, 64), 1))
    assert wire_bytes(serial.calls) == 1034


class FailingSerial(RecordingSerial):
    """Raises what luma's i2c raises on a loose wire (EIO -> DeviceNotFoundError)."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False

    def data(self, data) -> None:
        if self.broken:
            raise luma.core.error.DeviceNotFoundError("I2C device not found on address: 0x3C")
        super().data(data)


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_failed_write_raises_oserror_and_the_next_frame_is_sent_in_full(kind):
    serial = FailingSerial()
    dev = oled.device(kind, serial)
    model = ram_model(kind)
    replay(model, serial.calls)
    a = Image.new("1", (128, 64))
    ImageDraw.Draw(a).rectangle((5, 5, 60, 30), fill=1)
    serial.broken = True
    with pytest.raises(OSError) as e:
        dev.display(a)
    assert e.value.errno == errno.EIO
    serial.broken = False
    serial.clear()
    model.ram[:] = bytes(len(model.ram))  # the panel lost power meanwhile: RAM is unknown
    model.ram[3] = 0x55
    dev.display(a)
    replay(model, serial.calls)
    expect = ram_model(kind)
    stock = (StockSh1106 if kind == "sh1106" else StockSsd1306)(s := RecordingSerial())
    stock.display(a)
    replay(expect, s.calls)
    assert model.ram == expect.ram
    assert len(b"".join(p for k, p in serial.calls if k == "data")) == 1024
