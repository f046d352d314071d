"""When each game sat set aside: parked by a new game or a resume of another, or left for the
start menu. A game's playing time leaves these spans out (`stats.playing_seconds`).

The journal's rows say when each event was recorded (`events.at`), and a game's status says
whether it is open, parked or closed, but not since when. The table `asides` adds that: one
row per time a game was put aside, `left_at` when it was, `back_at` when it was resumed (NULL
until then). It is written by the app thread (companion/app/handlers.py) when an unfinished game is
left for the start menu or parked, and when it is resumed; it is only about time, so it is
outside the checksums, and a write that fails (a full disk, a read-only journal) is logged
and never stops the move: the figures then count that span as played, as they did before
this table.

A game cannot change while it is aside, so an aside ends at the latest at the game's next
event: a game resumed at start-up (it was left for the start menu, then the companion
stopped) has no `back_at`, and its aside ends at its next move.

Journals from before this table have no rows in it, but one thing shows there too: only one
game is open at a time, so between two moves of a game, any other game's rows (its start, its
moves) mean the game was set aside meanwhile, from the first of them to the last at least
(`interleaved`). A game left for the start menu with no other game played meanwhile leaves
no such trace: it counts only from this table.
"""

from __future__ import annotations

import logging
import sqlite3
from bisect import bisect_right

