"""The roller itself: protocol verbs in, answers out, the roll animation as a state machine.

Pure. The board's main.py hands it:
  send(data)     writes bytes to the host (USB serial)
  randint(a, b)  random.randint, seeded from the hardware
  lights(pixels) shows a list of (r, g, b) on the ring (or None: no ring)
  screen         a framebuf-like display with fill_rect, text and show (or None)
  diff(a, b)     time.ticks_diff (plain subtraction by default)
and calls receive(data, now), press(now) and tick(now) from its loop, `now` in ms.
"""

import faces
import glyphs
import proto
import ring

VERSION = "1.0.0"
ANIM_MS = 700  # the tumbling light, then the result
FRAME_MS = 40  # one animation frame (25 per second)
LINE_IDLE_MS = 500  # a partial line this quiet is dropped (the host went away mid-line)
RING_LEDS = 12


def _sub(a, b):
    return a - b


class Roller:
    def __init__(self, send, randint, lights=None, screen=None, diff=None, leds=RING_LEDS,
                 anim_ms=ANIM_MS):
        self.send_bytes = send
        self.randint = randint
        self.lights = lights
        self.screen = screen
        self.diff = diff or _sub
        self.leds = leds
        self.anim_ms = anim_ms
        self.reader = proto.LineReader()
        self.last_rx = None
        self.rolling = None  # (seq, pairs, started) while the animation runs
        self.last_frame = None
        self.frames = 0
        self.shown = None  # the last result shown: list of (die, face)
        self.errors = 0  # lines dropped, for the curious (and the tests)

    # -- output -----------------------------------------------------------------------------

    def send(self, verb, args=()):
        self.send_bytes(proto.frame(verb, args))

    def _err(self, seq, reason):
        self.errors += 1
        self.send("ERR", [seq, reason])

    def _light(self, pixels):
        if self.lights is not None:
            self.lights(pixels)

    def _draw(self, fn, *args):
        if self.screen is None:
            return
        try:
            fn(self.screen, *args)
            self.screen.show()
        except OSError:
            self.screen = None  # display gone from the bus: carry on with the ring alone

    def start(self):
        """Show the idle screen and a dark ring (call once at boot)."""
        self._light(ring.dark(self.leds))
        self._draw(glyphs.idle, VERSION)

    # -- input ------------------------------------------------------------------------------

    def receive(self, data, now):
        """Bytes from the host."""
        self.last_rx = now
        for item in self.reader.feed(data):
            if isinstance(item, proto.ProtoError):
                self._err(item.seq, item.reason)
            else:
                self.handle(item, now)

    def press(self, now):
        """The big button was pressed: ask the host for a roll (it decides what to roll)."""
        self.send("PRESS")
        if self.rolling is None:
            self._light(ring.press(self.leds))

    def tick(self, now):
        """Call often (every few ms): runs the animation and drops stale partial lines."""
        if (self.last_rx is not None and self.reader.pending()
                and self.diff(now, self.last_rx) >= LINE_IDLE_MS):
            err = self.reader.expire()
            if err is not None:
                self._err(err.seq, err.reason)
        if self.rolling is None:
            return
        seq, pairs, started = self.rolling
        elapsed = self.diff(now, started)
        if elapsed >= self.anim_ms:
            self._finish()
        elif self.last_frame is None or self.diff(now, self.last_frame) >= FRAME_MS:
            self.last_frame = now
            self._light(ring.tumble(self.leds, elapsed, self.anim_ms))
            self._draw(glyphs.tumble, self.frames)
            self.frames += 1

    def handle(self, line, now):
        """One complete line from the host."""
        try:
            verb, args = proto.parse(line)
        except proto.ProtoError as e:
            self._err(e.seq, e.reason)
            return
        seq_word = args[0] if args else ""
        seq = proto.seq_of(seq_word)
        tag = seq_word if seq is not None else proto.NO_SEQ
        if verb == "HELLO":
            if args:
                self._err(tag, proto.ARGS)
            else:
                self.send("HELLO", [VERSION] + list(faces.NAMES))
        elif verb == "PING":
            if seq is None or len(args) != 1:
                self._err(tag, proto.ARGS)
            else:
                self.send("PONG", [seq_word])
        elif verb == "ROLL":
            bad = proto.ARGS if seq is None else faces.check_names(args[1:])
            if bad:
                self._err(tag, bad)
            else:
                self._start_roll(seq_word, args[1:], now)
        elif verb == "SHOW":
            pairs, bad = (None, proto.ARGS) if seq is None else faces.parse_pairs(args[1:])
            if bad:
                self._err(tag, bad)
            else:
                self.send("OK", [seq_word])
                self._show(pairs)
        else:
            self._err(tag, proto.VERB)

    # -- rolling ----------------------------------------------------------------------------

    def _start_roll(self, seq_word, names, now):
        if self.rolling is not None:
            self._finish()  # a new request cuts the running animation short: answer it now
        # The result is decided at once; the animation only shows it.
        self.rolling = (seq_word, faces.roll(names, self.randint), now)
        self.last_frame = None
        self.tick(now)

    def _finish(self):
        seq_word, pairs, _ = self.rolling
        self.rolling = None
        self.send("ROLLED", [seq_word] + faces.words(pairs))
        self._show(pairs)

    def _show(self, pairs):
        self.shown = pairs
        color = None
        for n, f in pairs:
            if n == "colors":
                color = f
        self._light(ring.result(self.leds, color))
        self._draw(glyphs.result, pairs)
