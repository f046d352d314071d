"""Checks of the firmware's pure modules, written to run under BOTH interpreters.

pytest calls each `check_*` under CPython (tests/test_firmware_modules.py), and
tests/mpy/run.mjs loads this file with the firmware into the MicroPython WebAssembly port and
calls `main()` there (tests/test_firmware_micropython.py). So this file sticks to what
MicroPython has: no f-strings, dataclasses or typing. Each check raises AssertionError.
"""

import json
import sys

import debounce
import faces
import glyphs
import proto
import ring
import rolling


def line_bytes(v):
    if "hex" in v:
        return bytes.fromhex(v["hex"])
    return v["line"].encode()


def eq(got, want, what):
    if got != want:
        raise AssertionError("%s: got %r, want %r" % (what, got, want))


# -- driven by tests/vectors/protocol.json ---------------------------------------------------


def check_checksums(vec):
    for v in vec["checksums"]:
        eq("%02X" % proto.checksum(v["body"].encode()), v["checksum"], v["body"])


def check_frames(vec):
    for v in vec["frames"]:
        eq(proto.frame(v["verb"], v["args"]), v["line"].encode(), "frame " + v["verb"])
        eq(proto.parse(v["line"].encode()), (v["verb"], v["args"]), "parse " + v["line"])


def check_parses(vec):
    for v in vec["parses"]:
        eq(proto.parse(line_bytes(v)), (v["verb"], v["args"]), v["why"])


def check_bad_lines(vec):
    for v in vec["bad_lines"]:
        try:
            got = proto.parse(line_bytes(v))
        except proto.ProtoError as e:
            eq(e.reason, v["reason"], v["why"])
        else:
            raise AssertionError("%s: parsed as %r" % (v["why"], got))


def check_frame_refuses_long():
    try:
        proto.frame("PING", ["1" * 80])
    except ValueError:
        return
    raise AssertionError("frame() made a line over 80 bytes")


def check_streams(vec):
    for v in vec["streams"]:
        reader = proto.LineReader(vec["max_line"])
        lines = []
        dropped = []
        for chunk in v["chunks"]:
            items = [reader.expire()] if chunk == "EXPIRE" else reader.feed(chunk.encode())
            for item in items:
                if isinstance(item, proto.ProtoError):
                    dropped.append(item.reason)
                elif item is not None:
                    lines.append(item.decode())
        eq(lines, v["lines"], v["why"] + " (lines)")
        eq(dropped, v["dropped"], v["why"] + " (dropped)")
        err = reader.expire()
        eq(err.reason if err else None, v.get("expire"), v["why"] + " (at the end)")


def _randint_min(a, b):
    return a


def _randint_max(a, b):
    return b


def check_exchanges(vec):
    for v in vec["exchanges"]:
        out = []
        pick = _randint_max if v.get("randint") == "max" else _randint_min
        r = rolling.Roller(out.append, pick, anim_ms=700)
        r.receive(line_bytes({"line": v["host"]}), 1000)
        r.tick(1000 + 700)  # past the animation: a roll is answered by now
        eq([b.decode() for b in out], v["roller"], v.get("why", v["host"]))


def check_version(vec):
    eq(rolling.VERSION, vec["version"], "firmware version")
    eq(list(faces.NAMES), vec["dice"], "dice")
    eq(proto.MAX_LINE, vec["max_line"], "max line")


# -- the other pure modules -------------------------------------------------------------------


class Rng:
    """A small LCG with randint, the same under both interpreters."""

    def __init__(self, seed):
        self.state = seed

    def randint(self, a, b):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return a + (self.state >> 8) % (b - a + 1)


def check_faces_roll():
    rng = Rng(7)
    counts = {}
    for _ in range(6000):
        (name, face), = faces.roll(["d6"], rng.randint)
        eq(name, "d6", "die name")
        counts[face] = counts.get(face, 0) + 1
    eq(sorted(counts), ["1", "2", "3", "4", "5", "6"], "every face comes up")
    for face in counts:
        if not 800 < counts[face] < 1200:
            raise AssertionError("face %s came up %d times in 6000" % (face, counts[face]))
    calls = []

    def spy(a, b):
        calls.append((a, b))
        return b

    eq(faces.roll(["colors", "d8"], spy), [("colors", "logo"), ("d8", "8")], "last faces")
    eq(calls, [(0, 5), (0, 7)], "randint is asked for an index over all the faces")


def check_faces_parse():
    eq(faces.check_names(["colors", "d6"]), None, "good names")
    eq(faces.check_names([]), "args", "no dice")
    eq(faces.check_names(["d20"]), "die", "unknown die")
    eq(faces.parse_pairs(["shapes=star", "d6=6"]), ([("shapes", "star"), ("d6", "6")], None), "pairs")
    eq(faces.parse_pairs(["shapes=hexagon"]), (None, "face"), "bad face")
    eq(faces.parse_pairs(["=star"]), (None, "args"), "no name")
    eq(faces.words([("d8", "3")]), ["d8=3"], "words")


