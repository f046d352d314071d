"""A game's rows in the journal database and their checksums: the one way a game's or a row's
status changes, the sink that writes a game's events as it is played, and reading a game back.
The write transaction and its "Not saved" are companion/session/tx.py's.

Every row carries a checksum chained to the previous row of its game, and every game's status a
checksum of its own (companion/session/checksum.py, docs/journal.md). Undo does not delete: the
row is marked `undone` (and `dropped` when a new event replaces it), so nothing ever recorded is
lost. Only the app thread writes (through the Store), one committed transaction per change:
the sink is handed what it writes through (`Writer`: a transaction and a clock; the Store is
one) and knows nothing else of the Store.
"""

from __future__ import annotations

import json
import math
import sqlite3
from array import array
from typing import Any, Callable, Protocol

from companion import games
from companion.errors import CompanionError, JournalError
from companion.rules.game import Event, Header
from companion.session import checksum
from companion.session.checksum import Mismatch
from companion.session.journal import Journal, game_for
from companion.session.tx import NotSaved, Transaction


class Writer(Protocol):
    """What a game's sink needs of the journal (the Store, companion/session/store.py, is
    one): one write transaction per change, and the clock that times a new row."""

    clock: Callable[[], float]

    def transaction(self) -> Transaction: ...


def set_game_status(db: sqlite3.Connection, game_id: int, status: str) -> None:
    """The one way a game's status changes (inside a transaction), its checksum with it. A
    status whose checksum already disagrees (set by hand) keeps the old checksum: re-summing
    it would hide the change from `companion doctor`."""
    row = db.execute("SELECT seed, status, sum FROM games WHERE id=?", (game_id,)).fetchone()
    if row is None:
        return
    seed, old, stored = row
    ok = stored == checksum.game_sum(game_id, seed, old)
    db.execute("UPDATE games SET status=?, sum=? WHERE id=?",
               (status, checksum.game_sum(game_id, seed, status) if ok else stored, game_id))


def retire_open_games(db: sqlite3.Connection, *, park: bool = False) -> None:
    """The open game gives way (inside a transaction): `park`ed when unfinished, else
    closed."""
    for gid, in db.execute("SELECT id FROM games WHERE status='open'").fetchall():
        set_game_status(db, gid, "parked" if park else "closed")


def resum(db: sqlite3.Connection, game_id: int, rows: list[tuple], status: str, *,
           refuse_altered: bool = False) -> None:
    """Rows (row, seq, body, at, status, sum) change only their status; each one's `sum`
    follows. A row whose checksum already disagrees is never re-summed (that would hide the
    change made by hand): it is left as it is, or, with `refuse_altered` (a move in play),
    nothing is saved."""
    for row, seq, body, at, old, stored in rows:
        ok = stored == checksum.row_sum(game_id, seq, body, at, old)
        if not ok and refuse_altered:
            found = Mismatch(game_id, f"row {row} (event {seq})",
                             "the row was changed while the game was open")
            raise NotSaved(f"not saved: {found}", short="Not saved: row altered")
        db.execute("UPDATE events SET status=?, sum=? WHERE row=?",
                   (status, checksum.row_sum(game_id, seq, body, at, status) if ok else stored,
                    row))


class GameSink:
    """Writes one game's journal changes; each call is one committed transaction of
    `store`'s."""

    def __init__(self, store: Writer, game_id: int) -> None:
        self.store = store
        self.game_id = game_id

    def _expect(self, db: sqlite3.Connection, seq: int) -> None:
        """Inside the write transaction: the game in the journal has exactly `seq` active
        events, as the screen has. Read again at every write, so a stale count in memory
        (another program wrote the journal) can never record a second event at one place."""
        stored, = db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM events "
                             "WHERE game_id=? AND status='active'", (self.game_id,)).fetchone()
        if stored != seq:
            raise NotSaved(f"not saved: game {self.game_id} moved on in the journal ({stored} "
                           f"events there, {seq} on the screen): another program wrote it",
                           short="Not saved: game moved on")

    def append(self, seq: int, event: Event) -> float:
        """Record `event` at `seq` now; returns its time (`events.at`)."""
        with self.store.transaction() as db:
            self._expect(db, seq)
            self._set_status(db, db.execute(
                "SELECT row, seq, CAST(body AS BLOB), at, status, sum FROM events "
                "WHERE game_id=? AND status='undone'", (self.game_id,)).fetchall(), "dropped")
            return self.insert(db, seq, event)

    def insert(self, db: sqlite3.Connection, seq: int, event: Event,
               at: float | None = None) -> float:
        """The one INSERT of an event row (play and `companion import`), inside a transaction:
        its checksums, and the game's head moves on to it. `at`: its time (None: now, the
        store's clock; an imported log's own time otherwise). Returns the time written."""
        body = json.dumps(event)
        at = float(self.store.clock()) if at is None else float(at)
        head, = db.execute("SELECT head FROM games WHERE id=?", (self.game_id,)).fetchone()
        chain = checksum.link(head, self.game_id, seq, body.encode(), at)
        db.execute("INSERT INTO events(game_id, seq, body, at, chain, sum) "
                   "VALUES (?, ?, ?, ?, ?, ?)",
                   (self.game_id, seq, body, at, chain,
                    checksum.row_sum(self.game_id, seq, body.encode(), at, "active")))
        db.execute("UPDATE games SET head=? WHERE id=?", (chain, self.game_id))
        return at

    def _set_status(self, db: sqlite3.Connection, rows: list[tuple], status: str) -> None:
        """Undo, redo and a new event change only statuses; an altered row stops the move."""
        resum(db, self.game_id, rows, status, refuse_altered=True)

    def _the_row(self, db: sqlite3.Connection, seq: int, status: str, what: str) -> list[tuple]:
        """Event `seq` of this game, as one row of `status`; NotSaved when the journal does not
        hold it so (`what` names it: "event", "undone event")."""
        rows = db.execute("SELECT row, seq, CAST(body AS BLOB), at, status, sum FROM events "
                          "WHERE game_id=? AND seq=? AND status=?",
                          (self.game_id, seq, status)).fetchall()
        if len(rows) != 1:
            raise NotSaved(f"not saved: {what} {seq} of game {self.game_id} is not in the "
                           "journal as the screen shows it")
        return rows

    def undo(self, seq: int) -> None:
        with self.store.transaction() as db:
            self._expect(db, seq + 1)
            self._set_status(db, self._the_row(db, seq, "active", "event"), "undone")

    def redo(self, seq: int) -> float:
        """Make undone event `seq` active again; returns the time it was recorded at."""
        with self.store.transaction() as db:
            self._expect(db, seq)
            rows = self._the_row(db, seq, "undone", "undone event")
            self._set_status(db, rows, "active")
            return float(rows[0][3])


