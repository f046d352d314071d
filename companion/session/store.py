"""SQLite persistence of journals: one row per game, one row per event. The Store opens the
database and keeps its games; the rest is split by job: the tables, how a found file is
recognised and the upgrade of an older one (schema.py); the rows, their checksums and the writes
(rows.py); the games as history: statistics rows, imports, the unfinished list (history.py);
the write transaction and its "Not saved" (tx.py). The Store is their top: it imports them and
hands each what it needs (its connection, itself as the `rows.Writer` that gives a transaction
and the clock, the way to make a backup copy); none of them imports the Store. Paired phones
and the roster keep their own tables (phones.py, roster.py).

WAL mode with `synchronous=FULL`: a commit has reached the disk when it returns, so an event
that was acknowledged survives a power cut.

A database that cannot be opened or fails `PRAGMA integrity_check` is renamed aside (never
deleted) and a fresh one is started; `Store.notice` says what happened. At start an unfinished
game that no longer replays or whose rows do not match their checksums (companion/session/
checksum.py, docs/journal.md) is marked `broken`; `Store.verify` finds a changed, deleted or
reordered row. An older journal is upgraded in place once (schema.upgrade).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion import games
from companion.errors import CompanionError, JournalError
from companion.rules.game import Header
from companion.session import checksum, history, rows, schema
from companion.session.checksum import Mismatch
from companion.session.history import AlreadyImported, HistoryRow, Unfinished
from companion.session.journal import Journal
from companion.session.log import LogTimes
from companion.session.rows import (
    GameSink,
    header_from_json,
    retire_open_games,
    set_game_status,
)
from companion.session.schema import SCHEMA, SCHEMA_VERSION, Damaged, empty_journal
from companion.session.startframe import content as _content, open_game
from companion.session.tx import DiskFull, NotSaved, Transaction, is_full, short_reason

# The names other modules import from here (the Store's own module, before it was split).
__all__ = ["BUSY_TIMEOUT", "SCHEMA", "SCHEMA_VERSION", "AlreadyImported", "CannotResume",
           "DiskFull", "GameInfo", "HistoryRow", "NotSaved", "Store", "Unfinished",
           "empty_journal", "header_from_json"]


# How long a write waits for a lock held by another program (sqlite3's default is 5 s): a
# press on a locked journal says "Not saved" after this, not after a five-second freeze.
CACHE_KIB = 256  # SQLite's page cache, KiB (docs/performance.md)
BUSY_TIMEOUT = 0.5

class CannotResume(JournalError):
    """This game cannot be resumed (`Store.reopen`); nothing was changed. `status` is the
    web's answer: 404 for no such game, else 409."""

    def __init__(self, reason: str, *, status: int = 409) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class GameInfo:
    id: int
    header: Header | None  # None when the stored header cannot be read
    created: float
    events: int


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
        # unfinished(): its verdict on each game, replayed once a run.
        self._unfinished_seen: history.Seen = {}
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
        except Damaged as e:
            if read_only:
                raise JournalError(f"the journal {self.path} is damaged ({e})") from None
            if not schema.sqlite_like(self.path):  # e.g. --journal at another program's file
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
            # (Before the connection's first statement: that takes SQLite's lock on the file,
            # which this check's own open and close of the file would drop on Linux, and a
            # second program's close would then checkpoint and delete the -wal still in use:
            # tests/test_one_writer.py.)
            if not self.read_only and (bad := schema.bad_write_version(self.path)) is not None:
                raise Damaged(f"its header's write format reads {bad}")
            # SQLite's page cache (2 MB by default) filled as the journal grew, so RSS grew
            # with the game up to 15,000 events in (issue 35.4); play touches the last few
            # pages only, and anything wider reads through the system's file cache.
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            ok = db.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise Damaged(f"integrity check: {ok}")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (1, 2, SCHEMA_VERSION) and schema.exactly_ours(db):
                # The tables are this version's to the column, the version field is not: a
                # flipped bit in the file's header, not another program or a newer companion.
                raise Damaged(f"its schema version reads {version}")
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
                wrong = schema.schema_damage(db, tables, version)
                if wrong:
                    raise Damaged(wrong)
                self.schema = version
            unique = schema.unique_index(db) == "ok"
            if tables and (version < SCHEMA_VERSION or not unique) and not self.read_only:
                # (A schema 3 journal whose unique index was dropped or replaced by hand is
                # mended the same way: its duplicate rows set aside, then the index made.)
                self._upgrade(db, version)
                self.schema = version = SCHEMA_VERSION
            if not self.read_only:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.executescript(SCHEMA)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            if tables:
                self._check_games(db)
        except Damaged:
            db.close()
            raise
        except UnicodeDecodeError:  # SQLite's own message quotes a damaged schema's bytes
            db.close()
            raise Damaged("its schema is not readable text") from None
        except sqlite3.Error as e:
            db.close()
            if schema.is_damage(e):
                raise Damaged(str(e)) from None
            error = DiskFull if is_full(e, self.path) else JournalError
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
            # A changed row may still replay, as a different game: not resumed either; nor a
            # finished game whose status was set back to open by hand (schema 3).
            found = checksum.verify(db, gid, statuses=self.schema >= 3) \
                if self.schema >= 2 else []
            why = ""
            journal = None
            if kind is not None and games.find(kind) is None:
                if not found:
                    # A house game uninstalled (or failing to load): its games wait as they
                    # are, not broken, until it is back.
                    missing.append(f"game {gid} ({kind})")
                    continue
                why = str(found[0])  # a kind nobody installed: the header was changed
            else:
                try:
                    journal = self._load(db, gid)
                except (CompanionError, ValueError, KeyError, TypeError) as e:
                    why = f"game {gid} no longer replays ({e})"
            if not why and found:
                why = str(found[0])
            if why:
                broken.append(why)
                if not self.read_only:
                    set_game_status(db, gid, "broken")
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

    def _upgrade(self, db: sqlite3.Connection, version: int) -> None:
        """schema.upgrade, after a backup copy at a free name stamped with the time (kept as
        `backup`); what it found is added to the notice."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        backup = self._free_name(f"pre-v{SCHEMA_VERSION}-{stamp}")
        found = schema.upgrade(db, version, journal=self.path, backup=backup,
                               copy=lambda target: self.backup_to(target, db=db))
        self.backup = backup
        self.notice = " ".join(filter(None, [self.notice, found]))

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
        if not self.read_only and not self.unwritable:
            # SQLite folds its write-ahead log into the file at close only while the file is
            # still at the name it was opened by: a journal moved (mv) while the companion ran
            # would keep its last events in the old name's log. A checkpoint asked for writes
            # them into the file by its descriptor, wherever it is now (docs/journal.md).
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass  # a reader in the way, a full disk: SQLite's own close does what it can
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
        with self.transaction() as db:
            retire_open_games(db, park=park)
            gid = rows.insert_game(db, journal.header, "open", float(self.clock()))
        journal.sink = GameSink(self, gid)
        return journal

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
        journal.sink = GameSink(self, gid)
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
        if isinstance(sink, GameSink):
            with self.transaction() as db:
                set_game_status(db, sink.game_id, "closed")

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
        return rows.load_game(db, game_id)

    @staticmethod
    def _kind_of(db: sqlite3.Connection, game_id: int) -> str | None:
        return rows.kind_of(db, game_id)

    def integrity(self) -> str:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]

    def game_id(self, journal: Journal) -> int | None:
        """The id of a game this store loaded or started."""
        sink = journal.sink
        return sink.game_id if isinstance(sink, GameSink) else None

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
            with self.transaction() as db:
                retire_open_games(db, park=park)
                set_game_status(db, game_id, "open")
        journal.sink = GameSink(self, game_id)
        return journal

    # --- history: statistics and imports (companion/session/history.py) ------------------------

    # (The reading ones use only `db`: the web's Reader borrows them.)

    def history_rows(self) -> list[HistoryRow]:
        return history.history_rows(self.db)

    def active_events(self, game_id: int) -> list[bytes]:
        return history.active_events(self.db, game_id)

    def summaries(self) -> dict[int, tuple[str, bytes]]:
        return history.summaries(self.db)

    def save_summaries(self, items: list[tuple[int, str, str]]) -> None:
        history.save_summaries(self, items)

    def import_game(self, journal: Journal, digest: str, times: LogTimes | None = None) -> int:
        return history.import_game(self, journal, digest, times)

    def replay(self, row: HistoryRow) -> history.Replayed | None:
        return history.replay(self.db, row)

    def unfinished(self) -> list[Unfinished]:
        saved = self.summaries()
        return history.unfinished(self.history_rows(), saved, self.replay,
                                  self._unfinished_seen)

    # --- writes (companion/session/tx.py) ------------------------------------------------------

    def transaction(self) -> Transaction:
        """One committed change (`with store.transaction() as db:`): every write to the
        journal goes through here; NotSaved when the store cannot write at all."""
        if self.unwritable:
            raise NotSaved(f"not saved: {self.unwritable}", short=short_reason(self.unwritable))
        return Transaction(self.db)


