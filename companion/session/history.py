"""The games as history: what identifies each game's content (for the statistics and their
saved records, companion/session/stats.py), the games brought in by `companion import`, and the
unfinished games the start menu and /games offer to resume.

The Store (companion/session/store.py) offers each as a method; the web's read-only Reader
(companion/web/history.py) borrows the reading ones. They are given what they need: the
reading ones the connection (`db`), the writing ones a `rows.Writer` (a transaction and a
clock), `unfinished` the rows and the replay to judge them by. None of them knows the Store.
"""

from __future__ import annotations

import json
import math
import sqlite3
from array import array
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from companion.errors import CompanionError, JournalError
from companion.rules.game import Header
from companion.session import asides
from companion.session.clock import merge
from companion.session.journal import Journal, game_for, turn_mark
from companion.session.log import LogTimes
from companion.session.rows import GameSink, Writer, header_from_json, insert_game

# Logs brought in by `companion import`: the digest of the normalised log, so that importing
# the same log twice adds nothing. Created on the first import (older journals lack it).
IMPORTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS imports (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    digest TEXT NOT NULL UNIQUE,
    imported REAL NOT NULL,
    timed INTEGER NOT NULL DEFAULT 0
)"""
# `timed`: 1 when the log carried its times (docs/log-format.md), so the rows keep the game's
# own; 0 when its rows' times are the import's (every import before logs had times). Added to
# an older table by the first import that needs it.
TIMED_COLUMN = "ALTER TABLE imports ADD COLUMN timed INTEGER NOT NULL DEFAULT 0"


# Each finished game's statistics record (companion/session/stats.py), saved by the app thread
# when it first computes it, keyed by what identifies the game's content: a cache, so that
# statistics over a thousand games do not replay them all. Created on the first save.
SUMMARIES_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_stats (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    key TEXT NOT NULL,
    record TEXT NOT NULL
)"""


class AlreadyImported(JournalError):
    """This log is already in the journal (`companion import` of the same log twice)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"this log is already in the journal as game {game_id}; nothing added")
        self.game_id = game_id


@dataclass(frozen=True)
class HistoryRow:
    """One game as the statistics see it: `events` and `last_row` change whenever its active
    events do (append, undo, redo), so together with `status` they key a cache."""

    id: int
    header: bytes
    created: float
    status: str
    events: int
    last_row: int
    first_at: float | None
    last_at: float | None
    imported: bool
    # Its rows' times are the game's own: played here, or imported from a log with times
    # (False for a log imported without them: its times are the import's).
    timed: bool = True


@dataclass(frozen=True)
class Unfinished:
    """A game that can be resumed (`Store.unfinished`)."""

    id: int
    header: Header
    created: float
    last: float  # when its last event was recorded (`created` when it has none)
    events: int
    status: str  # open | parked | closed (closed: by a companion before games were parked)


class Readable(Protocol):
    """A journal to read from: the Store, or the web's read-only Reader."""

    db: sqlite3.Connection


def history_rows(db: sqlite3.Connection) -> list[HistoryRow]:
    """Every game with what identifies its current content (for the statistics cache)."""
    imported = imported_ids(db)
    timed = timed_imports(db) if imported else set()
    spans = {gid: (n, last, first_at, last_at) for gid, n, last, first_at, last_at in
             db.execute("SELECT game_id, COUNT(*), MAX(row), MIN(at), MAX(at) "
                              "FROM events WHERE status='active' GROUP BY game_id")}
    out = []
    for gid, header, created, status in db.execute(
            "SELECT id, CAST(header AS BLOB), created, status FROM games ORDER BY id"):
        n, last, first_at, last_at = spans.get(gid, (0, 0, None, None))
        out.append(HistoryRow(gid, header, created, status, n, last, first_at, last_at,
                              gid in imported, gid not in imported or gid in timed))
    return out


def active_events(db: sqlite3.Connection, game_id: int) -> list[bytes]:
    """The raw bodies of a game's active events, in order (decoded by the caller)."""
    return [b for b, in db.execute(
        "SELECT CAST(body AS BLOB) FROM events WHERE game_id=? AND status='active' "
        "ORDER BY seq", (game_id,))]


