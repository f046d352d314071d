"""The rule vote (docs/rules.md, "Common to all games", "Rule vote"): pure counting, no state.

When a rule is unclear the group votes among two to four versions (A-D). Each player has one
vote worth 1 point; most points wins. Only on a tie for most points does the deck owner's vote
count 2; a tie that remains after that is voted again.

The vote is not journaled (docs/rules-readings.md): it decides how the group reads a rule, it
changes nothing the companion counts, and undo should keep undoing the game, not the vote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from companion.errors import IllegalEvent

LETTERS = "ABCD"
MIN_VERSIONS, MAX_VERSIONS = 2, 4


@dataclass(frozen=True)
class Outcome:
    votes: tuple[int, ...]  # what each seat voted for (version index)
    points: tuple[int, ...]  # points per version, one per vote
    tie: bool  # two or more versions shared the most points
    final_points: tuple[int, ...]  # points after the deck owner's extra point (tie only)
    winner: int | None  # the winning version, or None when the group must vote again
    by_deck_owner: bool  # the deck owner's double vote broke the tie

    @property
    def revote(self) -> bool:
        return self.winner is None

    @property
    def tied(self) -> tuple[int, ...]:
        """The versions that shared the most points before the deck owner's extra point."""
        top = max(self.points)
        return tuple(v for v, p in enumerate(self.points) if p == top)


def letter(version: int) -> str:
    return LETTERS[version]


def check_versions(versions: object) -> int:
    if isinstance(versions, bool) or not isinstance(versions, int) \
            or not MIN_VERSIONS <= versions <= MAX_VERSIONS:
        raise IllegalEvent(f"a rule vote has {MIN_VERSIONS}-{MAX_VERSIONS} versions, "
                           f"not {versions!r}")
    return versions


def count(votes: Sequence[int], *, versions: int, deck_owner: int | None = None) -> Outcome:
    """Count one round of votes (`votes[seat]` = the version that seat chose).

    `deck_owner` is the seat of the deck's owner, or None when nobody at the table owns it
    (a tie then always means a re-vote).
    """
    versions = check_versions(versions)
    votes = tuple(votes)
    if not votes:
        raise IllegalEvent("a rule vote needs at least one player's vote")
    for seat, v in enumerate(votes):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < versions:
            raise IllegalEvent(f"seat {seat} voted {v!r}; the versions are "
                               f"{', '.join(LETTERS[:versions])} (0-{versions - 1})")
    if deck_owner is not None and (isinstance(deck_owner, bool) or not isinstance(deck_owner, int)
                                   or not 0 <= deck_owner < len(votes)):
        raise IllegalEvent(f"deck owner must be a seat 0-{len(votes) - 1}, not {deck_owner!r}")
    points = tuple(votes.count(v) for v in range(versions))
    top = max(points)
    leaders = [v for v in range(versions) if points[v] == top]
    if len(leaders) == 1:
        return Outcome(votes, points, False, points, leaders[0], False)
    if deck_owner is None:
        return Outcome(votes, points, True, points, None, False)
    final = list(points)
    final[votes[deck_owner]] += 1  # the owner's vote counts 2, only because of the tie
    top = max(final)
    leaders = [v for v in range(versions) if final[v] == top]
    winner = leaders[0] if len(leaders) == 1 else None
    return Outcome(votes, points, True, tuple(final), winner, winner is not None)
