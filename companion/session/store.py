"""SQLite persistence of journals: one row per game, one row per event.

WAL mode with `synchronous=FULL`: a commit has reached the disk when it returns, so an event
that was acknowledged survives a power cut. Undo does not delete: the row is marked `undone`
(and `dropped` when a new event replaces it), so nothing ever recorded is lost.

A database that cannot be opened or fails `PRAGMA integrity_check` is renamed aside (never
deleted) and a fresh one is started; `Store.notice` says what happened.

Every row carries a checksum chained to the previous row of its game (schema 2,
companion/session/checksum.py, docs/journal.md): a changed, deleted or reordered row is found by
`Store.verify`; at start an unfinished game whose rows do not match is marked `broken`. Schema 3
adds a checksum of each game's status (`games.sum`) and makes the active rows' places unique
(`events_active_seq`: two companions on one journal can never both record event N). An older
journal is upgraded in place once, after a backup copy made with SQLite's online backup.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion import games
from companion.errors import CompanionError, JournalError
from companion.rules.game import Event, Header
from companion.session import checksum
from companion.session.checksum import Mismatch
from companion.session.journal import Journal
from companion.session.startframe import content as _content, open_game

# 2: checksums (games.seed, games.head, events.chain, events.sum); 3: games.sum (the status
# under a checksum) and one active row per (game_id, seq) (the index events_active_seq).
SCHEMA_VERSION = 3
CHECKSUM_COLUMNS = (("games", "seed"), ("games", "head"), ("events", "chain"), ("events", "sum"))
# The columns each schema version added (an older journal lacks them until it is upgraded).
ADDED_COLUMNS = {2: CHECKSUM_COLUMNS, 3: (("games", "sum"),)}

# How long a write waits for a lock held by another program (sqlite3's default is 5 s): a
# press on a locked journal says "Not saved" after this, not after a five-second freeze.
BUSY_TIMEOUT = 0.5

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


# Logs brought in by `companion import`: the digest of the normalised log, so that importing
# the same log twice adds nothing. Created on the first import (older journals lack it).
IMPORTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS imports (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    digest TEXT NOT NULL UNIQUE,
    imported REAL NOT NULL
)"""


# Each finished game's statistics record (companion/session/stats.py), saved by the app thread when it
# first computes it, keyed by what identifies the game's content: a cache, so that statistics
# over a thousand games do not replay them all. Created on the first save.
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


class CannotResume(JournalError):
    """This game cannot be resumed (`Store.reopen`); nothing was changed. `status` is the
    web's answer: 404 for no such game, else 409."""

    def __init__(self, reason: str, *, status: int = 409) -> None:
        super().__init__(reason)
        self.status = status


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


@dataclass(frozen=True)
class Unfinished:
    """A game that can be resumed (`Store.unfinished`)."""

    id: int
    header: Header
    created: float
    last: float  # when its last event was recorded (`created` when it has none)
    events: int
    status: str  # open | parked | closed (closed: by a companion before games were parked)


@dataclass(frozen=True)
class GameInfo:
    id: int
    header: Header | None  # None when the stored header cannot be read
    created: float
    events: int


class DiskFull(JournalError):
    """SQLite says "database or disk is full" (SQLITE_FULL), or the OS "no space left"."""


class _Damaged(Exception):
    """The file is a damaged database (SQLite says corrupt / not a database, or the integrity
    check fails): the one case in which it is set aside."""


_MAGIC = b"SQLite format 3\x00"


def _sqlite_like(path: Path) -> bool:
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


def _bad_write_version(path: Path) -> int | None:
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


