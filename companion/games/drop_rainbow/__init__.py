"""Drop Rainbow (docs/rules.md, "Drop Rainbow")."""

from __future__ import annotations

from companion.games import GameKind, Part, Scoring
from companion.games.drop_rainbow import sample
from companion.games.drop_rainbow.rules import DropRainbow

KIND = GameKind(rules=DropRainbow(),
                panel=Part("companion.games.drop_rainbow.panel:DropRainbowMode"),
                gallery=Part("companion.games.drop_rainbow.gallery:shots"),
                scoring=Scoring("cards", lambda s: [len(c) for c in s.score]),
                demo=sample.DEMO,
                web=Part("companion.games.drop_rainbow.web:WEB"),
                order=90,
                color="#5b8cff")
