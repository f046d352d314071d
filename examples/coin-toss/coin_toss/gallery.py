"""Coin Toss's screens for `companion screens` (its PNGs are coin-toss-<name>.png)."""

from __future__ import annotations

from typing import Iterable

from coin_toss.panel import CoinScreen, CoinTossMode
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context, Screen


def shots(config) -> Iterable[tuple[str, Journal, list[Screen]]]:
    mode = CoinTossMode()
    names = tuple(config.names[:3])
    j = Journal(Header("coin-toss", names, 0, {"target": 3}),
                [{"type": "toss", "right": True}, {"type": "toss", "right": False},
                 {"type": "toss", "right": True}])
    ctx = Context(config=config, journal=j)
    yield "main", j, [CoinScreen(mode)]
    yield "menu", j, [CoinScreen(mode), mode.menu(ctx)]
    # Ann 2, Ben wrong, Cy wrong, then Ann's third right call wins.
    won = Journal(j.header, [*j.events, {"type": "toss", "right": True},
                             {"type": "toss", "right": False}, {"type": "toss", "right": False},
                             {"type": "toss", "right": True}])
    yield "end", won, [mode.end_screen(Context(config=config, journal=won))]
