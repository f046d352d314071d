"""Coin Toss: a house game for the Chroma Table Companion, and the worked example of
docs/adding-a-game.md. Its whole declaration is `KIND` below; the companion finds it through
the entry point in pyproject.toml.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from coin_toss.rules import CoinToss
from companion.games import Demo, GameKind, Scoring
from companion.rules.game import Event

if TYPE_CHECKING:
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    """The panel's screens, imported only when a Coin Toss game is on the panel."""
    from coin_toss.panel import CoinTossMode
    return CoinTossMode()


def gallery(config):
    """Its screenshots for `companion screens`, imported only when they are drawn."""
    from coin_toss.gallery import shots
    return shots(config)


def web() -> KindWeb:
    """Its phone buttons and game view on the table web, imported only when the web asks."""
    from coin_toss.web import WEB
    return WEB


def sample_move(rng: random.Random, n: int, state) -> Event:
    """A random legal move, for sample games (statistics, screenshots)."""
    return {"type": "toss", "right": rng.random() < 0.5}


KIND = GameKind(
    rules=CoinToss(),
    panel=panel,
    gallery=gallery,
    scoring=Scoring("points", lambda s: s.points),
    sample=sample_move,
    web=web,
    # The web screenshots' game: two rounds in, Ann on 2 of 3, so her next right call wins.
    demo=Demo(("Ann", "Ben", "Cy"), tuple({"type": "toss", "right": r} for r in (
        True, False, True, True, False, False)), {"target": 3}),
)
