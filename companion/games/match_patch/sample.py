"""Match Patch: a game in progress for the web's screenshots, and a random legal move for sample games."""

from __future__ import annotations

import random

from companion.games import Demo
from companion.rules.game import Event

DEMO = Demo(("Ann", "Ben", "Cy", "Dee"), (
    {"type": "pips", "pips": [12, 15, 9, 3]}, {"type": "pair"}, {"type": "next"},
    {"type": "pair", "player": 2}, {"type": "pair"}, {"type": "next"}, {"type": "next"},
    {"type": "pair"},
))


def move(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.6:
        return {"type": "next"}
    return {"type": "pair", "player": rng.randrange(n)}
