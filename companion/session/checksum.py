"""Checksums that make a changed journal row visible (docs/journal.md).

SQLite keeps no checksum of a row, so a flipped bit or a hand edit that leaves an event legal
(`"next"` -> `"skip"`) would replay as a different game. Every game therefore carries:

- `games.seed`: SHA-256 of the game id, its creation time and the header's stored bytes;
- `events.chain`: SHA-256 of the previous row's `chain` (the seed for the first row, rows in
  insertion order) and this row's game id, seq, stored body bytes and time. It binds each row
  to its place: a deleted, inserted or reordered row breaks the next link;
- `events.sum`: SHA-256 of the same fields plus the row's status (active | undone | dropped |
  duplicate).
  Undo and redo only change a status, so they rewrite this one row's `sum` and nothing else;
- `games.head`: the `chain` of the game's last row (the seed when it has none), so a row cut
  off the end is caught too;
- `games.sum` (schema 3): SHA-256 of the game id, its seed and its status (open | closed |
  parked | broken), so a finished game set back to `open` by hand is not resumed as if it were
  the unfinished one. Every status change rewrites it (rows.set_game_status).

This is tamper-evidence against accidents and hand edits, not a signature: anyone who means to
can recompute it.
"""

from __future__ import annotations

import hashlib
import sqlite3
import struct
from dataclasses import dataclass
from typing import Any

# Row statuses; `duplicate`: a second active row at the same place in its game (two companions
# wrote one journal before schema 3 forbade it), set aside by the upgrade, never replayed.
STATUSES = ("active", "undone", "dropped", "duplicate")
GAME_STATUSES = ("open", "closed", "parked", "broken")


def _field(value: Any) -> bytes:
    """One stored value, typed and length-prefixed so that no two field lists hash alike."""
    if isinstance(value, bytes):
        tag, data = b"b", value
    elif isinstance(value, str):
        tag, data = b"s", value.encode("utf-8", "surrogatepass")
    elif isinstance(value, bool) or value is None:
        tag, data = b"n", repr(value).encode()
    elif isinstance(value, int):
        tag, data = b"i", str(value).encode()
    elif isinstance(value, float):
        tag, data = b"f", struct.pack(">d", value)
    else:
        tag, data = b"?", repr(value).encode()
    return tag + struct.pack(">I", len(data)) + data


def _real(value: Any) -> Any:
    """Times are REAL columns: SQLite stores 5 as 5.0, so hash whole numbers as floats too."""
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _hash(kind: bytes, *fields: Any) -> bytes:
    return hashlib.sha256(b"chroma-journal/" + kind + b"\0" +
                          b"".join(map(_field, fields))).digest()


def _row(game_id: int, seq: Any, body: bytes, at: Any) -> bytes:
    """The fields a row's `chain` and `sum` share, encoded once."""
    return _field(game_id) + _field(seq) + _field(body) + _field(_real(at))


def seed(game_id: int, header: bytes, created: Any) -> bytes:
    return _hash(b"game", game_id, _real(created), header)


def link(prev: bytes | None, game_id: int, seq: Any, body: bytes, at: Any, *,
         row: bytes | None = None) -> bytes:
    row = row if row is not None else _row(game_id, seq, body, at)
    return hashlib.sha256(b"chroma-journal/chain\0" + _field(prev) + row).digest()


def row_sum(game_id: int, seq: Any, body: bytes, at: Any, status: Any, *,
            row: bytes | None = None) -> bytes:
    row = row if row is not None else _row(game_id, seq, body, at)
    return hashlib.sha256(b"chroma-journal/row\0" + row + _field(status)).digest()


def game_sum(game_id: int, seed_: bytes | None, status: Any) -> bytes:
    """A game's status, bound to the game (its id and seed)."""
    return _hash(b"status", game_id, seed_, status)


@dataclass(frozen=True)
class Mismatch:
    """One place where a game's rows and their checksums disagree."""

    game: int
    where: str  # "header", "row 17 (event 4)", "end"
    why: str

    def __str__(self) -> str:
        return f"game {self.game}, {self.where}: checksum does not match ({self.why})"


