"""The terminal emulator: exact pixels in text, and keys as buttons."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from companion.drivers.keyboard import decode
from companion.drivers.terminal import frame_text, terminal
from companion.inputs import Button, ButtonInput, Gesture, Quit, ShutdownRequest


def checker() -> Image.Image:
    img = Image.new("1", (128, 64))
    for x in range(128):
        for y in range(64):
            if (x + y) % 3 == 0:
                img.putpixel((x, y), 1)
    return img


def test_half_blocks_are_pixel_exact_on_a_wide_terminal():
    img = checker()
    lines = frame_text(img, columns=140, rows=40)
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    for y in range(64):
        for x in range(128):
            ch = lines[y // 2][x]
            top, bottom = ch in "▀█", ch in "▄█"
            assert (top if y % 2 == 0 else bottom) == bool(img.getpixel((x, y)))


def test_quadrants_are_pixel_exact_on_a_tall_80_column_terminal():
    img = checker()
    lines = frame_text(img, columns=80, rows=40)
    assert len(lines) == 32 and all(len(line) == 64 for line in lines)
    quad = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
    for y in range(64):
        for x in range(128):
            cell = quad.index(lines[y // 2][x // 2])
            bit = {(0, 0): 1, (1, 0): 2, (0, 1): 4, (1, 1): 8}[(x % 2, y % 2)]
            assert bool(cell & bit) == bool(img.getpixel((x, y)))


def test_braille_is_pixel_exact_on_a_small_terminal():
    img = checker()
    lines = frame_text(img, columns=80, rows=24)
    assert len(lines) == 16 and all(len(line) == 64 for line in lines)
    bits = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08, (1, 1): 0x10,
            (1, 2): 0x20, (0, 3): 0x40, (1, 3): 0x80}
    for y in range(64):
        for x in range(128):
            cell = ord(lines[y // 4][x // 2]) - 0x2800
            assert bool(cell & bits[(x % 2, y % 4)]) == bool(img.getpixel((x, y)))


def test_terminal_device_writes_frame_and_key_help():
    out = io.StringIO()
    dev = terminal(out=out, footer=["keys here"], columns=80, rows=24)
    dev.display(checker())
    text = out.getvalue()
    assert "keys here" in text and "┌" + "─" * 64 + "┐" in text
    dev.cleanup()


def test_keys():
    assert decode(b"n") == [ButtonInput(Button.NEXT)]
    assert decode(b"\x1b[A\x1b[Bx\r") == [ButtonInput(Button.UP), ButtonInput(Button.DOWN),
                                          ButtonInput(Button.OK)]
    assert decode(b"u") == [ButtonInput(Button.BACK, Gesture.HOLD)]
    assert decode(b"M") == [ButtonInput(Button.OK, Gesture.HOLD)]
    assert decode(b"q") == [Quit()]


def test_the_power_off_chord_has_a_key_listed_under_the_panel():
    from companion.drivers.keyboard import KEY_HELP
    assert decode(b"p") == [ShutdownRequest()]
    assert decode(b"P") == [ShutdownRequest()]
    assert any("p BACK+NEXT 5 s (power off)" in line for line in KEY_HELP)
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "| `p` | hold BACK + NEXT 5 s |" in readme


def test_the_emulator_asks_but_never_powers_off_the_computer(tmp_path, config, monkeypatch):
    """`p` then OK in the emulator: no command runs; the power-off screen, then Quit."""
    import queue
    import subprocess

    from companion.app.core import App
    from companion.drivers.display import dummy
    from companion.session.store import Store
    from companion.ui import power
    from companion.ui.screen import Confirm, TextScreen

    def refuse(*args, **kwargs):
        raise AssertionError("the emulator ran a command")

    monkeypatch.setattr(subprocess, "run", refuse)
    with Store(tmp_path / "journal.db") as store:
        app = App(config=config, store=store, display=dummy())
        posted: queue.SimpleQueue = queue.SimpleQueue()
        app.power_runner = power.emulated(posted.put, delay=0.0)
        app.handle(decode(b"p")[0])
        assert isinstance(app.top, Confirm) and app.top.question == "Power off?"
        app.handle(ButtonInput(Button.OK))
        assert isinstance(app.top, TextScreen) and app.top.title == "Power off"
        assert posted.get(timeout=10) == Quit()
        app.close()


def test_the_emulator_without_a_terminal_says_so(tmp_path, capsys, monkeypatch):
    import io
    import sys

    from companion.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))  # a script, not a terminal
    code = main(["run", "--emulator", "--display", "dummy", "--journal",
                 str(tmp_path / "j.db")])
    assert code == 2
    assert "reads keys from a terminal" in capsys.readouterr().err


def written_lines(out: io.StringIO) -> list[str]:
    text = out.getvalue().split("\x1b[H")[-1].removesuffix("\x1b[J")
    return text.replace("\x1b[K", "").split("\r\n")


def test_a_terminal_too_small_for_braille_says_the_size_it_needs():
    out = io.StringIO()
    dev = terminal(out=out, footer=["keys here"], columns=60, rows=20)
    assert dev.min_size == (66, 18)
    dev.display(checker())
    lines = written_lines(out)
    assert all(len(line) <= 60 for line in lines) and len(lines) <= 20  # nothing wraps
    text = " ".join(lines)
    assert "at least 66x18" in text and "this one is 60x20" in text
    assert "⠀" not in text and "┌" not in text  # no half-drawn panel
    out2 = io.StringIO()
    terminal(out=out2, columns=80, rows=10).display(checker())  # too few rows alone
    assert "at least 66x18" in " ".join(written_lines(out2))


def test_the_smallest_terminal_shows_the_panel_and_wraps_the_key_help():
    out = io.StringIO()
    help_line = "n/space NEXT   r ROLL   ↑↓ or k/j UP/DOWN   Enter OK   Backspace/b BACK"
    dev = terminal(out=out, footer=[help_line, help_line], columns=66, rows=21)
    dev.display(checker())
    lines = written_lines(out)
    assert lines[0] == "┌" + "─" * 64 + "┐" and lines[17] == "└" + "─" * 64 + "┘"
    assert all(len(line) <= 66 for line in lines)
    assert len(lines) == 21  # the key help fills the rows that are left, and no more
    assert lines[18].startswith("n/space NEXT")


class Screen:
    """What a terminal shows after the emulator's output: a grid of cells that understands the
    few sequences the emulator writes (home, clear screen, clear below, clear line, CR, LF)
    and, like xterm, cuts its lines when the window shrinks."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.cells = [[" "] * columns for _ in range(rows)]
        self.r = self.c = 0

    def resize(self, columns: int, rows: int) -> None:
        self.cells = [(line + [" "] * columns)[:columns] for line in self.cells[:rows]]
        self.cells += [[" "] * columns for _ in range(rows - len(self.cells))]
        self.columns, self.rows = columns, rows
        self.r, self.c = min(self.r, rows - 1), min(self.c, columns - 1)

    def feed(self, text: str) -> None:
        import re
        i = 0
        while i < len(text):
            m = re.match(r"\x1b\[([?0-9;]*)([A-Za-z])", text[i:])
            if m:
                i += m.end()
                arg, cmd = m.groups()
                if cmd == "H":
                    self.r = self.c = 0
                elif cmd == "J" and arg == "2":
                    self.cells = [[" "] * self.columns for _ in range(self.rows)]
                elif cmd == "J":
                    self.cells[self.r][self.c:] = [" "] * (self.columns - self.c)
                    for r in range(self.r + 1, self.rows):
                        self.cells[r] = [" "] * self.columns
                elif cmd == "K":
                    self.cells[self.r][self.c:] = [" "] * (self.columns - self.c)
                continue
            ch, i = text[i], i + 1
            if ch == "\r":
                self.c = 0
            elif ch == "\n":
                self.r = min(self.r + 1, self.rows - 1)
            elif self.c < self.columns:
                self.cells[self.r][self.c] = ch
                self.c += 1

    def text(self) -> list[str]:
        return ["".join(line).rstrip() for line in self.cells]


