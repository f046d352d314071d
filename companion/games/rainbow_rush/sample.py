"""Rainbow Rush: a game in progress for the web's screenshots."""

from __future__ import annotations

from companion.games import Demo

DEMO = Demo(("Ann", "Ben", "Cy"), (
    {"type": "next"}, {"type": "wild_replace"}, {"type": "next"},
    {"type": "roll", "dice": {"colors": "blue"}},
))
