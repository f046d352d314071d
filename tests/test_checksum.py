"""Checksummed journal rows: a changed, deleted, reordered or re-statused row is found by
`Store.verify`, marks the unfinished game broken at start, fails `companion doctor` and
`companion export` (unless --force); a schema 1 journal is upgraded once, after a backup."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings, strategies as st

from companion import cli
from companion.cli import doctor
from companion.drivers.display import dummy
from companion.errors import JournalError
from companion.rules.game import Header
from companion.session.store import BUSY_TIMEOUT, Store

HEADER = Header("table", ("Ann", "Ben", "Cy", "Dee"))


def played(path, events=({"type": "next"},) * 5, *, undo=0):
    with Store(path) as s:
        j = s.new_game(HEADER)
        for e in events:
            j.append(e)
        for _ in range(undo):
            j.undo()
        return s.game_id(j)


def edit(path, sql, *args):
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def run_doctor(tmp_path, path):
    out = io.StringIO()
    status = doctor.main(["--config", str(tmp_path / "none.toml"), "--journal", str(path)],
                         out=out, factory=MockFactory(), open_display=lambda cfg: dummy(),
                         comports=lambda: [])
    return status, next(x for x in out.getvalue().splitlines() if " journal:" in x)


def findings(path, game=1):
    with Store(path, read_only=True) as s:
        return [str(m) for m in s.verify(game)]


def test_undo_redo_and_a_new_event_after_undo_keep_the_chain_valid(tmp_path):
    path = tmp_path / "j.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        for e in ({"type": "next"}, {"type": "skip"}, {"type": "next"}):
            j.append(e)
        j.undo()
        j.undo()
        j.redo()
        j.append({"type": "reverse"})  # drops the other undone row
        assert s.verify(1) == []
    assert findings(path) == []
    with Store(path) as s:
        assert s.notice == "" and s.resume().events == [
            {"type": "next"}, {"type": "skip"}, {"type": "reverse"}]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["next", "skip", "undo", "redo"]), max_size=25))
def test_any_play_verifies_and_resumes_as_played(tmp_path_factory, moves):
    path = tmp_path_factory.mktemp("j") / "j.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        for m in moves:
            if m == "undo" and j.can_undo:
                j.undo()
            elif m == "redo" and j.can_redo:
                j.redo()
            elif m in ("next", "skip"):
                j.append({"type": m})
        events, redo = list(j.events), list(j.redo_stack)
    assert findings(path) == []
    with Store(path) as s:
        again = s.resume()
        assert s.notice == "" and again.events == events and again.redo_stack == redo


def test_a_legal_edit_next_to_skip_is_caught_and_breaks_the_unfinished_game(tmp_path):
    path = tmp_path / "j.db"
    played(path)
    edit(path, "UPDATE events SET body='{\"type\": \"skip\"}' WHERE seq=2")
    assert findings(path) == ["game 1, row 3 (event 2): checksum does not match "
                              "(the row was changed)"]
    with Store(path) as s:  # it still replays, as a different game: not resumed all the same
        assert s.notice.startswith("Not resumed: game 1, row 3 (event 2): checksum does not match")
        assert s.resume() is None
        assert s.db.execute("SELECT status FROM games WHERE id=1").fetchone() == ("broken",)


@pytest.mark.parametrize("sql, where, why", [
    ("DELETE FROM events WHERE row=3", "row 4 (event 3)", "a row before it was removed"),
    ("DELETE FROM events WHERE row=5", "end", "its last row was removed"),
    ("UPDATE events SET row=row+100 WHERE row IN (2, 3)", "row 4 (event 3)",
     "a row before it was removed, or rows were moved"),
    ("UPDATE events SET at=at+1 WHERE row=1", "row 1 (event 0)", "the row was changed"),
    ("UPDATE events SET seq=7 WHERE row=5", "row 5 (event 7)", "the row was changed"),
    ("UPDATE events SET status='undone' WHERE row=5", "row 5 (event 4)",
     "its status was changed from 'active' to 'undone'"),
    ("UPDATE games SET header='{\"game\": \"table\", \"players\": [\"Ann\", \"Ben\"]}'",
     "header", "the header was changed"),
    ("INSERT INTO events(game_id, seq, body, at) VALUES (1, 5, '{\"type\": \"next\"}', 9)",
     "row 6 (event 5)", "the row was changed"),
])
def test_deleted_moved_edited_and_added_rows_are_caught(tmp_path, sql, where, why):
    path = tmp_path / "j.db"
    played(path)
    assert findings(path) == []
    edit(path, sql)
    found = findings(path)
    assert found and found[0].startswith(f"game 1, {where}: checksum does not match (")
    assert why in found[0]


def test_swapped_bodies_are_caught_at_both_rows(tmp_path):
    path = tmp_path / "j.db"
    played(path, [{"type": "next"}, {"type": "skip"}, {"type": "next"}])
    db = sqlite3.connect(path)
    a, b = (db.execute("SELECT body FROM events WHERE row=?", (r,)).fetchone()[0] for r in (1, 2))
    db.execute("UPDATE events SET body=? WHERE row=1", (b,))
    db.execute("UPDATE events SET body=? WHERE row=2", (a,))
    db.commit()
    db.close()
    assert [f.split(":")[0] for f in findings(path)] == ["game 1, row 1 (event 0)",
                                                         "game 1, row 2 (event 1)"]


def test_a_row_moved_into_another_game_is_caught_in_both(tmp_path):
    path = tmp_path / "j.db"
    played(path)
    played(path)
    # Game 1's last row (game 2 has an active event 4 too: only without the index that
    # keeps one active row per place, dropped by hand as well).
    edit(path, "DROP INDEX events_active_seq")
    edit(path, "UPDATE events SET game_id=2 WHERE row=5")
    assert "its last row was removed" in findings(path, 1)[0]
    assert findings(path, 2)[0].startswith("game 2, row 5 (event 4): checksum does not match")


def test_an_undo_of_a_row_changed_while_open_is_not_saved_and_not_re_summed(tmp_path):
    path = tmp_path / "j.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        j.append({"type": "next"})
        edit(path, "UPDATE events SET body='{\"type\": \"skip\"}' WHERE row=1")
        with pytest.raises(JournalError, match="not saved: game 1, row 1 .*checksum does not"):
            j.undo()
        assert j.events == [{"type": "next"}]
    assert "the row was changed" in findings(path)[0]


def test_doctor_checks_every_game_and_names_game_and_row(tmp_path):
    path = tmp_path / "j.db"
    played(path)
    played(path)  # game 1 is now closed: doctor checks it all the same
    edit(path, "UPDATE events SET body='{\"type\": \"skip\"}' WHERE game_id=1 AND seq=1")
    status, line = run_doctor(tmp_path, path)
    assert status == 1
    assert line == (f"FAIL  journal: {path}: game 1, row 2 (event 1): checksum does not match "
                    "(the row was changed)")


def test_export_fails_on_an_altered_game_unless_forced(tmp_path, capsys):
    path = tmp_path / "j.db"
    played(path)
    edit(path, "UPDATE events SET body='{\"type\": \"skip\"}' WHERE seq=2")
    out = tmp_path / "out.jsonl"
    assert cli.main(["export", "--journal", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "game 1, row 3 (event 2): checksum does not match (the row was changed)" in err
    assert "--force" in err and not out.exists()
    assert cli.main(["export", "--journal", str(path), "-o", str(out), "--force"]) == 0
    err = capsys.readouterr().err
    assert "altered: game 1, row 3 (event 2): checksum does not match" in err
    assert "written anyway" in err
    line = json.loads(out.read_text().splitlines()[3])  # the log as it is now, with its time
    assert line.pop("at") > 0 and line == {"type": "skip"}
    assert cli.main(["export", "--journal", str(path), "--list"]) == 0
    assert capsys.readouterr().out.endswith("\t5 events\taltered (checksum does not match)\n")


def test_a_locked_journal_gives_up_well_before_five_seconds(tmp_path):
    path = tmp_path / "j.db"
    with Store(path) as s:
        assert s.db.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_TIMEOUT * 1000 <= 500
        j = s.new_game(HEADER)
        blocker = sqlite3.connect(path, timeout=0)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(JournalError, match="not saved: database is locked"):
                j.append({"type": "next"})
        finally:
            blocker.rollback()
            blocker.close()
    with Store(path, read_only=True) as s:
        assert s.db.execute("PRAGMA busy_timeout").fetchone()[0] <= 500


# --- schema 1 -> 2 --------------------------------------------------------------------------

# The schema 1 tables exactly as the companion wrote them before checksums.
SCHEMA_1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    row INTEGER PRIMARY KEY,
    body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    at REAL NOT NULL
);
CREATE INDEX events_game ON events(game_id, status, seq);
"""

