"""The dice the roller rolls and their faces (the same as companion/rules/dice.py).

Pure: `roll` takes the random source's `randint` as an argument, so the board passes
`random.randint` (seeded from the hardware) and the tests pass a seeded one. A face is drawn
by index with `randint(0, len(faces) - 1)`: no modulo of a raw byte, so no bias.
"""

COLORS = ("red", "orange", "yellow", "green", "blue", "logo")
SHAPES = ("square", "circle", "star", "cross", "pentagon", "logo")

# In protocol order: HELLO lists them in this order.
DICE = (
    ("colors", COLORS),
    ("shapes", SHAPES),
    ("d8", ("1", "2", "3", "4", "5", "6", "7", "8")),
    ("d6", ("1", "2", "3", "4", "5", "6")),
)

NAMES = tuple(name for name, _ in DICE)

# Ring colors (r, g, b) at full brightness; "logo" shows all five in turn.
RGB = {
    "red": (255, 0, 0),
    "orange": (255, 80, 0),
    "yellow": (255, 200, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
}


def faces(name):
    """The faces of die `name` (strings, as on the wire), or None for an unknown die."""
    for n, f in DICE:
        if n == name:
            return f
    return None


def roll(names, randint):
    """Roll the named dice: a list of (name, face) in the order asked."""
    out = []
    for name in names:
        f = faces(name)
        out.append((name, f[randint(0, len(f) - 1)]))
    return out


def check_names(words):
    """None if `words` name known dice, each once, at least one; else the ERR reason."""
    if not words:
        return "args"
    seen = []
    for w in words:
        if faces(w) is None:
            return "die"
        if w in seen:
            return "args"
        seen.append(w)
    return None


def parse_pairs(words):
    """`["colors=red", "d8=5"]` -> ([("colors", "red"), ("d8", "5")], None) or (None, reason)."""
    if not words:
        return None, "args"
    out = []
    seen = []
    for w in words:
        eq = w.find("=")
        if eq <= 0:
            return None, "args"
        name, face = w[:eq], w[eq + 1:]
        f = faces(name)
        if f is None:
            return None, "die"
        if name in seen:
            return None, "args"
        if face not in f:
            return None, "face"
        seen.append(name)
        out.append((name, face))
    return out, None


def words(pairs):
    """[("colors", "red")] -> ["colors=red"]."""
    return [n + "=" + f for n, f in pairs]