def insert_game(db: sqlite3.Connection, header: Header, status: str, created: float) -> int:
    """The one INSERT of a game row, with its seed checksum (inside a transaction)."""
    text = json.dumps(header.to_json())
    gid = db.execute("INSERT INTO games(header, created, status) VALUES (?, ?, ?)",
                     (text, created, status)).lastrowid
    assert gid is not None  # an INSERT's row
    seed = checksum.seed(gid, text.encode(), created)
    db.execute("UPDATE games SET seed=?, head=?, sum=? WHERE id=?",
               (seed, seed, checksum.game_sum(gid, seed, status), gid))
    return gid


def load_game(db: sqlite3.Connection, game_id: int) -> Journal:
    """Game `game_id` as its rows hold it: the header, the active events (replayed by the
    Journal as they stream in) and the undone ones (for redo)."""
    # Text is read as bytes and decoded by json.loads: a row that is not UTF-8 (a flipped
    # bit) is then a ValueError that breaks its game, not an sqlite3 error mid-query.
    row = db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id=?",
                     (game_id,)).fetchone()
    if row is None:
        raise JournalError(f"no game {game_id} in the journal")
    header = header_from_json(json.loads(row[0]))
    # Most recently undone last: the undone event with the lowest seq is redone first.
    undone_rows = db.execute(
        "SELECT CAST(body AS BLOB), at FROM events WHERE game_id=? AND status='undone' "
        "ORDER BY seq DESC", (game_id,)).fetchall()
    # Filled as the events stream in; the Journal reads it after. An array, not a list of
    # floats: 8 bytes an event, in one block freed whole (a list's floats, 32 bytes an event,
    # left holes the allocator kept: issue 35.4).
    times = array("d")

    def active():  # streamed: a 100,000-event game is never a list of rows in memory
        for expect, (seq, body, at) in enumerate(db.execute(
                "SELECT seq, CAST(body AS BLOB), at FROM events WHERE game_id=? AND "
                "status='active' ORDER BY seq", (game_id,))):
            if seq != expect:
                raise JournalError(f"the events of game {game_id} are not numbered 0, 1, "
                                   f"2, ... (event {expect} is numbered {seq})")
            times.append(math.nan if at is None else float(at))
            yield json.loads(body)

    journal = Journal(header, active(), [json.loads(b) for b, _ in undone_rows], times=times)
    for i, (_, at) in enumerate(undone_rows):
        journal.redo_times[i] = float(at)
    return journal


def kind_of(db: sqlite3.Connection, game_id: int) -> str | None:
    """The kind a game's header names, without replaying it (None: unreadable)."""
    row = db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id=?",
                     (game_id,)).fetchone()
    try:
        obj: Any = json.loads(row[0]) if row else None
        kind = obj.get("game") if obj is not None else None
    except (ValueError, AttributeError):
        return None
    if isinstance(kind, str) and games.is_design(kind):
        try:
            game_for(header_from_json(obj))  # registers the design its header carries
        except CompanionError:
            pass  # a header that lies, or no design: the game does not replay
    return kind if isinstance(kind, str) else None


def header_from_json(obj: Any) -> Header:
    """A header object of the log-format contract -> Header (not yet checked by its game)."""
    from companion.errors import IllegalEvent

    if not isinstance(obj, dict):
        raise IllegalEvent("the header must be a JSON object")
    unknown = set(obj) - {"game", "players", "first", "rules"}
    if unknown:
        raise IllegalEvent(f"unknown header field {sorted(unknown)[0]!r}")
    if not isinstance(obj.get("game"), str):
        raise IllegalEvent("the header needs \"game\" (e.g. \"table\")")
    players = obj.get("players")
    if not isinstance(players, list) or not players:
        raise IllegalEvent("the header needs \"players\": a list of names in seat order")
    rules = obj.get("rules", {})
    if not isinstance(rules, dict):
        raise IllegalEvent("\"rules\" must be an object")
    return Header(obj["game"], tuple(players), obj.get("first", 0), rules)
