"""Pig Farm (docs/rules.md, "Pig Farm")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind, Scoring
from companion.games.pig_farm import sample
from companion.games.pig_farm.rules import PigFarm

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.pig_farm.panel import PigFarmMode
    return PigFarmMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.pig_farm.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.pig_farm.web import WEB
    return WEB


def best_round(s) -> list[int | None]:
    return [max((r.points[seat] for r in s.results), default=None)
            for seat in range(s.table.seats)]


KIND = GameKind(rules=PigFarm(),
                panel=panel,
                gallery=gallery,
                scoring=Scoring("total", lambda s: s.scores if s.results else None,
                                extras={"best_round": best_round},
                                labels={"best_round": "best round"}),
                sample=sample.move,
                demo=sample.DEMO,
                web=web,
                order=60,
                color="#ff6fb5")
