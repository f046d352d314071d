"""The journal: undo/redo across turns, persistence, resume, damaged databases set aside."""

from __future__ import annotations

import sqlite3

import pytest

from companion.errors import IllegalEvent, JournalError
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


@pytest.mark.parametrize("damage", ["garbage", "truncate"])
def test_a_damaged_database_is_set_aside_and_a_fresh_one_started(tmp_path, damage):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        for _ in range(50):
            j.append({"type": "next"})
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    else:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    original = path.read_bytes()
    with Store(path) as s:
        assert "kept as" in s.notice
        assert s.resume() is None
        assert s.integrity() == "ok"
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(
        ("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == original


@pytest.mark.parametrize("edit", [("games", "status TEXT", "statur TEXT"),
                                  ("events", "body TEXT", "bodx TEXT"),
                                  ("games", "TABLE games", "TABLE gamer")])
def test_a_flipped_bit_in_a_table_definition_is_damage(tmp_path, edit):
    """PRAGMA integrity_check passes such a file, then every query failed ("no such column:
    status") and start-up stopped (found by test_fuzz): it is set aside like any damage."""
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
    table, old, new = edit
    db = sqlite3.connect(path)
    db.execute("PRAGMA writable_schema=ON")
    db.execute("UPDATE sqlite_master SET sql=replace(sql, ?, ?) WHERE name=?", (old, new, table))
    db.commit()
    db.close()
    original = path.read_bytes()
    with Store(path) as s:
        assert "was damaged" in s.notice and "kept as" in s.notice
        assert s.resume() is None and s.games() == []
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(
        ("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == original


def test_another_programs_database_of_any_version_is_left_alone(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (t TEXT)")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    original = path.read_bytes()
    with pytest.raises(JournalError, match="not a companion journal"):
        Store(path)
    assert path.read_bytes() == original


def test_a_game_that_no_longer_replays_is_kept_but_not_resumed(tmp_path):
    """An illegal row (damage, or an event that changed rules now forbid) breaks one game,
    not the journal: nothing is moved, the other games stay, and export still has it."""
    path = tmp_path / "journal.db"
    with Store(path) as s:
        old = s.new_game(Header("table", ("X", "Y")))
        old.append({"type": "skip"})
        j = s.new_game(HEADER)
        for _ in range(5):
            j.append({"type": "next"})
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body='{\"type\": \"fly\"}' WHERE game_id=2 AND seq=3")
    db.commit()
    db.close()
    with Store(path) as s:
        assert "Not resumed: game 2 no longer replays" in s.notice
        assert "unknown event type 'fly'" in s.notice
        assert s.resume() is None
        assert [g.id for g in s.games()] == [1, 2]
        assert s.load(1).events == [{"type": "skip"}]
    assert [p.name for p in tmp_path.iterdir() if "damaged" in p.name] == []
    status = sqlite3.connect(path).execute("SELECT status FROM games WHERE id=2").fetchone()[0]
    assert status == "broken"


def test_events_out_of_sequence_break_their_game(tmp_path):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        for _ in range(3):
            j.append({"type": "next"})
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET seq=seq+10")  # a gap (two at one place: the schema refuses)
    db.commit()
    db.close()
    with Store(path) as s:
        assert "not numbered" in s.notice and s.resume() is None


def test_a_locked_journal_is_an_error_and_is_not_moved(tmp_path):
    from companion.errors import JournalError

    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
    blocker = sqlite3.connect(path, timeout=0)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalError, match="locked"):
            Store(path)
    finally:
        blocker.rollback()
        blocker.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db"]
    with Store(path) as s:
        assert s.resume().events == [{"type": "next"}]


def test_a_write_that_fails_changes_nothing_in_memory(tmp_path):
    from companion.errors import JournalError

    path = tmp_path / "journal.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        j.append({"type": "next"})
        blocker = sqlite3.connect(path, timeout=0)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(JournalError, match="not saved"):
                j.append({"type": "skip"})
            with pytest.raises(JournalError, match="not saved"):
                j.undo()
        finally:
            blocker.rollback()
            blocker.close()
        assert j.events == [{"type": "next"}] and j.state.table.current == 1
        j.append({"type": "skip"})  # the lock is gone: saving works again
    with Store(path) as s:
        assert s.resume().events == [{"type": "next"}, {"type": "skip"}]


@pytest.mark.parametrize("what", ["directory", "foreign", "newer"])
def test_paths_that_are_not_our_journal_are_refused_and_left_alone(tmp_path, what):
    from companion.errors import JournalError

    path = tmp_path / "journal.db"
    if what == "directory":
        path.mkdir()
        words = "is not a file"
    else:
        db = sqlite3.connect(path)
        if what == "foreign":
            db.execute("CREATE TABLE recipes (name TEXT)")
            words = "not a companion journal"
        else:
            db.execute("PRAGMA user_version=99")
            words = "newer version"
        db.commit()
        db.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(JournalError, match=words):
        Store(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("version", [0, 4, 6, 16777218])
def test_a_flipped_version_field_on_our_own_tables_is_damage(tmp_path, version):
    """The tables are schema 3's to the column and nothing else, the header's user_version
    is not (test_fuzz flipped a bit of it): set aside, not "a newer version" nor "another
    program's" forever. A newer journal changes its tables, and is left alone (above)."""
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={version}")
    db.commit()
    db.close()
    with Store(path) as s:
        assert f"schema version reads {version}" in s.notice and "kept as" in s.notice
    newer = tmp_path / "newer.db"
    with Store(newer) as s:
        s.new_game(HEADER)
    db = sqlite3.connect(newer)
    db.execute("ALTER TABLE games ADD COLUMN colour TEXT")  # what a schema 4 might add
    db.execute("PRAGMA user_version=4")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="newer version"):
        Store(newer)


def test_a_flipped_write_format_byte_is_damage(tmp_path):
    """Offset 18 of the header, 2 flipped to 34: SQLite opens the file read-only and every
    write failed, so start-up stopped (found by a bit-flip sweep)."""
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
    raw = bytearray(path.read_bytes())
    raw[18] ^= 1 << 5
    path.write_bytes(bytes(raw))
    with Store(path) as s:
        assert "write format reads 34" in s.notice and "kept as" in s.notice
        s.new_game(HEADER).append({"type": "next"})  # the fresh journal takes writes


def test_a_table_name_that_is_not_utf8_is_damage(tmp_path):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
    raw = bytearray(path.read_bytes())
    at = raw.index(b"status TEXT NOT NULL DEFAULT 'open'")
    raw[at + 5] = 0xF3  # "statu\xf3": not UTF-8
    path.write_bytes(bytes(raw))
    with Store(path) as s:
        assert "was damaged" in s.notice


def test_read_only_never_writes_or_moves(tmp_path):
    from companion.errors import JournalError

    with pytest.raises(JournalError, match="no journal"):
        Store(tmp_path / "missing.db", read_only=True)
    assert not (tmp_path / "missing.db").exists()
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"not a database at all" * 50)
    with pytest.raises(JournalError, match="damaged"):
        Store(damaged, read_only=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.db"]


def test_a_row_that_is_not_utf8_breaks_its_game_not_the_start(tmp_path):
    """Found by tests/test_fuzz.py: a flipped bit left invalid UTF-8 in an event's text."""
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body=CAST(X'7B2274797065FF223A20226E657874227D' AS TEXT)")
    db.execute("UPDATE games SET header=CAST(X'7BFF7D' AS TEXT)")
    db.commit()
    db.close()
    with Store(path) as s:
        assert "Not resumed: game 1 no longer replays" in s.notice and s.resume() is None
        assert [(g.id, g.header) for g in s.games()] == [(1, None)]


def test_a_header_whose_kind_was_changed_is_altered_not_a_kind_to_wait_for(tmp_path,
                                                                           monkeypatch):
    """Found by the journal fuzz (tests/test_fuzz.py, issue 35's rerun): one flipped bit made
    "penny-badger" "peony-badger" in an unfinished game's header, and the start waited for a
    game kind "not installed" instead of saying the header was changed. A header whose
    checksum does not match is altered, whatever kind it names: not resumed, kept."""
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(Header("penny-badger", ("Ann", "Ben", "Cy"))).append({"type": "pass"})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET header = replace(header, 'penny', 'peony')")
    with Store(path) as s:
        assert s.notice == ("Not resumed: game 1, header: checksum does not match (the header "
                            "was changed). It is kept in the journal (companion export --list).")
        assert s.resume() is None
    with Store(path) as s:  # marked broken: told once
        assert s.notice == ""
    # A game of a kind truly not installed, its checksums intact, still waits for it.
    with Store(path) as s:
        j = s.new_game(Header("penny-badger", ("Ann", "Ben", "Cy")))
        j.append({"type": "pass"})
    import companion.games as registry
    real = registry.find
    monkeypatch.setattr(registry, "find", lambda kind: None if kind == "penny-badger"
                        else real(kind))
    with Store(path) as s:
        assert s.notice.startswith("Waiting for a game kind that is not installed: game 2 "
                                   "(penny-badger).")
