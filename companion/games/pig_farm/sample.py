"""Pig Farm: a game in progress for the web's screenshots, and a random legal move for sample games."""

from __future__ import annotations

import random

from companion.games import Demo
from companion.rules.game import Event

DEMO = Demo(("Ann", "Ben", "Cy", "Dee"), (
    {"type": "butcher", "die": "colors", "face": "red", "deal": True}, {"type": "next"},
    {"type": "sell", "hands": [{"sets": [2, 2], "unmatched": 1},
                               {"sets": [3, 3, 2], "unmatched": 0},
                               {"sets": [2], "unmatched": 2},
                               {"sets": [2, 2, 2], "unmatched": 1}]},
    {"type": "sell", "hands": [{"sets": [2], "unmatched": 0},
                               {"sets": [2, 2], "unmatched": 3},
                               {"sets": [4, 3, 2, 2], "unmatched": 1},
                               {"sets": [], "unmatched": 2}]},
    {"type": "butcher", "die": "shapes", "face": "star"},
), {"target": 500})


def move(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.75:
        return {"type": "next"}
    hands = [{"sets": [rng.choice((2, 2, 3, 4)) for _ in range(rng.randint(0, 3))],
              "unmatched": rng.randint(0, 2)} for _ in range(n)]
    hands[state.table.current] = {"sets": [rng.choice((2, 3, 3, 4, 5))
                                           for _ in range(rng.randint(3, 5))],
                                  "unmatched": rng.randint(0, 2)}
    return {"type": "sell", "hands": hands}
