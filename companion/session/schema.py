"""The journal's tables and their versions: the schema, how a file found at the journal's path
is recognised (this version's journal, an older one, another program's database, a damaged
one), and the upgrade of an older journal (companion/session/store.py opens the file with these,
and gives the upgrade what it needs: the connection, and the way to make its backup copy).

Schema 2 adds the checksums (companion/session/checksum.py); schema 3 the checksum of each game's
status (`games.sum`) and one active row per place in a game (`events_active_seq`: two companions
on one journal can never both record event N). An older journal is upgraded in place once, after
a backup copy made with SQLite's online backup.
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Callable

from companion.errors import JournalError
from companion.session import checksum
from companion.session.rows import resum, set_game_status

# 2: checksums (games.seed, games.head, events.chain, events.sum); 3: games.sum (the status
# under a checksum) and one active row per (game_id, seq) (the index events_active_seq).
SCHEMA_VERSION = 3
CHECKSUM_COLUMNS = (("games", "seed"), ("games", "head"), ("events", "chain"), ("events", "sum"))
# The columns each schema version added (an older journal lacks them until it is upgraded).
ADDED_COLUMNS = {2: CHECKSUM_COLUMNS, 3: (("games", "sum"),)}

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',     -- open | closed | broken (does not replay)
    seed BLOB,                               -- checksum of id, created and header
    head BLOB,                               -- chain of the game's last row (seed if none)
    sum BLOB                                 -- checksum of id, seed and status
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,                    -- position in the game (0-based) when recorded
    row INTEGER PRIMARY KEY,                 -- insertion order, across undo and redo
    body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',   -- active | undone | dropped | duplicate
    at REAL NOT NULL,
    chain BLOB,                              -- checksum of the previous row's chain and this row
    sum BLOB                                 -- checksum of this row with its status
);
CREATE INDEX IF NOT EXISTS events_game ON events(game_id, status, seq);
"""
# Schema 3: one active row per place in a game (and the index that finds a game's last seq).
UNIQUE_INDEX = """CREATE UNIQUE INDEX IF NOT EXISTS events_active_seq ON events(game_id, seq)
    WHERE status = 'active'"""
SCHEMA += UNIQUE_INDEX + ";\n"


def _squeezed(sql: str) -> str:
    return re.sub(r"\s+", " ", sql.replace("IF NOT EXISTS ", "")).strip().rstrip(";").lower()


def unique_index(db: sqlite3.Connection) -> str:
    """"ok" when `events_active_seq` is the unique index the schema makes; else "missing" or
    "replaced" (an index of that name that is not it: a plain one refuses nothing)."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type='index' AND "
                     "name='events_active_seq'").fetchone()
    if row is None:
        return "missing"
    return "ok" if row[0] is not None and _squeezed(row[0]) == _squeezed(UNIQUE_INDEX) \
        else "replaced"


class Damaged(Exception):
    """The file is a damaged database (SQLite says corrupt / not a database, or the integrity
    check fails): the one case in which it is set aside."""


_MAGIC = b"SQLite format 3\x00"


def sqlite_like(path: Path) -> bool:
    """Whether a file SQLite refuses was an SQLite database before it was damaged: only then is
    it set aside and replaced. Another program's file (`--journal /etc/hosts`) is not. A file
    named as a database (journal.db) counts as one whatever is left in it; otherwise the
    damage of a power cut or a bad card still leaves one of these: the header's magic text cut
    short, a few bits off, or partly zeroed; or the header's fixed payload fractions (64, 32,
    32 at offset 21)."""
    if path.suffix.lower() in (".db", ".sqlite", ".sqlite3"):  # named as a database: it was one
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError:
        return False
    magic = head[:16]
    if _MAGIC.startswith(magic) or head[21:24] == b"\x40\x20\x20":
        return True
    if all(b in (m, 0) for b, m in zip(magic, _MAGIC)):
        return True
    return sum(bin(b ^ m).count("1") for b, m in zip(magic, _MAGIC)) <= 8


def bad_write_version(path: Path) -> int | None:
    """The header's write-format byte (offset 18) when it is not 1 or 2: SQLite then opens the
    file read-only, and the first write fails "attempt to write a readonly database"."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError:
        return None
    if len(head) < 100 or not head.startswith(_MAGIC) or head[18] in (1, 2):
        return None
    return head[18]


