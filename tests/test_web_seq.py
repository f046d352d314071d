"""One tap is one action (issue #18, parts 2 and 4): every change from a phone carries the
`seq` of the snapshot it was asked on; on a stale one it is refused (409, what changed) and
nothing changes, except a press that commits nothing. A press the screen ignores says so."""

from __future__ import annotations

import threading

import pytest
from test_web_api import Served
from test_web_guests import choose, settle

from companion.inputs import Button, ButtonInput, Gesture


@pytest.fixture
def served(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    s.pair()
    yield s
    s.close()


def snap(served) -> dict:
    return served.get("/api/state")


def test_a_double_posted_pass_is_done_once(served):
    served.new_game("penny-badger", ["Ann", "Ben", "Cy"])
    seq = snap(served)["seq"]
    status, first = served.post("/api/action", {"event": {"type": "pass"}, "seq": seq})
    assert status == 200 and first["seq"] > seq
    served.web.clock.advance(1)  # not a double tap (below): the seq rule alone
    status, second = served.post("/api/action", {"event": {"type": "pass"}, "seq": seq})
    assert status == 409
    assert second["error"] == "the game moved on: Ann passed: Ann paid bank 1; it is Ben's turn"
    after = snap(served)
    assert served.app.journal.events == [{"type": "pass"}]
    assert after["state"]["current"] == 1 and after["seq"] == first["seq"]
    # With the seq it was answered, the next pass is Ben's.
    status, _ = served.post("/api/action", {"event": {"type": "pass"}, "seq": first["seq"]})
    assert status == 200 and snap(served)["state"]["current"] == 2


def test_the_409_says_what_changed_in_plain_words(served):
    served.new_game("table", ["Ann", "Ben", "Cy"])
    seq = snap(served)["seq"]
    served.post("/api/action", {"event": {"type": "skip"}, "seq": None})
    served.post("/api/action", {"event": {"type": "next"}, "seq": None})
    status, data = served.post("/api/press", {"button": "NEXT", "seq": seq})
    assert status == 409
    words = [served.app.journal.describe(0)]
    assert data["error"] == f"the game moved on: {words[0]} and 1 more; it is Cy's turn"
    seq = snap(served)["seq"]
    served.post("/api/undo", {"seq": seq})
    status, data = served.post("/api/redo", {"seq": seq})
    assert status == 409 and data["error"] == "the game moved on: 1 move undone; it is Ann's turn"
    served.web.clock.advance(1)  # not a double tap of Undo
    status, data = served.post("/api/undo", {"seq": 10_000})  # e.g. before a restart
    assert status == 409 and "old state of the game" in data["error"]
    assert len(served.app.journal.events) == 1


def test_two_phones_tapping_next_together_move_one_turn(served):
    served.new_game("table", ["Ann", "Ben", "Cy", "Dee"])
    for path, body in (("/api/press", {"button": "NEXT"}), ("/api/action", {"event": {"type": "next"}})):
        seq = snap(served)["seq"]
        turn = snap(served)["state"]["turns"]
        go = threading.Barrier(2)
        answers: list[int] = []

        def phone() -> None:
            go.wait()  # noqa: B023  (both phones are joined before the loop goes on)
            answers.append(served.post(path, {**body, "seq": seq})[0])  # noqa: B023

        phones = [threading.Thread(target=phone) for _ in range(2)]
        for t in phones:
            t.start()
        for t in phones:
            t.join(10)
        assert sorted(answers) == [200, 409], path
        assert snap(served)["state"]["turns"] == turn + 1, path


def test_without_seq_a_change_is_400_and_null_skips_the_check(served):
    served.new_game("table", ["Ann", "Ben"])
    before = snap(served)
    for path, body in (("/api/press", {"button": "NEXT"}), ("/api/action", {"event": {"type": "next"}}),
                       ("/api/undo", {}), ("/api/redo", {}), ("/api/roster", {"names": ["Ann"]}),
                       ("/api/new-game", {"game": "table", "players": ["A", "B"]}),
                       ("/api/resume", {"game": 1})):
        status, data, _ = served.request("POST", path, body)
        assert status == 400 and data["error"].startswith("seq is required"), path
    assert snap(served) == before
    stale = before["seq"] - 1
    assert served.post("/api/action", {"event": {"type": "next"}, "seq": stale})[0] == 409
    assert served.post("/api/action", {"event": {"type": "next"}, "seq": None})[0] == 200
    assert snap(served)["state"]["current"] == 1


def test_a_stale_press_that_commits_nothing_is_taken_one_that_commits_is_refused(served):
    from companion.ui.screen import Menu
    from companion.ui.table import TableScreen
    served.new_game("table", ["Ann", "Ben", "Cy"])
    stale = snap(served)["seq"]
    served.post("/api/action", {"event": {"type": "next"}, "seq": None})
    # Moving in a menu commits nothing: taken whatever the seq.
    assert served.post("/api/press", {"button": "HOLD OK", "seq": stale}) == (
        200, {"ok": True, "seq": snap(served)["seq"], "changed": True})
    menu = served.app.top
    assert isinstance(menu, Menu)
    status, data = served.post("/api/press", {"button": "DOWN", "seq": stale})
    assert status == 200 and data["changed"] and menu.cursor == 1
    status, data = served.post("/api/press", {"button": "UP", "seq": stale})
    assert status == 200 and menu.cursor == 0
    assert served.post("/api/press", {"button": "DOWN", "seq": stale})[0] == 200
    assert served.post("/api/press", {"button": "DOWN", "seq": stale})[0] == 200
    # OK on "Skip next player" would record a skip: refused, and the menu stays as it was.
    assert menu.items[2].text(served.app.ctx()) == "Skip next player"
    status, data = served.post("/api/press", {"button": "OK", "seq": stale})
    assert (status, data) == (409, {"error": "the game moved on: Ann's turn ended; it is "
                                             "Ben's turn"})
    assert served.app.top is menu and menu.cursor == 2
    assert served.app.journal.events == [{"type": "next"}]
    # BACK leaves the menu (commits nothing); a stale NEXT on the game screen is refused,
    # and so is a stale hold of BACK (undo).
    assert served.post("/api/press", {"button": "BACK", "seq": stale})[0] == 200
    assert isinstance(served.app.top, TableScreen)
    for button in ("NEXT", "HOLD BACK", "ROLL"):
        status, _ = served.post("/api/press", {"button": button, "seq": stale})
        assert (status, button) == (409 if button != "ROLL" else 200, button)
    assert served.app.journal.events == [{"type": "next"}]
    # ROLL opens the dice menu (nothing yet); choosing a roll there would record one.
    status, _ = served.post("/api/press", {"button": "OK", "seq": stale})
    assert status == 409 and served.app.rolls.pending is None
    fresh = snap(served)["seq"]
    served.web.clock.advance(1)  # a second later (BACK again: not a double tap)
    assert served.post("/api/press", {"button": "BACK", "seq": fresh})[0] == 200
    assert served.post("/api/press", {"button": "NEXT", "seq": fresh})[0] == 200
    assert served.app.journal.state.table.current == 2


def test_a_press_the_screen_ignores_says_changed_false(served):
    served.new_game("table", ["Ann", "Ben"])
    seq = snap(served)["seq"]
    status, data = served.post("/api/press", {"button": "UP", "seq": seq})
    assert (status, data) == (200, {"ok": True, "seq": seq, "changed": False})
    status, data = served.post("/api/press", {"button": "BACK", "seq": seq})  # a toast: shown
    assert status == 200 and data["changed"] is True and data["seq"] == seq
    status, data = served.post("/api/press", {"button": "NEXT", "seq": seq})
    assert status == 200 and data["changed"] is True and data["seq"] > seq


def test_a_change_queued_behind_a_box_press_is_stale(make_app):
    """The box's own button was pressed just before the phone's request reached the app
    thread: its change is not published yet, and the phone's seq is stale all the same."""
    from companion.inputs import Button, ButtonInput
    from companion.rules.game import Header
    app = make_app()
    published: list[dict] = []
    app.bridge.snapshots.publish = published.append
    app.actions.start_game(Header("table", ("Ann", "Ben", "Cy")))
    del app.stack[1:]  # past the setup screens: the game's own
    app.flush_snapshot()
    seq = published[-1]["seq"]
    app.handle(ButtonInput(Button.NEXT))  # handled, not yet drawn nor published
    assert app.snapshot_due and app.bridge.snapshots.seq == seq
    answer = app.web_request("action", {"event": {"type": "next"}, "seq": seq})
    assert answer["status"] == 409 and answer["error"] == (
        "the game moved on: Ann's turn ended; it is Ben's turn"), answer
    assert app.journal.events == [{"type": "next"}]


def test_a_stale_press_cannot_play_again(served):
    """Play again starts a game: on a stale snapshot the end screen's menu refuses it."""
    served.new_game("table", ["Ann", "Ben"])
    served.post("/api/action", {"event": {"type": "end"}, "seq": None})
    seq = snap(served)["seq"]
    gid = snap(served)["game_id"]
    assert served.post("/api/press", {"button": "OK", "seq": seq})[0] == 200  # the end menu
    served.app.post(ButtonInput(Button.BACK, Gesture.HOLD))  # undo on the box, then redo
    served.post("/api/redo", {"seq": None})  # over again: the end screen
    # OK opens the end screen's menu (that commits nothing); OK on "Play again" would start
    # a game: refused. (Each OK a second after the last: not a double tap.)
    served.web.clock.advance(1)
    assert served.post("/api/press", {"button": "OK", "seq": seq})[0] == 200
    served.web.clock.advance(1)
    status, data = served.post("/api/press", {"button": "OK", "seq": seq})
    assert status == 409 and data["error"].startswith("the game moved on")
    assert snap(served)["game_id"] == gid


def test_a_seq_from_before_a_restart_is_never_taken_for_one_of_this_run(tmp_path, config, clock):
    """Each run starts its seq at its own point: a page holding a seq from before a power cut
    is told it is behind, even after this run has published as many snapshots."""
    first = Served(tmp_path, config, clock)
    try:
        first.pair()
        first.new_game("table", ["Ann", "Ben"])
        old = snap(first)["seq"]
        cookie = first.cookie
    finally:
        first.close()
    again = Served(tmp_path, config, clock)
    try:
        again.cookie = cookie
        assert snap(again)["seq"] != old
        status, data = again.post("/api/action", {"event": {"type": "next"}, "seq": old})
        assert status == 409 and "old state of the game" in data["error"]
        assert len(again.app.journal.events) == 0
    finally:
        again.close()


def test_a_new_game_over_a_game_left_for_the_start_menu_needs_replaces(served):
    """The unfinished game left for the start menu is set aside by a new game too: the
    snapshot names it (`left`) and the API asks for "replaces"."""
    served.new_game("table", ["Ann", "Ben"])
    served.post("/api/action", {"event": {"type": "next"}, "seq": None})
    gid = snap(served)["game_id"]
    served.app.post(ButtonInput(Button.OK, Gesture.HOLD))  # the game's menu, on the box
    settle(served)
    choose(served, "Leave to start")
    served.app.post(ButtonInput(Button.OK, Gesture.PRESS))  # "Leave this game?" yes
    settle(served)
    s = snap(served)
    assert s["game"] is None and s["left"] == {"game_id": gid, "title": "Table"}
    body = {"game": "table", "players": ["Cy", "Dee"], "seq": None}
    status, data = served.post("/api/new-game", body)
    assert status == 409 and f'"replaces": {gid}' in data["error"]
    assert snap(served)["game"] is None
    assert served.post("/api/new-game", {**body, "replaces": gid})[0] == 200
    assert snap(served)["left"] is None
    assert gid in [u.id for u in served.app.store.unfinished()]  # set aside, resumable


def test_a_game_id_sqlite_cannot_hold_is_a_400(served):
    """SQLite's integers stop at 2**63 - 1: a bigger id is a 400, not an internal error."""
    for bad in (2**63, 2**70):
        status, data = served.post("/api/resume", {"game": bad, "seq": None})
        assert status == 400 and "game must be a game's id" in data["error"]
    status, data = served.post("/api/resume", {"game": 1, "replaces": 2**64, "seq": None})
    assert status == 400 and "replaces must be a game's id" in data["error"]
    assert served.get("/api/state")["seq"] > 0  # the box still answers


def test_refusals_spell_values_as_the_page_sent_them(served):
    """JSON's true and "7", not Python's True and '7'; an unknown field's message lists seq."""
    status, data = served.post("/api/press", {"button": "NEXT", "seq": True})
    assert status == 400 and data["error"].endswith("not true")
    status, data = served.post("/api/resume", {"game": "7", "seq": None})
    assert status == 400 and data["error"].endswith('not "7"')
    status, data = served.post("/api/press", {"button": "NEXT", "hue": 1, "seq": None})
    assert status == 400 and data["error"] == 'unknown field "hue" (expected: button, seq)'


# --- a double tap (issue 26, item 1): the same control from one phone within 0.7 s -----------

def test_a_double_tap_from_one_phone_counts_once_however_fast_the_page(served):
    """The page re-enables NEXT as soon as the first answer has rendered (~50 ms on a LAN),
    so its second tap carries the new seq: the seq rule cannot tell it from a new tap. The
    same control from the same phone within 0.7 s (the web's clock) counts once."""
    served.new_game("table", ["Ann", "Ben", "Cy", "Dee"])
    seq = snap(served)["seq"]
    status, first = served.post("/api/press", {"button": "NEXT", "seq": seq})
    assert status == 200 and first["did"] == "Ann's turn ended; it is Ben's turn"
    served.web.clock.advance(0.35)
    status, second = served.post("/api/press", {"button": "NEXT", "seq": first["seq"]})
    assert (status, second) == (409, {"error": "double tap: ignored; the first tap: Ann's "
                                               "turn ended; it is Ben's turn"})
    assert served.app.journal.events == [{"type": "next"}]
    assert snap(served)["seq"] == first["seq"]  # nothing changed, nothing published
    # A second tab of the same phone (its cookie) is the same phone.
    served.web.clock.advance(0.3)
    assert served.post("/api/press", {"button": "NEXT", "seq": first["seq"]})[0] == 409
    # A deliberate second tap, past 0.7 s after the first, is a new tap.
    served.web.clock.advance(0.06)
    status, third = served.post("/api/press", {"button": "NEXT", "seq": first["seq"]})
    assert status == 200 and third["did"] == "Ben's turn ended; it is Cy's turn"
    assert len(served.app.journal.events) == 2


def test_a_double_tap_holds_for_each_control_of_the_page(served):
    served.new_game("penny-badger", ["Ann", "Ben", "Cy"])
    for path, body in (("/api/action", {"event": {"type": "pass"}}), ("/api/undo", {}),
                       ("/api/redo", {}), ("/api/press", {"button": "HOLD BACK"})):
        n = len(served.app.journal.events)
        status, r = served.post(path, {**body, "seq": snap(served)["seq"]})
        assert status == 200, (path, r)
        status, r = served.post(path, {**body, "seq": snap(served)["seq"]})
        assert status == 409 and r["error"].startswith("double tap: ignored"), path
        assert len(served.app.journal.events) != n  # the first was done, once
        served.web.clock.advance(1)
    # Another control within 0.7 s is not the same tap.
    served.post("/api/action", {"event": {"type": "pass"}, "seq": snap(served)["seq"]})
    assert served.post("/api/press", {"button": "HOLD BACK", "seq": snap(served)["seq"]})[0] \
        == 200


def test_two_phones_are_two_players_and_a_script_is_never_a_double_tap(served):
    served.new_game("table", ["Ann", "Ben", "Cy", "Dee"])
    ann = served.cookie
    served.pair()  # a second phone
    ben = served.cookie
    seq = snap(served)["seq"]
    served.cookie = ann
    status, r = served.post("/api/press", {"button": "NEXT", "seq": seq})
    assert status == 200
    served.cookie = ben  # the other phone: its own tap, on the snapshot it shows
    assert served.post("/api/press", {"button": "NEXT", "seq": seq})[1]["error"].startswith(
        "the game moved on")  # at once, on the old snapshot: the seq rule
    assert served.post("/api/press", {"button": "NEXT", "seq": r["seq"]})[0] == 200
    assert snap(served)["state"]["current"] == 2
    # A script ("seq": null) means every request it sends.
    for _ in range(3):
        assert served.post("/api/press", {"button": "NEXT", "seq": None})[0] == 200
    assert len(served.app.journal.events) == 5


def test_up_and_down_repeat_by_nature(served):
    from companion.ui.screen import Menu
    served.new_game("table", ["Ann", "Ben", "Cy"])
    assert served.post("/api/press", {"button": "HOLD OK", "seq": snap(served)["seq"]})[0] == 200
    menu = served.app.top
    assert isinstance(menu, Menu)
    for _ in range(3):
        assert served.post("/api/press", {"button": "DOWN", "seq": snap(served)["seq"]})[0] == 200
    assert menu.cursor == 3
    assert served.post("/api/press", {"button": "UP", "seq": snap(served)["seq"]})[0] == 200
    assert served.post("/api/press", {"button": "UP", "seq": snap(served)["seq"]})[0] == 200
    assert menu.cursor == 1
