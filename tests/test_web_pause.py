"""Pause's answers to a phone (issue 35, item 7): a Pause that meets a full disk says why, in
the panel's words ("Not saved: disk full", as every other failed save, docs/journal.md "A
full disk"), and a Pause that worked gets no "did" saying "the page is behind the box" (it
moved no turn: the answer's `paused` says what it did)."""

from __future__ import annotations

import sqlite3

import pytest
from test_web_api import Served


@pytest.fixture
def served(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    s.pair()
    s.new_game("table", ["Ann", "Ben", "Cy"])
    yield s
    s.close()


def seq(served) -> int:
    return served.get("/api/state")["seq"]


def test_a_pause_from_the_page_gets_no_word_about_being_behind(served):
    for paused in (True, False, True):
        status, answer = served.post("/api/pause", {"paused": paused, "seq": seq(served)})
        assert status == 200 and answer["paused"] is paused, answer
        assert "did" not in answer, answer
        served.web.clock.advance(1)  # past the double-tap window: each is a new tap
    # A page that is really behind (a NEXT since its snapshot) is still told so on a press.
    old = seq(served)
    assert served.post("/api/press", {"button": "NEXT", "seq": old})[0] == 200
    served.web.clock.advance(1)
    status, answer = served.post("/api/press", {"button": "NEXT", "seq": old})
    assert status == 409 and answer["error"].startswith("the game moved on: ")


def _fill(served) -> None:
    """SQLite's own SQLITE_FULL (tests/test_disk_full.py): no page beyond those the journal
    has, its free pages filled, then its pauses' table filled with rows the size of the
    pause's own (a game 0 that does not exist), so that row finds no room."""
    db = served.store.db
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")
    try:
        db.execute("CREATE TABLE filler(x)")  # refused already when no page is free
        fills = ["INSERT INTO filler VALUES (zeroblob(500))"]
    except sqlite3.OperationalError as e:
        assert "full" in str(e)
        fills = []
    for sql in [*fills, "INSERT INTO pauses(game_id, left_at) VALUES (0, 1e9)"]:
        try:
            while True:
                db.execute(sql)
        except sqlite3.OperationalError as e:
            assert "full" in str(e)


def _read_only_start(served) -> None:
    served.store.unwritable = "the disk is full"


@pytest.mark.parametrize("make_full", [_fill, _read_only_start], ids=["full", "read-only"])
def test_a_pause_on_a_full_disk_says_disk_full(served, make_full):
    make_full(served)
    status, answer = served.post("/api/pause", {"paused": True, "seq": seq(served)})
    assert (status, answer) == (503, {"error": "Not saved: disk full"})
    assert served.get("/api/state")["clock"]["paused"] is False  # nothing changed
    assert served.app.toast[0] == "Not saved: disk full"  # the panel says the same
