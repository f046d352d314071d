"""The web bridge's parts built alone, without an App: the double taps (taps.py), the snapshots
and their seqs (snapshots.py), a phone's changes (changes.py), the frame the web may show
(publicframe.py) and the bridge itself (bridge.py), each given a stand-in for what the App
would hand it."""

from __future__ import annotations

from concurrent.futures import Future
from types import SimpleNamespace

import pytest

from companion.app.bridge import StaleChange, WebBridge
from companion.app.changes import NO_GAME, PhoneChanges
from companion.app.publicframe import PublicFrame
from companion.app.snapshots import Snapshots
from companion.app.taps import TAP_WINDOW, Taps, tap_key
from companion.inputs import WebRequest
from companion.rules.game import Header
from companion.testing import FakeClock
from companion.ui import actions as A

TABLE = Header("table", ("Ann", "Ben", "Cy"))


# --- taps.py ----------------------------------------------------------------------------------

def test_a_tap_is_a_phones_control_except_scripts_and_repeating_presses():
    assert tap_key("undo", {"seq": None, "phone": "p1"}) is None  # a script's
    assert tap_key("undo", {"seq": 5}) is None  # no phone
    assert tap_key("press", {"seq": 5, "phone": "p1", "button": "UP"}) is None  # REPEATS
    ok = tap_key("press", {"seq": 5, "phone": "p1", "button": "OK"})
    assert ok is not None and ok[0] == "p1"
    # The same control whatever the seq it was tapped on; another phone's is its own.
    assert tap_key("press", {"seq": 6, "phone": "p1", "button": "OK"}) == ok
    assert tap_key("press", {"seq": 5, "phone": "p2", "button": "OK"}) != ok


def test_the_same_tap_within_the_window_repeats_the_first():
    clock = FakeClock()
    taps = Taps(clock)
    tap = ("p1", "undo")
    assert taps.repeated(tap) is None
    taps.remember(tap, "Ann's turn ended")
    clock.advance(TAP_WINDOW - 0.01)
    assert taps.repeated(tap) == "Ann's turn ended"
    assert taps.repeated(("p2", "undo")) is None  # another phone
    clock.advance(0.01)
    assert taps.repeated(tap) is None  # past the window: a tap of its own
    taps.remember(("p1", "redo"), "")
    assert list(taps.done) == [("p1", "redo")]  # the old one forgotten on the way


# --- snapshots.py -----------------------------------------------------------------------------

def described(store, journal=None) -> SimpleNamespace:
    """What Snapshots is given of the table (snapshots.Table)."""
    return SimpleNamespace(journal=journal, left=None, unfinished=(), commits=0, store=store)


def test_a_change_is_published_once_and_only_to_a_web(store):
    table = described(store)
    published: list[dict] = []
    snaps = Snapshots(table, lambda: {}, seq=1000)
    snaps.due = True
    assert snaps.current() == 1000  # no web: nothing is counted as coming
    snaps.flush()
    assert not snaps.due and snaps.seq == 1000  # no web: only no longer due
    snaps.publish = published.append
    snaps.flush()
    assert published == []  # nothing due
    snaps.due = True
    assert snaps.current() == 1001  # a change not yet published already counts
    snaps.flush()
    assert [s["seq"] for s in published] == [1001] and snaps.seq == 1001
    assert snaps.seen[1001] == (None, "", 0, 0)


def test_the_parts_of_a_snapshot_come_from_the_callable_it_is_given(store):
    parts = {"clock": None, "calls": [{"kind": "turn", "text": "Ann's turn", "n": 1}],
             "speech": None, "ring": None}
    published: list[dict] = []
    snaps = Snapshots(described(store), lambda: parts)
    snaps.publish = published.append
    snaps.publish_now()
    assert published[0]["calls"] == parts["calls"]