def _remove_copy(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def empty_journal() -> sqlite3.Connection:
    """An in-memory journal with no games, for readers of a file that has no tables yet."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    db.executescript(SCHEMA)
    return db


def _columns(db: sqlite3.Connection, table: str) -> frozenset[str]:
    return frozenset(r[1] for r in db.execute(f"PRAGMA table_info({table})"))


@lru_cache(maxsize=1)
def _schema_columns() -> dict[str, frozenset[str]]:
    """The columns SCHEMA gives games and events (read once from an empty journal)."""
    db = empty_journal()
    try:
        return {t: _columns(db, t) for t in ("games", "events")}
    finally:
        db.close()


# Every name SCHEMA and the tables made on first use put in sqlite_master (SQLite's own
# sqlite_* names aside).
KNOWN_NAMES = frozenset({"games", "events", "events_game", "events_active_seq", "imports",
                         "game_stats", "roster", "phones", "asides"})


def _exactly_ours(db: sqlite3.Connection) -> bool:
    """Whether the database holds this version's tables and nothing else: games and events
    with exactly SCHEMA's columns, and only names this version makes."""
    names = {n for n, in db.execute("SELECT name FROM sqlite_master")
             if not n.startswith("sqlite_")}
    if not {"games", "events"} <= names <= KNOWN_NAMES:
        return False
    return all(_columns(db, t) == cols for t, cols in _schema_columns().items())


def _schema_damage(db: sqlite3.Connection, tables: set[str], version: int) -> str:
    """What is wrong with the games and events tables of a journal of this schema version
    ("" when they have every column SCHEMA gives them, less those added after `version`)."""
    later = {(t, c) for v, cols in ADDED_COLUMNS.items() if v > version for t, c in cols}
    for table, cols in _schema_columns().items():
        if table not in tables:
            return f"its {table} table is missing"
        need = cols - {c for t, c in later if t == table}
        missing = sorted(need - _columns(db, table))
        if missing:
            return f"its {table} table has no column {missing[0]!r}"
    return ""


def _is_full(e: BaseException, path: Path | None = None) -> bool:
    """SQLite's "database or disk is full", the OS's "no space left on device", or an I/O
    error of SQLite's on a file system with no room left (a full disk met while growing the
    WAL index reads SQLITE_IOERR_..., not SQLITE_FULL)."""
    import errno
    name = getattr(e, "sqlite_errorname", "") or ""
    if name == "SQLITE_FULL" or getattr(e, "errno", None) == errno.ENOSPC or \
            "disk is full" in str(e):
        return True
    return name.startswith("SQLITE_IOERR") and path is not None and _no_room(path)


def _no_room(path: Path) -> bool:
    """Less than a megabyte free where `path` is (for this user: root's reserve aside)."""
    import os
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 1 << 20


def _is_damage(e: sqlite3.Error) -> bool:
    name = getattr(e, "sqlite_errorname", "") or ""
    # Python's own word for schema text that is not UTF-8 any more (a flipped bit in a name),
    # and SQLite's for a header whose format bytes were flipped.
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or \
        str(e).startswith(("Could not decode to UTF-8", "unsupported file format"))


class Store:
    """The journal database. `read_only` opens without writing anything, ever (for
    `companion export` and `companion doctor`): damage is then an error, not set aside."""

    def __init__(self, path: Path | str, *, clock=time.time, read_only: bool = False,
                 immutable: bool = False) -> None:
        self.path = Path(path)
        self.clock = clock
        self.read_only = read_only or immutable
        # `immutable`: read without SQLite's shared memory or locks (its `immutable=1`), for a
        # full disk, where the WAL index cannot be made; only exact when no WAL is pending.
        self.immutable = immutable
        self.notice = ""  # what the screen should say about the journal (damage, broken games)
        self.schema = SCHEMA_VERSION  # as found; below 3 only when read-only
        # The open game as the start-up check replayed it, with the checksums it had then:
        # resume() takes it instead of replaying the game a second time (_check_games).
        self._checked: dict[int, tuple[tuple, Journal]] = {}
        # unfinished(): game id -> (summary_key, unfinished?, header), replayed once a run.
        self._unfinished_seen: dict[int, tuple[str, bool, Header | None]] = {}
        self.backup: Path | None = None  # the copy made before an upgrade of the schema
        # Why nothing can be saved although the store was asked to write (a full disk at
        # start: cli opens it read-only, the game is shown, every press says so). "" = none.
        self.unwritable = ""
        if self.path.exists() and not self.path.is_file():
            raise JournalError(f"the journal path {self.path} is not a file")
        if self.read_only and not self.path.exists():
            raise JournalError(f"there is no journal at {self.path}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise JournalError(f"cannot create {self.path.parent}: {e.strerror or e}") from None
        try:
            self.db = self._open()
        except _Damaged as e:
            if read_only:
                raise JournalError(f"the journal {self.path} is damaged ({e})") from None
            if not _sqlite_like(self.path):  # e.g. --journal pointed at another program's file
                raise JournalError(f"{self.path} is not a companion journal (not an SQLite "
                                   "database at all); it was left as it is") from None
            aside = self._set_aside()
            self.notice = (f"The journal {self.path.name} was damaged ({e}); it was kept as "
                           f"{aside.name} and a new one started.")
            self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            if self.read_only:
                flags = "mode=ro&immutable=1" if self.immutable else "mode=ro"
                db = sqlite3.connect(f"file:{self.path}?{flags}", uri=True, timeout=BUSY_TIMEOUT,
                                     isolation_level=None, check_same_thread=False)
            else:
                db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None,
                                     check_same_thread=False)
        except sqlite3.Error as e:
            raise JournalError(f"cannot open the journal {self.path}: {e}") from None
        try:
            # Read-only checks first: a damaged file is set aside exactly as it was found.
            if not self.read_only and (bad := _bad_write_version(self.path)) is not None:
                raise _Damaged(f"its header's write format reads {bad}")
            ok = db.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise _Damaged(f"integrity check: {ok}")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (1, 2, SCHEMA_VERSION) and _exactly_ours(db):
                # The tables are this version's to the column, the version field is not: a
                # flipped bit in the file's header, not another program or a newer companion.
                raise _Damaged(f"its schema version reads {version}")
            if version > SCHEMA_VERSION:
                raise JournalError(f"the journal {self.path} was written by a newer version of "
                                   f"the companion (schema {version}); update the companion")
            tables = {n for n, in db.execute("SELECT name FROM sqlite_master")}
            if not tables and self.read_only:
                # An empty file (touched, or cut off before its first write) holds no games:
                # read it as an empty journal, without writing to it.
                db.close()
                return empty_journal()
            ours = {"games", "events"} & tables
            if tables and (version == 0 or not ours or
                           (version < SCHEMA_VERSION and len(ours) < 2)):
                raise JournalError(f"{self.path} is not a companion journal (another "
                                   "program's database?); it was left as it is")
            if tables:
                # A flipped bit in a table's definition passes the integrity check and then
                # fails every query ("no such column: status"): damage, set aside like any.
                wrong = _schema_damage(db, tables, version)
                if wrong:
                    raise _Damaged(wrong)
                self.schema = version
            unique = db.execute("SELECT 1 FROM sqlite_master WHERE name='events_active_seq'"
                                ).fetchone() is not None
            if tables and (version < SCHEMA_VERSION or not unique) and not self.read_only:
                # (A schema 3 journal whose unique index was dropped by hand is mended the
                # same way: its duplicate rows set aside, then the index made again.)
                self._upgrade(db, version)
                self.schema = version = SCHEMA_VERSION
            if not self.read_only:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.executescript(SCHEMA)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            if tables:
                self._check_games(db)
        except _Damaged:
            db.close()
            raise
        except UnicodeDecodeError:  # SQLite's own message quotes a damaged schema's bytes
            db.close()
            raise _Damaged("its schema is not readable text") from None
        except sqlite3.Error as e:
            db.close()
            if _is_damage(e):
                raise _Damaged(str(e)) from None
            error = DiskFull if _is_full(e, self.path) else JournalError
            raise error(f"cannot use the journal {self.path}: {e}") from None
        except JournalError:
            db.close()
            raise
        return db

    def _check_games(self, db: sqlite3.Connection) -> None:
        """Every unfinished game (the open one, and imported ones waiting to be resumed) must
        still replay and match its checksums. One that does not (a damaged row, an event that
        rules changed since forbid, an edited row) is marked `broken`: kept for `export`, not
        resumed, and the rest of the journal is untouched."""
        broken, missing = [], []
        for gid, status in db.execute("SELECT id, status FROM games WHERE status IN "
                                      "('open', 'parked') ORDER BY id").fetchall():
            kind = self._kind_of(db, gid)
            if kind is not None and games.find(kind) is None:
                # A house game uninstalled (or failing to load): its games wait as they are,
                # not broken, until it is back.
                missing.append(f"game {gid} ({kind})")
                continue
            why = ""
            journal = None
            try:
                journal = self._load(db, gid)
            except (CompanionError, ValueError, KeyError, TypeError) as e:
                why = f"game {gid} no longer replays ({e})"
            if not why and self.schema >= 2:
                # A changed row may still replay, as a different game: not resumed either;
                # nor a finished game whose status was set back to open by hand (schema 3).
                found = checksum.verify(db, gid, statuses=self.schema >= 3)
                why = str(found[0]) if found else ""
            if why:
                broken.append(why)
                if not self.read_only:
                    _set_game_status(db, gid, "broken")
            elif journal is not None and status == "open" and self.schema >= 3 \
                    and not self.read_only:
                self._checked[gid] = (_content(db, gid), journal)
        if broken:
            self.notice = " ".join(filter(None, [self.notice, (
                "Not resumed: " + "; ".join(broken) + ". It is kept in the journal "
                "(companion export --list).")]))
        if missing:
            self.notice = " ".join(filter(None, [self.notice, (
                "Waiting for a game kind that is not installed: " + ", ".join(missing)
                + ". Kept as it is: install the game again to go on with it.")]))

    @staticmethod
    def _kind_of(db: sqlite3.Connection, game_id: int) -> str | None:
        """The kind a game's header names, without replaying it (None: unreadable)."""
        row = db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id=?",
                         (game_id,)).fetchone()
        try:
            kind = json.loads(row[0]).get("game") if row else None
        except (ValueError, AttributeError):
            return None
        return kind if isinstance(kind, str) else None

    def _upgrade(self, db: sqlite3.Connection, version: int) -> None:
        """Schema 1 or 2 -> 3: a backup copy first, then in one transaction (an interrupted
        upgrade leaves the old schema, and is done again): the columns the journal lacks, the
        checksums of every game and row (from schema 1) or of every game's status (from 2),
        rows that break the one-active-row-per-place rule set aside, and the unique index."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        backup = self._free_name(f"pre-v{SCHEMA_VERSION}-{stamp}")
        try:
            self.backup_to(backup, db=db)
        except (OSError, sqlite3.Error) as e:
            _remove_copy(backup)  # no half-made copy left behind
            raise JournalError(f"cannot upgrade the journal {self.path}: the backup copy "
                               f"{backup.name} could not be made ({e}); nothing was changed"
                               ) from None
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for table, column in (c for v in sorted(ADDED_COLUMNS) if v > version
                                      for c in ADDED_COLUMNS[v]):
                    if column not in _columns(db, table):
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} BLOB")
                if version < 2:
                    checksum.fill(db)  # every checksum, the statuses' too
                elif version < 3:
                    checksum.fill_statuses(db)
                found = self._set_aside_duplicates(db)
                db.execute(UNIQUE_INDEX)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except BaseException:
            # Nothing was changed (a lock held elsewhere, say): the copy is not needed, and a
            # start retried by systemd must not leave one copy per try.
            _remove_copy(backup)
            raise
        self.backup = backup
        if found:
            self.notice = " ".join(filter(None, [self.notice, (
                "Two companions wrote this journal at once: " + "; ".join(found) +
                f". Every row is kept (the copy {backup.name} is as it was); companion export "
                "--game N --force writes them all.")]))

    @staticmethod
    def _set_aside_duplicates(db: sqlite3.Connection) -> list[str]:
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
            _resum(db, gid, rows[1:], "duplicate")
            _set_game_status(db, gid, "broken")
            found.append(f"game {gid} has {len(rows)} events numbered {seq + 1}")
        return found

    def backup_to(self, target: Path | str, *, db: sqlite3.Connection | None = None) -> None:
        """A consistent copy of the journal at `target`, made with SQLite's online backup
        (never a file copy: the live database is spread over the file and its WAL)."""
        copy = sqlite3.connect(target)
        try:
            (db or self.db).backup(copy)
        finally:
            copy.close()

    def _free_name(self, suffix: str) -> Path:
        path = self.path.with_name(f"{self.path.name}.{suffix}")
        n = 1
        while path.exists():
            n += 1
            path = self.path.with_name(f"{self.path.name}.{suffix}-{n}")
        return path

    def _set_aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                src.rename(Path(str(aside) + suffix))
        return aside

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- games --------------------------------------------------------------------------------

    def new_game(self, header: Header, *, park: bool = False) -> Journal:
        """Start a game. The open game stays in the database: `park` it when it is unfinished
        (Resume lists it), else it is closed."""
        journal = Journal(header)  # checks the header before anything is written
        with self._tx() as db:
            _retire_open_games(db, park=park)
            gid = self._insert_game(db, journal.header, "open")
        journal.sink = _GameSink(self, gid)
        return journal

    def _insert_game(self, db: sqlite3.Connection, header: Header, status: str) -> int:
        """The one INSERT of a game row, with its seed checksum (inside a transaction)."""
        text, created = json.dumps(header.to_json()), float(self.clock())
        gid = db.execute("INSERT INTO games(header, created, status) VALUES (?, ?, ?)",
                         (text, created, status)).lastrowid
        assert gid is not None  # an INSERT's row
        seed = checksum.seed(gid, text.encode(), created)
        db.execute("UPDATE games SET seed=?, head=?, sum=? WHERE id=?",
                   (seed, seed, checksum.game_sum(gid, seed, status), gid))
        return gid

    def verify(self, game_id: int) -> list[Mismatch]:
        """Where a game's rows no longer match their checksums ([] when intact, and for a
        schema 1 journal opened read-only, which has none yet)."""
        if self.schema < 2:
            return []
        return checksum.verify(self.db, game_id, statuses=self.schema >= 3)

    def resume(self) -> Journal | None:
        """The unfinished game, if there is one."""
        gid = self.open_id()
        if gid is None:
            return None
        kind = self._kind_of(self.db, gid)
        if kind is not None and games.find(kind) is None:
            return None  # its kind is not installed: it waits (the notice says so)
        checked = self._checked.pop(gid, None)
        self._checked.clear()  # one resume at start-up: the others are not kept
        if checked is not None and checked[0] == _content(self.db, gid):
            journal = checked[1]  # replayed by the start-up check, and unchanged since
        else:
            journal = self._load(self.db, gid)
        journal.sink = _GameSink(self, gid)
        return journal

    def open_id(self) -> int | None:
        """The id of the unfinished game, without loading it."""
        return open_game(self.db)

    def stored_lines(self, game_id: int) -> list[str]:
        """A game's header and active events as the rows hold them, not replayed (for
        `companion export --force` of a game that no longer replays); bytes that are not
        UTF-8 become U+FFFD."""
        header = self.db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id=?",
                                 (game_id,)).fetchone()
        if header is None:
            raise JournalError(f"no game {game_id} in the journal")
        bodies = self.db.execute("SELECT CAST(body AS BLOB) FROM events WHERE game_id=? AND "
                                 "status IN ('active', 'duplicate') ORDER BY seq, row",
                                 (game_id,)).fetchall()
        return [bytes(b).decode("utf-8", "replace").replace("\n", " ")
                for b in (header[0], *(b for b, in bodies))]

    def duplicates(self, game_id: int) -> int:
        """How many of a game's rows the upgrade to schema 3 set aside (`duplicate`: written
        at a place that already had an active row, by a second companion)."""
        return self.db.execute("SELECT COUNT(*) FROM events WHERE game_id=? AND "
                               "status='duplicate'", (game_id,)).fetchone()[0]

    def close_game(self, journal: Journal) -> None:
        sink = journal.sink
        if isinstance(sink, _GameSink):
            with self._tx() as db:
                _set_game_status(db, sink.game_id, "closed")

    def games(self) -> list[GameInfo]:
        out = []
        for gid, header, created in self.db.execute(
                "SELECT id, CAST(header AS BLOB), created FROM games ORDER BY id").fetchall():
            n = self.db.execute("SELECT COUNT(*) FROM events WHERE game_id=? AND "
                                "status='active'", (gid,)).fetchone()[0]
            try:
                parsed: Header | None = header_from_json(json.loads(header))
            except (ValueError, CompanionError):  # a damaged row: listed, not hidden
                parsed = None
            out.append(GameInfo(gid, parsed, created, n))
        return out

    def load(self, game_id: int) -> Journal:
        return self._load(self.db, game_id)

    @staticmethod
    def _load(db: sqlite3.Connection, game_id: int) -> Journal:
        # Text is read as bytes and decoded by json.loads: a row that is not UTF-8 (a flipped
        # bit) is then a ValueError that breaks its game, not an sqlite3 error mid-query.
        row = db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id=?",
                         (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        header = header_from_json(json.loads(row[0]))
        # Most recently undone last: the undone event with the lowest seq is redone first.
        undone = [json.loads(b) for b, in db.execute(
            "SELECT CAST(body AS BLOB) FROM events WHERE game_id=? AND status='undone' "
            "ORDER BY seq DESC",
            (game_id,))]

        def active():  # streamed: a 100,000-event game is never a list of rows in memory
            for expect, (seq, body) in enumerate(db.execute(
                    "SELECT seq, CAST(body AS BLOB) FROM events WHERE game_id=? AND "
                    "status='active' ORDER BY seq", (game_id,))):
                if seq != expect:
                    raise JournalError(f"the events of game {game_id} are not numbered 0, 1, "
                                       f"2, ... (event {expect} is numbered {seq})")
                yield json.loads(body)

        return Journal(header, active(), undone)

    def integrity(self) -> str:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]

    def game_id(self, journal: Journal) -> int | None:
        """The id of a game this store loaded or started."""
        sink = journal.sink
        return sink.game_id if isinstance(sink, _GameSink) else None

    # --- history: statistics and imports (companion/session/stats.py, `companion import`) -------------

    def history_rows(self) -> list[HistoryRow]:
        """Every game with what identifies its current content (for the statistics cache)."""
        imported = self._imported_ids()
        spans = {gid: (n, last, first_at, last_at) for gid, n, last, first_at, last_at in
                 self.db.execute("SELECT game_id, COUNT(*), MAX(row), MIN(at), MAX(at) "
                                 "FROM events WHERE status='active' GROUP BY game_id")}
        out = []
        for gid, header, created, status in self.db.execute(
                "SELECT id, CAST(header AS BLOB), created, status FROM games ORDER BY id"):
            n, last, first_at, last_at = spans.get(gid, (0, 0, None, None))
            out.append(HistoryRow(gid, header, created, status, n, last, first_at, last_at,
                                  gid in imported))
        return out

    def active_events(self, game_id: int) -> list[bytes]:
        """The raw bodies of a game's active events, in order (decoded by the caller)."""
        return [b for b, in self.db.execute(
            "SELECT CAST(body AS BLOB) FROM events WHERE game_id=? AND status='active' "
            "ORDER BY seq", (game_id,))]

    def summaries(self) -> dict[int, tuple[str, bytes]]:
        """The saved statistics records: game id -> (key, record JSON)."""
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name='game_stats'").fetchone():
            return {}
        return {gid: (key, record) for gid, key, record in self.db.execute(
            "SELECT game_id, key, CAST(record AS BLOB) FROM game_stats")}

    def save_summaries(self, items: list[tuple[int, str, str]]) -> None:
        """Save (game id, key, record JSON) statistics records, in one transaction."""
        with self._tx() as db:
            db.execute(SUMMARIES_SCHEMA)
            db.executemany("INSERT OR REPLACE INTO game_stats(game_id, key, record) "
                           "VALUES (?, ?, ?)", items)

    def _imported_ids(self) -> dict[int, str]:
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name='imports'").fetchone():
            return {}
        return dict(self.db.execute("SELECT game_id, digest FROM imports"))

    def import_game(self, journal: Journal, digest: str) -> int:
        """Store a replayed log as a new game in one transaction: closed when it is over,
        else `parked` (the start menu offers to resume it; no open game is touched). The
        rows are written by the same inserts as play, then the digest that makes a second
        import of the same log a no-op."""
        with self._tx() as db:
            db.execute(IMPORTS_SCHEMA)
            row = db.execute("SELECT game_id FROM imports WHERE digest=?", (digest,)).fetchone()
            if row is not None:
                raise AlreadyImported(row[0])
            same = self._same_game(db, journal)
            if same is not None:
                raise AlreadyImported(same)
            gid = self._insert_game(db, journal.header,
                                    "closed" if journal.state.over else "parked")
            sink = _GameSink(self, gid)
            for seq, event in enumerate(journal.events):
                sink.insert(db, seq, event)
            db.execute("INSERT INTO imports(game_id, digest, imported) VALUES (?, ?, ?)",
                       (gid, digest, self.clock()))
        return gid

    def _same_game(self, db: sqlite3.Connection, journal: Journal) -> int | None:
        """A game already here with this log's header and active events (one played on this
        box and exported, say), compared as JSON values: key order and spacing aside."""
        header = journal.header.to_json()
        n = len(journal.events)
        for gid, text in db.execute("SELECT id, CAST(header AS BLOB) FROM games ORDER BY id"
                                    ).fetchall():
            try:
                if json.loads(text) != header:
                    continue
                bodies = self.active_events(gid)
                if len(bodies) == n and [json.loads(b) for b in bodies] == journal.events:
                    return gid
            except ValueError:  # a damaged row is not this game
                continue
        return None

    def replay(self, row: HistoryRow) -> tuple[Header, list, Any] | None:
        """A game of `history_rows` folded from its active rows: (header, events, state), or
        None when it no longer replays (export --force still has its rows)."""
        try:
            header = header_from_json(json.loads(row.header))
            game = games.game(header.game)
            header = game.check_header(header)
            # One JSON document per game: a quarter of the time of one json.loads per event.
            events = json.loads(b"[" + b",".join(self.active_events(row.id)) + b"]")
            return header, events, game.fold(header, events)
        except (CompanionError, ValueError, KeyError, TypeError):
            return None

    def unfinished(self) -> list[Unfinished]:
        """Every game that is not over and can be resumed (not `broken`, still replays),
        whatever its status: the open one, parked ones, and unfinished games an older
        companion closed when a new game started. Newest move first.

        A game with a saved statistics record of its current content is finished (records
        are saved for finished games only), so only the others are replayed."""
        from companion.session.stats import summary_key
        saved = self.summaries()
        out = []
        for row in self.history_rows():
            if row.status == "broken":
                continue
            key = summary_key(row)
            if row.id in saved and saved[row.id][0] == key:
                continue
            # A game's verdict is kept for its content (the start menu asks again after each
            # game): each game is replayed once a run, not at every visit.
            cached = self._unfinished_seen.get(row.id)
            if cached is None or cached[0] != key:
                replayed = self.replay(row)
                cached = (key, replayed is not None and not replayed[2].over,
                          replayed[0] if replayed is not None else None)
                self._unfinished_seen[row.id] = cached
            _, unfinished, header = cached
            if unfinished:
                assert header is not None  # it replayed
                out.append(Unfinished(row.id, header, row.created, row.last_at or row.created,
                                      row.events, row.status))
        out.sort(key=lambda u: (u.last, u.id), reverse=True)
        return out

    def reopen(self, game_id: int, *, park: bool = False) -> Journal:
        """Resume game `game_id`: it becomes the open game (the one resumed at start), with
        its sink; the game open until now is `park`ed (unfinished) or closed. Refused
        (CannotResume, nothing changed) for a game that is broken, no longer replays, does
        not match its checksums, or is over."""
        status = self.db.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()
        if status is None:
            raise CannotResume(f"no game {game_id} in the journal", status=404)
        if status[0] == "broken":
            raise CannotResume(f"game {game_id} is broken (companion export --game {game_id} "
                               "--force has its rows); it cannot be resumed")
        try:
            journal = self._load(self.db, game_id)
        except (CompanionError, ValueError, KeyError, TypeError) as e:
            raise CannotResume(f"game {game_id} no longer replays ({e})") from None
        found = self.verify(game_id)
        if found:
            raise CannotResume(f"{found[0]}; game {game_id} is not resumed")
        if journal.state.over:
            raise CannotResume(f"game {game_id} is finished: there is nothing to resume")
        if status[0] != "open":
            with self._tx() as db:
                _retire_open_games(db, park=park)
                _set_game_status(db, game_id, "open")
        journal.sink = _GameSink(self, game_id)
        return journal

    # --- events -------------------------------------------------------------------------------

    def _tx(self):
        if self.unwritable:
            raise NotSaved(f"not saved: {self.unwritable}", short=_short(self.unwritable))
        return _Transaction(self.db)


