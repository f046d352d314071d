"""Flower Power (docs/rules.md, "Flower Power")."""

from __future__ import annotations

from companion.games import GameKind, Part, Scoring
from companion.games.flower_power import sample
from companion.games.flower_power.rules import FlowerPower

KIND = GameKind(rules=FlowerPower(),
                panel=Part("companion.games.flower_power.panel:FlowerPowerMode"),
                gallery=Part("companion.games.flower_power.gallery:shots"),
                scoring=Scoring("flowers", lambda s: s.scores),
                sample=sample.move,
                demo=sample.DEMO,
                web=Part("companion.games.flower_power.web:WEB"),
                order=30,
                color="#3ddc84")
