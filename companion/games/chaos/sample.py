"""Chaos: a game in progress for the web's screenshots, and a random legal move for sample games."""

from __future__ import annotations

import random

from companion.games import Demo
from companion.rules.game import Event

DEMO = Demo(("Ann", "Ben", "Cy", "Dee", "Eve"), (
    {"type": "first", "player": 1}, {"type": "draw_four", "color": "blue"},
    {"type": "draw_four", "color": "red"}, {"type": "take_draw_four"},
    {"type": "two_train"}, {"type": "reverse"}, {"type": "next"},
    {"type": "round_points", "points": [0, 14, 33, 7, 21]},
    {"type": "first", "player": 2}, {"type": "pick_color", "color": "green"},
    {"type": "two_train"}, {"type": "draw_four", "color": "orange"},
))


def move(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.85:
        return rng.choice(({"type": "next"}, {"type": "next"}, {"type": "reverse"},
                           {"type": "skip"}, {"type": "pick_color", "color": "blue"}))
    points = [rng.randint(0, 60) for _ in range(n)]
    points[rng.randrange(n)] = 0
    return {"type": "round_points", "points": points}
