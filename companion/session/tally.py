"""The games of a journal as statistics records, cached (`History`): only games that changed
since the last call are replayed, and nothing is computed at start-up. The app thread saves
each finished game's record in the journal (table `game_stats`), so that a restart does not
replay them all. What is done with the records (`compute`, the terminal table) is stats.py's.
The History also keeps the skill ratings over its records (session/ratings.py, `Ratings`), in
memory beside them: a new finished game is folded in alone.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from typing import Any, overload

from companion.errors import CompanionError, JournalError
from companion.games import find as kind_find, is_design
from companion.session import asides, when
from companion.session.clock import Ledger
from companion.session.journal import game_for
from companion.session.ratings import Ratings
from companion.session.rows import header_from_json
from companion.session.stats import (
    GameRecord,
    LeftOut,
    Stats,
    TurnTimes,
    compute,
    playing_seconds,
    record_of,
)

log = logging.getLogger(__name__)

# Of the saved records: a change in what a record holds bumps it (2: `seconds` is the playing
# time, without the spans set aside; 3: `clock`, each seat's turns, and `seconds` without the
# pauses and breaks too; 4: a question to the whole table, who deals or who goes first, is
# nobody's turn; 5: so is the table's pick of the seat that stood first).
SUMMARY_VERSION = 5


def summary_key(row) -> str:
    """What identifies a game's content for a saved record: its active events (count and last
    row: an append adds a row, an undo lowers the count, a redo restores both), its header
    and whether it was imported; the status (open, closed) does not change the record."""
    digest = hashlib.sha1(bytes(row.header)).hexdigest()[:16]
    return f"{SUMMARY_VERSION}:{row.events}:{row.last_row}:{digest}:{int(row.imported)}"


def record_to_json(r: GameRecord) -> dict[str, Any]:
    return {"kind": r.kind, "players": list(r.players), "created": r.created,
            "finished": r.finished, "winners": list(r.winners), "events": r.events,
            "seconds": r.seconds, "scores": None if r.scores is None else list(r.scores),
            "extras": {k: list(v) for k, v in r.extras.items()}, "imported": r.imported,
            "clock": None if r.clock is None else r.clock.to_json()}


def record_from_json(game_id: int, status: str, d: dict[str, Any]) -> GameRecord:
    # A record saved before stored times were bounded (issue 35) may hold a playing time
    # made of times out of range (1e308 s, infinite): unknown, as such a game is now.
    seconds = d["seconds"]
    timed = seconds is None or (math.isfinite(seconds) and 0 <= seconds <= when.LATEST)
    clock = None if d["clock"] is None or not timed else TurnTimes.from_json(d["clock"])
    if clock is not None and not all(math.isfinite(v) for v in clock.seconds):
        timed, clock = False, None
    return GameRecord(game_id, d["kind"], tuple(d["players"]), d["created"], d["finished"],
                      tuple(d["winners"]), d["events"], seconds if timed else None,
                      None if d["scores"] is None else tuple(d["scores"]),
                      {k: tuple(v) for k, v in d["extras"].items()}, status, d["imported"],
                      clock)


def times_known(row, times: list[float]) -> bool:
    """Whether a game's event times are when its moves were made: a game played here, or one
    imported from a log that carried its times (`imports.timed`, docs/log-format.md), with
    every time a number. A log imported without times has the import's moment on every row:
    no turn figures, no playing time."""
    return bool(row.timed) and when.sane(row.created) and all(when.sane(t) for t in times)


def known(row, record: GameRecord) -> None:
    """A design game counted from its saved record (not replayed) is registered from its
    header, as a replay would (journal.game_for), so that its title, colour and score are
    its design's and its versions count together (stats.py, `compute`)."""
    if is_design(record.kind) and kind_find(record.kind) is None:
        try:
            game_for(header_from_json(json.loads(bytes(row.header))))
        except (CompanionError, ValueError):
            pass  # counted under its kind name, as a kind not installed here


