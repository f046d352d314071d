"""The one rule for a player's name, wherever it is typed: the config file, a phone's roster,
a phone's New game. A name is what the panel can show: 1-16 characters once its spaces are
tidied, at least one letter or digit, every character one the panel's font has a glyph for
that draws something (a blank that is not a space, such as U+2800, would make "A" and "A" +
U+2800 two players who look the same), and none written right to left (the panel lays a name out left to right, beside a number).

Read by every layer (like `errors` and `config`): the config checks its names at load, the
web checks what a phone sends, the panel draws them.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

MAX_LENGTH = 16
# The panel's one face (companion/ui/draw.py draws with the same file).
FONT_PATH = Path(__file__).with_name("ui") / "fonts" / "DejaVuSansCondensed-Bold.ttf"
_GLYPH_SIZE = 10  # the panel's smallest size; a glyph missing there is missing at every size


def tidy(name: str) -> str:
    """One spelling per look: every run of spaces (a no-break space from a phone's keyboard
    too) made one plain space, ends trimmed, composed (NFC), so "a" + combining acute and
    "á" are the same name. A tab, a line break or an invisible character is left in, for
    `problem` to refuse: it is a slip, not a spelling."""
    spaced = "".join(" " if unicodedata.category(c) == "Zs" else c for c in name)
    return unicodedata.normalize("NFC", " ".join(w for w in spaced.split(" ") if w))


def problem(name: object) -> str:
    """Why `name` (already tidied) cannot be a player's name, or "" when it can."""
    if not isinstance(name, str):
        return f"must be a non-empty name (text), not {type(name).__name__}"
    if not name:
        return "must be a non-empty name"
    if len(name) > MAX_LENGTH:
        return f"{name!r} is longer than {MAX_LENGTH} characters"
    hidden = next((c for c in name if not c.isprintable()), "")
    if hidden:
        return (f"the box's screen cannot show {hidden!r} in {name!r} (a control or "
                "invisible character)")
    if not any(c.isalnum() for c in name):
        return f"{name!r} needs at least one letter or digit"
    bad = undrawable(name)
    if bad:
        why = ("is written right to left" if unicodedata.bidirectional(bad) in ("R", "AL")
               else "has no letter in the panel's font")
        return f"the box's screen cannot show {bad!r} in {name!r} (it {why})"
    blank_one = next((c for c in name if c != " " and blank(c)), "")
    if blank_one:
        return (f"the box's screen cannot show {blank_one!r} in {name!r} (it draws nothing: a "
                "blank that looks like a space or like nothing)")
    return ""


def duplicate(names: list[str]) -> str:
    """The first name that appears twice ignoring case, or ""."""
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            return n
        seen.add(n.casefold())
    return ""


def undrawable(s: str) -> str:
    """The first character of `s` the panel cannot show, or "": one the font has no glyph
    for (it would be drawn as the font's empty box), or one written right to left (the
    panel's layout, name beside number, is left to right, and whether Pillow shapes such
    text depends on how it was built). Plain ASCII is never looked up: the font has it all."""
    for ch in s:
        if ch.isspace() or " " < ch < "\x7f":
            continue
        if unicodedata.bidirectional(ch) in ("R", "AL"):
            return ch
        if _glyph(ch) == _glyph("\U0010fffd"):  # a private-use code point: the empty box
            return ch
    return ""


def blank(ch: str) -> bool:
    """Whether the panel draws `ch` as nothing: a blank that is not a space (U+2800, the
    braille blank; U+034F, the grapheme joiner). "A" and "A" + such a blank look the same,
    so a blank is no glyph. A mark (an accent with no precomposed letter: "q" + U+0301) is
    looked at on a letter, where it draws. Plain ASCII is never looked up."""
    if " " < ch < "\x7f":
        return False
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Mc", "Me"):
        return _glyph("o" + ch) == _glyph("o")
    return not any(_glyph(ch))


@lru_cache(maxsize=4096)  # every letter and digit below U+3000 (~2,600), once each
def _glyph(ch: str) -> bytes:
    # Pillow only here: a config of ASCII names (the usual) never loads the font at start-up.
    from PIL import Image, ImageDraw
    img = Image.new("1", (24, 24))
    ImageDraw.Draw(img).text((4, 4), ch, font=_font(), fill=1)
    return img.tobytes()


@lru_cache(maxsize=1)
def _font():
    from PIL import ImageFont
    return ImageFont.truetype(str(FONT_PATH), _GLYPH_SIZE, layout_engine=ImageFont.Layout.BASIC)
