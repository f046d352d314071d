"""A design game on the panel: one generic `Mode` for every design (its kind name is the
design's, `design:<hash>`)."""

from __future__ import annotations

from companion.rules.design import DesignGame
from companion.ui.modes import Mode


class DesignMode(Mode):
    """The screens of one design game."""

    def __init__(self, game: DesignGame) -> None:
        self.kind = game.kind
        self.game = game
