"""What the LED ring shows: pure functions from time to a list of (r, g, b), one per LED."""

import faces

BRIGHT = 60  # of 255: a WS2812 at full white draws 60 mA, and the ring sits next to your eyes
_CYCLE = ("red", "orange", "yellow", "green", "blue")


def scale(rgb, level):
    """`rgb` at `level`/255 of full brightness."""
    return (rgb[0] * level // 255, rgb[1] * level // 255, rgb[2] * level // 255)


def dark(n):
    return [(0, 0, 0)] * n


def travel(elapsed, total, turns=3):
    """How many LEDs the tumbling light has moved after `elapsed` of `total` ms, for an `n`=1
    ring fraction: it starts fast and slows to a stop (ease-out), `turns` times round."""
    if elapsed >= total:
        return turns * 1000
    t = elapsed * 1000 // total  # 0..999
    left = 1000 - t
    return turns * (1000 - left * left // 1000)


def tumble(n, elapsed, total, bright=BRIGHT):
    """One frame of the tumbling light: a head with a fading tail, changing color as it runs."""
    pos_milli = travel(elapsed, total) * n  # thousandths of an LED
    head = (pos_milli // 1000) % n
    out = dark(n)
    color = faces.RGB[_CYCLE[(pos_milli // 1000) % len(_CYCLE)]]
    for k, level in ((0, bright), (1, bright // 3), (2, bright // 8)):
        out[(head - k) % n] = scale(color, level)
    return out


def result(n, color, bright=BRIGHT):
    """The ring at rest after a roll: the whole ring in the rolled color.

    "logo" (the wild face) shows all five colors round the ring; no Colors die (None) a dim
    white, so the ring still says "done".
    """
    if color is None:
        return [scale((255, 255, 255), bright // 4)] * n
    if color == "logo":
        return [scale(faces.RGB[_CYCLE[i % len(_CYCLE)]], bright) for i in range(n)]
    return [scale(faces.RGB[color], bright)] * n


def press(n, bright=BRIGHT):
    """A short white flash acknowledging the button (the companion decides whether to roll)."""
    return [scale((255, 255, 255), bright // 2)] * n
