"""Flower Power: a game in progress for the web's screenshots, and a random legal move for sample games."""

from __future__ import annotations

import random

from companion.games import Demo
from companion.rules.game import Event

DEMO = Demo(("Ann", "Ben", "Cy", "Dee"), (
    {"type": "petals", "color": "red", "count": 4}, {"type": "next"},
    {"type": "petals", "color": "red", "count": 3}, {"type": "petals", "color": "blue",
                                                     "count": 2}, {"type": "next"},
    {"type": "petals", "color": "yellow", "count": 4}, {"type": "next"},
    {"type": "petals", "color": "green", "count": 1}, {"type": "next"},
))


COLORS = ("red", "orange", "yellow", "green", "blue")


def move(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.4:
        return {"type": "next"}
    return {"type": "petals", "color": rng.choice(COLORS), "count": rng.randint(1, 3)}
