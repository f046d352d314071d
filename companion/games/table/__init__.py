"""The table kind: turns, direction and dice, for any card game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameKind
from companion.games.table import sample
from companion.rules.game import Game

if TYPE_CHECKING:
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.ui.modes import Mode
    return Mode()


def web() -> KindWeb:
    from companion.games.table.web import WEB
    return WEB


KIND = GameKind(rules=Game(),
                panel=panel,
                sample=sample.move,
                demo=sample.DEMO,
                web=web,
                order=10)
