"""Drop Rainbow: a game in progress for the web's screenshots."""

from __future__ import annotations

from companion.games import Demo

DEMO = Demo(("Ann", "Ben", "Cy"), (
    {"type": "reveal", "color": "red"}, {"type": "draw", "color": "blue"},
    {"type": "draw", "color": "green"}, {"type": "bank"},
    {"type": "draw", "color": "violet"}, {"type": "draw", "color": "violet"},
    {"type": "draw", "color": "orange"}, {"type": "draw", "color": "yellow"},
))
