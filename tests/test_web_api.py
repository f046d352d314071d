"""The table web's API against a real uvicorn thread on a free 127.0.0.1 port, with the real
app thread behind it (docs/web.md is the contract)."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time

import pytest

from companion.inputs import Quit
from companion.session.store import Store
from companion.testing import make_app
from companion.web.server import Web, parse_hostport
from companion.web.snapshot import Hub


class Served:
    """An app thread and its web, and a small HTTP client for them."""

    def __init__(self, tmp_path, config, clock, **web_options) -> None:
        # The app's own thread runs it (below): the real clock, and real timers.
        self.app = make_app(tmp_path, config=config, clock=time.monotonic)
        self.store = self.app.store
        options = {"route_modules": (), **web_options}
        self.web = Web(config=config, post=self.app.post, host="127.0.0.1", port=0,
                       frame=lambda: self.app.last_frame, clock=clock, **options)
        self.app.attach_web(self.web)
        assert self.web.start() == ""
        self.thread = threading.Thread(target=self.app.run, daemon=True)
        self.thread.start()
        self.origin = f"http://127.0.0.1:{self.web.port}"
        self.cookie = ""

    def close(self) -> None:
        self.app.post(Quit())
        self.thread.join(10)
        self.web.stop()
        self.app.close()
        self.store.close()

    def request(self, method: str, path: str, body=None, *, headers=None, raw: bytes | None = None,
                source: str | None = None):
        """One request; `source`: the client's address (127.0.0.x: another device)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.web.port, timeout=10,
                                          source_address=(source, 0) if source else None)
        h = {"Origin": self.origin} if method == "POST" else {}
        if self.cookie:
            h["Cookie"] = self.cookie
        h.update(headers or {})
        h = {k: v for k, v in h.items() if v is not None}
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        if data is not None:
            h.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=h)
        resp = conn.getresponse()
        payload = resp.read()
        conn.close()
        ctype = resp.getheader("Content-Type", "")
        return resp.status, (json.loads(payload) if "json" in ctype else payload), resp

    def get(self, path: str):
        status, body, _ = self.request("GET", path)
        assert status == 200, body
        return body

    def post(self, path: str, body=None, **kw):
        """A POST as a script sends it: `"seq": null` (no staleness check) unless the body
        names a seq (or is not a dict)."""
        body = body if body is not None else {}
        if isinstance(body, dict) and path != "/api/pair" and "seq" not in body:
            body = {**body, "seq": None}
        status, data, _ = self.request("POST", path, body, **kw)
        return status, data

    def pair(self) -> None:
        status, data, resp = self.request("POST", "/api/pair", {"code": self.web.pairing.code()})
        assert status == 200, data
        cookie = resp.getheader("Set-Cookie")
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
        self.cookie = cookie.split(";")[0]

    def new_game(self, game: str, players: list[str], **extra) -> None:
        """Start a game, setting aside ("replaces") the unfinished one being played."""
        snap = self.get("/api/state")
        if "replaces" not in extra and snap["game"] and not snap["state"]["over"]:
            extra["replaces"] = snap["game_id"]
        elif "replaces" not in extra and snap["left"]:  # left for the start menu, unfinished
            extra["replaces"] = snap["left"]["game_id"]
        status, data = self.post("/api/new-game", {"game": game, "players": players, **extra})
        assert status == 200, data