def test_a_terminal_that_shrinks_and_grows_again_shows_no_stray_characters():
    """Issue 26, item 9: half blocks at 140x40, Braille at 80x24, half blocks again: the
    screen is exactly the frame, as on a fresh terminal, with nothing of the frames before."""
    help_line = "n/space NEXT   r ROLL   ↑↓ or k/j UP/DOWN   Enter OK   Backspace/b BACK"
    out = io.StringIO()
    dev = terminal(out=out, footer=[help_line], columns=140, rows=40)
    screen = Screen(140, 40)
    full = Image.new("1", (128, 64), 1)
    for columns, rows, image in ((140, 40, full), (80, 24, checker()), (140, 40, checker()),
                                 (60, 20, full), (80, 24, full)):
        dev.columns, dev.rows = columns, rows
        screen.resize(columns, rows)
        out.seek(0)
        out.truncate()
        dev.display(image)
        screen.feed(out.getvalue())
        fresh, alone = Screen(columns, rows), io.StringIO()
        terminal(out=alone, footer=[help_line], columns=columns, rows=rows).display(image)
        fresh.feed(alone.getvalue())
        assert screen.text() == fresh.text(), (columns, rows)


def test_a_frame_is_written_whole_to_a_terminal_in_non_blocking_mode(monkeypatch):
    """Issue 26, item 9: a terminal left in non-blocking mode (npm does that) took part of a
    frame and the write raised: the last frame before an exit stayed cut, a three-byte block
    character split (a "�"). Now the rest follows once the terminal takes more."""
    import fcntl
    import os
    import pty
    import select
    import threading

    master, slave = pty.openpty()
    fcntl.fcntl(slave, fcntl.F_SETFL, fcntl.fcntl(slave, fcntl.F_GETFL) | os.O_NONBLOCK)
    stream = open(slave, "w", encoding="utf-8", closefd=False)
    dev = terminal(out=stream, footer=["keys here"], columns=140, rows=40)
    got = bytearray()
    while True:  # what the constructor wrote, then the terminal's own buffer filled up
        got += os.read(master, 65536) if select.select([master], [], [], 0)[0] else b""
        if not select.select([master], [], [], 0)[0]:
            break
    filler = 0
    try:
        while True:
            filler += os.write(slave, b"x" * 4096)
    except BlockingIOError:
        pass  # full: the frame's first write cannot go through
    reading = threading.Event()
    real_select = select.select

    def waiting(r, w, x, *timeout):  # the terminal drains only once the writer waits for it
        reading.set()
        return real_select(r, w, x, *timeout)

    monkeypatch.setattr(select, "select", waiting)
    frame = bytearray()

    def read() -> None:
        reading.wait()
        while not frame.endswith(b"\x1b[J"):
            frame.extend(os.read(master, 65536))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        dev.display(checker())
    finally:
        reading.set()
    reader.join(timeout=30)
    stream.close()
    os.close(slave)
    os.close(master)
    text = bytes(frame).replace(b"\r\r\n", b"\r\n").decode("utf-8")  # no split character
    text = text.lstrip("x")  # the filler
    lines = text.split("\x1b[H")[-1].removesuffix("\x1b[J").replace("\x1b[K", "").split("\r\n")
    assert lines[1:33] == ["│" + line + "│" for line in frame_text(checker(), columns=140,
                                                                      rows=40)]
    assert lines[-1] == "keys here"
