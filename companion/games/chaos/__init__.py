"""Chaos (docs/rules.md, "Chaos")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameKind, Scoring
from companion.games.chaos import sample, web
from companion.games.chaos.rules import Chaos

if TYPE_CHECKING:
    from companion.ui.modes import Mode


def panel() -> Mode:
    from companion.games.chaos.panel import ChaosMode
    return ChaosMode()


KIND = GameKind(rules=Chaos(),
                panel=panel,
                scoring=Scoring("total", lambda s: s.scores if s.rounds else None, lowest=True),
                sample=sample.move,
                demo=sample.DEMO,
                web=web.WEB,
                order=80)