OLD_ROWS = [  # game 1 closed; game 2 open: skip, next (undone), reverse (dropped)
    (1, 0, '{"type": "next"}', "active"),
    (2, 0, '{"type": "skip"}', "active"),
    (2, 1, '{"type": "reverse"}', "dropped"),
    (2, 1, '{"type": "next"}', "undone"),
]


def old_journal(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(SCHEMA_1)
    db.execute("INSERT INTO games(header, created, status) VALUES (?, 1000, 'closed')",
               ('{"game": "table", "players": ["X", "Y"], "first": 0, "rules": {}}',))
    db.execute("INSERT INTO games(header, created) VALUES (?, 2000)",
               ('{"game": "table", "players": ["Ann", "Ben", "Cy"], "first": 0, "rules": {}}',))
    for gid, seq, body, status in OLD_ROWS:
        db.execute("INSERT INTO events(game_id, seq, body, status, at) VALUES (?, ?, ?, ?, 3000)",
                   (gid, seq, body, status))
    db.execute("PRAGMA user_version=1")
    return db  # left open, as the companion would be, with the WAL not checkpointed


def test_a_schema_1_journal_is_backed_up_then_given_checksums_once(tmp_path):
    path = tmp_path / "journal.db"
    live = old_journal(path)
    try:
        with Store(path, clock=lambda: 1_700_000_000) as s:
            assert s.schema == 3 and s.backup is not None  # straight to schema 3
            assert s.backup.name.startswith("journal.db.pre-v3-")
            assert s.verify(1) == [] and s.verify(2) == []
            j = s.resume()
            assert j.events == [{"type": "skip"}] and j.redo_stack == [{"type": "next"}]
            j.redo()
            j.append({"type": "next"})
            assert s.verify(2) == []
    finally:
        live.close()
    backup = s.backup
    copy = sqlite3.connect(backup)
    assert copy.execute("PRAGMA user_version").fetchone() == (1,)
    assert copy.execute("SELECT game_id, seq, body, status FROM events ORDER BY row"
                        ).fetchall() == OLD_ROWS
    copy.close()
    with Store(path) as s:  # once: no second backup, and no notice
        assert s.backup is None and s.notice == ""
        assert s.db.execute("PRAGMA user_version").fetchone() == (3,)
    assert [p.name for p in tmp_path.iterdir() if ".pre-v3-" in p.name] == [backup.name]
    edit(path, "UPDATE events SET body='{\"type\": \"skip\"}' WHERE row=1")  # then caught
    assert findings(path)[0].startswith("game 1, row 1 (event 0): checksum does not match")


def test_a_schema_1_journal_read_only_is_left_alone_and_doctor_says_so(tmp_path):
    path = tmp_path / "journal.db"
    old_journal(path).close()
    before = path.read_bytes()
    with Store(path, read_only=True) as s:
        assert s.schema == 1 and s.verify(2) == [] and s.resume().events == [{"type": "skip"}]
    status, line = run_doctor(tmp_path, path)
    assert "no checksums yet (schema 1" in line and line.startswith("OK")
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if ".pre-v" in p.name]  # no backup: no upgrade


