"""Match Patch's screens for docs/screens (`companion screens`): sample games and the
screen stack each one shows, the top screen drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.match_patch.panel import (
    MatchPatchMode,
    MatchScreen,
    PipsEntry,
    scores_screen,
    tie_pick,
)
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.modes import FirstPlayer
from companion.ui.screen import Context
from companion.ui.table import EndScreen

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = MatchPatchMode()
    names = tuple(config.names[:4])
    fresh = Journal(Header(mode.kind, names, rules={"deck_owner": 2}))
    ctx0 = Context(config=config, journal=fresh)
    pips = PipsEntry(4)
    pips.values = [12, 15, 0, 0]
    pips.seat = 1
    yield "pips", fresh, [pips]
    tied = Journal(Header(mode.kind, names, rules={"deck_owner": 2}),
                   [{"type": "pips", "pips": [12, 15, 15, 9]}])
    yield "pips-tie", tied, [tie_pick(Context(config=config, journal=tied), (1, 2))]
    j = Journal(Header(mode.kind, names), [
        {"type": "pips", "pips": [12, 15, 9, 9]}, {"type": "pair"}, {"type": "pair"},
        {"type": "next"}, {"type": "pair"}, {"type": "next"}])
    ctx = Context(config=config, journal=j)
    yield "main", j, [MatchScreen(mode)]
    yield "menu", j, [MatchScreen(mode), mode.menu(ctx)]
    yield "scores", j, [MatchScreen(mode), scores_screen(ctx)]
    yield "first-player", fresh, [FirstPlayer(mode, ctx0)]
    ended = Journal(Header(mode.kind, names), [*j.events, {"type": "end"}])
    yield "end", ended, [EndScreen()]
