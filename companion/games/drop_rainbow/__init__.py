"""Drop Rainbow (docs/rules.md, "Drop Rainbow")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind, Scoring
from companion.games.drop_rainbow import sample
from companion.games.drop_rainbow.rules import DropRainbow

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.drop_rainbow.panel import DropRainbowMode
    return DropRainbowMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.drop_rainbow.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.drop_rainbow.web import WEB
    return WEB


KIND = GameKind(rules=DropRainbow(),
                panel=panel,
                gallery=gallery,
                scoring=Scoring("cards", lambda s: [len(c) for c in s.score]),
                demo=sample.DEMO,
                web=web,
                order=90,
                color="#5b8cff")
