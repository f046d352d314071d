"""The table kind: turns, direction and dice, for any card game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameKind
from companion.games.table import sample
from companion.rules.game import Game, State

if TYPE_CHECKING:
    from companion.ui.modes import Mode


def panel() -> Mode:
    from companion.ui.modes import Mode
    return Mode()


KIND = GameKind(rules=Game[State](),
                panel=panel,
                sample=sample.move,
                demo=sample.DEMO,
                order=10)
