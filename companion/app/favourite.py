"""Who is favourite (issue 38; docs/web.md "Who is favourite"): each seat's chance to win the
open game, from the skill ratings as they stood before it (session/ratings.py `chances`), for
the web snapshot; at game over, whether it went as predicted.

`Favourite` owns the prediction of the game on the table, made once per game (keyed by the
game's id and its players) and kept: a snapshot is made after every change, and the ratings
are not figured again for each. It is given `ratings`, the skill ratings or None while they
are not ready (companion/app/statscache.py `StatsCache.ratings`: None while the background
replay runs; then there are no chances yet and nothing waits for them), and `shown`, whether
the group wants the favourite shown at all (`[stats] favourite`). It runs on the app thread.

The prediction is the one made from the ratings before the game: a game already rated (the
box started again on its end screen) is predicted from its players' skills as they stood
before it (`Ratings.before`), never from ratings its own result has moved; one rated so long
ago that the ratings no longer keep that has no prediction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from companion.session.ratings import chances, favourites, key, upset

if TYPE_CHECKING:
    from companion.session.journal import Journal
    from companion.session.ratings import Ratings


class Favourite:
    """The open game's prediction, made once and kept."""

    def __init__(self, ratings: Callable[[], Ratings | None], shown: Callable[[], bool]) -> None:
        self.ratings = ratings
        self.shown = shown
        self.made: tuple[int, tuple[str, ...]] | None = None  # the game predicted (its key)
        self.chances: list[float] | None = None  # each seat's, 0-1; None: no prediction
        self.predictions = 0  # how many were made (each asks the ratings once)

    def snapshot(self, journal: Journal | None, game_id: int | None) -> dict[str, Any] | None:
        """The snapshot's `favourite`: {"chances": each seat's chance (0-1, 3 places),
        "favourites": the seats with the highest, "verdict": at game over the words of how
        it went, else None, "upset": whether it was one (None before the end)}; None when
        there is no game, the group turned it off, most players are new or the ratings are
        not ready."""
        if journal is None or game_id is None or not self.shown():
            return None
        players = tuple(journal.header.players)
        wanted = (game_id, tuple(key(n) for n in players))
        if wanted != self.made:
            ratings = self.ratings()
            if ratings is None:
                return None  # the figures are being replayed: asked again at the next snapshot
            skills = ratings.before(game_id)
            self.made = wanted
            if skills is None and journal.state.over and journal.state.winners:
                # Rated longer ago than the ratings keep its "before" (KEEP_BEFORE games):
                # what they say now has its own result in it, so no prediction at all.
                self.chances = None
            else:
                self.chances = chances(skills if skills is not None else ratings.scope(),
                                       players)
            self.predictions += 1
        if self.chances is None:
            return None
        state = journal.state
        out: dict[str, Any] = {"chances": [round(c, 3) for c in self.chances],
                               "favourites": sorted(favourites(self.chances)),
                               "verdict": None, "upset": None}
        if state.over:
            winners = tuple(state.winners)
            out["verdict"] = verdict([n.strip() for n in players], self.chances, winners)
            out["upset"] = upset(self.chances, winners)
        return out


def percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def _and(names: Sequence[str]) -> str:
    return " & ".join(names)


# A verdict names at most this many winners or favourites; more are counted ("Upset! 7
# players won at 6% each"): seven 16-letter names and their chances took three lines of a
# TV, which cannot scroll (the players' table beside it names them).
NAMED = 2


def verdict(players: Sequence[str], chances: Sequence[float], winners: Sequence[int]) -> str:
    """How the game went against the prediction, in words: "Ann was the favourite: as
    predicted", "Upset! Cy won at 12%", "No winner; Ann was the favourite"; many winners or
    favourites counted: "Upset! 7 players won at 5% to 8% each"."""
    top = sorted(favourites(chances))
    fav = _and([players[s] for s in top]) if len(top) <= NAMED else f"{len(top)} players"
    was = "were the favourites" if len(top) > 1 else "was the favourite"
    if not winners:
        return f"No winner; {fav} {was}"
    if upset(chances, winners):
        if len(winners) == 1:
            return f"Upset! {players[winners[0]]} won at {percent(chances[winners[0]])}"
        if len(winners) > NAMED:
            low, high = (percent(f([chances[s] for s in winners])) for f in (min, max))
            at = low if low == high else f"{low} to {high}"
            return f"Upset! {len(winners)} players won at {at} each"
        return "Upset! " + _and([f"{players[s]} ({percent(chances[s])})" for s in winners]) \
            + " won"
    return f"{fav} {was}: as predicted"
