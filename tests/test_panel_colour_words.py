"""The panel is one colour, so every colour on it is a word (docs/web.md, Accessibility): each
face of the Colors die rolled is named on the roll screen, and Flower Power's garden names its
flowers by their letters (R O Y G B) beside the counts."""

from __future__ import annotations

import random

import pytest

from companion import games
from companion.config import load
from companion.gallery.web_shots import demos
from companion.rules.dice import COLORS
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui import draw
from companion.ui.actions import Roll
from companion.ui.dice import RollScreen
from companion.ui.screen import Context


def texts(screen, ctx) -> list[str]:
    with draw.recording() as rec:
        screen.render(ctx)
    return [t for t, _box, _ink in rec.texts]


@pytest.mark.parametrize("face", COLORS.faces)
def test_the_roll_screen_names_each_colour_of_the_colors_die(face):
    ctx = Context(config=load(None), journal=Journal(Header("table", ("Ann", "Ben"))))
    r = RollScreen(Roll(("colors",)), rng=random.Random(1))
    r.settle({"colors": face})
    assert face.upper() in texts(r, ctx)


def test_flower_powers_garden_names_each_flower_by_its_letter():
    """Each flower's petals on the home screen are counted beside its colour's letter (the
    pictures of the flowers above them are all one colour)."""
    players, rules, events = demos()["flower-power"]
    j = Journal(Header("flower-power", tuple(players), 0, rules))
    for e in events:
        j.append(e)
    ctx = Context(config=load(None), journal=j)
    shown = texts(games.mode_for("flower-power").home(ctx), ctx)
    for color in ("red", "orange", "yellow", "green", "blue"):
        assert any(t[:1] == color[:1].upper() and t[1:].isdigit() for t in shown), (color, shown)
