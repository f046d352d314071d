"""Rainbow Rush's screens for docs/screens (`companion screens`): sample games and the
screen stack each one shows, the top screen drawn; and the rule vote's, common to every
game, drawn in a Rainbow Rush game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.gallery import vote
from companion.games.rainbow_rush.panel import RainbowRushMode, RainbowScreen, win_menu
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context
from companion.ui.table import EndScreen

if TYPE_CHECKING:
    from companion.games import Shot


def shots(config) -> Iterator[Shot]:
    mode = RainbowRushMode()
    names = tuple(config.names[:4])
    j = Journal(Header(mode.kind, names), [{"type": "next"}])
    ctx = Context(config=config, journal=j)
    yield "main", j, [RainbowScreen(mode)]
    locked = Journal(Header(mode.kind, names), [{"type": "wild_replace"}])
    yield "locked-2", locked, [RainbowScreen(mode)]
    one = Journal(Header(mode.kind, names), [{"type": "wild_replace"}, {"type": "next"}])
    yield "locked-1", one, [RainbowScreen(mode)]
    yield "menu", j, [RainbowScreen(mode), mode.menu(ctx)]
    yield "win", j, [RainbowScreen(mode), win_menu(ctx)]
    yield "first-player", j, [mode.first_player_screen(ctx)]
    ended = Journal(Header(mode.kind, names), [{"type": "win", "player": 1}])
    yield "end", ended, [EndScreen()]
    # The rule vote is common to every game; its screens are drawn here.
    owned = Journal(Header(mode.kind, names, rules={"deck_owner": 1}))
    for name, stack in vote.shots(config, owned):
        yield name, owned, stack