def test_an_upgrade_locked_out_leaves_no_backup_copy_per_try(tmp_path):
    """A lock held elsewhere stops the upgrade after its copy was made: the copy went too,
    so a service restarted ten times does not leave ten copies."""
    path = tmp_path / "journal.db"
    old_journal(path).close()
    blocker = sqlite3.connect(path, timeout=0)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        for _ in range(2):
            with pytest.raises(JournalError, match="locked"):
                Store(path)
    finally:
        blocker.rollback()
        blocker.close()
    assert not [p for p in tmp_path.iterdir() if ".pre-v" in p.name]
    with Store(path) as s:
        assert s.schema == 3 and s.backup is not None
    assert len([p for p in tmp_path.iterdir() if ".pre-v" in p.name]) == 1


def test_an_upgrade_that_cannot_make_its_backup_changes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "journal.db"
    old_journal(path).close()

    def no_room(self, target, *, db=None):
        Path(target).write_bytes(b"SQLite format 3\0")  # half made when the disk filled up
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Store, "backup_to", no_room)
    with pytest.raises(JournalError, match="backup copy .* could not be made .*nothing was"):
        Store(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db"]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (1,)
    assert "chain" not in {r[1] for r in db.execute("PRAGMA table_info(events)")}
    db.close()


def test_the_app_starts_without_the_altered_game_and_says_which_row(make_app, tmp_path):
    from companion.ui.screen import TextScreen
    from companion.ui.start import StartScreen

    path = tmp_path / "journal.db"
    played(path)
    edit(path, "UPDATE events SET body='{\"type\": \"skip\"}' WHERE seq=2")
    app = make_app(path=path)
    assert app.journal is None  # not resumed, though it would still replay
    assert isinstance(app.top, TextScreen) and isinstance(app.stack[0], StartScreen)
    assert "game 1, row 3 (event 2): checksum does not match" in " ".join(app.top.raw)


MUTATIONS = st.sampled_from(["body", "status", "seq", "at", "delete", "swap", "game", "header"])


@settings(max_examples=60, deadline=None)
@given(moves=st.lists(st.sampled_from(["next", "skip", "reverse", "undo", "redo"]), min_size=1,
                      max_size=15),
       mutation=MUTATIONS, pick=st.integers(0, 10**6), other=st.integers(0, 10**6))
def test_any_single_change_to_the_rows_is_caught(tmp_path_factory, moves, mutation, pick, other):
    path = tmp_path_factory.mktemp("j") / "j.db"
    with Store(path, clock=iter(range(10**6)).__next__) as s:
        j = s.new_game(HEADER)
        for m in moves:
            if m == "undo" and j.can_undo:
                j.undo()
            elif m == "redo" and j.can_redo:
                j.redo()
            elif m not in ("undo", "redo"):
                j.append({"type": m})
        rows = [r for r, in s.db.execute("SELECT row FROM events ORDER BY row")]
    if not rows:
        rows = [None]
    row = rows[pick % len(rows)]
    db = sqlite3.connect(path)
    db.execute("DROP INDEX events_active_seq")  # else some edits are refused (test_journal)
    if mutation == "header":
        db.execute("UPDATE games SET header=replace(header, 'Ann', 'Anne')")
    elif row is None:
        return  # nothing was recorded: only the header can change
    elif mutation == "body":
        body = db.execute("SELECT body FROM events WHERE row=?", (row,)).fetchone()[0]
        new = '{"type": "skip"}' if body != '{"type": "skip"}' else '{"type": "next"}'
        db.execute("UPDATE events SET body=? WHERE row=?", (new, row))
    elif mutation == "status":
        status = db.execute("SELECT status FROM events WHERE row=?", (row,)).fetchone()[0]
        others = [x for x in ("active", "undone", "dropped") if x != status]
        db.execute("UPDATE events SET status=? WHERE row=?", (others[other % 2], row))
    elif mutation == "seq":
        db.execute("UPDATE events SET seq=seq+1 WHERE row=?", (row,))
    elif mutation == "at":
        db.execute("UPDATE events SET at=at+0.5 WHERE row=?", (row,))
    elif mutation == "delete":
        db.execute("DELETE FROM events WHERE row=?", (row,))
    elif mutation == "game":
        db.execute("INSERT INTO games(header, created) SELECT header, created FROM games")
        db.execute("UPDATE events SET game_id=2 WHERE row=?", (row,))
    elif mutation == "swap":
        second = rows[other % len(rows)]
        if second == row:
            return
        db.execute("UPDATE events SET row=-1 WHERE row=?", (row,))
        db.execute("UPDATE events SET row=? WHERE row=?", (row, second))
        db.execute("UPDATE events SET row=? WHERE row=-1", (second,))
    db.commit()
    db.close()
    assert findings(path), f"{mutation} of row {row} went unnoticed"


# --- found in review: export of a game that no longer replays, imports, empty files ---------

@pytest.mark.parametrize("body", [b'{"type": "nex\xff"}', b'{"type": "ne', b'{"type": "fly"}'])
def test_export_of_a_game_that_no_longer_replays_is_one_line_and_force_writes_its_rows(
        tmp_path, capsys, body):
    """A byte that is not UTF-8, a row that is not JSON, an illegal event: `export` said so in
    a traceback, even with --force (the way the docs give to get a broken game out)."""
    path = tmp_path / "j.db"
    played(path)
    edit(path, "UPDATE events SET body=CAST(? AS TEXT) WHERE seq=2", body)
    out = tmp_path / "out.jsonl"
    for game in ([], ["--game", "1"]):  # the open game, and by number
        assert cli.main(["export", "--journal", str(path), "-o", str(out), *game]) == 1
        err = capsys.readouterr().err
        assert "checksum does not match" in err and "Traceback" not in err
    assert cli.main(["export", "--journal", str(path), "-o", str(out), "--force"]) == 0
    err = capsys.readouterr().err
    assert "altered: game 1, row 3 (event 2)" in err and "Traceback" not in err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and lines[0].startswith('{"game": "table"')
    assert lines[3] == body.decode("utf-8", "replace")


def test_a_deleted_row_is_named_by_export_and_force_writes_what_is_left(tmp_path, capsys):
    path = tmp_path / "j.db"
    played(path)
    edit(path, "DELETE FROM events WHERE seq=2")
    out = tmp_path / "out.jsonl"
    assert cli.main(["export", "--journal", str(path), "-o", str(out)]) == 1
    assert "checksum does not match" in capsys.readouterr().err
    assert cli.main(["export", "--journal", str(path), "-o", str(out), "--force"]) == 0
    err = capsys.readouterr().err
    assert "no longer replays" in err and "written anyway" in err
    assert len(out.read_text().splitlines()) == 5  # the header and the four rows left


def test_export_of_a_missing_game_is_one_line(tmp_path, capsys):
    path = tmp_path / "j.db"
    played(path)
    assert cli.main(["export", "--journal", str(path), "--game", "9", "--force"]) == 1
    assert "no game 9 in the journal" in capsys.readouterr().err


def test_an_altered_import_waiting_to_be_resumed_is_marked_broken(tmp_path, capsys):
    src = tmp_path / "a.db"
    played(src)
    log = tmp_path / "g.jsonl"
    assert cli.main(["export", "--journal", str(src), "-o", str(log)]) == 0
    path = tmp_path / "j.db"
    assert cli.main(["import", str(log), "--journal", str(path)]) == 0
    with Store(path) as s:
        assert [u.status for u in s.unfinished()] == ["parked"]
    edit(path, "UPDATE events SET body='{\"type\": \"skip\"}' WHERE seq=1")
    with Store(path) as s:
        assert "Not resumed: game 1, row 2 (event 1): checksum does not match" in s.notice
        assert s.unfinished() == []  # broken: not offered
    status = sqlite3.connect(path).execute("SELECT status FROM games").fetchone()[0]
    assert status == "broken"


@pytest.mark.parametrize("command", [["export"], ["export", "--list"], ["stats"],
                                     ["stats", "--json"]])
def test_an_empty_journal_file_reads_as_no_games(tmp_path, capsys, command):
    """A journal file with no tables yet (touched, or a power cut before its first write)."""
    path = tmp_path / "j.db"
    path.write_bytes(b"")
    status = cli.main([*command, "--journal", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "no such table" not in captured.err
    assert status == (1 if command == ["export"] else 0)
    assert path.read_bytes() == b""  # read-only: nothing written
    # The doctor says so (issue 35, item 7): a journal cut off to 0 bytes has lost its games.
    status, line = run_doctor(tmp_path, path)
    assert status == 1 and line.startswith(f"FAIL  journal: {path} is empty (0 bytes)")
    assert path.read_bytes() == b""
