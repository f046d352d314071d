"""The table kind: turns, direction and dice, for any card game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameKind
from companion.games.table import sample, web
from companion.rules.game import Game

if TYPE_CHECKING:
    from companion.ui.modes import Mode


def panel() -> Mode:
    from companion.ui.modes import Mode
    return Mode()


KIND = GameKind(rules=Game(),
                panel=panel,
                sample=sample.move,
                demo=sample.DEMO,
                web=web.WEB,
                order=10)