class History:
    """The journal's game records, replayed only when a game changed since the last call.

    In memory each game is keyed by (status, `summary_key`). A finished game's record is also
    saved in the journal (`game_stats`, when `save`: the app thread and `companion import`
    only, never a read-only reader) and read back by every later History, so a thousand
    finished games are not replayed again after a restart. Games that no longer replay are
    counted in `unreadable` and left out."""

    def __init__(self, store, *, save: bool = False) -> None:
        self.store = store
        self.save = save
        self._cache: dict[int, tuple[tuple, GameRecord | None]] = {}
        self.unreadable: list[int] = []
        self.left_out: list[LeftOut] = []  # the same games, with their kind and why
        # Records replayed by the last call and not saved (save=False): (id, key, JSON).
        self.unsaved: list[tuple[int, str, str]] = []
        # The spans each game being replayed sat aside for another game (asides.interleaved).
        self._interleaved: dict[int, list[tuple[float, float]]] = {}
        self._aside: set[int] = set()  # the games with asides or pauses recorded
        self._ratings = Ratings()  # brought up to the records by `ratings` and `stats`

    @overload
    def records(self, *, budget: None = None) -> list[GameRecord]: ...
    @overload
    def records(self, *, budget: int | None) -> list[GameRecord] | None: ...

    def records(self, *, budget: int | None = None) -> list[GameRecord] | None:
        """Every game's record. With `budget`, None instead when more events than that would
        have to be replayed (nothing is replayed then): the app thread's guard against a
        journal of games from before the statistics.

        The reads are one read transaction: a reader on another thread (the background
        replay, the web) must not see a game's key before a move and its events after it,
        or a record would be saved under a key it does not belong to."""
        db = self.store.db
        own = not db.in_transaction
        if own:
            db.execute("BEGIN")
        try:
            result = self._read(budget)
        finally:
            if own:
                db.execute("COMMIT")
        if result is None:
            return None
        if self.unsaved and self.save:
            try:
                self.store.save_summaries(self.unsaved)
                self.unsaved = []
            except JournalError as e:  # only a cache: the figures are right without it
                log.warning("statistics records not saved: %s", e)
        return result

    def _read(self, budget: int | None) -> list[GameRecord] | None:
        rows = self.store.history_rows()
        saved: dict[int, tuple[str, bytes]] | None = None
        found: dict[int, tuple[tuple, GameRecord | None]] = {}
        todo = []
        for row in rows:
            k = (row.status, summary_key(row))
            cached = self._cache.get(row.id)
            if cached is not None and cached[0] == k:
                found[row.id] = cached
                continue
            if saved is None:
                saved = self.store.summaries()
            record = None
            if row.id in saved and saved[row.id][0] == k[1]:
                try:
                    record = record_from_json(row.id, row.status, json.loads(saved[row.id][1]))
                except (ValueError, KeyError, TypeError):
                    record = None  # a damaged saved record: replay the game instead
            if record is None:
                todo.append((row, k))
            else:
                known(row, record)
                found[row.id] = (k, record)
        if budget is not None and sum(row.events for row, _ in todo) > budget:
            return None
        fresh: list[tuple[int, str, str]] = []
        # Which of them were set aside: recorded, or while another game was played (read
        # once for all).
        timed = [row for row, _ in todo if row.timed and row.last_at is not None]
        if timed:
            db = self.store.db
            self._aside = asides.recorded(db) | asides.recorded(db, "pauses")
            self._interleaved = asides.interleaved(db, rows, timed)
        for row, k in todo:
            record = self._replay(row)
            if record is not None and record.finished:
                fresh.append((row.id, k[1], json.dumps(record_to_json(record))))
            found[row.id] = (k, record)
        self._cache = found  # games deleted since are forgotten
        self.unreadable = [row.id for row in rows if found[row.id][1] is None]
        self.left_out = [_left_out(row) for row in rows if found[row.id][1] is None]
        self.unsaved = fresh
        return [r for row in rows if (r := found[row.id][1]) is not None]

    @overload
    def stats(self, *, kind: str | None = None, player: str | None = None,
              budget: None = None, folds: None = None) -> Stats: ...
    @overload
    def stats(self, *, kind: str | None = None, player: str | None = None,
              budget: int | None = None, folds: int | None = None) -> Stats | None: ...

    def stats(self, *, kind: str | None = None, player: str | None = None,
              budget: int | None = None, folds: int | None = None) -> Stats | None:
        """The figures (None when `budget` or `folds` is exceeded: see `within`)."""
        records = self.records(budget=budget)
        if records is None:
            return None
        ratings = self._brought(records, folds)
        if ratings is None:
            return None
        return compute(records, kind=kind, player=player, left_out=self.left_out,
                       ratings=ratings)

    def ratings(self, records: list[GameRecord] | None = None) -> Ratings:
        """The skill ratings over `records` (by default every game's, read now): kept
        between calls, so that only games finished since, when they are the latest, are
        folded in, and a change further back (an undone end, an older game imported) takes
        back and folds again only the games from there on (`Ratings.update`)."""
        return self._ratings.update(self.records() if records is None else records)

    def within(self, *, budget: int | None, folds: int | None) -> Ratings | None:
        """The kept skill ratings brought up to every game's record, without the figures
        (`compute`): None, and nothing folded, when that would replay more than `budget`
        events (see `records`) or fold more than `folds` games (`Ratings.within`: nothing
        folded yet, a change far back); None for either: no limit. The app thread's."""
        records = self.records(budget=budget)
        return None if records is None else self._brought(records, folds)

    def _brought(self, records: list[GameRecord], folds: int | None) -> Ratings | None:
        if folds is None:
            return self._ratings.update(records)
        return self._ratings if self._ratings.within(records, folds) else None

    @property
    def folded(self) -> Ratings:
        """The kept skill ratings as they were last brought up to date (nothing read)."""
        return self._ratings

    def adopt(self, other: History) -> None:
        """Take the records `other` read and the ratings it folded (a background thread's
        History on a read-only Store, handed over when it is done with them): games
        changed since are read again at the next call, as for any cached record."""
        self._cache, self._ratings = other._cache, other._ratings

    def _replay(self, row) -> GameRecord | None:
        t = self.store.replay(row)
        if t is None:
            return None
        seconds = clock = None
        if times_known(row, t.times):
            away: list[tuple[float, float | None]] = [*self._interleaved.get(row.id, [])]
            if row.id in self._aside:
                away += asides.away(self.store.db, row.id)
            ledger = Ledger(row.created, t.first_seat, len(t.header.players))
            ledger.update(t.times, t.seats, t.numbers, away)
            seconds, clock = playing_seconds(ledger), TurnTimes.of(ledger)
        return record_of(row.id, t.header, t.state, events=row.events, created=row.created,
                         seconds=seconds, status=row.status, imported=row.imported,
                         clock=clock)


def _left_out(row) -> LeftOut:
    """Why the game of `row` did not replay, in a user's words."""
    try:
        kind = str(json.loads(row.header)["game"])
    except (ValueError, KeyError, TypeError):
        return LeftOut(row.id, "?", "its header is unreadable")
    if kind_find(kind) is None:
        return LeftOut(row.id, kind, "not installed here")
    return LeftOut(row.id, kind, "it no longer replays; companion doctor says more")