def verify(db: sqlite3.Connection, game_id: int, *, statuses: bool = True) -> list[Mismatch]:
    """Every disagreement in one game, first to last ([] when it is intact). `statuses`: the
    journal has `games.sum` (schema 3), so the game's status is checked too."""
    game = db.execute("SELECT CAST(header AS BLOB), created, seed, head, status"
                      f"{', sum' if statuses else ', NULL'} FROM games WHERE id=?",
                      (game_id,)).fetchone()
    if game is None:
        return []
    header, created, stored_seed, head, status, stored_status_sum = game
    found: list[Mismatch] = []
    if stored_seed != seed(game_id, header, created):
        found.append(Mismatch(game_id, "header", "the header was changed"))
    if statuses and stored_status_sum != game_sum(game_id, stored_seed, status):
        was = [s for s in GAME_STATUSES if s != status and
               stored_status_sum == game_sum(game_id, stored_seed, s)]
        found.append(Mismatch(game_id, "status", f"it was changed from {was[0]!r} to {status!r}"
                              if was else "the game's status was changed"))
    prev = stored_seed
    # Streamed: the rows of a long game are read one by one, never all held at once.
    rows = db.execute("SELECT row, seq, CAST(body AS BLOB), at, status, chain, sum FROM events "
                      "WHERE game_id=? ORDER BY row", (game_id,))
    for row, seq, body, at, status, chain, stored_sum in rows:
        fields = _row(game_id, seq, body, at)
        if stored_sum != row_sum(game_id, seq, body, at, status, row=fields):
            was = [s for s in STATUSES if s != status and
                   stored_sum == row_sum(game_id, seq, body, at, s, row=fields)]
            why = (f"its status was changed from {was[0]!r} to {status!r}" if was
                   else "the row was changed")
            found.append(Mismatch(game_id, f"row {row} (event {seq})", why))
        elif chain != link(prev, game_id, seq, body, at, row=fields):
            found.append(Mismatch(game_id, f"row {row} (event {seq})",
                                  "a row before it was removed, or rows were moved"))
        prev = chain
    if head != prev:
        chains = [c for c, in db.execute("SELECT chain FROM events WHERE game_id=? ORDER BY row",
                                         (game_id,))]
        why = "its last row was removed, or the end was changed"
        if head in chains or head == stored_seed:
            n = len(chains) - (chains.index(head) + 1 if head in chains else 0)
            why = f"{n} row{'s' * (n != 1)} after its last recorded one {'was' if n == 1 else 'were'} added"
        found.append(Mismatch(game_id, "end", why))
    return found


def fill(db: sqlite3.Connection) -> int:
    """Give every game and row its checksums as the rows are now (the schema 1 -> 3 migration,
    inside the caller's transaction). Returns the number of rows."""
    n = 0
    for gid, header, created in db.execute(
            "SELECT id, CAST(header AS BLOB), created FROM games ORDER BY id").fetchall():
        prev = seed(gid, header, created)
        db.execute("UPDATE games SET seed=? WHERE id=?", (prev, gid))
        for row, seq, body, at, status in db.execute(
                "SELECT row, seq, CAST(body AS BLOB), at, status FROM events WHERE game_id=? "
                "ORDER BY row", (gid,)).fetchall():
            prev = link(prev, gid, seq, body, at)
            db.execute("UPDATE events SET chain=?, sum=? WHERE row=?",
                       (prev, row_sum(gid, seq, body, at, status), row))
            n += 1
        db.execute("UPDATE games SET head=? WHERE id=?", (prev, gid))
    fill_statuses(db)  # the statuses, under the seeds just made
    return n


def fill_statuses(db: sqlite3.Connection) -> None:
    """Give every game its status checksum as the statuses are now (schema 2 -> 3)."""
    for gid, stored_seed, status in db.execute("SELECT id, seed, status FROM games").fetchall():
        db.execute("UPDATE games SET sum=? WHERE id=?",
                   (game_sum(gid, stored_seed, status), gid))


def describe(found: list[Mismatch], *, most: int = 3) -> str:
    """The first mismatch in full, then where the next few are (one line for a message)."""
    text = str(found[0])
    rest = found[1:]
    if rest:
        text += f"; {len(rest)} more: " + "; ".join(f"game {m.game}, {m.where}"
                                                  for m in rest[:most])
        text += "; ..." if len(rest) > most else ""
    return text
