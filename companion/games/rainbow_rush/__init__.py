"""Rainbow Rush (docs/rules.md, "Rainbow Rush")."""

from __future__ import annotations

from companion.games import GameKind, Part
from companion.games.rainbow_rush import sample
from companion.games.rainbow_rush.rules import RainbowRush

KIND = GameKind(rules=RainbowRush(),
                panel=Part("companion.games.rainbow_rush.panel:RainbowRushMode"),
                gallery=Part("companion.games.rainbow_rush.gallery:shots"),
                demo=sample.DEMO,
                web=Part("companion.games.rainbow_rush.web:WEB"),
                order=70,
                color="#00c2b8")