class Events:
    """An SSE client reading /api/events line by line."""

    def __init__(self, port: int, *, cookie: str = "", source: str | None = None,
                 expect: int = 200) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                             source_address=(source, 0) if source else None)
        self.sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          "Accept: text/event-stream\r\n".encode()
                          + (f"Cookie: {cookie}\r\n".encode() if cookie else b"") + b"\r\n")
        self.file = self.sock.makefile("rb")
        self.status = self.file.readline()
        assert f" {expect} ".encode() in self.status, self.status
        while self.file.readline() not in (b"\r\n", b""):
            pass  # headers
        self.chunked = True

    def message(self) -> tuple[str, dict]:
        """The next message: its event name ("message" for a snapshot) and its data."""
        data, event = [], "message"
        while True:
            line = self.file.readline()
            assert line, "stream closed"
            text = line.decode().rstrip("\r\n")
            if text.startswith("data:"):
                data.append(text[5:].strip())
            elif text.startswith("event:"):
                event = text[6:].strip()
            elif text == "" and data:
                return event, json.loads("".join(data))

    def next(self) -> dict:
        """The next snapshot (frame messages skipped)."""
        while True:
            event, data = self.message()
            if event == "message":
                return data

    def next_frame(self) -> dict:
        """The next "frame" message (snapshots skipped)."""
        while True:
            event, data = self.message()
            if event == "frame":
                return data

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@pytest.fixture
def served(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    yield s
    s.close()


def state_of(served) -> dict:
    return served.get("/api/state")


# --- reading ---------------------------------------------------------------------------------

def test_state_is_the_start_menu_then_the_game_after_a_press(served):
    snap = state_of(served)
    assert snap["game"] is None and snap["players"] == [] and snap["state"] is None
    served.pair()
    served.new_game("table", ["Ann", "Ben", "Cy"])
    snap = state_of(served)
    assert snap["game"] == "table" and snap["players"] == ["Ann", "Ben", "Cy"]
    assert snap["state"]["current"] == 0 and snap["events"] == 0
    status, data = served.post("/api/press", {"button": "NEXT"})
    assert status == 200 and data["ok"] and data["seq"] > snap["seq"]
    after = state_of(served)
    assert after["seq"] == data["seq"] and after["state"]["current"] == 1
    assert after["history"] == [{"n": 1, "text": "Ann's turn ended"}]
    assert after["state"] == served.app.journal.summary() | {"last_roll": None}
    assert after["can_undo"] and not after["can_redo"]


def test_the_snapshot_has_every_replay_field_the_roll_and_the_frame(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    status, _ = served.post("/api/action", {"event": {"type": "roll",
                                                      "dice": {"colors": "red", "d8": 5}}})
    assert status == 200
    snap = state_of(served)
    assert set(served.app.journal.summary()) <= set(snap["state"])
    assert snap["roll"] == {"dice": {"colors": "red", "d8": 5}, "player": 0, "n": 1}
    png = served.get(snap["frame"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    import io

    from PIL import Image
    img = Image.open(io.BytesIO(png))
    assert img.size == (512, 256)


def test_kinds_and_me(served):
    kinds = served.get("/api/kinds")
    pb = next(k for k in kinds if k["kind"] == "penny-badger")
    assert pb["title"] == "Penny Badger" and pb["rules"]["bank"] == 100
    assert pb["min_players"] >= 2 and pb["house_rules"]
    assert served.get("/api/me") == {"paired": False}
    served.pair()
    assert served.get("/api/me") == {"paired": True}


def test_events_send_one_on_connect_and_one_per_commit_undo_and_redo_included(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben", "Cy"])
    ev = Events(served.web.port)
    try:
        first = ev.next()
        assert first["game"] == "table" and first["events"] == 0
        served.post("/api/press", {"button": "NEXT"})
        a = ev.next()
        assert a["events"] == 1 and a["state"]["current"] == 1
        assert served.post("/api/undo")[0] == 200
        b = ev.next()
        assert b["events"] == 0 and b["can_redo"] and b["seq"] > a["seq"]
        assert served.post("/api/redo")[0] == 200
        c = ev.next()
        assert c["events"] == 1 and c["seq"] > b["seq"]
        served.post("/api/press", {"button": "HOLD BACK"})  # undo by the panel's gesture
        d = ev.next()
        assert d["events"] == 0
    finally:
        ev.close()


def test_a_slow_client_keeps_only_the_newest_snapshot():
    async def scenario():
        hub = Hub()
        slot = hub.subscribe()
        for seq in range(1, 1001):
            hub.set({"seq": seq, "blob": "x" * 1000})
        assert len(hub.slots) == 1
        got = await slot.get()
        assert got[0] == 1000 and slot.item is None  # one snapshot held, never a queue
        hub.set({"seq": 999})  # an older one arriving late is ignored
        assert slot.item is None
        hub.close()
        assert await slot.get() is None
    asyncio.run(scenario())


def test_a_client_that_does_not_read_then_reads_gets_the_newest(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben", "Cy"])
    ev = Events(served.web.port)
    try:
        ev.next()
        for _ in range(30):
            served.post("/api/press", {"button": "NEXT"})
        last = state_of(served)["seq"]
        seen = ev.next()
        while seen["seq"] < last:
            seen = ev.next()
        assert seen["seq"] == last and seen["events"] == 30
        assert len(served.web.hub.slots) == 1
    finally:
        ev.close()


# --- pairing ---------------------------------------------------------------------------------

def test_pairing_is_single_use(served):
    code = served.web.pairing.code()
    status, _, resp = served.request("POST", "/api/pair", {"code": code})
    assert status == 200 and "companion_session=" in resp.getheader("Set-Cookie")
    status, data, _ = served.request("POST", "/api/pair", {"code": code})
    assert status == 403 and "already used" in data["error"]
    assert served.web.pairing.shown().status == "paired"  # closed: no new code until asked
    assert served.web.pairing.code() != code  # asked: a new one


def test_a_wrong_code_is_403_and_an_expired_one_too(served, clock):
    code = served.web.pairing.code()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    status, data, _ = served.request("POST", "/api/pair", {"code": wrong})
    assert status == 403 and data == {"error": "wrong code"}
    clock.advance(301)
    status, data, _ = served.request("POST", "/api/pair", {"code": code})
    assert status == 403 and "no valid code" in data["error"]


def test_a_malformed_code_is_400(served):
    for body in ({"code": "12345"}, {"code": 123456}, {}, {"code": "abcdef"}):
        status, data, _ = served.request("POST", "/api/pair", body)
        assert status == 400 and "6 digits" in data["error"]


def test_a_code_of_other_scripts_digits_is_400_not_a_crash(served):
    """A regex digit class matches Arabic-Indic digits too; compare_digest then raised
    TypeError (a 500)."""
    for code in ("\u0665\u0665\u0662\u0661\u0667\u0663", "\uff11" * 6):
        status, data, _ = served.request("POST", "/api/pair", {"code": code})
        assert status == 400 and "6 digits" in data["error"], code
    assert served.web.pairing.attempt("\u0661" * 6).error  # the pairing itself never raises


def test_forget_all_phones_unpairs(served):
    served.pair()
    assert served.get("/api/me") == {"paired": True}
    assert served.web.pairing.forget_all() == 1
    assert served.get("/api/me") == {"paired": False}
    status, data = served.post("/api/press", {"button": "NEXT"})
    assert status == 401


# --- security ---------------------------------------------------------------------------------

def test_unpaired_posts_are_refused_and_nothing_changes(served):
    before = state_of(served)
    for path, body in [("/api/press", {"button": "OK"}), ("/api/undo", {}), ("/api/redo", {}),
                       ("/api/action", {"event": {"type": "next"}}),
                       ("/api/new-game", {"game": "table", "players": ["A", "B"]}),
                       ("/api/roster", {"names": ["Zed"]})]:
        status, data = served.post(path, body)
        assert status == 401 and data["error"], path
    served.cookie = "companion_session=forged"
    status, data = served.post("/api/press", {"button": "OK"})
    assert status == 401
    assert state_of(served) == before and served.app.journal is None
    assert len(served.app.stack) == 1  # OK was never pressed


def test_a_bad_host_is_403(served):
    served.pair()
    for host in ("evil.example", "evil.example:8080", "192.0.2.99"):
        status, data = served.post("/api/press", {"button": "OK"}, headers={
            "Host": host, "Origin": f"http://{host}"})
        assert status == 403 and "Host" in data["error"], host
    status, _ = served.post("/api/press", {"button": "OK"}, headers={
        "Host": f"localhost:{served.web.port}", "Origin": f"http://localhost:{served.web.port}"})
    assert status == 200


def test_cross_origin_posts_are_403_and_change_nothing(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    before = state_of(served)
    for headers in ({"Origin": "http://evil.example"},
                    {"Origin": f"https://127.0.0.1:{served.web.port}"},  # the box has no TLS
                    {"Origin": None, "Sec-Fetch-Site": "cross-site"},
                    {"Origin": None}):
        status, data = served.post("/api/press", {"button": "NEXT"}, headers=headers)
        assert status == 403 and "cross-origin" in data["error"], headers
    status, data, _ = served.request("POST", "/api/pair", {"code": "123456"},
                                     headers={"Origin": "http://evil.example"})
    assert status == 403
    assert state_of(served) == before
    status, _ = served.post("/api/press", {"button": "NEXT"},
                            headers={"Origin": None, "Sec-Fetch-Site": "same-origin"})
    assert status == 200


def test_bad_bodies_are_4xx_with_one_line_and_change_nothing(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    before = state_of(served)
    cases = [
        (b"{not json", 400, "not valid JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b"\xff\xfe", 400, "UTF-8"),
        (json.dumps({"button": "x" * 5000}).encode(), 413, "too large"),
        (json.dumps({"button": "JUMP", "seq": None}).encode(), 400, "button must be one of"),
        (json.dumps({"button": "NEXT", "extra": 1, "seq": None}).encode(), 400, "unknown field"),
        (json.dumps({"button": "NEXT"}).encode(), 400, "seq is required"),
        (json.dumps({"button": "NEXT", "seq": "7"}).encode(), 400, "seq must be"),
        (json.dumps({"button": "NEXT", "seq": -1}).encode(), 400, "seq must be"),
        (b'{"button":' + b"[" * 1900 + b"]" * 1900 + b"}", 400, "nested too deeply"),
    ]
    for raw, status_wanted, words in cases:
        status, data, _ = served.request("POST", "/api/press", raw=raw)
        assert status == status_wanted and words in data["error"], (raw[:20], data)
        assert "\n" not in data["error"] and "Traceback" not in data["error"]
    for body, words in [({"names": ["Ann", "ann"]}, "twice"),
                        ({"names": [""]}, "must be a non-empty name"),
                        ({"names": ["x" * 17]}, "longer than 16"), ({"names": "Ann"}, "list"),
                        ({"names": ["A\x07"]}, "cannot show '\\x07'"),
                        ({"names": ["\u674e\u5c0f\u9f99"]}, "cannot show '\u674e'"),
                        ({"names": ["\u05e9\u05e8\u05d4"]}, "cannot show"),
                        ({"names": ["a\u0301", "\u00e1"]}, "twice")]:
        status, data = served.post("/api/roster", body)
        assert status == 400 and words in data["error"], body
    assert state_of(served) == before


def test_an_illegal_action_is_422_with_the_engines_words_and_changes_nothing(served):
    served.pair()
    served.new_game("penny-badger", ["Ann", "Ben", "Cy", "Dee"])
    before = state_of(served)
    for event in ({"type": "claim", "cards": 99}, {"type": "fly"},
                  {"type": "claim", "cards": 2, "challengers": [0]}):
        status, data = served.post("/api/action", {"event": event})
        assert status == 422 and data["error"] and "\n" not in data["error"], event
    assert state_of(served) == before and served.app.journal.events == []
    status, data = served.post("/api/new-game", {"game": "penny-badger", "players": ["A"]})
    assert status == 422 and "players" in data["error"]
    status, data = served.post("/api/new-game", {"game": "poker", "players": ["A", "B"]})
    assert status == 422 and "unknown game" in data["error"]
    assert served.app.journal.header.players == ("Ann", "Ben", "Cy", "Dee")


@pytest.mark.parametrize("game,players,event,plain,engine", [
    ("pig-farm", ["Olu", "Ann", "Ben"],
     {"type": "sell", "hands": [{"sets": [2, 2], "unmatched": 0},
                                {"sets": [3, 3, 2], "unmatched": 0}, {"sets": [], "unmatched": 0}]},
     "Olu sold the farm (it is Olu's turn), so Olu's sets need at least 3 sets, e.g. 3 3 2 "
     "(not 2). If someone else sold, give them the turn first (Skip to)",
     "sell: hand 0 (the seller): a seller needs at least 3 sets to sell the farm, not 2"),
    ("pig-farm", ["Olu", "Ann", "Ben"],
     {"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 0},
                                {"sets": [3, 1], "unmatched": 0}, {"sets": [], "unmatched": 0}]},
     "Ann's sets: a set has 2 or more pigs, not 1", "sell: hand 1 (seat 1): a set has"),
    ("penny-badger", ["Olu", "Ann", "Ben"],
     {"type": "claim", "cards": 3, "challengers": [1]},
     "Claim: say whether the revealed cards were true or a bluff", "claim: a challenged"),
    ("chaos", ["Olu", "Ann", "Ben"], {"type": "round_points", "points": [4, 5, 6]},
     "Round points: enter 0 for the player who went out (the round ends when someone is out "
     "of cards)", "round_points: the round ends"),
    ("chaos", ["Olu", "Ann", "Ben"], {"type": "swap_hands", "players": [2, 2]},
     "Swap Hands: name two different players", "swap_hands: name two different players"),
    ("table", ["Olu", "Ann", "Ben"], {"type": "skip_to", "player": 0, "x": 1},
     "Skip to: unknown field 'x' (allowed: player)", "skip_to: unknown field"),
])
def test_a_refused_form_says_in_plain_words_what_to_fix(served, game, players, event, plain,
                                                       engine):
    """"sell: hand 0 (the seller): ..." read like the engine (issue 18, item 7): the answer
    names the player and the field; the engine's words are beside it for scripts."""
    served.pair()
    served.new_game(game, players)
    status, data = served.post("/api/action", {"event": event})
    assert status == 422 and data["error"] == plain and data["engine"].startswith(engine)
    assert "seat" not in data["error"] and "hand 0" not in data["error"]
    assert served.app.journal.events == []


def test_an_empty_players_input_or_a_late_first_player_is_422_and_changes_nothing(served):
    """The box refuses what the page refuses (issue 26, items 3 and 6): a player's input
    missing or empty, named by its label as the phone reads it (not "points" or "unmatched0"),
    and who goes first once the first turn has ended."""
    served.pair()
    served.new_game("chaos", ["Olu", "Ann", "Ben"])
    for event, said in (
            ({"type": "round_points"}, "Enter Olu's points (a whole number)"),
            ({"type": "round_points", "points": [0, None, 4]}, "Enter Ann's points (a whole number)"),
            ({"type": "pick_color"}, "Color: choose one")):
        status, data = served.post("/api/action", {"event": event})
        assert (status, data["error"]) == (422, said), event
    assert served.app.journal.events == []
    status, _ = served.post("/api/action", {"event": {"type": "first", "player": 2}})
    assert status == 200  # before the first turn ends, as the panel asks it at the start
    served.post("/api/action", {"event": {"type": "next"}})
    status, data = served.post("/api/action", {"event": {"type": "first", "player": 1}})
    assert status == 422 and data["error"].startswith("Who goes first: only before the first")
    assert [e["type"] for e in served.app.journal.events] == ["first", "next"]


def test_a_chaos_round_scored_from_a_phone_asks_for_the_next_dealer(served):
    """The panel's Round points asks "who deals?"; a round scored from a phone asked nothing
    (issue 18, item 7). Now the panel asks, the snapshot's `ask` says so for the phone, and
    the answer (from either) clears it."""
    from companion.games.chaos.panel import DealerPicker
    served.pair()
    served.new_game("chaos", ["Olu", "Ann", "Ben", "Dee"], first=1)
    assert state_of(served)["ask"] is None
    status, data = served.post("/api/action", {"event": {"type": "round_points",
                                                         "points": [0, 14, 9, 30]}})
    assert status == 200
    snap = state_of(served)
    assert snap["ask"] == {"kind": "dealer", "suggested": 1}  # Ann went first: Ann deals
    assert isinstance(served.app.top, DealerPicker) and served.app.top.cursor == 1
    # The phone answers: Ann deals, Ben (after her, clockwise) goes first.
    status, _ = served.post("/api/action", {"event": {"type": "first", "player": 2}})
    assert status == 200
    snap = state_of(served)
    assert snap["ask"] is None and snap["state"]["current"] == 2
    assert not isinstance(served.app.top, DealerPicker)
    # The next round scored, then answered on the box: the phone's question goes too.
    served.post("/api/action", {"event": {"type": "round_points", "points": [3, 0, 9, 30]}})
    assert state_of(served)["ask"] == {"kind": "dealer", "suggested": 2}
    status, _ = served.post("/api/press", {"button": "OK"})  # the suggested dealer: Ben
    snap = state_of(served)
    assert snap["ask"] is None and snap["state"]["current"] == 3
    # A round that ends the game asks nothing.
    served.post("/api/action", {"event": {"type": "round_points", "points": [0, 0, 0, 600]}})
    snap = state_of(served)
    assert snap["state"]["over"] and snap["ask"] is None


def test_play_again_from_a_phone(served):
    """One tap on the game-over view: the same players and house rules, a new game through
    the app thread, straight to the game; refused (nothing changes) unless the game is over."""
    served.pair()
    assert served.post("/api/play-again", {})[0] == 409  # no game
    served.new_game("pig-farm", ["Olu", "Ann", "Ben"], rules={"target": 300}, first=1)
    old = state_of(served)
    status, data = served.post("/api/play-again", {"seq": old["seq"]})
    assert status == 409 and "not over" in data["error"]
    assert state_of(served)["game_id"] == old["game_id"]
    for bad in ({"seq": "7"}, {"seq": True}, {"players": ["X"]}):
        assert served.post("/api/play-again", bad)[0] == 400, bad
    served.post("/api/action", {"event": {"type": "end"}})
    over = state_of(served)
    assert over["state"]["over"]
    status, data = served.post("/api/play-again", {"seq": old["seq"]})  # a stale page
    assert status == 409 and data["error"].startswith("the game moved on")
    assert state_of(served)["game_id"] == over["game_id"]
    status, data = served.post("/api/play-again", {"seq": over["seq"]})
    assert status == 200 and data["seq"] > over["seq"]
    snap = state_of(served)
    assert snap["game_id"] == data["game_id"] != over["game_id"] and snap["events"] == 0
    assert (snap["game"], snap["players"], snap["rules"]) == \
        ("pig-farm", ["Olu", "Ann", "Ben"], over["rules"])
    assert snap["rules"]["target"] == 300 and snap["first"] == 2  # one seat on
    assert len(served.app.stack) == 1  # the phone tapped: straight to the game
    assert served.post("/api/play-again", {"seq": None})[0] == 409  # this one is not over


def test_undo_with_nothing_to_undo_is_409(served):
    served.pair()
    assert served.post("/api/undo")[0] == 409  # no game open
    served.new_game("table", ["Ann", "Ben"])
    status, data = served.post("/api/undo")
    assert status == 409 and "nothing to undo" in data["error"]


# --- control ----------------------------------------------------------------------------------

def test_the_roster_is_kept_in_the_journal(served, tmp_path):
    served.pair()
    assert served.get("/api/roster")["names"] == served.app.config.names  # none set yet
    status, data = served.post("/api/roster", {"names": [" Zoë ", "Ann  Lee", "Bo"]})
    assert status == 200 and data["names"] == ["Zoë", "Ann Lee", "Bo"]
    assert served.get("/api/roster")["names"] == ["Zoë", "Ann Lee", "Bo"]
    from companion.session import roster
    with Store(tmp_path / "journal.db") as again:
        assert roster.load(again) == ["Zoë", "Ann Lee", "Bo"]


def test_an_emptied_roster_stays_empty_and_the_panel_seats_the_roster(served):
    served.pair()
    seq = served.get("/api/state")["seq"]
    assert served.post("/api/roster", {"names": []}) == (200, {"ok": True, "seq": seq,
                                                               "names": []})
    assert served.get("/api/roster")["names"] == []  # not the config's names again
    assert served.post("/api/roster", {"names": ["Zoë", "Bo", "Cy"]})[0] == 200
    assert served.app.ctx().names == ["Zoë", "Bo", "Cy"]
    from companion.ui.start import choose_players
    entry = choose_players(served.app.ctx(), "table")
    assert entry.describe(4) == "Zoë, Bo, Cy, P4"  # the fourth seat, by its number
    served.post("/api/roster", {"names": ["p3", "Bo"]})  # "P3" beside it: one player to stats
    assert choose_players(served.app.ctx(), "table").describe(3) == "p3, Bo, P3b"


def test_new_game_from_the_phone_parks_the_old_one_with_rules_and_first_player(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    served.post("/api/press", {"button": "NEXT"})
    before = state_of(served)
    old_id = before["game_id"]
    # The table game is not finished: starting another needs "replaces" (its id).
    body = {"game": "penny-badger", "players": ["Zoë", "Bo", "Cy"], "rules": {"bank": 50},
            "first": 2}
    for replaces in ({}, {"replaces": old_id + 7}):
        status, data = served.post("/api/new-game", {**body, **replaces})
        assert status == 409 and data["error"] == (
            f'Table #{old_id} is not finished: send "replaces": {old_id} to set it aside (it '
            'can be resumed later)')
    assert state_of(served) == before and len(served.store.games()) == 1
    served.new_game("penny-badger", ["Zoë", "Bo", "Cy"], rules={"bank": 50}, first=2,
                    replaces=old_id)
    snap = state_of(served)
    assert snap["game"] == "penny-badger" and snap["game_id"] != old_id
    assert snap["rules"]["bank"] == 50 and snap["state"]["bank"] == 50
    assert snap["state"]["current"] == 2 and snap["first"] == 2
    assert served.app.stack == [served.app.stack[0]]  # the game's home screen
    games = {g.id: g for g in served.store.games()}
    assert games[old_id].events == 1
    # Set aside, not thrown away: parked, and offered by Resume.
    assert served.store.db.execute("SELECT status FROM games WHERE id=?",
                                   (old_id,)).fetchone() == ("parked",)
    assert [u.id for u in served.store.unfinished()] == [snap["game_id"], old_id]


def test_penny_badger_claim_from_the_phone_gives_the_same_ledger_as_by_buttons(served):
    """docs/rules.md worked example: Ann claims a pair, Ben passes, Cy claims three, Dee and Ann
    challenge, it was true. Once with the six buttons (posted as presses), once as actions."""
    served.pair()
    names = ["Ann", "Ben", "Cy", "Dee"]
    served.new_game("penny-badger", names)
    presses = ["NEXT", "UP", "UP", "OK", "OK", "OK",  # Ann: pair, nobody challenges
               "NEXT", "OK", "OK",  # Ben passes
               "NEXT", "UP", "UP", "UP", "OK", "DOWN", "OK", "DOWN", "OK", "NEXT",
               "OK"]  # Cy: three; Dee and Ann challenge; TRUE
    for b in presses:
        assert served.post("/api/press", {"button": b})[0] == 200
    by_buttons = state_of(served)
    events = list(served.app.journal.events)
    assert events[-1] == {"type": "claim", "cards": 3, "challengers": [3, 0], "truthful": True}

    served.new_game("penny-badger", names)
    for event in ({"type": "claim", "cards": 2, "challengers": []}, {"type": "pass"},
                  {"type": "claim", "cards": 3, "challengers": [3, 0], "truthful": True}):
        status, data = served.post("/api/action", {"event": event})
        assert status == 200, data
    by_phone = state_of(served)
    assert served.app.journal.events == events
    assert by_phone["state"] == by_buttons["state"]
    assert by_phone["state"]["savings"] == [16, 19, 36, 12] and by_phone["state"]["bank"] == 97
    assert [h["text"] for h in by_phone["history"]] == [h["text"] for h in by_buttons["history"]]


# --- the server itself ------------------------------------------------------------------------

def test_a_port_in_use_is_one_line_and_no_thread(config):
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen(1)
    port = blocker.getsockname()[1]
    try:
        web = Web(config=config, post=lambda item: None, host="127.0.0.1", port=port,
                  route_modules=())
        problem = web.start()
        assert "in use" in problem and "\n" not in problem and not web.running
    finally:
        blocker.close()


def test_stop_ends_open_event_streams(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    ev = Events(s.web.port)
    try:
        ev.next()
        s.close()
        assert not s.web.running
    finally:
        ev.close()


def test_host_port_parsing():
    assert parse_hostport("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_hostport(":9000") == ("0.0.0.0", 9000)
    assert parse_hostport("[::1]:8080") == ("::1", 8080)
    with pytest.raises(ValueError):
        parse_hostport("localhost:http")


def test_host_names_and_the_box_addresses():
    from companion.web import guard
    assert guard.host_name("192.168.1.20:8080") == "192.168.1.20"
    assert guard.host_name("[::1]:8080") == "::1"
    assert guard.host_name("Box.Local") == "box.local"
    addresses = guard.box_addresses("0.0.0.0")
    assert addresses[0] == guard.lan_address() and "127.0.0.1" in addresses
    allowed = guard.allowed_hosts(addresses)
    assert {"localhost", "127.0.0.1", "::1"} <= allowed
    assert socket.gethostname().lower() + ".local" in allowed or \
        socket.gethostname().lower().split(".")[0] + ".local" in allowed
    assert "evil.example" not in allowed


def test_closed_streams_leave_no_mailbox_behind(served):
    import time
    streams = [Events(served.web.port) for _ in range(3)]
    for ev in streams:
        ev.next()
    assert len(served.web.hub.slots) == 3
    for ev in streams:
        ev.close()
    served.pair()
    deadline = time.monotonic() + 30  # a wait, not a speed check: the disconnects are noticed
    while served.web.hub.slots and time.monotonic() < deadline:
        served.post("/api/press", {"button": "DOWN"})
        time.sleep(0.05)
    assert not served.web.hub.slots


def test_extra_routes_mount_after_the_api(config):
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def hello(request):
        return PlainTextResponse("hello")

    web = Web(config=config, post=lambda item: None, host="127.0.0.1", port=0, route_modules=(),
              extra_routes=[Route("/hello", hello)])
    assert web.start() == ""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
        conn.request("GET", "/hello")
        assert conn.getresponse().read() == b"hello"
        conn.request("GET", "/nowhere")
        resp = conn.getresponse()
        assert resp.status == 404 and json.loads(resp.read()) == {"error": "no such page"}
        conn.close()
    finally:
        web.stop()


def test_a_request_the_app_never_took_is_503_and_never_done(config, clock):
    """The app thread stalled (a slow SD card): the phone hears "nothing changed", and the
    request, cancelled, is skipped when the app gets to it."""
    import companion.web.server as server
    from companion.inputs import WebRequest
    taken: list[WebRequest] = []
    web = Web(config=config, post=taken.append, host="127.0.0.1", port=0, clock=clock,
              route_modules=())
    old = server.REPLY_TIMEOUT
    server.REPLY_TIMEOUT = 0.2
    try:
        assert web.start() == ""
        s = Served.__new__(Served)
        s.web, s.origin, s.cookie = web, f"http://127.0.0.1:{web.port}", ""
        code = web.pairing.code()
        s.pair()
        assert web.pairing.code() != code
        status, data = s.post("/api/press", {"button": "NEXT"})
        assert status == 503 and "nothing changed" in data["error"]
        asks = [t for t in taken if isinstance(t, WebRequest)]  # (pairing posted its keeping)
        assert len(asks) == 1 and asks[0].reply.cancelled()
    finally:
        server.REPLY_TIMEOUT = old
        web.stop()


def test_a_cancelled_request_is_skipped_by_the_app(served):
    import concurrent.futures

    from companion.inputs import WebRequest
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    before = state_of(served)
    reply: concurrent.futures.Future = concurrent.futures.Future()
    reply.cancel()
    served.app.post(WebRequest("press", {"button": "NEXT", "hold": False}, reply))
    assert served.get("/api/roster")  # a round trip through the app's queue, after it
    assert state_of(served) == before


def test_web_off_from_the_phone_answers_then_stops(served):
    """Choosing Web off through /api/press: the phone gets its JSON answer, then the server
    stops (it used to wait on that very request: a plain-text 500 after a second)."""
    served.pair()
    served.post("/api/press", {"button": "HOLD OK"})  # the menu, then Table web > Web off
    from companion.ui.screen import Menu
    menu = served.app.top
    assert isinstance(menu, Menu)
    texts = [i.text(served.app.ctx()) for i in menu.items]
    for _ in range(texts.index("Table web")):
        assert served.post("/api/press", {"button": "DOWN"})[0] == 200
    assert served.post("/api/press", {"button": "OK"})[0] == 200
    texts = [i.text(served.app.ctx()) for i in served.app.top.items]
    for _ in range(texts.index("Web off")):
        assert served.post("/api/press", {"button": "DOWN"})[0] == 200
    status, data = served.post("/api/press", {"button": "OK"})
    assert status == 200 and data["ok"] is True
    served.web.thread is None or served.web.thread.join(5)
    assert not served.web.running


def test_a_deck_owner_without_a_seat_is_refused_at_new_game_and_nothing_is_logged(
        tmp_path, clock, caplog):
    """Issue 29, item 8: `[rules.table] deck_owner = 5` loads (a Table game may have 16
    players), but a game of 4 has no sixth seat. /api/kinds still offers the kind's forms and
    logs nothing; the phone's New game of 4 is a 422 saying what to do, and changes nothing."""
    import logging

    from companion.config import Config
    from companion.games import check_config as check

    config = Config(check({"rules": {"table": {"deck_owner": 5}}}))
    s = Served(tmp_path, config, clock)
    try:
        s.pair()
        with caplog.at_level(logging.WARNING):
            for _ in range(3):
                kinds = {k["kind"]: k for k in s.get("/api/kinds")}
        from companion import games
        from companion.web.kinds import fresh
        assert kinds["table"]["rules"]["deck_owner"] == 5
        assert kinds["table"]["actions"] == fresh(games.kinds()["table"])  # as without it
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
        before = state_of(s)
        status, data = s.post("/api/new-game", {"game": "table",
                                                "players": ["Ann", "Ben", "Cy", "Dee"]})
        assert status == 422 and "seat 6 the deck owner" in data["error"], data
        assert "6 players or more" in data["error"] and state_of(s) == before
        s.new_game("table", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"])
        assert s.app.journal.header.rules["deck_owner"] == 5
    finally:
        s.close()


# --- the turn clock (issue 28) ----------------------------------------------------------------

def test_two_phones_tapping_pause_at_once_leave_the_clock_paused(served):
    """POST /api/pause asks for a state, not a toggle: two phones that tap Pause on the same
    snapshot both get 200 (the second is not "the game moved on") and the clock is paused;
    Clock on from both starts it again."""
    served.pair()
    first = served.cookie
    served.pair()
    second = served.cookie
    served.new_game("table", ["Ann", "Ben"])
    for paused in (True, False):
        seq = state_of(served)["seq"]
        answers = []
        for cookie in (first, second):
            served.cookie = cookie
            answers.append(served.post("/api/pause", {"paused": paused, "seq": seq}))
        assert [a[0] for a in answers] == [200, 200], answers
        assert all(a[1]["paused"] is paused for a in answers)
        clock = state_of(served)["clock"]
        assert clock["paused"] is paused and clock["running"] is (not paused)


def test_pause_without_a_game_or_with_a_bad_body_is_one_line(served):
    served.pair()
    status, data = served.post("/api/pause", {"paused": True})
    assert status == 409 and "\n" not in data["error"]
    served.new_game("table", ["Ann", "Ben"])
    status, data = served.post("/api/pause", {"paused": "yes"})
    assert status == 400 and '{"paused": true}' in data["error"]
    assert state_of(served)["clock"]["paused"] is False


def test_kinds_give_the_turn_clock_rules_and_new_game_takes_them(served):
    served.pair()
    kinds = served.get("/api/kinds")
    assert all(k["clock_rules"] == {"turn_limit": {"low": 10, "high": 3600},
                                    "time_bank": {"low": 60, "high": 36000},
                                    "time_bonus": {"low": 0, "high": 600}} for k in kinds)
    status, data = served.post("/api/new-game", {"game": "table", "players": ["Ann", "Ben"],
                                                 "rules": {"turn_limit": 5}})
    assert status == 422 and "turn_limit must be whole seconds 10-3600" in data["error"]
    served.new_game("table", ["Ann", "Ben"], rules={"time_bank": 600, "time_bonus": 5})
    clock = state_of(served)["clock"]
    assert clock["limit"] == {"turn": None, "bank": 600, "bonus": 5}
    assert clock["banks"] is not None and clock["left"] <= 600


def test_a_break_that_begins_is_published_to_the_pages(tmp_path):
    """The pages count the seconds and work the alarm out themselves, but only the box knows
    when 15 minutes without a press become a break: its tick publishes a snapshot then."""
    from companion.session.clock import BREAK_AFTER
    from companion.testing import FakeClock, close, drain

    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    published: list[dict] = []
    app.bridge.snapshots.publish = published.append
    try:
        app.render()
        clock.advance(BREAK_AFTER - 30)
        drain(app)
        app.render()
        app.flush_snapshot()
        assert published == []  # a tick publishes nothing while the turn just runs
        clock.advance(31)
        drain(app)
        app.render()
        app.flush_snapshot()
        assert len(published) == 1 and published[0]["clock"]["on_break"] is True
        assert published[0]["clock"]["running"] is False
    finally:
        close(app)


def test_each_snapshot_sent_carries_the_box_time_and_the_clock_when_it_was_made(served):
    """A page counts the turn clock on from `clock.at`: a stream that opens after the last
    change gets the snapshot made then, with `now` as it is sent (docs/web.md)."""
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    first = Events(served.web.port)
    try:
        snap = first.next()
        assert snap["clock"]["at"] <= snap["now"] and snap["clock"]["running"]
    finally:
        first.close()
    time.sleep(0.3)  # no change meanwhile: the next stream gets the same snapshot, older
    later = Events(served.web.port)
    try:
        again = later.next()
        assert again["seq"] == snap["seq"] and again["clock"]["at"] == snap["clock"]["at"]
        assert again["now"] - again["clock"]["at"] >= 0.3
    finally:
        later.close()
    assert "now" not in state_of(served)  # the snapshot as made; its clock says when
