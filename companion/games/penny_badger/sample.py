"""Penny Badger: a game in progress for the web's screenshots, and a random legal move for sample games."""

from __future__ import annotations

import random

from companion.games import Demo
from companion.rules.game import Event

DEMO = Demo(("Ann", "Ben", "Cy", "Dee", "Eve", "Fay"), (
    {"type": "claim", "cards": 2, "challengers": []}, {"type": "pass"},
    {"type": "claim", "cards": 3, "challengers": [0, 3], "truthful": True},
    {"type": "claim", "cards": 4, "challengers": [1], "truthful": False},
    {"type": "skip"}, {"type": "pass"},
    {"type": "claim", "cards": 5, "challengers": [4, 5], "truthful": False},
), {"bank": 100, "savings": 20})


def move(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.3:
        return {"type": "pass"}
    me = state.table.current
    others = [s for s in range(n) if s != me and s not in state.table.eliminated]
    challengers = rng.sample(others, k=min(len(others), rng.choice((0, 0, 1, 2))))
    e: Event = {"type": "claim", "cards": rng.choice((1, 2, 2, 3, 3, 4, 5))}
    if challengers:
        e.update(challengers=challengers, truthful=rng.random() < 0.5)
    return e
