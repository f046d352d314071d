"""The statistics cache: the history figures for Records and the end screens (Stats), computed
on the app thread when a screen first asks, and kept until the next committed change.

It owns the History it figures with (made on the first `stats()` call: never at start-up),
the figures themselves, and the one background replay of games with no saved record. The
History keeps the skill ratings (session/ratings.py) between changes, so a game that ends
is folded into them alone, not every game again. It is
given the store (the journal database, this thread's connection: the one writer) and `post`
(the app's queue, the one thing the background thread may call). Its owner calls `changed()`
after each committed change and hands it the `StatsFilled` the replay posts (`on_filled`).
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


class StatsCache:
    """The history figures, computed on demand and kept until `changed()`.

    Games with no saved record (a journal from before the statistics: ~9 us an event here,
    several times that on a Pi) would stall the buttons: past `budget` events (STATS_BUDGET)
    they are replayed once by a thread of their own on a read-only connection, and the app
    thread saves what it posts back (`on_filled`). `stats()` is None until then: Records says
    "Counting games", an end screen keeps its plain title."""

    def __init__(self, store: Store, post: Callable[[object], None], *,
                 budget: int | None = None) -> None:
        self.store = store
        self.post = post
        self.budget = STATS_BUDGET if budget is None else budget
        self._history: History | None = None  # made on the first stats() call
        self._stats: Stats | None = None  # its figures, until the next committed change
        self._filling = False  # a background replay of games with no saved record runs
        self._filled = False  # it ran (once is enough: what it left is this thread's)

    def stats(self) -> Stats | None:
        """The figures: kept, or computed now (only games changed since the last time are
        replayed), or None while the background replay runs."""
        if self._stats is None and not self._filling:
            from companion.session.tally import History
            if self._history is None:
                self._history = History(self.store, save=True)
            budget = None if self._filled else self.budget
            self._stats = self._history.stats(budget=budget)
            if self._stats is None:
                self._fill()
        return self._stats

    def ratings(self) -> Ratings | None:
        """The skill ratings of the figures (`stats()`: computed now if need be), for who is
        favourite (`ratings.chances`, `Ratings.before`); None while the background replay
        runs. Kept by the History and brought up to date by the next `stats()`: read them on
        this thread only."""
        figures = self.stats()
        return None if figures is None else figures.ratings

    def changed(self) -> None:
        """A committed change (an append, undo or redo): the figures are old."""
        self._stats = None

    def _fill(self) -> None:
        from companion.session.store import Store
        from companion.session.tally import History
        self._filling = True
        path, post = self.store.path, self.post

        def fill() -> None:
            records = None
            try:
                with Store(path, read_only=True) as reader:
                    history = History(reader)
                    history.records()
                    records = history.unsaved
            except Exception:  # the app thread then replays them itself
                log.exception("statistics: the background replay failed")
            post(StatsFilled(records))

        threading.Thread(target=fill, name="stats", daemon=True).start()

    def on_filled(self, item: StatsFilled) -> None:
        """Save what the background replay found (the journal's one writer), then figure.
        What is left to replay after it (an unfinished game has no saved record; a failed
        replay or save) the app thread replays itself: there is one background replay."""
        self._filling = False
        self._filled = True
        if item.records:
            try:
                self.store.save_summaries(item.records)
            except JournalError as e:
                log.warning("statistics records not saved: %s", e)
        self._stats = None  # asked again by the next frame: now from the saved records
