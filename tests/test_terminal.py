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

    from companion.app import App
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
    return text.split("\r\n")


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