from companion.errors import JournalError

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS asides (
    game_id INTEGER NOT NULL REFERENCES games(id),
    left_at REAL NOT NULL,                   -- when it was parked or left for the start menu
    back_at REAL                             -- when it was resumed (NULL: not yet, or at start)
)"""

# The turn clock's pauses (docs/clock.md) are spans of the same shape, in a table of their own:
# `left_at` when the group pressed Pause, `back_at` when it went on (or NULL). A pause, like an
# aside, ends at the latest at the game's next event.
TABLES = {"asides": SCHEMA, "pauses": SCHEMA.replace("asides", "pauses")}


def set_aside(store, game_id: int, *, table: str = "asides", raises: bool = False) -> bool:
    """Game `game_id` is put aside (or, with `table="pauses"`, paused) now: nothing, if it
    already is. False when that could not be saved (logged); with `raises`, the JournalError
    that says why instead (a Pause says it, in the words of every failed save)."""
    try:
        with store.transaction() as db:
            db.execute(TABLES[table])
            if db.execute(f"SELECT 1 FROM {table} WHERE game_id=? AND back_at IS NULL",
                          (game_id,)).fetchone() is None:
                db.execute(f"INSERT INTO {table}(game_id, left_at) VALUES (?, ?)",
                           (game_id, float(store.clock())))
    except JournalError as e:
        if raises:
            raise
        log.warning("game %d: when it was %s is not saved: %s", game_id,
                    "paused" if table == "pauses" else "set aside", e)
        return False
    return True


def taken_back(store, game_id: int, *, table: str = "asides", raises: bool = False) -> bool:
    """Game `game_id` is played again from now (its open aside, or pause, ends). False when
    that could not be saved (logged); with `raises`, the JournalError instead."""
    try:
        with store.transaction() as db:
            db.execute(TABLES[table])
            db.execute(f"UPDATE {table} SET back_at=? WHERE game_id=? AND back_at IS NULL",
                       (float(store.clock()), game_id))
    except JournalError as e:
        if raises:
            raise
        log.warning("game %d: when it was resumed is not saved: %s", game_id, e)
        return False
    return True


def add_span(store, game_id: int, left: float, back: float, *, table: str = "pauses") -> bool:
    """A span game `game_id` was away from play, from `left` to `back`, recorded after the fact
    (the end screen's time before an undo reopened the game: docs/clock.md). False when that
    could not be saved (logged)."""
    try:
        with store.transaction() as db:
            db.execute(TABLES[table])
            db.execute(f"INSERT INTO {table}(game_id, left_at, back_at) VALUES (?, ?, ?)",
                       (game_id, float(left), float(back)))
    except JournalError as e:
        log.warning("game %d: the time on its end screen is not saved: %s", game_id, e)
        return False
    return True


def recorded(db: sqlite3.Connection, table: str = "asides") -> set[int]:
    """The games with asides (or pauses) recorded (none in a journal from before the table)."""
    assert table in TABLES
    try:
        return {gid for gid, in db.execute(f"SELECT DISTINCT game_id FROM {table}")}
    except sqlite3.OperationalError:  # no such table
        return set()


def open_since(db: sqlite3.Connection, game_id: int, table: str = "pauses") -> float | None:
    """When game `game_id`'s open pause (or aside) began; None when none is open."""
    assert table in TABLES
    try:
        row = db.execute(f"SELECT MAX(left_at) FROM {table} WHERE game_id=? AND back_at IS NULL",
                         (game_id,)).fetchone()
    except sqlite3.OperationalError:  # no such table
        return None
    return None if row is None or row[0] is None else float(row[0])


def away(db: sqlite3.Connection, game_id: int) -> list[tuple[float, float | None]]:
    """Every span game `game_id` was away from play: set aside or paused (`spans` of both
    tables), and the pause still open, if any, as (from, None)."""
    out: list[tuple[float, float | None]] = [*spans(db, game_id), *spans(db, game_id, "pauses")]
    since = open_since(db, game_id)
    if since is not None:
        last, = db.execute("SELECT MAX(at) FROM events WHERE game_id=? AND status='active'",
                           (game_id,)).fetchone()
        if last is None or since >= last:  # a pause before the last event ended there
            out.append((since, None))
    return out


def spans(db: sqlite3.Connection, game_id: int,
          table: str = "asides") -> list[tuple[float, float]]:
    """The spans game `game_id` sat aside (or was paused), as (from, to): each ends when it
    was taken back or at the game's next event, whichever is first; one after the game's last
    event ends there too (it adds nothing to the game's time). A journal without the table has
    none."""
    assert table in TABLES
    try:
        rows = db.execute(f"SELECT left_at, back_at FROM {table} WHERE game_id=? "
                          "ORDER BY left_at", (game_id,)).fetchall()
    except sqlite3.OperationalError:  # no such table: a journal from before it
        return []
    out = []
    for left, back in rows:
        after, = db.execute("SELECT MIN(at) FROM events WHERE game_id=? AND status='active' "
                            "AND at > ?", (game_id, left)).fetchone()
        ends = [t for t in (back, after) if t is not None]
        if ends:
            out.append((float(left), float(min(ends))))
    return out


def interleaved(db: sqlite3.Connection, rows: list, games: list) -> dict[int, list[tuple[float,
                                                                                  float]]]:
    """For each game of `games` (HistoryRows with events), the spans within its start..last
    event in which other games had rows between two rows of its own: it was set aside from the
    first of them to the last at least (when exactly it was parked and resumed only the
    `asides` table knows). `rows`: every game's HistoryRow.

    Only games played here are on this box's time line: an imported game's times are another
    box's (its spans away came with its log, as asides), so it neither gets such spans nor
    makes them. Only games whose times overlap are read, through the index by game: games
    played one after another (most of a journal) cost nothing but a sort."""
    def end(r) -> float:
        return max(r.created, r.last_at or r.created)

    rows = [r for r in rows if not r.imported]
    games = [g for g in games if not g.imported]
    order = sorted(rows, key=lambda r: r.created)
    starts = [r.created for r in order]
    reach: list[float] = []  # the latest end among the games up to each, in start order
    for r in order:
        reach.append(max(end(r), reach[-1] if reach else end(r)))
    out: dict[int, list[tuple[float, float]]] = {}
    for g in games:
        lo, hi = g.created, end(g)
        others = []
        j = bisect_right(starts, hi) - 1
        while j >= 0 and reach[j] >= lo:  # every game started by g's end and ending after lo
            r = order[j]
            if r.id != g.id and end(r) >= lo:
                others.append(r)
            j -= 1
        if not others:
            continue
        ids = [g.id, *(r.id for r in others)]
        marks = ",".join("?" * len(ids))
        timeline = sorted(
            [(r.created, r.id) for r in others if lo <= r.created <= hi]
            + db.execute(f"SELECT at, game_id FROM events WHERE game_id IN ({marks}) "
                         "AND at BETWEEN ? AND ?", (*ids, lo, hi)).fetchall())
        out[g.id] = _runs(timeline, g.id)
    return out


def _runs(timeline: list[tuple[float, int]], game_id: int) -> list[tuple[float, float]]:
    """The runs of other games' rows between two of `game_id`'s, as (first, last)."""
    out: list[tuple[float, float]] = []
    first = last = None
    for at, gid in timeline:
        if gid == game_id:
            if first is not None and last is not None:
                out.append((first, last))
            first = None
        else:
            if first is None:
                first = at
            last = at
    return out