def test_moved_on_says_what_changed_since_a_snapshot(store):
    j = store.new_game(TABLE)
    table = described(store, j)
    snaps = Snapshots(table, lambda: {}, seq=5000)
    snaps.publish = lambda snapshot: None
    snaps.publish_now()
    assert snaps.moved_on(None) == "" and snaps.moved_on(5001) == ""  # as it is
    j.append({"type": "next"})
    table.commits += 1
    snaps.due = True
    assert snaps.moved_on(5001) == "Ann's turn ended; it is Ben's turn"
    assert snaps.moved_on(4000).startswith("this page shows an old state of the game "
                                           "(snapshot 4000 is not one of the box's latest; "
                                           "it is at 5002")
    snaps.flush()
    j.undo()
    table.commits += 1
    snaps.due = True  # as each commit makes it
    assert snaps.moved_on(5002) == "1 move undone; it is Ann's turn"
    assert snaps.moved_on(5001) == "moves were undone and made again; it is Ann's turn"
    table.journal = None
    assert snaps.moved_on(5001) == f"Table #{store.game_id(j)} was left for the start menu"


# --- changes.py -------------------------------------------------------------------------------

class Performed(SimpleNamespace):
    """A stand-in table (changes.Table) that records the actions performed."""

    def __init__(self, store, journal=None, done: bool = True) -> None:
        super().__init__(store=store, journal=journal, left=None, roster=None, toast=None,
                         save_failed="", turn_clock=SimpleNamespace(paused=False))
        self.actions: list[object] = []
        self.done = done

    def perform(self, action) -> bool:
        self.actions.append(action)
        return self.done


def test_a_change_with_no_game_open_is_refused(store):
    changes = PhoneChanges(Performed(store), lambda: 7)
    for kind in ("undo", "redo", "pause", "action"):
        assert changes.do(kind, {"paused": True, "event": {}}) == {
            "ok": False, "error": NO_GAME, "status": 409}
    assert changes.do("fly", {})["status"] == 400


def test_undo_is_the_panels_undo_and_names_the_seq_it_is_given(store):
    j = store.new_game(TABLE)
    j.append({"type": "next"})
    table = Performed(store, j)
    changes = PhoneChanges(table, lambda: 7)
    assert changes.do("undo", {}) == {"ok": True, "seq": 7,
                                      "words": "Undone: Ann's turn ended; it is Ann's turn"}
    assert [type(a) for a in table.actions] == [A.Undo]
    table.done, table.save_failed = False, "Not saved: disk full"
    assert changes.do("action", {"event": {"type": "next"}}) == {
        "ok": False, "error": "Not saved: disk full", "status": 503}


def test_a_new_game_over_an_unfinished_one_needs_replaces(store, config):
    j = store.new_game(TABLE)
    j.append({"type": "next"})
    table = Performed(store, j)
    table.config = config
    changes = PhoneChanges(table, lambda: 7)
    p = {"game": "table", "players": ["Ann", "Ben"], "first": 0, "rules": {}}
    gid = store.game_id(j)
    answer = changes.do("new-game", p)
    assert answer["status"] == 409 and f"send \"replaces\": {gid}" in answer["error"]
    assert table.actions == []
    assert changes.do("new-game", {**p, "replaces": gid}) == {"ok": True, "seq": 7}
    assert [type(a) for a in table.actions] == [A.NewGame, A.Home]


# --- bridge.py --------------------------------------------------------------------------------

class Host(Performed):
    """A stand-in App (bridge.Host): a journal, a stack of one screen, a NEXT button that
    appends "next" (as the table's home screen does), and a perform that asks the bridge
    for the stale check as App.perform does."""

    strict = True
    rolls = SimpleNamespace(seq=0)

    def __init__(self, store, journal) -> None:
        super().__init__(store, journal)
        self.stack = ["home"]
        self.unfinished, self.commits = (), 0
        self.clock = FakeClock()
        self.bridge: WebBridge | None = None
        self.posted: list[object] = []

    def perform(self, action) -> bool:
        assert self.bridge is not None
        self.bridge.check_stale(action)
        self.actions.append(action)
        if isinstance(action, A.Emit):
            self.journal.append(action.event)
            self.commits += 1
            self.bridge.snapshots.due = True
        return True

    def on_button(self, b) -> None:
        self.perform(A.Emit({"type": "next"}))

    def frame(self):
        raise RuntimeError("no frame here: look() says b''")

    def not_saved(self, e) -> None:
        self.save_failed = str(e)

    def show_toast(self, text: str, seconds: float = 2.0) -> None:
        self.toast = (text, seconds)

    def post(self, item: object) -> None:
        self.posted.append(item)

    def ctx(self):
        return SimpleNamespace(names=["Ann", "Ben"])