class NotSaved(JournalError):
    """A change that could not be committed. `short` is what fits a toast on the panel
    (two lines of 20 letters), whole: "Not saved: disk full"."""

    def __init__(self, message: str, *, short: str = "") -> None:
        super().__init__(message)
        self.short = short or "Not saved"


def _short(why: object) -> str:
    """The panel's words for why a change was not saved."""
    text = str(why).lower()
    if _is_full(why) if isinstance(why, BaseException) else "full" in text:
        return "Not saved: disk full"
    if "locked" in text or "busy" in text:
        return "Not saved: journal busy"
    if "readonly" in text or "read-only" in text:
        return "Not saved: read-only"
    if "checksum" in text:
        return "Not saved: row altered"
    if "moved on" in text:
        return "Not saved: game moved on"
    return "Not saved: journal error"


def _not_saved(e: sqlite3.Error) -> NotSaved:
    return NotSaved(f"not saved: {e}", short=_short(e))


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise _not_saved(e) from None
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self.db.execute("COMMIT")
            elif self.db.in_transaction:  # SQLite ends it itself on some errors (SQLITE_FULL)
                self.db.execute("ROLLBACK")
        except sqlite3.Error as e:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise _not_saved(e) from None
        if isinstance(exc, sqlite3.Error):
            raise _not_saved(exc) from None


