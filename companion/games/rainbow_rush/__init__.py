"""Rainbow Rush (docs/rules.md, "Rainbow Rush")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameKind
from companion.games.rainbow_rush import sample
from companion.games.rainbow_rush.rules import RainbowRush

if TYPE_CHECKING:
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.rainbow_rush.panel import RainbowRushMode
    return RainbowRushMode()


def web() -> KindWeb:
    from companion.games.rainbow_rush.web import WEB
    return WEB


KIND = GameKind(rules=RainbowRush(),
                panel=panel,
                demo=sample.DEMO,
                web=web,
                order=70)
