"""A design game's screens for docs/screens (`companion screens`): a sample game of the
design and the screen stack each shot shows, the top screen drawn. The same for every
design: what it shows is read from the design (its moves, tallies and pot)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterator, cast

from companion.games.design.panel import DesignMode, RoundScoreEntry, play, tally_lines
from companion.games.design.rules import DesignKindGame
from companion.games.design.sample import move as sample_move
from companion.rules.design import DesignState
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.actions import Push
from companion.ui.screen import Context, TextScreen

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(game: DesignKindGame, config) -> Iterator[Shot]:
    mode = DesignMode(game)
    d = game.design
    n = max(d.min_players, min(4, d.max_players))
    names = tuple(config.names[:n])
    fresh = Journal(Header(game.kind, names))
    ctx0 = Context(config=config, journal=fresh)
    yield "setup-first", fresh, [mode.first_player_screen(ctx0)]
    yield "home-start", fresh, [mode.home(ctx0)]
    j = Journal(Header(game.kind, names))
    if j.state.asks_table:
        j.append({"type": "first", "player": 0})
    rng = random.Random(d.title)
    for _ in range(8):  # a few of the design's own moves, legal ones
        state = cast(DesignState, j.state)
        event = sample_move(game, rng, n, state)
        if event.get("type") == "end" or game.apply(state, event).over:
            break
        j.append(event)
    ctx = Context(config=config, journal=j)
    home = mode.home(ctx)
    yield "home", j, [home]
    yield "menu", j, [home, mode.menu(ctx)]
    for m in d.moves:  # the first move that asks a player or a number: what it opens
        if m.chooses or m.ask is not None:
            opened = play(game, m, ctx)
            if isinstance(opened, Push):
                yield "move-asks", j, [home, opened.screen]
            break
    yield "tallies", j, [home, TextScreen("Tallies", tally_lines(game, ctx))]
    if d.round_score is not None:
        yield "round-scores", j, [home, RoundScoreEntry(game, ctx)]
    j.append({"type": "end"})
    yield "end", j, [mode.end_screen(ctx)]
