"""The table kind: turns, direction and dice, for any card game."""

from __future__ import annotations

from companion.games import GameKind, Part
from companion.games.table import sample
from companion.rules.game import Game, State

KIND = GameKind(rules=Game[State](),
                panel=Part("companion.ui.modes:Mode"),
                gallery=Part("companion.games.table.gallery:shots"),
                sample=sample.move,
                demo=sample.DEMO,
                web=Part("companion.games.table.web:WEB"),
                order=10,
                color="#c9a36b")
