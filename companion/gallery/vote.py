"""The rule vote's screens for docs/screens (`companion screens`): common to every game, drawn
in the game whose gallery asks for them (Rainbow Rush's, companion/games/rainbow_rush/gallery.py)."""

from __future__ import annotations

from companion.session.journal import Journal
from companion.ui.screen import Context, Screen
from companion.ui.vote import Ballot, VoteResult, start_vote


def shots(config, journal: Journal) -> list[tuple[str, list[Screen]]]:
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
