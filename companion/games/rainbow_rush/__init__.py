"""Rainbow Rush (docs/rules.md, "Rainbow Rush")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind
from companion.games.rainbow_rush import sample
from companion.games.rainbow_rush.rules import RainbowRush

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.rainbow_rush.panel import RainbowRushMode
    return RainbowRushMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.rainbow_rush.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.rainbow_rush.web import WEB
    return WEB


KIND = GameKind(rules=RainbowRush(),
                panel=panel,
                gallery=gallery,
                demo=sample.DEMO,
                web=web,
                order=70,
                color="#00c2b8")
