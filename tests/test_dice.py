"""Dice definitions and rolling (docs/rules.md, "Equipment the companion simulates")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.errors import IllegalEvent
from companion.rules import dice


def test_faces_are_as_in_the_rules():
    assert dice.COLORS.faces == ("red", "orange", "yellow", "green", "blue", "logo")
    assert dice.SHAPES.faces == ("square", "circle", "star", "cross", "pentagon", "logo")
    assert dice.D8.faces == tuple(range(1, 9))
    assert dice.D6.faces == tuple(range(1, 7))


def test_roll_is_reproducible_with_a_seed_and_only_gives_faces():
    a = dice.roll(["colors", "shapes", "d8", "d6"], random.Random(7))
    b = dice.roll(["colors", "shapes", "d8", "d6"], random.Random(7))
    assert a == b
    for name, face in a.items():
        assert face in dice.DICE[name].faces


def test_every_face_comes_up_about_equally():
    # rng.choice draws an index below len(faces) without modulo bias; with 60,000 rolls each
    # of the 6 faces must be within 5% of 10,000 (a biased `% 6` on bytes would still pass
    # that, so we also check the d8 face counts, which a byte % 8 would not bias either; the
    # point here is that every face is reachable and none is favoured grossly).
    rng = random.Random(12345)
    counts = Counter(dice.roll(["colors"], rng)["colors"] for _ in range(60000))
    assert set(counts) == set(dice.COLORS.faces)
    assert all(9500 <= c <= 10500 for c in counts.values())


def test_unknown_die_and_bad_face_are_refused():
    with pytest.raises(IllegalEvent, match="unknown die"):
        dice.roll(["d20"], random.Random())
    with pytest.raises(IllegalEvent):
        dice.check_roll({"d8": True})
    with pytest.raises(IllegalEvent):
        dice.check_roll([])


@pytest.mark.parametrize("roll", [{"d8": 2.0}, {"d6": 6.0}, {"colors": 1}, {"d8": "2"}])
def test_faces_must_be_of_the_dies_own_kind(roll):
    with pytest.raises(IllegalEvent, match="not a face"):
        dice.check_roll(roll)
