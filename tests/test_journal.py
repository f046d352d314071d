"""The journal: undo/redo across turns, persistence, resume, damaged databases set aside."""

from __future__ import annotations

import sqlite3

import pytest

from companion.errors import IllegalEvent
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.session.store import Store

HEADER = Header("table", ("Ann", "Ben", "Cy", "Dee"))


def test_undo_and_redo_across_turns_back_to_the_start():
    j = Journal(HEADER)
    events = [{"type": "next"}, {"type": "skip"}, {"type": "next"}, {"type": "reverse"},
              {"type": "next"}]
    currents = [j.state.table.current]
    for e in events:
        j.append(e)
        currents.append(j.state.table.current)
    for k in range(len(events), 0, -1):
        assert j.undo() == events[k - 1]
        assert j.state.table.current == currents[k - 1]
    with pytest.raises(IllegalEvent, match="nothing to undo"):
        j.undo()
    for k, e in enumerate(events, start=1):
        assert j.redo() == e
        assert j.state.table.current == currents[k]
    with pytest.raises(IllegalEvent, match="nothing to redo"):
        j.redo()


def test_a_new_event_after_undo_clears_redo():
    j = Journal(HEADER)
    j.append({"type": "next"})
    j.undo()
    j.append({"type": "skip"})
    assert not j.can_redo and j.events == [{"type": "skip"}]


def test_an_illegal_event_changes_nothing():
    j = Journal(HEADER)
    j.append({"type": "next"})
    with pytest.raises(IllegalEvent):
        j.append({"type": "skip_to", "player": 7})
    assert j.events == [{"type": "next"}] and j.state.table.current == 1


def test_resume_after_reopening_the_database(tmp_path):
    path = tmp_path / "j.db"
    with Store(path) as s:
        assert s.resume() is None
        j = s.new_game(HEADER)
        for e in ({"type": "next"}, {"type": "skip"}, {"type": "next"}, {"type": "reverse"}):
            j.append(e)
        j.undo()
    with Store(path) as s:
        j = s.resume()
        assert j.events == [{"type": "next"}, {"type": "skip"}, {"type": "next"}]
        assert j.state.table.current == 3
        assert j.redo_stack == [{"type": "reverse"}]  # undone events survive for redo
        j.redo()
        j.undo()
        j.undo()
    with Store(path) as s:
        j = s.resume()
        assert j.events == [{"type": "next"}, {"type": "skip"}]
        assert j.redo_stack == [{"type": "reverse"}, {"type": "next"}]
        assert j.redo() == {"type": "next"} and j.redo() == {"type": "reverse"}


def test_nothing_recorded_is_deleted(tmp_path):
    path = tmp_path / "j.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        j.append({"type": "next"})
        j.undo()
        j.append({"type": "skip"})  # the undone `next` is dropped from the game, not deleted
    db = sqlite3.connect(path)
    rows = db.execute("SELECT body, status FROM events ORDER BY row").fetchall()
    assert rows == [('{"type": "next"}', "dropped"), ('{"type": "skip"}', "active")]


def test_wal_and_full_sync(tmp_path):
    with Store(tmp_path / "j.db") as s:
        assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_new_game_closes_the_old_one_but_keeps_it(tmp_path):
    with Store(tmp_path / "j.db") as s:
        a = s.new_game(HEADER)
        a.append({"type": "next"})
        b = s.new_game(Header("table", ("X", "Y")))
        b.append({"type": "skip"})
        assert s.resume().header.players == ("X", "Y")
        games = s.games()
        assert [g.events for g in games] == [1, 1]
        assert s.load(games[0].id).events == [{"type": "next"}]


def test_a_bad_header_writes_nothing(tmp_path):
    with Store(tmp_path / "j.db") as s:
        with pytest.raises(IllegalEvent):
            s.new_game(Header("table", ("Solo",)))
        assert s.games() == []


@pytest.mark.parametrize("damage", ["garbage", "truncate", "bad-event"])
def test_a_damaged_database_is_set_aside_and_a_fresh_one_started(tmp_path, damage):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        for _ in range(50):
            j.append({"type": "next"})
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    elif damage == "truncate":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:
        db = sqlite3.connect(path)
        db.execute("UPDATE events SET body='{\"type\": \"fly\"}' WHERE seq=3")
        db.commit()
        db.close()
    original = path.read_bytes()
    with Store(path) as s:
        assert "kept as" in s.notice
        assert s.resume() is None
        assert s.integrity() == "ok"
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(
        ("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == original