def _set_game_status(db: sqlite3.Connection, game_id: int, status: str) -> None:
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


def _retire_open_games(db: sqlite3.Connection, *, park: bool = False) -> None:
    """The open game gives way (inside a transaction): `park`ed when unfinished, else
    closed."""
    for gid, in db.execute("SELECT id FROM games WHERE status='open'").fetchall():
        _set_game_status(db, gid, "parked" if park else "closed")


def _resum(db: sqlite3.Connection, game_id: int, rows: list[tuple], status: str, *,
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


class _GameSink:
    """Writes one game's journal changes; each call is one committed transaction."""

    def __init__(self, store: Store, game_id: int) -> None:
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

    def append(self, seq: int, event: Event) -> None:
        with self.store._tx() as db:
            self._expect(db, seq)
            self._set_status(db, db.execute(
                "SELECT row, seq, CAST(body AS BLOB), at, status, sum FROM events "
                "WHERE game_id=? AND status='undone'", (self.game_id,)).fetchall(), "dropped")
            self.insert(db, seq, event)

    def insert(self, db: sqlite3.Connection, seq: int, event: Event) -> None:
        """The one INSERT of an event row (play and `companion import`), inside a transaction:
        its checksums, and the game's head moves on to it."""
        body, at = json.dumps(event), float(self.store.clock())
        head, = db.execute("SELECT head FROM games WHERE id=?", (self.game_id,)).fetchone()
        chain = checksum.link(head, self.game_id, seq, body.encode(), at)
        db.execute("INSERT INTO events(game_id, seq, body, at, chain, sum) "
                   "VALUES (?, ?, ?, ?, ?, ?)",
                   (self.game_id, seq, body, at, chain,
                    checksum.row_sum(self.game_id, seq, body.encode(), at, "active")))
        db.execute("UPDATE games SET head=? WHERE id=?", (chain, self.game_id))

    def _set_status(self, db: sqlite3.Connection, rows: list[tuple], status: str) -> None:
        """Undo, redo and a new event change only statuses; an altered row stops the move."""
        _resum(db, self.game_id, rows, status, refuse_altered=True)

    def undo(self, seq: int) -> None:
        with self.store._tx() as db:
            self._expect(db, seq + 1)
            rows = db.execute("SELECT row, seq, CAST(body AS BLOB), at, status, sum FROM events "
                              "WHERE game_id=? AND seq=? AND status='active'",
                              (self.game_id, seq)).fetchall()
            if len(rows) != 1:
                raise NotSaved(f"not saved: event {seq} of game {self.game_id} is not "
                               "in the journal as the screen shows it")
            self._set_status(db, rows, "undone")

    def redo(self, seq: int) -> None:
        with self.store._tx() as db:
            self._expect(db, seq)
            rows = db.execute("SELECT row, seq, CAST(body AS BLOB), at, status, sum FROM events "
                              "WHERE game_id=? AND seq=? AND status='undone'",
                              (self.game_id, seq)).fetchall()
            if len(rows) != 1:
                raise NotSaved(f"not saved: undone event {seq} of game {self.game_id} is "
                                   "not in the journal as the screen shows it")
            self._set_status(db, rows, "active")


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
