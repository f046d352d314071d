"""One tap no longer throws a game away (issue #18, part 3): a new game parks the unfinished
one, and any unfinished game in the journal can be resumed, from the panel's start menu and
from a paired phone (/api/resume, the Resume buttons of /games)."""

from __future__ import annotations

import pytest

from companion.inputs import Button
from companion.rules.game import Header
from companion.session.store import CannotResume, Store
from companion.testing import choose, press
from companion.ui.start import ResumeScreen, StartScreen
from companion.ui.table import EndScreen, TableScreen


def start_table_game(app, players: int = 4) -> None:
    choose(app, "New game")
    choose(app, "Table")
    for _ in range(players - 4):
        press(app, Button.UP)
    press(app, Button.OK)  # players
    press(app, Button.OK)  # house rules read
    press(app, Button.OK)  # first player: the first seat


def leave(app) -> None:
    press(app, Button.OK, hold=True)
    choose(app, "Leave to start")
    press(app, Button.OK)  # "Leave this game?" yes


def labels(app) -> list[str]:
    return [item.text(app.ctx()) for item in app.top.items]


def status(store: Store, gid: int) -> str:
    return store.db.execute("SELECT status FROM games WHERE id=?", (gid,)).fetchone()[0]


def test_the_panel_parks_a_game_for_a_new_one_and_resumes_either(make_app, tmp_path):
    app = make_app()
    start_table_game(app)
    press(app, Button.NEXT)
    first = app.store.game_id(app.journal)
    leave(app)
    assert labels(app)[0] == f"Resume Table #{first}"
    start_table_game(app, players=5)  # from the start menu: the left game is set aside
    second = app.store.game_id(app.journal)
    assert status(app.store, first) == "parked" and status(app.store, second) == "open"
    press(app, Button.NEXT)
    press(app, Button.NEXT)
    leave(app)
    assert labels(app)[0] == "Resume (2 games)"
    choose(app, "Resume (2 games)")
    screen = app.top
    assert isinstance(screen, ResumeScreen)
    assert [(e.game_id, e.title, len(e.players)) for e in screen.entries] == [
        (second, "Table", 5), (first, "Table", 4)]  # newest move first
    assert screen.entries[0].when.count(":") == 1  # today: the time
    press(app, Button.DOWN)
    press(app, Button.OK)
    assert app.store.game_id(app.journal) == first and isinstance(app.top, TableScreen)
    assert app.journal.events[1:] == [{"type": "next"}]  # after the first player's event
    assert app.journal.state.table.current == 1
    assert status(app.store, first) == "open" and status(app.store, second) == "parked"
    press(app, Button.NEXT)  # it goes on where it was
    app.close()
    app.store.close()
    # After a restart the resumed game is the open one; the other still waits.
    app = make_app(path=tmp_path / "journal.db")
    assert app.store.game_id(app.journal) == first and len(app.journal.events) == 3
    leave(app)
    choose(app, "Resume (2 games)")
    assert [e.game_id for e in app.top.entries] == [first, second]
    press(app, Button.DOWN)
    press(app, Button.OK)
    assert app.store.game_id(app.journal) == second and len(app.journal.events) == 3
    # A finished game is not offered: end this one, leave, and only the other is left.
    press(app, Button.OK, hold=True)
    choose(app, "End game")
    press(app, Button.OK)
    assert isinstance(app.top, EndScreen)
    press(app, Button.OK)  # the end screen's menu: Play again, Start menu
    choose(app, "Start menu")
    assert isinstance(app.top, StartScreen) and labels(app)[0] == f"Resume Table #{first}"
    press(app, Button.OK)
    assert app.store.game_id(app.journal) == first
    # The finished game gave way: closed, not parked.
    assert status(app.store, second) == "closed"


def test_resume_list_moves_and_leaves(make_app):
    app = make_app()
    for players in (4, 5, 6):
        start_table_game(app, players)
        press(app, Button.NEXT)
        leave(app)
    choose(app, "Resume (3 games)")
    screen = app.top
    assert [len(e.players) for e in screen.entries] == [6, 5, 4]
    press(app, Button.UP)  # wraps to the last
    assert screen.cursor == 2
    before = app.frame().tobytes()
    press(app, Button.DOWN)
    assert screen.cursor == 0 and app.frame().tobytes() != before
    press(app, Button.BACK)
    assert isinstance(app.top, StartScreen) and app.journal is None


def test_store_lists_every_unfinished_game_and_resumes_only_those(tmp_path):
    clock = iter(range(1000, 2000, 10))
    with Store(tmp_path / "j.db", clock=lambda: next(clock)) as s:
        old = s.new_game(Header("table", ("A", "B")))  # 1: closed unfinished (an older box)
        old.append({"type": "next"})
        done = s.new_game(Header("table", ("A", "B")))  # 2: finished, closed
        done.append({"type": "end"})
        s.new_game(Header("table", ("C", "D")))  # 3: parked when 4 starts
        bad = s.new_game(Header("table", ("E", "F")), park=True)  # 4: broken
        bad.append({"type": "next"})
        s.db.execute("UPDATE games SET status='broken' WHERE id=4")
        cur = s.new_game(Header("table", ("G", "H")))  # 5: open, unfinished
        cur.append({"type": "skip"})
        old.append({"type": "next"})  # game 1 moved last: newest move
        assert [(u.id, u.status) for u in s.unfinished()] == [
            (1, "closed"), (5, "open"), (3, "parked")]
        assert s.unfinished()[0].events == 2
        for gid, words in ((2, "game 2 is finished"), (4, "game 4 is broken"),
                           (9, "no game 9")):
            with pytest.raises(CannotResume, match=words):
                s.reopen(gid, park=True)
        assert status(s, 5) == "open"  # refused: nothing changed
        j = s.reopen(1, park=True)
        assert j.events == [{"type": "next"}, {"type": "next"}]
        assert (status(s, 1), status(s, 5)) == ("open", "parked")
        j.append({"type": "skip"})  # its sink writes to game 1
    with Store(tmp_path / "j.db") as s:
        assert s.resume().events[-1] == {"type": "skip"} and s.open_id() == 1


