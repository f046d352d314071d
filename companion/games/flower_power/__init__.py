"""Flower Power (docs/rules.md, "Flower Power")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind, Scoring
from companion.games.flower_power import sample
from companion.games.flower_power.rules import FlowerPower

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.flower_power.panel import FlowerPowerMode
    return FlowerPowerMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.flower_power.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.flower_power.web import WEB
    return WEB


KIND = GameKind(rules=FlowerPower(),
                panel=panel,
                gallery=gallery,
                scoring=Scoring("flowers", lambda s: s.scores),
                sample=sample.move,
                demo=sample.DEMO,
                web=web,
                order=30,
                color="#3ddc84")
