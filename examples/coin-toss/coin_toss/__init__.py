"""Coin Toss: a house game for the Chroma Table Companion, and the worked example of
docs/adding-a-game.md. Its whole declaration is `KIND` below; the companion finds it through
the entry point in pyproject.toml.
"""

from __future__ import annotations

import random

from coin_toss.rules import CoinToss
from companion.games import Demo, GameKind, Part, Scoring
from companion.rules.game import Event


def sample_move(rng: random.Random, n: int, state) -> Event:
    """A random legal move, for sample games (statistics, screenshots)."""
    return {"type": "toss", "right": rng.random() < 0.5}


KIND = GameKind(
    rules=CoinToss(),
    # The panel's screens, its screenshots and its phone buttons, each named by where it is
    # and imported only when first used (a game of it on the panel, `companion screens`,
    # the web's first ask).
    panel=Part("coin_toss.panel:CoinTossMode"),
    gallery=Part("coin_toss.gallery:shots"),
    scoring=Scoring("points", lambda s: s.points),
    sample=sample_move,
    web=Part("coin_toss.web:WEB"),
    # The web screenshots' game: two rounds in, Ann on 2 of 3, so her next right call wins.
    demo=Demo(("Ann", "Ben", "Cy"), tuple({"type": "toss", "right": r} for r in (
        True, False, True, True, False, False)), {"target": 3}),
)
