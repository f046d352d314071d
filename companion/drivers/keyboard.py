"""The keyboard as the six buttons, for the terminal emulator.

A reader thread puts stdin in raw mode and posts `ButtonInput`s. A real key has no release
event in a terminal, so holds have keys of their own: `u` = hold BACK (undo), `m` = hold OK
(menu), `p` = BACK and NEXT held together 5 s (the power-off chord, drivers/chord.py).
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Callable

from companion.inputs import Button, ButtonInput, Gesture, Quit, ShutdownRequest

KEYS: dict[bytes, object] = {
    b"n": ButtonInput(Button.NEXT), b" ": ButtonInput(Button.NEXT),
    b"r": ButtonInput(Button.ROLL),
    b"\x1b[A": ButtonInput(Button.UP), b"k": ButtonInput(Button.UP), b"w": ButtonInput(Button.UP),
    b"\x1b[B": ButtonInput(Button.DOWN), b"j": ButtonInput(Button.DOWN),
    b"s": ButtonInput(Button.DOWN),
    b"\r": ButtonInput(Button.OK), b"\n": ButtonInput(Button.OK), b"o": ButtonInput(Button.OK),
    b"\x7f": ButtonInput(Button.BACK), b"\x08": ButtonInput(Button.BACK),
    b"b": ButtonInput(Button.BACK), b"\x1b[D": ButtonInput(Button.BACK),
    b"\x1b[C": ButtonInput(Button.OK),
    b"u": ButtonInput(Button.BACK, Gesture.HOLD), b"m": ButtonInput(Button.OK, Gesture.HOLD),
    b"p": ShutdownRequest(),  # the chord itself: what BACK + NEXT held 5 s report
    b"q": Quit(), b"\x03": Quit(), b"\x04": Quit(),
}

KEY_HELP = [
    "n/space NEXT   r ROLL   ↑↓ or k/j UP/DOWN   Enter OK   Backspace/b BACK",
    "u hold BACK (undo)  m hold OK (menu)  p BACK+NEXT 5 s (power off)  q quit",
]


def decode(data: bytes) -> list[object]:
    """Split a chunk read from the terminal into inputs; unknown keys are ignored."""
    out = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"\x1b" and data[i + 1:i + 2] == b"[" and i + 2 < len(data):
            key = data[i:i + 3]
            i += 3
        else:
            key = data[i:i + 1].lower() if data[i:i + 1].isalpha() else data[i:i + 1]
            i += 1
        if key in KEYS:
            out.append(KEYS[key])
    return out


def terminal_fd() -> int:
    """Standard input's descriptor, or DeviceError when it is not a terminal."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):  # closed, None, or not a real file
        fd = -1
    if fd < 0 or not os.isatty(fd):
        from companion.errors import DeviceError
        raise DeviceError("the emulator reads keys from a terminal, and standard input is not "
                          "one; for scripts use --input stdin")
    return fd


class Keyboard:
    """Reads the terminal in raw mode until closed; a context manager that restores it."""

    def __init__(self, *, post: Callable[[object], None], fd: int | None = None) -> None:
        import termios
        import tty

        self.post = post
        self.fd = terminal_fd() if fd is None else fd
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        attrs = termios.tcgetattr(self.fd)
        attrs[3] &= ~termios.ISIG  # Ctrl-C arrives as a key (quit cleanly, terminal restored)
        termios.tcsetattr(self.fd, termios.TCSANOW, attrs)
        self._r, self._w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="keyboard", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import select

        while True:
            ready, _, _ = select.select([self.fd, self._r], [], [])
            if self._r in ready:
                return
            data = os.read(self.fd, 64)
            if not data:
                self.post(Quit())
                return
            for item in decode(data):
                self.post(item)

    def close(self) -> None:
        import termios

        os.write(self._w, b"x")
        self._thread.join(timeout=1)
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
        os.close(self._r)
        os.close(self._w)

    def __enter__(self) -> Keyboard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ScriptInput:
    """Button names from a text stream, one per line ("NEXT", "HOLD BACK", "QUIT").

    For tests and benchmarks that drive the real app as a subprocess. Unknown lines are
    reported on stderr and skipped. End of input quits.
    """

    def __init__(self, stream, *, post: Callable[[object], None]) -> None:
        self.stream = stream
        self.post = post
        self._thread = threading.Thread(target=self._run, name="script", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for line in self.stream:
            words = line.split()
            if not words:
                continue
            if words[0].upper() == "QUIT":
                break
            gesture = Gesture.PRESS
            if words[0].upper() == "HOLD" and len(words) == 2:
                gesture, words = Gesture.HOLD, words[1:]
            try:
                self.post(ButtonInput(Button[words[0].upper()], gesture))
            except KeyError:
                print(f"script: unknown button {line.strip()!r}", file=sys.stderr, flush=True)
        self.post(Quit())

    def close(self) -> None:
        pass

    def __enter__(self) -> ScriptInput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
