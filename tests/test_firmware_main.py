"""firmware/main.py on fake hardware: the board's wiring, run under CPython.

`machine`, `neopixel`, `ssd1306`, `select` and MicroPython's `time` are replaced by small
fakes for the length of one run; the loop runs on a fake millisecond clock until the script
of host bytes and button levels is played out, then a KeyboardInterrupt (what Ctrl-C from
mpremote raises on the board) ends it.
"""

from __future__ import annotations

import runpy
import sys
import types
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
sys.path.insert(0, str(FIRMWARE))
sys.path.insert(0, str(Path(__file__).resolve().parent / "mpy"))

import fwchecks  # noqa: E402
import proto  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.ms = 0


class Board:
    """The script: host bytes at given times, button levels over time, an end time."""

    def __init__(self, *, host: list[tuple[int, bytes]], button: list[tuple[int, int]],
                 end: int, display: bool = True) -> None:
        self.clock = Clock()
        self.host = sorted(host)
        self.button = button
        self.end = end
        self.display = display
        self.rx = bytearray()  # what the board wrote to USB
        self.pixels: list[list[tuple]] = []  # every ring write
        self.screen = fwchecks.Canvas()
        self.pins: dict[int, str] = {}

    def modules(self) -> dict[str, types.ModuleType]:
        board = self

        machine = types.ModuleType("machine")

        class Pin:
            IN = "in"
            PULL_UP = "pull_up"

            def __init__(self, n, mode=None, pull=None):
                self.n = n
                board.pins[n] = pull or mode or "out"

            def value(self):
                level = 1
                for t, v in board.button:
                    if board.clock.ms >= t:
                        level = v
                return level

        class I2C:
            def __init__(self, i2c_id, *, sda, scl, freq):
                board.pins[sda.n] = "sda"
                board.pins[scl.n] = "scl"

            def scan(self):
                return [0x3C] if board.display else []

        machine.Pin, machine.I2C = Pin, I2C

        neopixel = types.ModuleType("neopixel")

        class NeoPixel:
            def __init__(self, pin, n):
                self.buf = [(0, 0, 0)] * n

            def __setitem__(self, i, v):
                self.buf[i] = v

            def write(self):
                board.pixels.append(list(self.buf))

        neopixel.NeoPixel = NeoPixel

        ssd1306 = types.ModuleType("ssd1306")
        ssd1306.SSD1306_I2C = lambda w, h, i2c, addr: board.screen

        select = types.ModuleType("select")
        select.POLLIN = 1

        class Poll:
            def register(self, stream, mask):
                pass

            def poll(self, timeout):
                if board.host and board.host[0][0] <= board.clock.ms:
                    return [(None, 1)]
                board.clock.ms += max(timeout, 0)
                if board.clock.ms > board.end:
                    raise KeyboardInterrupt
                return []

        select.poll = Poll

        utime = types.ModuleType("time")
        utime.ticks_ms = lambda: board.clock.ms
        utime.ticks_diff = lambda a, b: a - b
        return {"machine": machine, "neopixel": neopixel, "ssd1306": ssd1306,
                "select": select, "time": utime}

    def read(self, n: int) -> bytes:
        t, data = self.host[0]
        self.host[0] = (t, data[n:])
        if not data[n:]:
            self.host.pop(0)
        return data[:n]

    def run(self, monkeypatch) -> None:
        for name, mod in self.modules().items():
            monkeypatch.setitem(sys.modules, name, mod)
        board = self
        stdin = types.SimpleNamespace(buffer=types.SimpleNamespace(read=board.read))
        stdout = types.SimpleNamespace(buffer=types.SimpleNamespace(write=board.rx.extend))
        monkeypatch.setattr(sys, "stdin", stdin)
        monkeypatch.setattr(sys, "stdout", stdout)
        with pytest.raises(KeyboardInterrupt):
            runpy.run_path(str(FIRMWARE / "main.py"), run_name="__main__")
        monkeypatch.undo()

    def lines(self) -> list[tuple[str, list[str]]]:
        return [proto.parse(ln + b"\n") for ln in bytes(self.rx).split(b"\n") if ln]


def test_main_wires_the_roller(monkeypatch):
    board = Board(
        host=[(10, proto.frame("HELLO")), (50, proto.frame("ROLL", ["1", "colors", "shapes"]))],
        button=[(1000, 0), (1003, 1), (1005, 0), (1100, 1)],  # a bouncy press
        end=1500,
    )
    board.run(monkeypatch)
    got = board.lines()
    assert got[0] == ("HELLO", ["1.0.0", "colors", "shapes", "d8", "d6"])
    verb, args = got[1]
    assert (verb, args[0]) == ("ROLLED", "1")
    assert got[2:] == [("PRESS", [])]  # one press for one bouncy push
    assert board.pins == {16: "out", 15: "pull_up", 4: "sda", 5: "scl"}
    assert len(board.pixels) > 15  # the tumbling light ran on the ring
    assert board.pixels[-1] == [(0, 0, 0)] * 12  # stopping darkens the ring
    assert board.screen.texts[0][0] == "Chroma dice"
    color = args[1].split("=")[1]
    assert any(t[0].startswith(color) for t in board.screen.texts)


def test_main_runs_without_a_display(monkeypatch):
    board = Board(host=[(10, b"garbage\n"), (20, proto.frame("PING", ["3"]))], button=[],
                  end=100, display=False)
    board.run(monkeypatch)
    assert board.lines() == [("ERR", ["-", "frame"]), ("PONG", ["3"])]
    assert board.screen.texts == []
