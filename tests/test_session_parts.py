"""The journal's parts below the Store, each used alone (issue 36): rows, history and schema
are given a connection, a writer or a callable, and none of them reaches back up to the Store."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.rules.game import Header
from companion.session import checksum, history, schema
from companion.session.rows import GameSink, insert_game, load_game
from companion.session.tx import NotSaved, Transaction

SESSION = Path(__file__).resolve().parents[1] / "companion" / "session"
BELOW_THE_STORE = ("tx", "rows", "schema", "history", "log")


def imported(path: Path) -> set[str]:
    """Every module `path` imports: at the top, in a function, under TYPE_CHECKING."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


@pytest.mark.parametrize("name", BELOW_THE_STORE)
def test_the_parts_below_the_store_never_import_it(name):
    assert "companion.session.store" not in imported(SESSION / f"{name}.py")


def test_the_transaction_knows_no_other_part_of_the_journal():
    assert {m for m in imported(SESSION / "tx.py") if m.startswith("companion.session")} == set()


class Writer:
    """The least a game's sink needs (rows.Writer): a transaction and a clock."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.now = 1000.0

    def clock(self) -> float:
        self.now += 1
        return self.now

    def transaction(self) -> Transaction:
        return Transaction(self.db)


def test_a_game_is_written_and_read_back_without_a_store():
    db = schema.empty_journal()
    writer = Writer(db)
    with writer.transaction() as tx:
        gid = insert_game(tx, Header("table", ("A", "B")), "open", writer.clock())
    sink = GameSink(writer, gid)
    assert sink.append(0, {"type": "next"}) == 1002.0
    sink.append(1, {"type": "skip"})
    sink.undo(1)
    journal = load_game(db, gid)
    assert list(journal.events) == [{"type": "next"}] and list(journal.redo_times) == [1003.0]
    assert checksum.verify(db, gid) == []
    with pytest.raises(NotSaved, match="moved on"):
        sink.append(0, {"type": "next"})  # the journal holds one event, not none


def test_history_reads_a_bare_connection_and_folds_with_what_it_is_given():
    db = schema.empty_journal()
    writer = Writer(db)
    with writer.transaction() as tx:
        gid = insert_game(tx, Header("table", ("A", "B")), "open", writer.clock())
    GameSink(writer, gid).append(0, {"type": "next"})
    rows = history.history_rows(db)
    assert [(r.id, r.events, r.imported, r.timed) for r in rows] == [(gid, 1, False, True)]
    assert history.active_events(db, gid) == [b'{"type": "next"}']
    folded: list[int] = []
    seen: history.Seen = {}

    def fold(row: history.HistoryRow) -> history.Replayed | None:
        folded.append(row.id)
        return history.replay(db, row)

    first = history.unfinished(rows, history.summaries(db), fold, seen)
    assert [u.id for u in first] == [gid] and folded == [gid] and gid in seen
    assert history.unfinished(rows, {}, fold, seen) == first and folded == [gid]  # kept


def test_an_upgrade_whose_copy_fails_changes_nothing(tmp_path):
    db = sqlite3.connect(tmp_path / "j.db", isolation_level=None)
    db.executescript(schema.SCHEMA)
    db.execute("DROP INDEX events_active_seq")
    backup = tmp_path / "j.db.pre-v3"

    def no_room(target: Path) -> None:
        target.write_bytes(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(JournalError, match="j.db.pre-v3 could not be made"):
        schema.upgrade(db, 3, journal=tmp_path / "j.db", backup=backup, copy=no_room)
    assert not backup.exists() and schema.unique_index(db) == "missing"


def test_an_upgrade_sets_two_rows_at_one_place_aside_and_says_so(tmp_path):
    db = sqlite3.connect(tmp_path / "j.db", isolation_level=None)
    db.executescript(schema.SCHEMA)
    db.execute("DROP INDEX events_active_seq")  # as a schema 2 journal: nothing refuses
    writer = Writer(db)
    with writer.transaction() as tx:
        gid = insert_game(tx, Header("table", ("A", "B")), "open", writer.clock())
        GameSink(writer, gid).insert(tx, 0, {"type": "next"})
        GameSink(writer, gid).insert(tx, 0, {"type": "skip"})  # a second companion's
    backup = tmp_path / "j.db.pre-v3"

    def copy(target: Path) -> None:
        out = sqlite3.connect(target)
        db.backup(out)
        out.close()

    said = schema.upgrade(db, 3, journal=tmp_path / "j.db", backup=backup, copy=copy)
    assert said.startswith("Two companions wrote this journal at once: game 1 has 2 events "
                           "numbered 1. Every row is kept (the copy j.db.pre-v3 is as it was)")
    assert backup.exists() and schema.unique_index(db) == "ok"
    assert db.execute("SELECT status FROM games").fetchone() == ("broken",)
