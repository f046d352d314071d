"""Drawing helpers for the 128x64 one-bit panel: fonts, fitted text, bars, glyphs.

One bold condensed face (DejaVu Sans Condensed Bold, shipped in `fonts/`) at every size:
at arm's length in dim light, bold strokes survive where thin ones vanish.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Sequence

from PIL import Image, ImageDraw, ImageFont

from companion import names

WIDTH, HEIGHT = 128, 64
FONT_PATH = names.FONT_PATH  # one spelling of the face's file (the name rule reads it too)

SMALL = 10  # the smallest size we use: hints, labels
BODY = 13  # menu items, lines of text


class Draw(ImageDraw.ImageDraw):
    """Pillow's ImageDraw, with single-line text drawn from a cache of rendered glyph masks.

    Screens redraw the same names and labels on every frame, and FreeType rendering was most
    of the time from a press to its frame. The cached path makes the same two calls Pillow
    makes for one line of text (`getmask2`, then `draw_bitmap`), so the pixels are identical
    (tests/test_screens.py checks this against stock Pillow); anything else (several lines,
    strokes, extra options) goes to Pillow unchanged.
    """

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs) -> None:
        if (args or kwargs or not isinstance(text, str) or "\n" in text
                or not isinstance(font, ImageFont.FreeTypeFont)):
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        ink, fill_ink = self._getink(fill)
        ink = fill_ink if ink is None else ink
        if ink is None or not text:
            return  # (Pillow itself raises ValueError for "" at a fractional position)
        x, y = xy
        start = (math.modf(x)[0], math.modf(y)[0])
        mask, (dx, dy) = _rendered(font, text, anchor or "la", self.fontmode, ink, start)
        self.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)
        if _recording is not None:
            _recording.text(text, mask, (int(x) + dx, int(y) + dy))


@lru_cache(maxsize=2048)
def _rendered(face: ImageFont.FreeTypeFont, text: str, anchor: str, mode: str, ink: int,
              start: tuple[float, float]):
    return face.getmask2(text, mode, None, None, None, 0, anchor, ink, start,
                         stroke_filled=True)


def blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    return img, Draw(img)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    # A file beside this module: the companion is installed as files (a wheel or a checkout),
    # never run from a zip, so importlib.resources (and the zipfile module it imports: ~4 ms
    # of a start-up's CPU here, ~50 ms on a Pi Zero 2 W) has nothing to add.
    # Pillow's basic layout, never raqm: raqm (libraqm, where the system has it) lays the same
    # text out a pixel or two wider, so a name fitted on one machine was cut on another (a Pi
    # has no libraqm by default). Names are left to right (companion/names.py): basic suffices.
    return ImageFont.truetype(str(FONT_PATH), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def text_size(text: str, size: int) -> tuple[int, int]:
    """Width and height of `text` as drawn (ink box from the origin).

    Cached: every frame measures the same few strings again (fitting names, clipping labels),
    and FreeType layout was a quarter of the time from a press to its frame.
    """
    left, top, right, bottom = font(size).getbbox(text)
    return int(right), int(bottom - top)  # whole pixels (Pillow's stubs say float)


@lru_cache(maxsize=4096)
def fit(text: str, width: int, height: int, *, largest: int = 40, smallest: int = SMALL) -> int:
    """The largest font size at which `text` fits the box (at least `smallest`)."""
    size = largest
    while size > smallest:
        w, h = text_size(text, size)
        if w <= width and h <= height:
            return size
        size -= 1
    return smallest


class Recording:
    """What the drawing did while `recording()` was on (tests/test_screen_texts.py draws every
    screen with the longest names and largest numbers, and allows a shortening only of
    players' names, and no text off the panel or over another)."""

    def __init__(self) -> None:
        # (the text, what is shown, whether it was a player's name)
        self.shortened: list[tuple[str, str, bool]] = []
        # (text, its ink box, whether a pixel (x, y) of the panel is ink of it)
        self.texts: list[tuple[str, tuple[int, int, int, int], Callable[[int, int], bool]]] = []

    def text(self, text: str, mask: Any, origin: tuple[int, int]) -> None:
        """A line of text drawn: its glyph mask, with its top left at `origin`."""
        box = mask.getbbox()
        if not box:
            return
        ox, oy = origin

        def ink(x: int, y: int) -> bool:
            return bool(mask.getpixel((x - ox, y - oy)))

        self.texts.append((text, (ox + box[0], oy + box[1], ox + box[2], oy + box[3]), ink))


_recording: Recording | None = None  # off in play
# The names of the game being drawn (`players`): the only text `clip` shortens in place.
_players: ContextVar[tuple[str, ...]] = ContextVar("players", default=())


@contextmanager
def recording() -> Iterator[Recording]:
    """Record every text `clip` shortens (and so every `centered`, title, hint and wrapped
    word that did not fit), and every line of text drawn and where, while the block runs."""
    global _recording
    before, _recording = _recording, Recording()
    try:
        yield _recording
    finally:
        _recording = before


@contextmanager
def players(names: Iterable[str]) -> Iterator[None]:
    """While a screen draws: the players' names, which `clip` (and so `centered`, the title
    bar and the hint) shortens instead of the words and numbers around them."""
    token = _players.set(tuple(names))
    try:
        yield
    finally:
        _players.reset(token)


def clip(text: str, width: int, size: int, names: Iterable[str] | None = None) -> str:
    """`text` fitted to `width` at `size`, shortened with an ellipsis if it must be: in the
    players' names it holds (`names`, else those of the game being drawn), the widest first
    ("Bartholo… +16"), so that the words and numbers around them stay whole. Only a name may
    be shortened (the tests hold every screen to it); where not even one letter and "…" of
    each fit, the names' initials alone; text with no name, or too wide even with those, is
    cut at its end, which the tests catch."""
    if text_size(text, size)[0] <= width:
        return text
    wanted = sorted(set(_players.get() if names is None else names), key=len, reverse=True)
    parts: list[str] = []  # text and names, alternating: the names at odd places
    rest = text
    while True:
        at = [(i, -len(n), n) for n in wanted if n and (i := _find_word(rest, n)) >= 0]
        if not at:
            break
        i, _, n = min(at)
        parts += [rest[:i], n]
        rest = rest[i + len(n):]
    parts.append(rest)
    kept = {i: parts[i] for i in range(1, len(parts), 2)}
    cut: set[int] = set()
    mark = "…"

    def joined() -> str:
        return "".join(kept[i] + mark if i in cut else kept.get(i, p)
                       for i, p in enumerate(parts))

    while text_size(joined(), size)[0] > width:
        widest = max((i for i in kept if len(kept[i]) > 1),
                     key=lambda i: text_size(kept[i], size)[0], default=None)
        if widest is None:
            if cut and mark:  # not even "M…": the names' initials, rather than "…" alone
                mark = ""
                continue
            return _cut(text, width, size)
        kept[widest] = kept[widest][:-1]
        cut.add(widest)
    if _recording is not None:
        _recording.shortened.extend((parts[i], kept[i] + mark, True) for i in sorted(cut))
    return joined()


def _find_word(text: str, name: str) -> int:
    """Where `name` first stands as a word of `text` ("Ann's", not "Announce"), or -1."""
    i = text.find(name)
    while i >= 0:
        end = i + len(name)
        if (i == 0 or not text[i - 1].isalnum()) and (end == len(text)
                                                      or not text[end].isalnum()):
            return i
        i = text.find(name, i + 1)
    return -1


def name_list(names: Sequence[str], width: int, size: int, sep: str = ", ") -> str:
    """Players' names joined by `sep` to fit `width` at `size`: as many whole names as fit,
    then how many more ("Ann, Bartholomew1 +14"); the first name shortened if even it and
    the count do not fit."""
    names = list(names)
    for k in range(len(names), 0, -1):
        text = sep.join(names[:k]) + (f" +{len(names) - k}" if k < len(names) else "")
        if text_size(text, size)[0] <= width:
            return text
    more = f" +{len(names) - 1}" if len(names) > 1 else ""
    return clip(names[0] + more, width, size, names[:1]) if names else ""


def _cut(text: str, width: int, size: int) -> str:
    whole = text
    while text and text_size(text + "…", size)[0] > width:
        text = text[:-1]
    if _recording is not None:
        _recording.shortened.append((whole, text + "…", False))
    return text + "…"


def text(d: ImageDraw.ImageDraw, xy: tuple[int, int], s: str, size: int, *,
         fill: int = 1, anchor: str = "la") -> None:
    d.text(xy, s, font=font(size), fill=fill, anchor=anchor)


def centered(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], s: str, *,
             largest: int = 40, fill: int = 1) -> int:
    """Draw `s` as large as fits in `box`, centred; returns the size used. Text too long even
    at the smallest size is shortened (`clip`)."""
    x0, y0, x1, y1 = box
    size = fit(s, x1 - x0, y1 - y0, largest=largest)
    s = clip(s, x1 - x0, size)
    d.text(((x0 + x1) // 2, (y0 + y1) // 2), s, font=font(size), fill=fill, anchor="mm")
    return size


def title_bar(d: ImageDraw.ImageDraw, title: str, right: str = "", *, keep: int = 0) -> int:
    """An inverted bar across the top; returns the y where content may start. `keep`: columns
    at its right end left empty (for the turn clock, companion/ui/clock.py)."""
    d.rectangle((0, 0, WIDTH - 1, 11), fill=1)
    end = WIDTH - 2 - keep
    d.text((2, 6), clip(title, end - 2 - (text_size(right, SMALL)[0] + 4 if right else 0),
                        SMALL),
           font=font(SMALL), fill=0, anchor="lm")
    if right:
        d.text((end, 6), right, font=font(SMALL), fill=0, anchor="rm")
    return 13


def hint(d: ImageDraw.ImageDraw, s: str) -> None:
    """A one-line hint on the bottom row (what the buttons do here)."""
    d.text((WIDTH // 2, HEIGHT - 1), clip(s, WIDTH, SMALL), font=font(SMALL), fill=1,
           anchor="mb")


def badge(d: ImageDraw.ImageDraw, xy: tuple[int, int], s: str, size: int = SMALL, *,
          anchor: str = "l") -> tuple[int, int, int, int]:
    """White text on a black box (an inverted label). `xy` is the left (or right) middle."""
    w, h = text_size(s, size)
    x, y = xy
    x0 = x if anchor == "l" else x - w - 4
    box = (x0, y - h // 2 - 2, x0 + w + 3, y + (h + 1) // 2 + 1)
    d.rectangle(box, fill=1)
    d.text((x0 + 2, y), s, font=font(size), fill=0, anchor="lm")
    return box


def direction_arrow(d: ImageDraw.ImageDraw, center: tuple[int, int], radius: int,
                    direction: int) -> None:
    """A circular arrow: clockwise for +1, counter-clockwise for -1."""
    cx, cy = center
    r = radius
    box = (cx - r, cy - r, cx + r, cy + r)
    # A 300-degree arc with a gap at the top; the head sits at the end play moves toward.
    d.arc(box, start=-60, end=240, fill=1, width=max(2, r // 3))
    end_deg = -60 if direction == 1 else 240
    a = math.radians(end_deg)
    ex, ey = cx + r * math.cos(a), cy + r * math.sin(a)
    # Tangent direction at the end of the arc, pointing onward.
    t = a + (math.pi / 2 if direction == 1 else -math.pi / 2)
    head = r * 0.9
    tip = (ex + head * math.cos(t), ey + head * math.sin(t))
    n = t + math.pi / 2
    w = r * 0.7
    base1 = (ex + w * math.cos(n), ey + w * math.sin(n))
    base2 = (ex - w * math.cos(n), ey - w * math.sin(n))
    d.polygon([tip, base1, base2], fill=1)


def scrollbar(d: ImageDraw.ImageDraw, top: int, bottom: int, first: int, shown: int,
              total: int) -> None:
    if total <= shown:
        return
    x = WIDTH - 2
    d.line((x, top, x, bottom), fill=1)
    span = bottom - top
    y0 = top + span * first // total
    y1 = top + span * (first + shown) // total
    d.rectangle((x - 1, y0, x + 1, max(y1, y0 + 3)), fill=1)


def bar(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fraction: float) -> None:
    """A progress bar: outline, filled from the left to `fraction` (0..1)."""
    x0, y0, x1, y1 = box
    d.rectangle(box, outline=1, fill=0)
    w = int((x1 - x0 - 2) * max(0.0, min(1.0, fraction)))
    if w > 0:
        d.rectangle((x0 + 1, y0 + 1, x0 + 1 + w, y1 - 1), fill=1)


def scale(img: Image.Image, factor: int = 4) -> Image.Image:
    """Scale up with crisp pixels (for screenshots)."""
    return img.resize((img.width * factor, img.height * factor), Image.Resampling.NEAREST)