def summaries(db: sqlite3.Connection) -> dict[int, tuple[str, bytes]]:
    """The saved statistics records: game id -> (key, record JSON)."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name='game_stats'").fetchone():
        return {}
    return {gid: (key, record) for gid, key, record in db.execute(
        "SELECT game_id, key, CAST(record AS BLOB) FROM game_stats")}


def save_summaries(store: Writer, items: list[tuple[int, str, str]]) -> None:
    """Save (game id, key, record JSON) statistics records, in one transaction."""
    with store.transaction() as db:
        db.execute(SUMMARIES_SCHEMA)
        db.executemany("INSERT OR REPLACE INTO game_stats(game_id, key, record) "
                       "VALUES (?, ?, ?)", items)


def imported_ids(db: sqlite3.Connection) -> dict[int, str]:
    """The games `companion import` brought in: game id -> the digest of its log."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name='imports'").fetchone():
        return {}
    return dict(db.execute("SELECT game_id, digest FROM imports"))


def timed_imports(db: sqlite3.Connection) -> set[int]:
    """The imported games whose rows keep the log's own times (`imports.timed`)."""
    try:
        return {gid for gid, in db.execute("SELECT game_id FROM imports WHERE timed")}
    except sqlite3.OperationalError:  # no table, or one from before logs had times
        return set()


def import_game(store: Writer, journal: Journal, digest: str,
                times: LogTimes | None = None) -> int:
    """Store a replayed log as a new game in one transaction: closed when it is over,
    else `parked` (the start menu offers to resume it; no open game is touched). The
    rows are written by the same inserts as play, then the digest that makes a second
    import of the same log a no-op.

    With `times` (the log carries its times: `log.read_log`), the game keeps them: its
    start, each row's time, and its spans away as `asides` rows; else every time is the
    import's (`imports.timed` says which)."""
    with store.transaction() as db:
        db.execute(IMPORTS_SCHEMA)
        if "timed" not in {c[1] for c in db.execute("PRAGMA table_info(imports)")}:
            db.execute(TIMED_COLUMN)
        row = db.execute("SELECT game_id FROM imports WHERE digest=?", (digest,)).fetchone()
        if row is not None:
            raise AlreadyImported(row[0])
        same = same_game(db, journal)
        if same is not None:
            raise AlreadyImported(same)
        status = "closed" if journal.state.over else "parked"
        if times is None:
            gid = insert_game(db, journal.header, status, float(store.clock()))
            ats: Sequence[float | None] = [None] * len(journal.events)
        else:
            started, ats = kept_times(journal, times, float(store.clock()))
            gid = insert_game(db, journal.header, status, started)
            db.execute(asides.SCHEMA)
            db.executemany("INSERT INTO asides(game_id, left_at, back_at) VALUES (?, ?, ?)",
                           [(gid, a, b) for a, b in times.away])
        sink = GameSink(store, gid)
        for seq, event in enumerate(journal.events):
            sink.insert(db, seq, event, at=ats[seq])
        db.execute("INSERT INTO imports(game_id, digest, imported, timed) VALUES (?, ?, ?, ?)",
                   (gid, digest, store.clock(), int(times is not None)))
    return gid


def kept_times(journal: Journal, times: LogTimes, now: float) -> tuple[float, list[float]]:
    """The start and the events' times an import of a log with times writes. An event the
    log gave no time (a line added by hand) takes the time of the one before it; before the
    first time given, the start's. A log without `started` started at its first event's time
    (at `now`, the import's, when no event has one)."""
    given = [t for t in journal.times if math.isfinite(t)]
    started = times.started if times.started is not None else (given[0] if given else now)
    out = []
    last = started
    for t in journal.times:
        last = t if math.isfinite(t) else last
        out.append(last)
    return started, out


def log_times(store: Readable, game_id: int) -> LogTimes | None:
    """What an export of game `game_id` carries of its time (docs/log-format.md): its start
    and its spans away: set aside, paused, or (in a journal from before the asides were
    recorded) while other games were played (`asides.interleaved`), as the statistics count
    them. None for a game imported without times, whose rows' times are the import's: a log
    giving them would give the game a length it never had."""
    db = store.db
    rows = history_rows(db)
    row = next((r for r in rows if r.id == game_id), None)
    if row is None or not row.timed:
        return None
    away = [*asides.spans(db, game_id), *asides.spans(db, game_id, "pauses")]
    if row.last_at is not None:
        away += asides.interleaved(db, rows, [row]).get(game_id, [])
    return LogTimes(row.created, tuple(merge(away)))