def check_debounce():
    d = debounce.Debouncer(stable_ms=20)
    presses = []
    # bouncing contact: 0/1 flicker for 10 ms, then held down, then released with bounce
    levels = [(0, 0), (2, 1), (4, 0), (6, 1), (8, 0)] + [(t, 0) for t in range(10, 80, 5)]
    levels += [(80, 1), (82, 0), (84, 1)] + [(t, 1) for t in range(85, 140, 5)]
    levels += [(t, 0) for t in range(140, 200, 5)]
    for t, level in levels:
        if d.update(level, t):
            presses.append(t)
    eq(len(presses), 2, "one press per push, bounces ignored")
    if not 28 <= presses[0] <= 35:
        raise AssertionError("first press at %d ms, want about 20 ms after the bouncing" % presses[0])
    d = debounce.Debouncer(stable_ms=20)
    eq([d.update(0, t) for t in (0, 5, 10)], [False, False, False], "a 10 ms glitch is no press")
    eq(d.update(1, 12), False, "released")
    eq(d.update(1, 100), False, "still released")
    wrap = 1 << 30

    def ticks_diff(a, b):
        return ((a - b + wrap // 2) & (wrap - 1)) - wrap // 2

    d = debounce.Debouncer(stable_ms=20, diff=ticks_diff)
    d.update(0, wrap - 10)
    eq(d.update(0, 15), True, "press across the tick counter wrapping")


def check_ring():
    eq(len(ring.tumble(12, 0, 700)), 12, "one color per LED")
    heads = []
    for t in range(0, 700, 35):
        frame = ring.tumble(12, t, 700)
        lit = [i for i in range(12) if frame[i] != (0, 0, 0)]
        if not 1 <= len(lit) <= 3:
            raise AssertionError("tumbling light lights %d LEDs" % len(lit))
        brightest = max(range(12), key=lambda i: sum(frame[i]))
        heads.append(brightest)
    eq(len(set(heads)) > 6, True, "the light travels round the ring")
    steps = [ring.travel(t, 700) for t in range(0, 701, 70)]
    gaps = [steps[i + 1] - steps[i] for i in range(len(steps) - 1)]
    eq(gaps == sorted(gaps, reverse=True), True, "it slows down: %r" % gaps)
    eq(ring.result(12, "red")[0], ring.scale((255, 0, 0), ring.BRIGHT), "red ring")
    eq(len(set(ring.result(12, "logo"))), 5, "the wild face shows all five colors")
    for px in ring.result(12, None) + ring.tumble(12, 100, 700) + ring.press(12):
        for c in px:
            if not 0 <= c <= ring.BRIGHT:
                raise AssertionError("LED brighter than the cap: %r" % (px,))


class Canvas:
    """A 128x64 one-bit framebuffer with the FrameBuffer methods the firmware uses."""

    def __init__(self, w=128, h=64):
        self.w = w
        self.h = h
        self.px = bytearray(w * h)
        self.texts = []
        self.shows = 0

    def fill_rect(self, x, y, w, h, c):
        for yy in range(max(0, y), min(self.h, y + h)):
            for xx in range(max(0, x), min(self.w, x + w)):
                self.px[yy * self.w + xx] = c

    def text(self, s, x, y, c):
        self.texts.append((s, x, y))

    def show(self):
        self.shows += 1

    def get(self, x, y):
        return self.px[y * self.w + x]

    def lit(self):
        n = 0
        for b in self.px:
            n += b
        return n


def check_glyphs():
    areas = {}
    for name in faces.SHAPES:
        c = Canvas()
        glyphs.shape(c, name, 64, 32, 20)
        areas[name] = c.lit()
        eq(c.get(64, 32) if name != "logo" else 1, 1, name + " covers its centre")
        eq(c.get(0, 0) + c.get(127, 63), 0, name + " stays in its box")
    eq(areas["square"], 31 * 31, "square side")
    if not 1180 < areas["circle"] < 1340:  # pi * 20^2 = 1257
        raise AssertionError("circle area %d" % areas["circle"])
    if not areas["star"] < areas["pentagon"] < areas["circle"]:
        raise AssertionError("areas %r" % areas)
    c = Canvas()
    glyphs.shape(c, "circle", 64, 32, 10)
    for dx, dy in ((10, 0), (-10, 0), (0, 10), (0, -10)):
        eq(c.get(64 + dx, 32 + dy), 1, "circle reaches its radius")
    eq(c.get(64 + 8, 32 + 8), 0, "circle is round")
    c = Canvas()
    glyphs.number(c, "8", 0, 0, 2)
    eq(c.lit(), 13 * 4, "the 3x5 8 has 13 dots")
    c = Canvas()
    glyphs.result(c, [("colors", "blue"), ("shapes", "star"), ("d8", "7")])
    eq(c.texts[-1][0], "blue star d8=7", "the result in words")
    if c.lit() < 200:
        raise AssertionError("result shows too little: %d pixels" % c.lit())
    try:
        glyphs.shape(Canvas(), "hexagon", 64, 32, 10)
    except ValueError:
        pass
    else:
        raise AssertionError("unknown shape drawn")


def check_rolling_animation():
    out = []
    frames = []
    screen = Canvas()
    r = rolling.Roller(out.append, Rng(3).randint, frames.append, screen, anim_ms=700)
    r.start()
    r.receive(proto.frame("ROLL", ["5", "colors", "shapes"]), 0)
    t = 0
    while t < 690:
        t += 10
        r.tick(t)
    eq(out, [], "no answer before the animation ends")
    if not 15 <= len(frames) <= 20:
        raise AssertionError("%d ring frames in 0.7 s, want about 18" % len(frames))
    r.tick(700)
    eq(len(out), 1, "one answer")
    verb, args = proto.parse(out[0])
    eq((verb, args[0]), ("ROLLED", "5"), "answer")
    color = args[1].split("=")[1]
    eq(frames[-1], ring.result(12, color), "the ring ends on the rolled color")
    eq(screen.texts[-1][0], " ".join(a.split("=")[1] for a in args[1:]), "display result")
    r.tick(5000)
    eq(len(out), 1, "answered once")


def check_rolling_supersede():
    out = []
    r = rolling.Roller(out.append, _randint_min, anim_ms=700)
    r.receive(proto.frame("ROLL", ["1", "d6"]), 0)
    r.receive(proto.frame("ROLL", ["2", "d8"]), 100)
    eq(out, [proto.frame("ROLLED", ["1", "d6=1"])], "a new roll answers the running one at once")
    r.tick(800)
    eq(out[-1], proto.frame("ROLLED", ["2", "d8=1"]), "then the new one")


def check_rolling_press_and_show():
    out = []
    frames = []
    r = rolling.Roller(out.append, _randint_min, frames.append, None, leds=8)
    r.press(0)
    eq(out, [b"PRESS*47\n"], "PRESS")
    eq(frames[-1], ring.press(8), "the ring acknowledges the press")
    r.receive(proto.frame("SHOW", ["4", "colors=green"]), 10)
    eq(out[-1], proto.frame("OK", ["4"]), "OK")
    eq(frames[-1], ring.result(8, "green"), "SHOW lights the ring")
    eq(r.shown, [("colors", "green")], "shown")


def check_rolling_line_split_and_vanish():
    out = []
    r = rolling.Roller(out.append, _randint_min)
    line = proto.frame("PING", ["9"])
    for i in range(len(line)):  # one byte at a time, as main.py reads
        r.receive(line[i:i + 1], i)
    eq(out, [proto.frame("PONG", ["9"])], "byte-by-byte")
    r.receive(b"PING 1", 100)  # the host vanishes mid-line
    r.tick(100 + rolling.LINE_IDLE_MS - 1)
    eq(len(out), 1, "not yet dropped")
    r.tick(100 + rolling.LINE_IDLE_MS)
    eq(out[-1], proto.frame("ERR", ["-", "unterminated"]), "partial line dropped")
    r.receive(proto.frame("PING", ["2"]), 2000)
    eq(out[-1], proto.frame("PONG", ["2"]), "the next line is clean")


def check_rolling_garbage():
    out = []
    r = rolling.Roller(out.append, Rng(1).randint, screen=Canvas())
    rng = Rng(99)
    for i in range(300):
        chunk = bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 40)))
        r.receive(chunk, i)
        r.tick(i)
    r.receive(b"\n", 400)
    for data in out:
        verb, args = proto.parse(data)  # every answer is a good line
        if verb != "ERR":
            raise AssertionError("garbage got %r" % data)
    r.receive(proto.frame("PING", ["3"]), 1000)
    eq(out[-1], proto.frame("PONG", ["3"]), "works after the garbage")


