"""The table kind: a game in progress for the web's screenshots, and a random legal move for sample games."""

from __future__ import annotations

import random

from companion.games import Demo
from companion.rules.game import Event

DEMO = Demo(("Ann", "Ben", "Cy", "Dee", "Eve"), (
    {"type": "next"}, {"type": "skip"}, {"type": "next"}, {"type": "reverse"},
    {"type": "next"},
    {"type": "roll", "dice": {"colors": "green", "shapes": "star", "d8": 5, "d6": 2}},
))


def move(rng: random.Random, n: int, state) -> Event:
    return rng.choice(({"type": "next"}, {"type": "next"}, {"type": "skip"},
                       {"type": "reverse"}, {"type": "roll", "dice": {"d8": rng.randint(1, 8)}}))
