"""Flower Power's screens for docs/screens (`companion screens`): sample games and the
screen stack each one shows, the top screen drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.flower_power.panel import (
    FlowerPowerMode,
    FlowerScreen,
    color_menu,
    petal_entry,
    scores_screen,
)
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context
from companion.ui.table import EndScreen

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = FlowerPowerMode()
    names = tuple(config.names[:4])
    j = Journal(Header(mode.kind, names))
    for e in ({"type": "petals", "color": "red", "count": 3},
              {"type": "petals", "color": "blue", "count": 1}, {"type": "next"},
              {"type": "petals", "color": "red", "count": 4},
              {"type": "petals", "color": "green", "count": 1}, {"type": "next"},
              {"type": "petals", "color": "yellow", "count": 4}):
        j.append(e)
    ctx = Context(config=config, journal=j)
    home = FlowerScreen(mode)
    yield "main", j, [home]
    picked = FlowerScreen(mode)
    picked.cursor = 3
    yield "main-green", j, [picked]
    yield "petals", j, [home, petal_entry(ctx, "green")]
    yield "petals-take", j, [home, petal_entry(ctx, "yellow")]
    yield "menu", j, [home, mode.menu(ctx)]
    yield "colors", j, [home, color_menu(ctx)]
    yield "scores", j, [home, scores_screen(ctx)]
    yield "first-player", j, [mode.first_player_screen(ctx)]
    full = Journal(Header(mode.kind, names))
    full.append({"type": "petals", "color": "red", "count": 5})
    yield "all-played", full, [home, petal_entry(Context(config=config, journal=full),
                                                "red")]
    ended = Journal(Header(mode.kind, names), [*j.events, {"type": "end"}])
    yield "end", ended, [EndScreen()]
