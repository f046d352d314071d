"""Dice roller protocol: framing, checksum and line splitting (docs/protocol.md).

Pure MicroPython (also runs on CPython for the tests): no `machine`, no I/O. A line is
`VERB [args...]*hh\\n`, `hh` being the two hex digits of the XOR of every byte before `*`.
"""

MAX_LINE = 80  # bytes before the "\n" (a "\r" before it is allowed and not counted)

# Why a line was dropped; the same words go into `ERR <seq> <reason>`.
LONG = "long"
UNTERMINATED = "unterminated"
CHECKSUM = "checksum"
FRAME = "frame"  # no "*hh", bad characters, empty
VERB = "verb"  # unknown verb (decided by the caller, which knows its verbs)
ARGS = "args"  # wrong arguments
DIE = "die"  # unknown die
FACE = "face"  # not a face of that die

NO_SEQ = "-"  # the seq of an ERR answering a line whose seq cannot be trusted


class ProtoError(Exception):
    """A line that must be dropped; `reason` is one of the words above."""

    def __init__(self, reason, seq=NO_SEQ):
        super().__init__(reason)
        self.reason = reason
        self.seq = seq


def checksum(body):
    """XOR of every byte of `body` (bytes)."""
    x = 0
    for b in body:
        x ^= b
    return x


def frame(verb, args=()):
    """The wire bytes of one line: frame("PING", ["7"]) == b"PING 7*07\\n"."""
    words = [verb]
    for a in args:
        words.append(str(a))
    body = " ".join(words).encode()
    line = body + ("*%02X\n" % checksum(body)).encode()
    if len(line) - 1 > MAX_LINE:
        raise ValueError("line longer than %d bytes" % MAX_LINE)
    return line


_HEX = b"0123456789ABCDEFabcdef"


def _printable(body):
    for b in body:
        if b < 0x20 or b > 0x7E:
            return False
    return True


def parse(line):
    """Split one line (bytes, with or without its "\\n") into (verb, [args]).

    Raises ProtoError(FRAME / LONG / CHECKSUM) for a line to drop. Whether the verb is known
    is for the caller to decide.
    """
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtoError(LONG)
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 3:
        raise ProtoError(FRAME)
    body = line[:star]
    hexpart = line[star + 1:]
    if not _printable(line) or not body:
        raise ProtoError(FRAME)
    for b in hexpart:
        if b not in _HEX:
            raise ProtoError(FRAME)
    if checksum(body) != int(hexpart, 16):
        raise ProtoError(CHECKSUM)
    words = body.decode().split(" ")
    if "" in words:  # doubled, leading or trailing spaces
        raise ProtoError(FRAME)
    return words[0], words[1:]


def seq_of(word):
    """The sequence number in `word` (decimal 0..2**31-1), or None."""
    if not word or len(word) > 10:
        return None
    for c in word:
        if c < "0" or c > "9":
            return None
    n = int(word)
    if n > 0x7FFFFFFF:
        return None
    return n


class LineReader:
    """Cuts a byte stream into lines, dropping over-long and (on `expire`) unterminated ones.

    `feed(data)` returns a list of items, each either a complete line (bytes, "\\n" included)
    or a ProtoError for a line that was dropped. A line longer than MAX_LINE is dropped as soon
    as it is too long and reported once, when its "\\n" arrives; the bytes up to that "\\n" are
    skipped, so memory stays bounded whatever the sender does.
    """

    def __init__(self, max_line=MAX_LINE):
        self.max_line = max_line
        self.buf = bytearray()
        self.skipping = False

    def pending(self):
        """True if part of a line is waiting for its "\\n"."""
        return self.skipping or len(self.buf) > 0

    def feed(self, data):
        out = []
        start = 0
        n = len(data)
        while start < n:
            nl = data.find(b"\n", start)
            end = n if nl < 0 else nl
            if not self.skipping:
                self.buf.extend(data[start:end])
                # +1: room for the "\r" of a "\r\n" ending
                if len(self.buf) > self.max_line + 1:
                    self.buf = bytearray()
                    self.skipping = True
            if nl < 0:
                break
            if self.skipping:
                out.append(ProtoError(LONG))
                self.skipping = False
            else:
                out.append(bytes(self.buf) + b"\n")
            self.buf = bytearray()
            start = nl + 1
        return out

    def expire(self):
        """Drop a partial line (the sender went quiet mid-line). Returns a ProtoError or None."""
        if not self.pending():
            return None
        was_long = self.skipping
        self.buf = bytearray()
        self.skipping = False
        return ProtoError(LONG if was_long else UNTERMINATED)
