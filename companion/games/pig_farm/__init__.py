"""Pig Farm (docs/rules.md, "Pig Farm")."""

from __future__ import annotations

from companion.games import GameKind, Part, Scoring
from companion.games.pig_farm import sample
from companion.games.pig_farm.rules import PigFarm


def best_round(s) -> list[int | None]:
    return [max((r.points[seat] for r in s.results), default=None)
            for seat in range(s.table.seats)]


KIND = GameKind(rules=PigFarm(),
                panel=Part("companion.games.pig_farm.panel:PigFarmMode"),
                gallery=Part("companion.games.pig_farm.gallery:shots"),
                scoring=Scoring("total", lambda s: s.scores if s.results else None,
                                extras={"best_round": best_round},
                                labels={"best_round": "best round"}),
                sample=sample.move,
                demo=sample.DEMO,
                web=Part("companion.games.pig_farm.web:WEB"),
                order=60,
                color="#ff6fb5")