def test_the_resume_list_replays_each_game_once_a_run(tmp_path, monkeypatch):
    """The start menu asks for the list after every game: a game whose content did not change
    is not replayed again (100 long games would block the buttons each time)."""
    with Store(tmp_path / "j.db") as s:
        for players in (("A", "B"), ("C", "D"), ("E", "F")):
            s.new_game(Header("table", players)).append({"type": "next"})
        replayed: list[int] = []
        real = Store.replay
        monkeypatch.setattr(Store, "replay", lambda self, row: (replayed.append(row.id),
                                                                 real(self, row))[1])
        first = s.unfinished()
        assert sorted(replayed) == [1, 2, 3]
        assert s.unfinished() == first and len(replayed) == 3
        j = s.reopen(2, park=True)
        j.append({"type": "end"})  # game 2 changed (finished): replayed, and no longer listed
        assert [u.id for u in s.unfinished()] == [3, 1] and replayed[3:] == [2]


def test_a_game_whose_rows_were_altered_is_not_resumed(tmp_path):
    with Store(tmp_path / "j.db") as s:
        j = s.new_game(Header("table", ("A", "B")))
        j.append({"type": "next"})
        s.new_game(Header("table", ("C", "D")))
        s.db.execute("UPDATE events SET body='{\"type\": \"skip\"}' WHERE game_id=1")
        with pytest.raises(CannotResume, match="checksum does not match"):
            s.reopen(1)
        assert s.open_id() == 2


def test_a_phone_resumes_a_game_and_must_name_the_one_it_sets_aside(tmp_path, config, clock):
    from test_web_api import Served
    served = Served(tmp_path, config, clock)
    try:
        served.pair()
        served.new_game("chaos", ["Ann", "Ben", "Cy"])
        chaos = served.get("/api/state")["game_id"]
        served.post("/api/action", {"event": {"type": "next"}})
        served.new_game("table", ["Ann", "Ben"])  # sets Chaos aside ("replaces")
        table = served.get("/api/state")
        seq = table["seq"]
        status, data = served.post("/api/resume", {"game": chaos, "seq": seq})
        assert (status, data) == (409, {"error": f'Table #{table["game_id"]} is not finished: '
                                                 f'send "replaces": {table["game_id"]} to set '
                                                 'it aside (it can be resumed later)'})
        assert served.get("/api/state") == table
        status, data = served.post("/api/resume", {"game": chaos, "seq": seq,
                                                   "replaces": table["game_id"]})
        assert status == 200 and data["seq"] > seq
        snap = served.get("/api/state")
        assert (snap["game"], snap["game_id"], snap["events"]) == ("chaos", chaos, 1)
        assert status_of(served, table["game_id"]) == "parked"
        # The same tap again, a second later (within 0.7 s it is a double tap: ignored): the
        # game moved on (stale), nothing changes.
        served.web.clock.advance(1)
        status, data = served.post("/api/resume", {"game": chaos, "seq": seq,
                                                   "replaces": table["game_id"]})
        assert status == 409 and data["error"].startswith("the game moved on: Chaos #")
        # Finished or unknown games are not resumed; bad ids are 400.
        served.post("/api/action", {"event": {"type": "end"}})
        for body, want in (({"game": table["game_id"] + 5}, 404), ({"game": 0}, 400),
                           ({"game": "1"}, 400), ({"game": chaos, "replaces": True}, 400)):
            assert served.post("/api/resume", body)[0] == want, body
        served.new_game("table", ["Zoe", "Yan"])  # Chaos is over: no "replaces" needed
        status, data = served.post("/api/resume", {"game": chaos})
        assert status == 409 and "finished" in data["error"]
        status, _ = served.post("/api/resume", {"game": table["game_id"],
                                                "replaces": served.get("/api/state")["game_id"]})
        assert status == 200 and served.get("/api/state")["game_id"] == table["game_id"]
    finally:
        served.close()


def status_of(served, gid: int) -> str:
    return served.store.db.execute("SELECT status FROM games WHERE id=?", (gid,)).fetchone()[0]


def test_opening_the_journal_replays_the_open_game_once(tmp_path, monkeypatch):
    """The start-up check replays the open game; resume() takes that replay, unless the game
    changed in between (then it replays it again, as it is now)."""
    from companion.rules.game import Header
    from companion.session import store as storemod

    path = tmp_path / "journal.db"
    with storemod.Store(path) as st:
        j = st.new_game(Header("table", ("Ann", "Ben", "Cy")))
        j.append({"type": "next"})
    loads = []
    real = storemod.Store._load
    monkeypatch.setattr(storemod.Store, "_load",
                        staticmethod(lambda db, gid: loads.append(gid) or real(db, gid)))
    with storemod.Store(path) as st:
        j = st.resume()
        assert loads == [1] and j.events == [{"type": "next"}]
        j.append({"type": "next"})  # still writes through its own sink
    with storemod.Store(path) as st:
        with storemod.Store(path) as other:  # changed after the check, before the resume
            other.resume().append({"type": "skip"})
        loads.clear()
        assert st.resume().events == [{"type": "next"}] * 2 + [{"type": "skip"}]
        assert loads == [1]  # replayed again: the checked copy was stale
