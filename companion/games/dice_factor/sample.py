"""Dice Factor: a game in progress for the web's screenshots."""

from __future__ import annotations

from companion.games import Demo

DEMO = Demo(("Ann", "Ben", "Cy", "Dee"), (
    {"type": "roll_off", "rolls": [8, 8, 6, 3]},
    {"type": "roll", "dice": {"colors": "green", "shapes": "logo"}},
    {"type": "add_card"}, {"type": "trade_hands", "player": 0},
    {"type": "roll", "dice": {"d8": 4}},
))
