"""The dice roller link: a Raspberry Pi Pico on USB serial (docs/protocol.md).

One background thread owns the serial port. It finds the roller (by USB VID:PID or the
configured device path), shakes hands with `HELLO`, reads what the roller says and reconnects
by itself, with backoff, after the cable is pulled. The app thread only ever calls `roll()`,
`show()` and `close()`, which never block on the device; everything the roller reports
reaches the app through `post(item)`:

- `RollResult(seq, dice, source="roller")` for a roll it answered;
- the software fallback's `RollResult` (with a `note` for the screen) when the roller is gone,
  silent past `timeout`, or refuses;
- `RollerPress()` when its own button is pressed (a request to roll now);
- `Notice(...)` when it comes and goes.

Nothing the roller sends, however garbled, raises into the app.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, Callable, Iterable, Protocol

import serial
from serial.tools import list_ports

from companion.drivers import rollerproto as rp
from companion.errors import RollerError, RollerProtocolError
from companion.inputs import Notice, RollerPress, RollResult
from companion.rules.dice import die

log = logging.getLogger(__name__)

LINE_IDLE = 0.5  # s: a partial line this quiet is dropped
IDLE_WAIT = 1.0  # s: how long a read waits while nothing is pending (writes wake it at once)


class Fallback(Protocol):
    """What `SoftwareDice` offers: roll at once and post RollResult(source="software", note)."""

    def roll(self, seq: int, names: list[str], *, note: str = "") -> None: ...


def parse_vid_pid(text: str) -> tuple[int, int]:
    """ "2E8A:0005" -> (0x2E8A, 0x0005)."""
    vid, sep, pid = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(vid, 16), int(pid, 16)
    except ValueError:
        raise RollerError(f"roller.vid_pid {text!r} is not VID:PID in hex, e.g. 2E8A:0005") from None


class DiceRoller:
    """The roller as a dice source with the same `roll(seq, names)` as the software dice.

    `port`: "auto" (find by `vid_pid`), "none" (no roller: every roll goes to `fallback`) or a
    device path / pyserial URL. `timeout`: seconds to wait for a handshake or a roll.
    `backoff`: first and longest wait between connection attempts. `comports` and
    `open_port` are pyserial's `list_ports.comports` and `serial_for_url` unless a test
    hands in others.
    """

    def __init__(
        self,
        *,
        post: Callable[[Any], None],
        fallback: Fallback,
        port: str = "auto",
        vid_pid: str = "2E8A:0005",
        timeout: float = 2.0,
        backoff: tuple[float, float] = (0.5, 8.0),
        comports: Callable[[], Iterable[Any]] = list_ports.comports,
        open_port: Callable[..., Any] = serial.serial_for_url,
        poll: float = 0.05,
    ) -> None:
        self._post = post
        self._fallback = fallback
        self._port = port
        self._vid_pid = parse_vid_pid(vid_pid)
        self._timeout = timeout
        self._backoff = backoff
        self._comports = comports
        self._open_port = open_port
        self._poll = poll

        self._lock = threading.Lock()
        self._hello: rp.Hello | None = None  # set while connected
        self._ever_connected = False
        self._pending: dict[int, tuple[list[str], float]] = {}  # seq -> (dice, deadline)
        self._outbox: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self._link: Any = None  # the open port while connected (to wake its reader)
        self._stop = threading.Event()
        self._tried = threading.Event()  # the first connection attempt is over
        self.dropped = 0  # lines from the roller dropped as garbage (for logs and tests)

        self._thread: threading.Thread | None = None
        if port != "none":
            self._thread = threading.Thread(target=self._run, name="dice-roller", daemon=True)
            self._thread.start()
        else:
            self._tried.set()

    # -- the app's side ---------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._hello is not None

    @property
    def firmware(self) -> str | None:
        """The roller's firmware version while connected."""
        hello = self._hello
        return hello.version if hello else None

    def wait_ready(self, timeout: float) -> bool:
        """Wait (at most `timeout` s) for the first connection attempt; True if connected.

        For one-shot users such as `companion roll`; the app never needs it.
        """
        self._tried.wait(timeout)
        return self.connected

    def roll(self, seq: int, names: list[str]) -> None:
        """Ask for a roll; the result is posted later as a RollResult with this `seq`.

        Returns at once. Raises IllegalEvent (a ValueError) for an unknown die name.
        """
        names = list(names)
        for name in names:
            die(name)
        note = ""
        with self._lock:
            hello = self._hello
            if hello is None:
                if self._ever_connected:
                    note = "Roller unplugged: software roll"
            else:
                missing = [n for n in names if n not in hello.dice]
                if missing:
                    note = f"Roller has no {', '.join(missing)}: software roll"
                else:
                    self._pending[seq] = (names, time.monotonic() + self._timeout)
                    self._outbox.put(rp.roll_line(seq, names))
                    self._wake()
                    return
        self._software(seq, names, note)

    def show(self, seq: int, dice: dict[str, str | int]) -> None:
        """Show a result (rolled elsewhere) on the roller; ignored while it is not connected."""
        if self.connected and dice:
            self._outbox.put(rp.show_line(seq, dice))
            self._wake()

    def close(self) -> None:
        """Stop the thread and close the port. Safe to call twice."""
        self._stop.set()
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def __enter__(self) -> DiceRoller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the link thread --------------------------------------------------------------------

    def _software(self, seq: int, names: list[str], note: str) -> None:
        """Roll in software; the note (if any) tells the screen why."""
        self._fallback.roll(seq, names, note=note)

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            try:
                link = self._connect()
            except Exception:  # never let the thread die: log it and try again later
                log.exception("dice roller: connecting failed")
                link = None
            self._tried.set()
            if link is None:
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            delay = self._backoff[0]
            port, reader = link
            try:
                self._serve(port, reader)
            except OSError as e:  # pyserial's SerialException too: the cable was pulled
                log.info("dice roller: link lost: %s", e)
            except Exception:
                log.exception("dice roller: link failed")
            finally:
                self._disconnected(port)

    def _candidates(self) -> list[str]:
        if self._port != "auto":
            return [self._port]
        vid, pid = self._vid_pid
        found = []
        for info in self._comports():
            if getattr(info, "vid", None) == vid and getattr(info, "pid", None) == pid:
                found.append(info.device)
        return sorted(found)

    def _connect(self) -> tuple[Any, rp.LineReader] | None:
        for device in self._candidates():
            if self._stop.is_set():
                return None
            try:
                port = self._open_port(device, baudrate=115200, timeout=self._poll,
                                       write_timeout=self._timeout)
            except (OSError, ValueError, serial.SerialException) as e:
                log.debug("dice roller: cannot open %s: %s", device, e)
                continue
            try:
                hello, reader = self._handshake(port)
            except (OSError, serial.SerialException) as e:
                log.debug("dice roller: %s failed during handshake: %s", device, e)
                hello = None
            if hello is None:
                _close_quietly(port)
                continue
            with self._lock:
                self._hello = hello
                self._ever_connected = True
            log.info("dice roller on %s, firmware %s", device, hello.version)
            self._post(Notice(f"Dice roller connected (firmware {hello.version})"))
            return port, reader
        return None

    def _handshake(self, port: Any) -> tuple[rp.Hello | None, rp.LineReader]:
        reader = rp.LineReader()
        port.reset_input_buffer()
        port.write(rp.frame("HELLO"))
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline and not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            for item in reader.feed(data):
                if isinstance(item, bytes):
                    try:
                        msg = rp.read_message(item)
                    except RollerProtocolError:
                        continue
                    if isinstance(msg, rp.Hello):
                        return msg, reader
        return None, reader

    def _wake(self) -> None:
        """Make the link thread's read return now (a line to send, or stop)."""
        port = self._link
        if port is not None:
            try:
                port.cancel_read()
            except Exception:  # a port closing under us: the thread notices by itself
                pass

    def _serve(self, port: Any, reader: rp.LineReader) -> None:
        """Talk to a connected roller until it goes away (an OSError) or we stop.

        Event-driven while idle: a read waits up to IDLE_WAIT, and `_wake` cuts it short when
        there is a line to send; only while a roll or a partial line is pending does it wake
        every `poll` seconds, to keep their deadlines.
        """
        self._link = port
        try:
            self._serve_link(port, reader)
        finally:
            self._link = None

    def _serve_link(self, port: Any, reader: rp.LineReader) -> None:
        last_rx = time.monotonic()
        while not self._stop.is_set():
            while True:
                try:
                    line = self._outbox.get_nowait()
                except queue.Empty:
                    break
                port.write(line)
            with self._lock:
                busy = bool(self._pending)
            wait = self._poll if busy or reader.pending() else IDLE_WAIT
            if port.timeout != wait:
                port.timeout = wait
            data = port.read(port.in_waiting or 1)
            now = time.monotonic()
            if data:
                last_rx = now
                for item in reader.feed(data):
                    self._receive(item)
            elif reader.pending() and now - last_rx > LINE_IDLE:
                self._receive(reader.expire())
            self._expire(now)

    def _receive(self, item: bytes | RollerProtocolError | None) -> None:
        try:
            if isinstance(item, RollerProtocolError):
                raise item
            if item is not None:
                self._handle(rp.read_message(item))
        except RollerProtocolError as e:
            self.dropped += 1
            log.debug("dice roller: dropped a line (%s)", e)

    def _handle(self, msg: rp.Message) -> None:
        if isinstance(msg, rp.Press):
            self._post(RollerPress())
        elif isinstance(msg, rp.Rolled):
            with self._lock:
                entry = self._pending.pop(msg.seq, None)
            if entry is None:
                log.debug("dice roller: ignored a late or unasked answer for seq %d", msg.seq)
                return
            names = entry[0]
            if set(msg.dice) != set(names):
                self._software(msg.seq, names, "Roller answered other dice: software roll")
                return
            self._post(RollResult(msg.seq, {n: msg.dice[n] for n in names}, source="roller"))
        elif isinstance(msg, rp.Err):
            entry = None
            if msg.seq is not None:
                with self._lock:
                    entry = self._pending.pop(msg.seq, None)
            if msg.seq is not None and entry is not None:
                self._software(msg.seq, entry[0], f"Roller refused ({msg.reason}): software roll")
            else:
                log.debug("dice roller: ERR %s %s", msg.seq, msg.reason)
        elif isinstance(msg, rp.Hello):
            with self._lock:
                self._hello = msg
        # Ok and Pong need nothing.

    def _expire(self, now: float) -> None:
        with self._lock:
            late = [(s, e[0]) for s, e in self._pending.items() if e[1] <= now]
            for seq, _ in late:
                del self._pending[seq]
        for seq, names in late:
            log.info("dice roller: no answer for roll %d", seq)
            self._software(seq, names, "Roller silent: software roll")

    def _disconnected(self, port: Any) -> None:
        _close_quietly(port)
        with self._lock:
            self._hello = None
            orphans = [(s, e[0]) for s, e in self._pending.items()]
            self._pending.clear()
        while True:  # lines for the old link must not go to the next one
            try:
                self._outbox.get_nowait()
            except queue.Empty:
                break
        if self._stop.is_set():
            return
        log.info("dice roller: disconnected")
        self._post(Notice("Dice roller unplugged: software rolls"))
        for seq, names in orphans:
            self._software(seq, names, "Roller unplugged: software roll")


def open_roller(cfg: Any, *, post: Callable[[Any], None], fallback: Fallback) -> DiceRoller:
    """The roller as the config's `[roller]` section describes it (port, vid_pid, timeout)."""
    r = cfg["roller"]
    return DiceRoller(post=post, fallback=fallback, port=r["port"], vid_pid=r["vid_pid"],
                      timeout=float(r["timeout"]))


def _close_quietly(port: Any) -> None:
    try:
        port.close()
    except Exception:  # closing a port whose device is gone may fail; it is gone either way
        pass
