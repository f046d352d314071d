"""What `companion doctor` notices about a journal's file (issue 35, items 2 and 7): a dropped
or replaced unique index, a journal cut off to 0 bytes, and a journal moved (`mv`) while a
companion runs on it, whose events are then in the old name's write-ahead log. The moved
journal is tried with a real companion process, stopped cleanly and killed."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from companion import cli
from companion.rules.game import Header
from companion.session.store import Store
from tests.test_doctor import run
from tests.test_one_writer import cfg_file, launch, play_one_event  # noqa: F401  (a fixture)


def journal_with_a_game(tmp_path):
    db = tmp_path / "state" / "j.db"
    db.parent.mkdir()
    with Store(db) as s:
        s.new_game(Header("table", ("Ann", "Ben"))).append({"type": "next"})
    return db


@pytest.mark.parametrize("sql, what", [
    ("DROP INDEX events_active_seq", "is missing"),
    ("DROP INDEX events_active_seq; CREATE INDEX events_active_seq ON events(game_id, seq)",
     "is not the unique one the schema makes")])
def test_a_dropped_or_replaced_unique_index_fails(tmp_path, sql, what):
    db = journal_with_a_game(tmp_path)
    with sqlite3.connect(db) as c:
        c.executescript(sql)
    status, lines, _ = run(tmp_path)
    assert status == 1
    assert lines["journal"] == (
        f"FAIL  journal: {db}: its unique index events_active_seq {what} (changed by hand?): "
        "two writers could record two events at one place; the next companion run makes it "
        "again, setting aside any event recorded twice")
    Store(db).close()  # a start makes it again (docs/journal.md)
    status, lines, _ = run(tmp_path)
    assert status == 0 and lines["journal"].startswith(f"OK    journal: {db}: integrity ok")


def test_a_journal_cut_off_to_nothing_fails(tmp_path):
    db = journal_with_a_game(tmp_path)
    os.truncate(db, 0)
    status, lines, _ = run(tmp_path)
    assert status == 1
    assert lines["journal"] == (
        f"FAIL  journal: {db} is empty (0 bytes): it holds no games. If it held games, it was "
        "cut off and they are gone from it: restore a copy (a phone's /backup, companion "
        "export logs, then companion import); if it is new, companion run makes it a journal")
    assert db.stat().st_size == 0  # the doctor writes nothing


def doctor_line(tmp_path, journal, config) -> tuple[int, str]:
    status, lines, _ = run(tmp_path, "--journal", str(journal),
                           config=config.read_text())
    return status, lines["journal"]


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["clean", "kill"])
def test_a_journal_moved_while_the_companion_runs_is_named(tmp_path, cfg_file, stop):  # noqa: F811
    state = tmp_path / "state"
    state.mkdir()
    journal, moved = state / "j.db", state / "k.db"
    box = launch(journal, cfg_file)
    try:
        acks = play_one_event(box)
        os.rename(journal, moved)  # mv j.db k.db, the box still running
        status, line = doctor_line(tmp_path, moved, cfg_file)
        assert status == 1
        assert line == (
            f"FAIL  journal: {moved}: integrity ok, checksums ok, but the companion running on "
            f"it (pid {box.pid}) writes its events to {journal}-wal, not beside this name: the "
            "journal was moved (mv) while it ran. Stop it cleanly (it then writes them into "
            "this file); a power cut or a kill before that leaves them in that log only "
            "(doctor then names it)")
        status, line = doctor_line(tmp_path, journal, cfg_file)  # by its old name
        assert status == 1 and line.startswith(
            f"FAIL  journal: none at {journal}, but {journal}-wal is a write-ahead log with no "
            "journal beside it: a journal moved (mv) or removed while a companion had it open")
    finally:
        if stop == "kill":
            box.kill()
        box.stdin.close()
        box.wait(timeout=60)
    acked = [json.loads(a.split(" ", 3)[3]) for a in acks if a.startswith("ack append")]
    if stop == "clean":  # the events went into the moved file: the old name's log is empty
        status, line = doctor_line(tmp_path, moved, cfg_file)
        assert status == 0 and line.startswith(f"OK    journal: {moved}: integrity ok"), line
        assert (state / "j.db-wal").stat().st_size == 0
    else:  # killed: they are in j.db-wal only, and the doctor says so by either name
        for name in (moved, journal):
            status, line = doctor_line(tmp_path, name, cfg_file)
            assert status == 1 and f"{journal}-wal is a write-ahead log with no journal " \
                "beside it" in line, line
        os.rename(moved, journal)  # what the message says: move it back, and they are there
    name = moved if stop == "clean" else journal
    assert cli.main(["export", "--journal", str(name), "--game", "1", "-o",
                     str(tmp_path / "1.jsonl")]) == 0
    events = [json.loads(x) for x in (tmp_path / "1.jsonl").read_text().splitlines()[1:]]
    assert [{k: v for k, v in e.items() if k != "at"} for e in events] == acked
