"""Chaos (docs/rules.md, "Chaos")."""

from __future__ import annotations

from companion.games import GameKind, Part, Scoring
from companion.games.chaos import sample
from companion.games.chaos.rules import Chaos

KIND = GameKind(rules=Chaos(),
                panel=Part("companion.games.chaos.panel:ChaosMode"),
                gallery=Part("companion.games.chaos.gallery:shots"),
                scoring=Scoring("total", lambda s: s.scores if s.rounds else None, lowest=True),
                sample=sample.move,
                demo=sample.DEMO,
                web=Part("companion.games.chaos.web:WEB"),
                order=80,
                color="#ff5a5a")
