"""Dice Factor (docs/rules.md, "Dice Factor")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind
from companion.games.dice_factor import sample
from companion.games.dice_factor.rules import DiceFactor

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.dice_factor.panel import DiceFactorMode
    return DiceFactorMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.dice_factor.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.dice_factor.web import WEB
    return WEB


KIND = GameKind(rules=DiceFactor(),
                panel=panel,
                gallery=gallery,
                demo=sample.DEMO,
                web=web,
                order=20,
                color="#ff8a00")