def remove_copy(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def empty_journal() -> sqlite3.Connection:
    """An in-memory journal with no games, for readers of a file that has no tables yet."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    db.executescript(SCHEMA)
    return db


def columns(db: sqlite3.Connection, table: str) -> frozenset[str]:
    return frozenset(r[1] for r in db.execute(f"PRAGMA table_info({table})"))


@lru_cache(maxsize=1)
def schema_columns() -> dict[str, frozenset[str]]:
    """The columns SCHEMA gives games and events (read once from an empty journal)."""
    db = empty_journal()
    try:
        return {t: columns(db, t) for t in ("games", "events")}
    finally:
        db.close()


# Every name SCHEMA and the tables made on first use put in sqlite_master (SQLite's own
# sqlite_* names aside).
KNOWN_NAMES = frozenset({"games", "events", "events_game", "events_active_seq", "imports",
                         "game_stats", "roster", "phones", "asides",
                         "pauses", "designs"})

# The group's own designs (companion/session/designs.py): every version of each, its design as
# canonical JSON under a checksum of the whole row. Made on first use, like the roster: an
# older journal needs no upgrade (it has no designs), and its first saved design makes it.
DESIGNS = """CREATE TABLE IF NOT EXISTS designs (
    id INTEGER NOT NULL,                     -- the design, over its versions
    version INTEGER NOT NULL,                -- 1, 2, ...: an edit is a new version
    design TEXT NOT NULL,                    -- canonical JSON (games.canonical_text)
    checksum BLOB NOT NULL,                  -- of id, version, design, hidden and created
    hidden INTEGER NOT NULL DEFAULT 0,       -- deleted: left out of New game, kept for games
    created REAL NOT NULL,
    PRIMARY KEY (id, version)
)"""


def exactly_ours(db: sqlite3.Connection) -> bool:
    """Whether the database holds this version's tables and nothing else: games and events
    with exactly SCHEMA's columns, and only names this version makes."""
    names = {n for n, in db.execute("SELECT name FROM sqlite_master")
             if not n.startswith("sqlite_")}
    if not {"games", "events"} <= names <= KNOWN_NAMES:
        return False
    return all(columns(db, t) == cols for t, cols in schema_columns().items())


def schema_damage(db: sqlite3.Connection, tables: set[str], version: int) -> str:
    """What is wrong with the games and events tables of a journal of this schema version
    ("" when they have every column SCHEMA gives them, less those added after `version`)."""
    later = {(t, c) for v, cols in ADDED_COLUMNS.items() if v > version for t, c in cols}
    for table, cols in schema_columns().items():
        if table not in tables:
            return f"its {table} table is missing"
        need = cols - {c for t, c in later if t == table}
        missing = sorted(need - columns(db, table))
        if missing:
            return f"its {table} table has no column {missing[0]!r}"
    return ""


def is_damage(e: sqlite3.Error) -> bool:
    name = getattr(e, "sqlite_errorname", "") or ""
    # Python's own word for schema text that is not UTF-8 any more (a flipped bit in a name),
    # and SQLite's for a header whose format bytes were flipped.
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or \
        str(e).startswith(("Could not decode to UTF-8", "unsupported file format"))


def upgrade(db: sqlite3.Connection, version: int, *, journal: Path, backup: Path,
            copy: Callable[[Path], None]) -> str:
    """Schema 1 or 2 -> 3: a backup copy first (`copy` writes it at `backup`: the Store's
    online backup of `db`), then in one transaction (an interrupted upgrade leaves the old
    schema, and is done again): the columns the journal lacks, the checksums of every game
    and row (from schema 1) or of every game's status (from 2), rows that break the
    one-active-row-per-place rule set aside, and the unique index. `journal` is the file's
    path, for the error that says the copy could not be made. Returns what the screen should
    say about rows set aside ("" when there were none)."""
    try:
        copy(backup)
    except (OSError, sqlite3.Error) as e:
        remove_copy(backup)  # no half-made copy left behind
        raise JournalError(f"cannot upgrade the journal {journal}: the backup copy "
                           f"{backup.name} could not be made ({e}); nothing was changed"
                           ) from None
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            for table, column in (c for v in sorted(ADDED_COLUMNS) if v > version
                                  for c in ADDED_COLUMNS[v]):
                if column not in columns(db, table):
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} BLOB")
            if version < 2:
                checksum.fill(db)  # every checksum, the statuses' too
            elif version < 3:
                checksum.fill_statuses(db)
            found = set_aside_duplicates(db)
            db.execute("DROP INDEX IF EXISTS events_active_seq")  # one not unique, by hand
            db.execute(UNIQUE_INDEX)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    except BaseException:
        # Nothing was changed (a lock held elsewhere, say): the copy is not needed, and a
        # start retried by systemd must not leave one copy per try.
        remove_copy(backup)
        raise
    if not found:
        return ""
    return ("Two companions wrote this journal at once: " + "; ".join(found) +
            f". Every row is kept (the copy {backup.name} is as it was); companion export "
            "--game N --force writes them all.")


def set_aside_duplicates(db: sqlite3.Connection) -> list[str]:
    """Games with two active rows at one place (two companions wrote the journal at once,
    before schema 3 forbade it): the first row recorded stays active, the later ones become
    `duplicate` (kept, listed by `export --force`, never replayed), and the game is marked
    broken (not resumed; `export` refuses it without --force). Returns what was found."""
    found = []
    for gid, seq in db.execute(
            "SELECT game_id, seq FROM events WHERE status='active' GROUP BY game_id, seq "
            "HAVING COUNT(*) > 1 ORDER BY game_id, seq").fetchall():
        rows = db.execute("SELECT row, seq, CAST(body AS BLOB), at, status, sum FROM events "
                          "WHERE game_id=? AND seq=? AND status='active' ORDER BY row",
                          (gid, seq)).fetchall()
        resum(db, gid, rows[1:], "duplicate")
        set_game_status(db, gid, "broken")
        found.append(f"game {gid} has {len(rows)} events numbered {seq + 1}")
    return found
