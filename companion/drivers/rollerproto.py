"""The host's half of the dice roller protocol (docs/protocol.md): framing and meaning.

A line is `VERB [args...]*hh\\n`, `hh` the two hex digits of the XOR of every byte before `*`
(the NMEA checksum). The firmware has its own copy of the framing in `firmware/proto.py`;
`tests/vectors/protocol.json` holds both to the same table.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RollerProtocolError
from companion.rules.dice import DICE

MAX_LINE = 80  # bytes before the "\n"; a "\r" before it is allowed and not counted
MAX_SEQ = 0x7FFFFFFF

_HEX = frozenset(b"0123456789ABCDEFabcdef")


def checksum(body: bytes) -> int:
    x = 0
    for b in body:
        x ^= b
    return x


def frame(verb: str, args: list[str] | tuple[str, ...] = ()) -> bytes:
    """The wire bytes of one line, e.g. frame("PING", ["7"]) == b"PING 7*07\\n"."""
    body = " ".join([verb, *map(str, args)]).encode("ascii")
    line = body + b"*%02X\n" % checksum(body)
    if len(line) - 1 > MAX_LINE:
        raise ValueError(f"a protocol line is at most {MAX_LINE} bytes: {line!r}")
    return line


def parse(line: bytes) -> tuple[str, list[str]]:
    """Split one line (with or without its newline) into (verb, args), checking the frame.

    Raises RollerProtocolError("long" | "frame" | "checksum").
    """
    line = line.removesuffix(b"\n").removesuffix(b"\r")
    if len(line) > MAX_LINE:
        raise RollerProtocolError("long", f"{len(line)} bytes")
    body, star, hexpart = line.rpartition(b"*")
    if not star or len(hexpart) != 2 or not set(hexpart) <= _HEX:
        raise RollerProtocolError("frame", "no *hh checksum at the end")
    if not body or any(b < 0x20 or b > 0x7E for b in line):
        raise RollerProtocolError("frame", "empty or not printable ASCII")
    if checksum(body) != int(hexpart, 16):
        raise RollerProtocolError("checksum", f"{hexpart.decode()} != {checksum(body):02X}")
    words = body.decode("ascii").split(" ")
    if "" in words:
        raise RollerProtocolError("frame", "extra spaces")
    return words[0], words[1:]


def seq_of(word: str) -> int | None:
    """A sequence number (decimal 0..2**31-1), or None."""
    if not (1 <= len(word) <= 10 and word.isascii() and word.isdigit()):
        return None
    n = int(word)
    return n if n <= MAX_SEQ else None


class LineReader:
    """Cuts a byte stream into lines; the same rules as the firmware's `proto.LineReader`.

    `feed(data)` returns complete lines (bytes, "\\n" included) and RollerProtocolError items
    for lines dropped as too long. A line that grows past MAX_LINE is discarded at once (memory
    stays bounded) and reported when its newline comes. `expire()` drops a partial line.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._skipping = False

    def pending(self) -> bool:
        return self._skipping or bool(self._buf)

    def feed(self, data: bytes) -> list[bytes | RollerProtocolError]:
        out: list[bytes | RollerProtocolError] = []
        start = 0
        while start < len(data):
            nl = data.find(b"\n", start)
            end = len(data) if nl < 0 else nl
            if not self._skipping:
                self._buf += data[start:end]
                if len(self._buf) > self.max_line + 1:  # +1: the "\r" of "\r\n"
                    self._buf.clear()
                    self._skipping = True
            if nl < 0:
                break
            if self._skipping:
                out.append(RollerProtocolError("long"))
                self._skipping = False
            else:
                out.append(bytes(self._buf) + b"\n")
            self._buf.clear()
            start = nl + 1
        return out

    def expire(self) -> RollerProtocolError | None:
        if not self.pending():
            return None
        err = RollerProtocolError("long" if self._skipping else "unterminated")
        self._buf.clear()
        self._skipping = False
        return err


# -- what the roller says ----------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    version: str
    dice: tuple[str, ...]


@dataclass(frozen=True)
class Rolled:
    seq: int
    dice: dict[str, str | int]


@dataclass(frozen=True)
class Ok:
    seq: int


@dataclass(frozen=True)
class Pong:
    seq: int


@dataclass(frozen=True)
class Press:
    pass


@dataclass(frozen=True)
class Err:
    seq: int | None  # None for "-": the roller could not trust the seq of the line it dropped
    reason: str


Message = Hello | Rolled | Ok | Pong | Press | Err


def _face(name: str, text: str) -> str | int:
    die = DICE.get(name)
    if die is None:
        raise RollerProtocolError("die", name)
    face: str | int = int(text) if text.isascii() and text.isdigit() else text
    if face not in die.faces:
        raise RollerProtocolError("face", f"{name}={text}")
    return face


def _seq(args: list[str], count: int | None = None) -> int:
    if not args or (count is not None and len(args) != count):
        raise RollerProtocolError("args", " ".join(args))
    seq = seq_of(args[0])
    if seq is None:
        raise RollerProtocolError("args", f"bad seq {args[0]!r}")
    return seq


def read_message(line: bytes) -> Message:
    """What a line from the roller means. Raises RollerProtocolError for a line to drop."""
    verb, args = parse(line)
    if verb == "HELLO":
        if len(args) < 2:
            raise RollerProtocolError("args", "HELLO needs a version and the dice")
        for name in args[1:]:
            if name not in DICE:
                raise RollerProtocolError("die", name)
        return Hello(args[0], tuple(args[1:]))
    if verb == "ROLLED":
        seq = _seq(args)
        if len(args) < 2:
            raise RollerProtocolError("args", "ROLLED without dice")
        dice: dict[str, str | int] = {}
        for word in args[1:]:
            name, eq, text = word.partition("=")
            if not eq or not name or name in dice:
                raise RollerProtocolError("args", word)
            dice[name] = _face(name, text)
        return Rolled(seq, dice)
    if verb == "OK":
        return Ok(_seq(args, 1))
    if verb == "PONG":
        return Pong(_seq(args, 1))
    if verb == "PRESS":
        if args:
            raise RollerProtocolError("args", "PRESS takes none")
        return Press()
    if verb == "ERR":
        if len(args) != 2:
            raise RollerProtocolError("args", "ERR needs a seq and a reason")
        return Err(None if args[0] == "-" else _seq(args[:1]), args[1])
    raise RollerProtocolError("verb", verb)


def roll_line(seq: int, names: list[str]) -> bytes:
    return frame("ROLL", [str(seq), *names])


def show_line(seq: int, dice: dict[str, str | int]) -> bytes:
    return frame("SHOW", [str(seq), *(f"{k}={v}" for k, v in dice.items())])
