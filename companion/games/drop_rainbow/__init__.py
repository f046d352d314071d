"""Drop Rainbow (docs/rules.md, "Drop Rainbow")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameKind, Scoring
from companion.games.drop_rainbow import sample, web
from companion.games.drop_rainbow.rules import DropRainbow

if TYPE_CHECKING:
    from companion.ui.modes import Mode


def panel() -> Mode:
    from companion.games.drop_rainbow.panel import DropRainbowMode
    return DropRainbowMode()


KIND = GameKind(rules=DropRainbow(),
                panel=panel,
                scoring=Scoring("cards", lambda s: [len(c) for c in s.score]),
                demo=sample.DEMO,
                web=web.WEB,
                order=90)