@pytest.fixture
def bridged(store):
    host = Host(store, store.new_game(TABLE))
    host.bridge = WebBridge(host, lambda: {})
    host.bridge.snapshots.publish = lambda snapshot: None
    host.bridge.snapshots.publish_now()
    return host, host.bridge


def test_a_press_on_a_stale_snapshot_commits_nothing(bridged):
    host, bridge = bridged
    seq = bridge.snapshots.seq
    answer = bridge.web_request("press", {"button": "NEXT", "seq": seq})
    assert answer == {"ok": True, "seq": seq, "changed": True}
    assert host.journal.events == [{"type": "next"}]
    stale = bridge.web_request("press", {"button": "NEXT", "seq": seq})  # not flushed yet
    assert stale == {"ok": False, "status": 409, "error": "the game moved on: Ann's turn "
                     "ended; it is Ben's turn"}
    assert host.journal.events == [{"type": "next"}] and bridge.stale_press == ""
    with pytest.raises(StaleChange):  # what App.perform asks while a stale press is handled
        bridge.stale_press = "moved"
        bridge.check_stale(A.Undo())
    bridge.check_stale(A.Home())  # commits nothing: never stale


def test_a_double_tap_from_one_phone_is_done_once(bridged):
    host, bridge = bridged
    p = {"button": "NEXT", "seq": bridge.snapshots.seq, "phone": "p1"}
    first = bridge.web_request("press", p)
    assert first["ok"] and first["did"] == "Ann's turn ended; it is Ben's turn"
    bridge.snapshots.flush()
    again = bridge.web_request("press", {**p, "seq": bridge.snapshots.seq})
    assert again == {"ok": False, "status": 409, "error": "double tap: ignored; the first "
                     "tap: Ann's turn ended; it is Ben's turn"}
    assert len(host.journal.events) == 1
    host.clock.advance(TAP_WINDOW)  # no web attached: the double-tap rule reads the app's
    assert bridge.web_request("press", {**p, "seq": bridge.snapshots.seq})["ok"]
    assert len(host.journal.events) == 2


def test_a_request_is_answered_with_the_seq_of_its_change(bridged):
    host, bridge = bridged
    seq = bridge.snapshots.seq
    reply: Future = Future()
    bridge.on_web(WebRequest("press", {"button": "NEXT", "seq": seq}, reply))
    assert reply.result(0) == {"ok": True, "seq": seq + 1, "changed": True}
    assert not bridge.answering and not bridge.snapshots.due
    roster: Future = Future()
    bridge.on_web(WebRequest("roster", {}, roster))
    assert roster.result(0) == {"ok": True, "seq": seq + 1, "names": ["Ann", "Ben"]}


def test_without_a_web_the_switch_does_nothing(bridged):
    host, bridge = bridged
    bridge.switch(False)
    bridge.switch(True)
    assert host.toast is None and bridge.web is None


# --- publicframe.py, and the bridge's secret screens ------------------------------------------

def test_the_public_frame_is_numbered_anew_only_when_it_changes():
    from PIL import Image
    frame = PublicFrame()
    told: list[int] = []
    black, white = Image.new("1", (4, 2)), Image.new("1", (4, 2), 1)
    frame.show(black)
    assert frame.last == (1, black) and told == []  # no web yet: nobody told
    frame.on_frame = told.append
    frame.show(Image.new("1", (4, 2)))  # the same picture: the same number
    assert frame.last == (1, black) and told == []
    frame.show(white)
    assert frame.last == (2, white) and told == [2]


def test_a_secret_screen_is_never_the_public_frame_and_its_code_closes_with_it(bridged):
    from PIL import Image

    from companion.ui.device import standin_frame
    host, bridge = bridged
    closed: list[bool] = []
    bridge.web = SimpleNamespace(pairing=SimpleNamespace(close=lambda: closed.append(True)))
    drawn = Image.new("1", (128, 64), 1)
    secret = SimpleNamespace(secret=True)
    bridge.drawn(drawn, ["home", secret])
    assert bridge.public.last is not None
    assert bridge.public.last[1].tobytes() == standin_frame().tobytes() and closed == []
    bridge.drawn(drawn, ["home"])  # the pairing screen gone: its code closes
    assert bridge.public.last[1] is drawn and closed == [True]
    bridge.drawn(drawn, ["home"])
    assert closed == [True]  # once
