"""The dice of Chroma Cards (docs/rules.md, "Equipment the companion simulates").

Pure data plus one function that turns a random source into a face. The random source is
passed in: `random.SystemRandom()` in play, a seeded `random.Random` in tests.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from companion.errors import IllegalEvent


@dataclass(frozen=True)
class Die:
    name: str  # as in events and the roller protocol: colors, shapes, d8, d6
    label: str  # for people
    faces: tuple[str | int, ...]

    def check(self, face: object) -> str | int:
        """Return `face` if it is one of this die's faces, else raise IllegalEvent."""
        for f in self.faces:
            if type(face) is type(f) and face == f:
                return f
        shown = ", ".join(str(f) for f in self.faces)
        raise IllegalEvent(f"{face!r} is not a face of the {self.label} die ({shown})")


LOGO = "logo"  # the stars/guns company logo: the wild face of the Colors and Shapes dice

COLORS = Die("colors", "Colors", ("red", "orange", "yellow", "green", "blue", LOGO))
SHAPES = Die("shapes", "Shapes", ("square", "circle", "star", "cross", "pentagon", LOGO))
D8 = Die("d8", "8-sided", tuple(range(1, 9)))
D6 = Die("d6", "6-sided", tuple(range(1, 7)))

DICE: dict[str, Die] = {d.name: d for d in (COLORS, SHAPES, D8, D6)}


def die(name: str) -> Die:
    try:
        return DICE[name]
    except KeyError:
        raise IllegalEvent(f"unknown die {name!r} (known: {', '.join(DICE)})") from None


def roll(names: Sequence[str], rng: random.Random) -> dict[str, str | int]:
    """Roll the named dice. `rng.choice` draws an index without modulo bias."""
    return {name: rng.choice(die(name).faces) for name in names}


def check_roll(dice: object) -> dict[str, str | int]:
    """Validate the `dice` field of a roll event: a non-empty mapping die name -> face."""
    if not isinstance(dice, dict) or not dice:
        raise IllegalEvent("a roll needs \"dice\": an object such as {\"d8\": 5}")
    return {name: die(name).check(face) for name, face in dice.items()}