def same_game(db: sqlite3.Connection, journal: Journal) -> int | None:
    """A game already here with this log's header and active events (one played on this
    box and exported, say), compared as JSON values: key order and spacing aside."""
    header = journal.header.to_json()
    n = len(journal.events)
    for gid, text in db.execute("SELECT id, CAST(header AS BLOB) FROM games ORDER BY id"
                                ).fetchall():
        try:
            if json.loads(text) != header:
                continue
            bodies = active_events(db, gid)
            if len(bodies) == n and [json.loads(b) for b in bodies] == journal.events:
                return gid
        except ValueError:  # a damaged row is not this game
            continue
    return None


@dataclass(frozen=True)
class Replayed:
    """A game folded from its active rows, with what the turn clock needs: when each event
    was recorded (`times`, NaN unknown), whose turn it was after each (`seats`, -1: over)
    and how many turns had ended (`numbers`: journal.turn_mark)."""

    header: Header
    state: Any
    first_seat: int
    times: list[float]
    seats: array
    numbers: array


def replay(db: sqlite3.Connection, row: HistoryRow) -> Replayed | None:
    """A game of `history_rows` folded from its active rows, in one read of their bodies and
    times; None when it no longer replays (export --force still has its rows)."""
    try:
        header = header_from_json(json.loads(row.header))
        game = game_for(header)
        header = game.check_header(header)
        rows = db.execute("SELECT CAST(body AS BLOB), at FROM events WHERE game_id=? "
                          "AND status='active' ORDER BY seq", (row.id,)).fetchall()
        # One JSON document per game: a quarter of the time of one json.loads per event.
        events = json.loads(b"[" + b",".join(b for b, _ in rows) + b"]")
        state = game.initial(header)
        first = turn_mark(state)[0]
        seats, numbers = array("i"), array("i")
        for e in events:
            state = game.apply(state, e)
            seat, number = turn_mark(state)
            seats.append(seat)
            numbers.append(number)
    except (CompanionError, ValueError, KeyError, TypeError):
        return None
    times = [math.nan if at is None else float(at) for _, at in rows]
    return Replayed(header, state, first, times, seats, numbers)


# unfinished()'s verdicts: game id -> (summary_key, unfinished?, header), kept by its caller.
Seen = dict[int, tuple[str, bool, Header | None]]


def unfinished(rows: list[HistoryRow], saved: dict[int, tuple[str, bytes]],
               fold: Callable[[HistoryRow], Replayed | None], seen: Seen) -> list[Unfinished]:
    """Every game that is not over and can be resumed (not `broken`, still replays),
    whatever its status: the open one, parked ones, and unfinished games an older
    companion closed when a new game started. Newest move first.

    Of `rows` (`history_rows`): a game with a saved statistics record of its current content
    (`saved`: `summaries`) is finished (records are saved for finished games only), so only
    the others are folded, by `fold` (`replay`, or the Store's); `seen` keeps each one's
    verdict for its content."""
    from companion.session.tally import summary_key
    out = []
    for row in rows:
        if row.status == "broken":
            continue
        key = summary_key(row)
        if row.id in saved and saved[row.id][0] == key:
            continue
        # A game's verdict is kept for its content (the start menu asks again after each
        # game): each game is replayed once a run, not at every visit.
        cached = seen.get(row.id)
        if cached is None or cached[0] != key:
            replayed = fold(row)
            cached = (key, replayed is not None and not replayed.state.over,
                      replayed.header if replayed is not None else None)
            seen[row.id] = cached
        _, waiting, header = cached
        if waiting:
            assert header is not None  # it replayed
            out.append((row.last_row, Unfinished(row.id, header, row.created,
                                                 row.last_at or row.created, row.events,
                                                 row.status)))
    # Two moves within one clock reading (a fast table, a test's clock) are told apart by
    # the order they were written in.
    out.sort(key=lambda pair: (pair[1].last, pair[0], pair[1].id), reverse=True)
    return [u for _, u in out]
