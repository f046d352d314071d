"""What the 128x64 display shows, drawn on anything with `fill_rect(x, y, w, h, c)` and
`text(s, x, y, c)` (a framebuf.FrameBuffer, such as the micropython-lib SSD1306 driver).

Pure: shapes are filled row by row with `fill_rect`, so the same code draws on the board and
on the test suite's fake display.
"""

import math

WIDTH = 128
HEIGHT = 64

# 3x5 digits for big numbers, one string of 15 bits (row by row) per digit.
_DIGITS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001010010010",
    "8": "111101111101111",
    "9": "111101111001111",
}


def clear(fb):
    fb.fill_rect(0, 0, WIDTH, HEIGHT, 0)


def number(fb, digits, x, y, scale, c=1):
    """Draw `digits` (a string) in the 3x5 font, each dot `scale` pixels square."""
    for ch in digits:
        bits = _DIGITS[ch]
        for i in range(15):
            if bits[i] == "1":
                fb.fill_rect(x + (i % 3) * scale, y + (i // 3) * scale, scale, scale, c)
        x += 4 * scale


def _polygon(fb, pts, c):
    """Fill a polygon (list of (x, y) floats) with horizontal spans (even-odd rule)."""
    ys = [p[1] for p in pts]
    top = int(min(ys))
    bottom = int(max(ys)) + 1
    n = len(pts)
    for y in range(top, bottom):
        yc = y + 0.5
        xs = []
        for i in range(n):
            x0, y0 = pts[i]
            x1, y1 = pts[(i + 1) % n]
            if (y0 <= yc < y1) or (y1 <= yc < y0):
                xs.append(x0 + (yc - y0) * (x1 - x0) / (y1 - y0))
        xs.sort()
        for i in range(0, len(xs) - 1, 2):
            a = int(xs[i] + 0.5)
            b = int(xs[i + 1] + 0.5)
            if b > a:
                fb.fill_rect(a, y, b - a, 1, c)


def _star_points(cx, cy, r, points, inner):
    pts = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * inner
        a = -math.pi / 2 + i * math.pi / points
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


def _disc(fb, cx, cy, r, c):
    for dy in range(-r, r + 1):
        half = int(math.sqrt(r * r - dy * dy) + 0.5)
        fb.fill_rect(cx - half, cy + dy, 2 * half + 1, 1, c)


def shape(fb, name, cx, cy, r, c=1):
    """Draw the Shapes die face `name` centred on (cx, cy), about 2r pixels across."""
    if name == "square":
        half = r * 3 // 4
        fb.fill_rect(cx - half, cy - half, 2 * half + 1, 2 * half + 1, c)
    elif name == "circle":
        _disc(fb, cx, cy, r, c)
    elif name == "star":
        _polygon(fb, _star_points(cx + 0.5, cy + 0.5, r, 5, 0.42), c)
    elif name == "cross":
        w = max(2, r * 2 // 3)
        fb.fill_rect(cx - r, cy - w // 2, 2 * r + 1, w, c)
        fb.fill_rect(cx - w // 2, cy - r, w, 2 * r + 1, c)
    elif name == "pentagon":
        pts = []
        for i in range(5):
            a = -math.pi / 2 + i * 2 * math.pi / 5
            pts.append((cx + 0.5 + r * math.cos(a), cy + 0.5 + r * math.sin(a)))
        _polygon(fb, pts, c)
    elif name == "logo":
        # The wild face: a star in a ring.
        _disc(fb, cx, cy, r, c)
        _disc(fb, cx, cy, r - max(2, r // 6), 0)
        _polygon(fb, _star_points(cx + 0.5, cy + 0.5, r * 3 // 4, 5, 0.42), c)
    else:
        raise ValueError(name)


def result(fb, pairs):
    """The result of a roll: big shape glyph and numbers in a row, words along the bottom."""
    clear(fb)
    big = [(n, f) for n, f in pairs if n != "colors"]
    words = []
    for n, f in pairs:
        words.append(f if n in ("colors", "shapes") else n + "=" + f)
    if big:
        slot = WIDTH // len(big)
        for i, (n, f) in enumerate(big):
            cx = i * slot + slot // 2
            if n == "shapes":
                shape(fb, f, cx, 26, min(22, slot // 2 - 2))
            else:
                scale = min(9, (slot - 4) // (4 * len(f) - 1))
                number(fb, f, cx - (4 * len(f) - 1) * scale // 2, 26 - 5 * scale // 2, scale)
    else:  # the Colors die alone: its name, big-ish
        word = pairs[0][1].upper() if pairs else ""
        fb.text(word, (WIDTH - 8 * len(word)) // 2, 24, 1)
    line = " ".join(words)
    if len(line) > WIDTH // 8:
        line = line[:WIDTH // 8]
    fb.text(line, (WIDTH - 8 * len(line)) // 2, HEIGHT - 8, 1)


_TUMBLE = ("square", "circle", "star", "cross", "pentagon")


def tumble(fb, step):
    """A frame of the roll animation on the display: the shapes flicking past."""
    clear(fb)
    shape(fb, _TUMBLE[step % len(_TUMBLE)], WIDTH // 2, 28, 16 + (step % 3) * 3)
    fb.text("rolling", (WIDTH - 56) // 2, HEIGHT - 8, 1)


def idle(fb, version):
    clear(fb)
    fb.text("Chroma dice", (WIDTH - 88) // 2, 16, 1)
    fb.text("v" + version, (WIDTH - 8 * (len(version) + 1)) // 2, 32, 1)
    fb.text("press to roll", (WIDTH - 104) // 2, 48, 1)