class BrokenScreen(Canvas):
    def show(self):
        raise OSError(5)


def check_rolling_display_gone():
    out = []
    r = rolling.Roller(out.append, _randint_min, None, BrokenScreen())
    r.receive(proto.frame("ROLL", ["1", "d6"]), 0)
    r.tick(1000)
    eq(out[-1], proto.frame("ROLLED", ["1", "d6=1"]), "rolls on without its display")


def checks():
    """(name, function, needs the vectors) for every check, in a fixed order."""
    out = []
    g = globals()
    for name in sorted(g):
        if name.startswith("check_"):
            fn = g[name]
            vec = name in ("check_checksums", "check_frames", "check_parses", "check_bad_lines",
                           "check_streams", "check_exchanges", "check_version")
            out.append((name, fn, vec))
    return out


def main(vectors_path):
    """Run every check; print one PASS/FAIL line each and a summary. For run.mjs."""
    with open(vectors_path) as f:
        vec = json.load(f)
    impl = sys.implementation.name
    print("IMPL", impl, ".".join(str(x) for x in sys.implementation.version[:3]))
    failed = 0
    for name, fn, needs in checks():
        try:
            fn(vec) if needs else fn()
            print("PASS", name)
        except Exception as e:  # report and go on: one line per check
            failed += 1
            print("FAIL", name, type(e).__name__, e)
    print("DONE", failed)
