"""The statistics cache: the history figures for Records and the end screens (Stats), and the
skill ratings for who is favourite (favourite.py), kept until the next committed change.

It owns the History it figures with (made on the first call: never at start-up), the figures
and the ratings themselves, and the one background thread that does what would stall the
buttons: replaying games with no saved record, and folding every game's ratings (the first
time after a start, or after a change further back than the ratings keep). The History keeps
the skill ratings (session/ratings.py) between changes, so a game that ends is folded into
them alone, on this thread. It is given the store (the journal database, this thread's
connection: the one writer), `post` (the app's queue, the one thing the background thread may
call) and `landed` (called when the thread's work is taken over: the figures and ratings are
ready, so the pages are due a snapshot). Its owner calls `changed()` after each committed
change and hands it the `StatsFilled` the thread posts (`on_filled`).
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Callable

from companion.errors import JournalError
from companion.inputs import StatsFilled

if TYPE_CHECKING:
    from companion.session.ratings import Ratings
    from companion.session.stats import Stats
    from companion.session.store import Store
    from companion.session.tally import History

log = logging.getLogger(__name__)

# Events the app thread replays itself for the history figures (about 0.2 s here); a journal
# with more in games that have no saved record is replayed by a background thread instead.
STATS_BUDGET = 20_000

# Games the app thread folds into the kept skill ratings itself (about 0.07 ms each here, after
# ~2 ms finding what changed among 5,000): a game's end, an undone one. More (every game, the
# first time after a start: 0.3 s here, seconds on a Pi; a change further back than the
# ratings keep) are folded by the background thread.
FOLD_BUDGET = 100


class StatsCache:
    """The history figures and the skill ratings, computed on demand and kept until
    `changed()`.

    Games with no saved record (a journal from before the statistics: ~9 us an event here,
    several times that on a Pi) would stall the buttons: past `budget` events (STATS_BUDGET)
    they are replayed once by a thread of their own on a read-only connection, and the app
    thread saves what it posts back (`on_filled`). So would folding the ratings of thousands
    of games: past `folds` games (FOLD_BUDGET) the same thread reads every record and folds
    them all, and the app thread takes over its History. `stats()` and `ratings()` are None
    while it runs: Records says "Counting games", an end screen keeps its plain title, the
    favourite shows nothing yet."""

    def __init__(self, store: Store, post: Callable[[object], None],
                 landed: Callable[[], None] = lambda: None, *, budget: int | None = None,
                 folds: int | None = None) -> None:
        self.store = store
        self.post = post
        self.landed = landed
        self.budget = STATS_BUDGET if budget is None else budget
        self.folds = FOLD_BUDGET if folds is None else folds
        self._history: History | None = None  # made on the first call, or taken over
        self._stats: Stats | None = None  # its figures, until the next committed change
        self._ratings: Ratings | None = None  # its ratings brought up to date, until then too
        self._filling = False  # the background thread runs
        self._filled = False  # it ran (the replay: once is enough, what it left is ours)
        self._failed = False  # it failed: this thread does everything from then on
        self._changes = 0  # committed changes so far (`changed`)
        self._since = 0  # how many there were when the thread was started
        self._waited = False  # ratings were asked for and not ready: `landed` when they are

    @property
    def filling(self) -> bool:
        """Whether the background thread runs (its `StatsFilled` not handed back yet)."""
        return self._filling

    def stats(self) -> Stats | None:
        """The figures: kept, or computed now (only games changed since the last time are
        replayed, only those from the first changed one folded), or None while the
        background thread runs."""
        if self._stats is None and not self._filling:
            self._stats = self._made().stats(budget=self._events(), folds=self._folds())
            if self._stats is None:
                self._fill()
            else:
                self._ratings = self._stats.ratings
        return self._stats

    def ratings(self) -> Ratings | None:
        """The skill ratings, for who is favourite (`ratings.chances`, `Ratings.before`):
        kept, or brought up to date now from the History's records (no figures computed),
        or None while the background thread reads and folds them (started here when nothing
        was read since the start, or the fold is past `folds` games). Kept by the History:
        read them on this thread only."""
        if self._ratings is None and self._filling:
            self._waited = True
        if self._ratings is None and not self._filling:
            if self._history is None and not self._failed and not self._rated_games():
                from companion.session.ratings import Ratings as Empty
                self._ratings = Empty()  # the open game alone: nobody rated, no thread
            elif self._history is None and not self._failed:
                self._fill()  # nothing read since the start: every record, every game
            else:
                self._ratings = self._made().within(budget=self._events(),
                                                    folds=self._folds())
                if self._ratings is None:
                    self._fill()
            self._waited = self._ratings is None
        return self._ratings

    def wanted(self) -> None:
        """A snapshot went out without the ratings before they were asked for (the one made
        before the first frame): `landed` when the background fold brings them."""
        self._waited = True

    def warm(self) -> None:
        """Start the background thread now if nothing was read since the start and the
        journal holds a game besides the open one (nothing to rate else), so that the ratings
        are ready when a game starts (who is favourite: webparts.warm)."""
        if self._history is None and not self._filling and not self._failed \
                and self._rated_games():
            self._fill()

    def _rated_games(self) -> bool:
        """Whether the journal may hold a rated game: a game besides the open one (a game
        ends, then the next starts: the ratings of one lone game are never asked for)."""
        return self.store.db.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM games LIMIT 2)").fetchone()[0] > 1

    def changed(self) -> None:
        """A committed change (an append, undo or redo): the figures are old."""
        self._stats = None
        self._ratings = None
        self._changes += 1

    def _made(self) -> History:
        if self._history is None:
            from companion.session.tally import History
            self._history = History(self.store, save=True)
        return self._history

    def _events(self) -> int | None:
        return None if self._filled else self.budget

    def _folds(self) -> int | None:
        return None if self._failed else self.folds

    def _fill(self) -> None:
        from companion.session.store import Store
        from companion.session.tally import History
        self._filling = True
        self._since = self._changes
        path, post = self.store.path, self.post

        def fill() -> None:
            history = None
            try:
                with Store(path, read_only=True) as reader:
                    reading = History(reader)
                    reading.ratings()  # every record (those not saved replayed), every game
                    history = reading
            except Exception:  # the app thread then does it all itself
                log.exception("statistics: the background thread failed")
            post(StatsFilled(None if history is None else history.unsaved, history))

        threading.Thread(target=fill, name="stats", daemon=True).start()

    def on_filled(self, item: StatsFilled) -> None:
        """Save what the background thread replayed (the journal's one writer), take over
        the records it read and the ratings it folded, bring them up to date with the games
        changed meanwhile (those alone; with no change committed since the thread started,
        they are up to date as they are: nothing is read again), then say so (`landed`).
        What is left to replay after it (an unfinished game has no saved record; a failed
        replay or save) the app thread replays itself; a change further back meanwhile is
        folded by the thread again; after a failure the app thread does it all. (A game
        another process imported while the thread ran is read at the next committed change.)"""
        self._filling = False
        self._filled = True
        if item.records:
            try:
                self.store.save_summaries(item.records)
            except JournalError as e:
                log.warning("statistics records not saved: %s", e)
        self._stats = self._ratings = None  # asked again by the next frame
        if item.history is None:
            self._failed = True
        else:
            self._made().adopt(item.history)
            if self._changes == self._since:
                self._ratings = item.history.folded
            else:
                self.ratings()
        if self._waited:  # a snapshot went out without them: the pages are due one
            self._waited = False
            self.landed()
