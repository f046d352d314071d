"""Dice Factor (docs/rules.md, "Dice Factor")."""

from __future__ import annotations

from companion.games import GameKind, Part
from companion.games.dice_factor import sample
from companion.games.dice_factor.rules import DiceFactor

KIND = GameKind(rules=DiceFactor(),
                panel=Part("companion.games.dice_factor.panel:DiceFactorMode"),
                gallery=Part("companion.games.dice_factor.gallery:shots"),
                demo=sample.DEMO,
                web=Part("companion.games.dice_factor.web:WEB"),
                order=20,
                color="#ff8a00")
