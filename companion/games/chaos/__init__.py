"""Chaos (docs/rules.md, "Chaos")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind, Scoring
from companion.games.chaos import sample
from companion.games.chaos.rules import Chaos

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.chaos.panel import ChaosMode
    return ChaosMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.chaos.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.chaos.web import WEB
    return WEB


KIND = GameKind(rules=Chaos(),
                panel=panel,
                gallery=gallery,
                scoring=Scoring("total", lambda s: s.scores if s.rounds else None, lowest=True),
                sample=sample.move,
                demo=sample.DEMO,
                web=web,
                order=80,
                color="#ff5a5a")
