"""The table kind: turns, direction and dice, for any card game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind
from companion.games.table import sample
from companion.rules.game import Game, State

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.ui.modes import Mode
    return Mode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.table.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.table.web import WEB
    return WEB


KIND = GameKind(rules=Game[State](),
                panel=panel,
                gallery=gallery,
                sample=sample.move,
                demo=sample.DEMO,
                web=web,
                order=10,
                color="#c9a36b")
