"""Rainbow Rush's screens for docs/screens (`companion screens`): sample games and the
screen stack each one shows, the top screen drawn; and the rule vote's (companion/ui/vote.py),
common to every game, drawn in a Rainbow Rush game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.rainbow_rush.panel import RainbowRushMode, RainbowScreen, win_menu
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context, Screen
from companion.ui.table import EndScreen
from companion.ui.vote import Ballot, VoteResult, start_vote

if TYPE_CHECKING:
    from companion.ui.modes import Shot


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
    for name, stack in vote_shots(config, owned):
        yield name, owned, stack


def vote_shots(config, journal: Journal) -> list[tuple[str, list[Screen]]]:
    """(name, screen stack) of the vote in `journal`'s game (4 players, deck owner set)."""
    ctx = Context(config=config, journal=journal)
    ballot = Ballot(3)
    ballot.votes = [0]
    ballot.cursor = 2
    win = VoteResult(3, (0, 1, 0, 2), owner=None)
    tie = VoteResult(2, (0, 1, 0, 1), owner=None)
    by_owner = VoteResult(2, (0, 1, 0, 1), owner=1)
    again = VoteResult(2, (0, 1, 0, 1), owner=None)
    again.asked = True  # "Nobody here" owns the deck
    return [("vote-versions", [start_vote(ctx)]), ("vote-ballot", [ballot]),
            ("vote-result", [win]), ("vote-tie", [tie]),
            ("vote-deck-owner", [tie, tie._owner_menu(ctx)]),
            ("vote-by-owner", [by_owner]), ("vote-again", [again])]
