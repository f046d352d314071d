"""A simulated dice roller on a pty pair: the firmware's own pure code playing the board.

The host driver opens `board.path` (the pty's slave side) as if it were the Pico's USB serial
port; a thread here reads the master side and runs `firmware/rolling.py` on it, so the driver
talks to the real protocol code. `unplug()` closes the pty (the driver sees the device vanish)
and `plug()` opens a fresh one, as pulling and replugging the cable does.
"""

from __future__ import annotations

import os
import random
import select
import sys
import threading
import time
import tty
from dataclasses import dataclass
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

import rolling  # noqa: E402  (firmware/rolling.py)

VID_PID = (0x2E8A, 0x0005)


@dataclass
class PortInfo:
    """What serial.tools.list_ports.comports() yields, as far as the driver looks."""

    device: str
    vid: int | None = VID_PID[0]
    pid: int | None = VID_PID[1]


def _ms() -> int:
    return int(time.monotonic() * 1000)


class Board:
    """The roller on the far end of a pty. `silent`: read but never answer (a hung board)."""

    def __init__(self, *, seed: int = 1, anim_ms: int = 30) -> None:
        self.rng = random.Random(seed)
        self.anim_ms = anim_ms
        self.silent = False
        self.mute: tuple[bytes, ...] = ()  # answers starting with these are never sent
        self.held: list[bytes] = []  # answers kept back while `hold` is set
        self.hold = False
        self.received: list[bytes] = []  # everything the host sent, for asserts
        self.sent: list[bytes] = []  # every line the board answered
        self.plugged = threading.Event()
        self._lock = threading.RLock()
        self._master: int | None = None
        self.path = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    # -- the cable ---------------------------------------------------------------------------

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no "\n" -> "\r\n": a USB CDC port is raw
        self.path = os.ttyname(slave)
        # Keep our slave fd open so the master does not see EIO before the driver opens it.
        self._slave = slave
        self.roller = rolling.Roller(self._send, self.rng.randint, anim_ms=self.anim_ms)
        self._master = master
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(master, self._stop), daemon=True)
        self._thread.start()
        self.plugged.set()

    def unplug(self) -> None:
        self.plugged.clear()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = None
            self._slave = None

    def close(self) -> None:
        if self.plugged.is_set():
            self.unplug()

    def ports(self) -> list[PortInfo]:
        """Stand-in for list_ports.comports(): the board while plugged, plus a stranger."""
        found = [PortInfo("/dev/ttyS-not-a-roller", 0x1234, 0x5678)]
        if self.plugged.is_set():
            found.append(PortInfo(self.path))
        return found

    # -- the board ---------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        self.sent.append(data)
        if self.silent or data.startswith(self.mute or (b"\xff",)):
            return
        if self.hold:
            self.held.append(data)
            return
        self.write(data)

    def write(self, data: bytes) -> None:
        """Put raw bytes on the line to the host (also for garbage)."""
        with self._lock:
            if self._master is not None:
                os.write(self._master, data)

    def release(self) -> None:
        """Send the answers kept back while `hold` was set."""
        self.hold = False
        held, self.held = self.held, []
        for data in held:
            self.write(data)

    def press(self) -> None:
        with self._lock:
            self.roller.press(_ms())

    def _run(self, master: int, stop: threading.Event) -> None:
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.01)
            with self._lock:
                if ready:
                    try:
                        data = os.read(master, 1024)
                    except OSError:
                        data = b""
                    if data:
                        self.received.append(data)
                        self.roller.receive(data, _ms())
                self.roller.tick(_ms())
