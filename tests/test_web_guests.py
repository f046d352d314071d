"""The table web against LAN guests (issues 18 and 20): the pairing code stays on the box,
wrong codes lock out only their sender, the panel's frame is pushed, phones stay paired across
a restart, and idle connections or a burst of event streams never lock a paired phone out."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import select
import socket
import sqlite3
import time

import pytest
from PIL import Image
from test_web_api import Events, Served, served  # noqa: F401  (a fixture)

from companion.app import lights
from companion.inputs import Button, ButtonInput, Gesture
from companion.testing import FakeClock
from companion.ui import device
from companion.ui.draw import scale
from companion.web.pairing import SESSION_TTL
from companion.web.server import PAGE_MODULES
from companion.web.snapshot import Frame, Hub

GUEST = "127.0.0.2"  # another device on the LAN (Linux loopback answers all of 127/8)


@pytest.fixture
def make(tmp_path, config, clock):
    made: list[Served] = []

    def start(**web_options) -> Served:
        s = Served(tmp_path, config, clock, **web_options)
        made.append(s)
        return s
    yield start
    for s in made:
        s.close()


WAIT_S = 30  # a bound for a stuck app thread, never a pause


class Drawing:
    """Whether the app thread owes a frame: set as it takes an input that draws (all but the
    ring's own tick, lights.quiet), cleared when its render returns (App.run draws once its
    queue is empty). Seen in the app's own calls, so no pause stands in for the drawing."""

    def __init__(self, app) -> None:
        self.due = False
        handle, render = app.handle, app.render

        def handling(item: object) -> None:
            if not lights.quiet(item):
                self.due = True
            handle(item)

        def rendering() -> None:
            render()
            self.due = False

        app.handle, app.render = handling, rendering


def until(check, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def settle(s: Served) -> None:
    """Wait until the app thread has handled everything posted so far and drawn it: the
    answer to a request queued after them (answered in queue order), then the frame drawn
    after that request (the app's render returned)."""
    drawing = s.__dict__.get("drawing") or s.__dict__.setdefault("drawing", Drawing(s.app))
    assert s.request("GET", "/api/roster")[0] == 200  # answered in queue order
    until(lambda: not drawing.due, "the app thread drew no frame")


def box(s: Served, *buttons: Button) -> None:
    """Presses on the box's own buttons (the app's queue, as gpiozero posts them)."""
    for b in buttons:
        s.app.post(ButtonInput(b, Gesture.PRESS))
    settle(s)


def choose(s: Served, label: str) -> None:
    menu = s.app.top
    labels = [item.text(s.app.ctx()) for item in menu.items]
    assert label in labels, labels
    while menu.items[menu.cursor].text(s.app.ctx()) != label:
        box(s, Button.DOWN)
    box(s, Button.OK)


def open_pairing(s: Served) -> str:
    """Pair a phone on the box; the code its panel shows."""
    choose(s, "Table web")
    choose(s, "Pair a phone")
    assert isinstance(s.app.top, device.PairScreen)
    shown = s.web.pairing.shown()
    assert shown.status == "open"
    return shown.code


def png(data: bytes) -> bytes:
    return Image.open(io.BytesIO(data)).convert("1").tobytes()


def pair_from(s: Served, code: str, source: str | None = None):
    status, data, resp = s.request("POST", "/api/pair", {"code": code}, source=source)
    return status, data, resp


# --- issue 18.1: the pairing code leaks -----------------------------------------------------

def test_a_stranger_reading_every_public_route_never_sees_the_code(make, clock, monkeypatch):
    s = make(route_modules=PAGE_MODULES)
    # Every drawing the app thread makes: whether a secret screen was on top, and the frame
    # the web may show. The test waits for these (not a sleep), so a slow box passes too.
    drawn: list[tuple[bool, bytes]] = []
    render = s.app.render

    def render_and_note() -> None:
        render()
        drawn.append((getattr(s.app.top, "secret", False), s.app.last_frame[1].tobytes()))

    def wait_drawn(secret: bool) -> None:
        deadline = time.monotonic() + 60  # a bound for a stuck app, not a timing
        while not (drawn and drawn[-1][0] is secret) and time.monotonic() < deadline:
            time.sleep(0.005)
        assert drawn and drawn[-1][0] is secret, drawn[-1:]

    monkeypatch.setattr(s.app, "render", render_and_note)
    ev = Events(s.web.port)
    ev.next()
    code = open_pairing(s)
    wait_drawn(True)
    panel = s.app.panel_frame
    standin = scale(device.standin_frame(), 4).convert("1").tobytes()
    # In the same step as the screen: no drawing with the pairing screen on top let the web
    # have anything but the stand-in.
    assert all(public == device.standin_frame().tobytes() for secret, public in drawn if secret)
    assert scale(panel, 4).convert("1").tobytes() != standin  # the panel shows the code
    # The frame, as each route hands it out.
    status, body, _ = s.request("GET", "/api/frame.png", source=GUEST)
    assert status == 200 and png(body) == standin
    snap = s.request("GET", "/api/state", source=GUEST)[1]
    assert png(s.request("GET", snap["frame"], source=GUEST)[1]) == standin
    frame = ev.next_frame()
    assert png(s.request("GET", frame["src"], source=GUEST)[1]) == standin
    for path in ("/", "/tv", "/control", "/api/state", "/api/me", "/api/kinds", "/api/roster"):
        status, body, _ = s.request("GET", path, source=GUEST)
        text = body if isinstance(body, bytes) else json.dumps(body).encode()
        assert status == 200 and code.encode() not in text, path
    # The countdown ticks on the panel; the web's frame does not change (nothing to push).
    n = s.app.last_frame[0]
    clock.advance(2)
    box(s, Button.UP)  # a press the pairing screen ignores: a redraw
    assert s.app.last_frame[0] == n
    ev.close()
    # Leaving the screen: the web shows the panel again, and the code is closed.
    box(s, Button.BACK)
    wait_drawn(False)
    assert png(s.request("GET", "/api/frame.png", source=GUEST)[1]) != standin
    assert pair_from(s, code, GUEST)[0] == 403


def test_the_code_closes_when_the_pairing_screen_goes_by_any_path(make):
    """Not only OK/BACK on the screen: a phone's action (back to the game's screen) takes the
    pairing screen away, and its code with it; nobody can pair with it unseen."""
    s = make()
    s.pair()
    s.new_game("table", ["Ann", "Ben"])
    s.app.post(ButtonInput(Button.OK, Gesture.HOLD))  # the game's menu
    settle(s)
    code = open_pairing(s)
    assert s.post("/api/action", {"event": {"type": "next"}})[0] == 200
    settle(s)
    assert not isinstance(s.app.top, device.PairScreen)
    assert s.web.pairing.shown().status == "closed"
    s.cookie = ""
    assert pair_from(s, code, GUEST)[0] == 403


def test_after_a_phone_pairs_the_panel_says_so_and_makes_no_new_code(make):
    s = make()
    codes: list[str] = []
    s.web.pairing.on_code = codes.append
    code = open_pairing(s)
    assert pair_from(s, code)[0] == 200
    settle(s)
    assert s.web.pairing.shown().status == "paired" and s.app.toast[0] == "Phone paired"
    box(s, Button.UP)
    assert s.web.pairing.shown().status == "paired" and codes == [code]  # none until asked
    box(s, Button.OK)  # "OK: pair another"
    assert s.web.pairing.shown().status == "open" and len(codes) == 2 and codes[1] != code


def test_a_used_code_is_already_used_and_no_wrong_try(make):
    s = make()
    code = open_pairing(s)
    assert pair_from(s, code)[0] == 200
    for _ in range(10):  # a double tap, the landing page opened again: never a lock-out
        status, data, _ = pair_from(s, code, GUEST)
        assert status == 403 and data["error"].startswith("this code was already used")
    new = s.web.pairing.open()
    wrong = f"{(int(new) + 1) % 10**6:06d}"
    assert [pair_from(s, wrong, GUEST)[0] for _ in range(4)] == [403] * 4  # 4 left, not 0
    assert pair_from(s, new, GUEST)[0] == 200


def test_five_wrong_codes_make_that_address_wait_30_s_and_nobody_else(served, clock):
    code = served.web.pairing.open()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    statuses = [pair_from(served, wrong, GUEST)[0] for _ in range(5)]
    assert statuses == [403, 403, 403, 403, 429]
    status, data, resp = pair_from(served, code, GUEST)
    assert status == 429 and resp.getheader("Retry-After") == "30" and "\n" not in data["error"]
    clock.advance(30)
    assert pair_from(served, wrong, GUEST)[0] == 403  # its turn again
    assert pair_from(served, code, "127.0.0.3")[0] == 200  # another phone, meanwhile: paired


def test_twenty_wrong_codes_void_it_and_the_panel_offers_a_new_one(make):
    s = make()
    code = open_pairing(s)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for k in range(4):  # four guests, five tries each
        assert [pair_from(s, wrong, f"127.0.0.{10 + k}")[0] for _ in range(5)][-1] in (403, 429)
    status, data, _ = pair_from(s, code, "127.0.0.20")
    assert status == 403 and "void" in data["error"]
    settle(s)
    assert s.web.pairing.shown().status == "void" and "void" in s.app.toast[0].lower()
    box(s, Button.OK)  # "OK: new code"
    new = s.web.pairing.shown().code
    assert new and new != code and pair_from(s, new, "127.0.0.20")[0] == 200


def test_run_ack_prints_the_code_when_one_is_shown(tmp_path):
    from test_web_cli import free_port, run_companion
    (tmp_path / "none.toml").write_text("")
    port = free_port()
    p = run_companion(tmp_path, "--web", f"127.0.0.1:{port}")
    import queue
    import threading
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(x) for x in p.stdout], daemon=True)
    reader.start()

    def line() -> str:
        try:
            return lines.get(timeout=10).strip()
        except queue.Empty:
            return "(nothing printed in 10 s)"
    try:
        assert line().startswith("web ")
        assert line() == "ready"
        # The start menu: down to "Table web", then "Pair a phone" (its first item).
        from companion.config import load
        from companion.ui.screen import Context
        from companion.ui.start import StartScreen
        ctx = Context(config=load(None), extra={"web": object()})
        labels = [i.text(ctx) for i in StartScreen(ctx).items]
        p.stdin.write("DOWN\n" * labels.index("Table web") + "OK\nOK\n")
        p.stdin.flush()
        shown = line()
        assert shown.startswith("pair ") and len(shown.split()[1]) == 6, shown
        code = shown.split()[1]
        import urllib.request
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/pair", method="POST",
                                     data=json.dumps({"code": code}).encode(),
                                     headers={"Origin": f"http://127.0.0.1:{port}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 200
    finally:
        p.stdin.write("QUIT\n")
        p.stdin.close()
        p.wait(30)
        reader.join(10)
    rest = []
    while not lines.empty():
        rest.append(lines.get())
    assert p.returncode == 0 and not any(x.startswith("pair ") for x in rest)  # none after


# --- issue 20.2: a guest hammering codes -----------------------------------------------------

def test_a_guest_sending_two_wrong_codes_a_second_never_locks_out_a_phone(served, clock):
    code = served.web.pairing.open()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    answers = []
    for _ in range(40):  # 20 s at two a second
        answers.append(pair_from(served, wrong, GUEST)[0])
        clock.advance(0.5)
    assert 429 in answers
    status, data, _ = pair_from(served, code)  # the phone, at 127.0.0.1, with the right code
    assert status == 200, data


# --- issue 18.4: the box's picture is pushed ---------------------------------------------------

def test_a_panel_change_is_pushed_as_a_frame_without_a_new_snapshot(served):
    ev = Events(served.web.port)
    first = ev.next()
    n0 = ev.next_frame()["n"]
    choose(served, "Table web")  # a menu: the panel changes, the game does not
    frame = ev.next_frame()
    assert frame["n"] > n0 and frame["src"] == f"/api/frame.png?n={frame['n']}"
    box(served, Button.DOWN)
    later = ev.next_frame()
    assert later["n"] > frame["n"]
    assert served.get("/api/state")["seq"] == first["seq"]  # no snapshot for a frame
    shown = png(served.get(later["src"]))
    assert shown == scale(served.app.last_frame[1], 4).convert("1").tobytes()
    ev.close()


def test_frames_are_pushed_at_most_10_a_second_newest_wins():
    async def scenario():
        hub = Hub()
        slot = hub.subscribe()
        hub.frame(1)
        assert await slot.get() == Frame(1)  # the first goes at once
        for n in range(2, 50):
            hub.frame(n)
        assert slot.frame is None  # folded: within 1/10 s of the last push
        t0 = asyncio.get_running_loop().time()
        got = await slot.get()
        waited = asyncio.get_running_loop().time() - t0
        assert got == Frame(49) and 0.05 < waited < 0.3  # one push, the newest
        hub.close()
        assert await slot.get() is None
    asyncio.run(scenario())


# --- issue 18.5: phones stay paired across a restart ---------------------------------------------

def test_a_phone_stays_paired_across_a_restart_for_30_days(tmp_path, config, clock):
    wall = FakeClock(1_700_000_000.0)
    s = Served(tmp_path, config, clock, wall=wall)
    try:
        s.pair()
        cookie = s.cookie
    finally:
        s.close()
    token = cookie.split("=", 1)[1]
    db = sqlite3.connect(tmp_path / "journal.db")
    rows = db.execute("SELECT hash, created FROM phones").fetchall()
    db.close()
    assert rows == [(hashlib.sha256(token.encode()).hexdigest(), wall())]  # never the token
    assert token.encode() not in (tmp_path / "journal.db").read_bytes()
    wall.advance(29 * 24 * 3600)
    again = Served(tmp_path, config, clock, wall=wall)
    try:
        again.cookie = cookie
        assert again.get("/api/me") == {"paired": True}
        again.new_game("table", ["Ann", "Ben"])
        assert again.post("/api/press", {"button": "NEXT"})[0] == 200
    finally:
        again.close()
    wall.advance(2 * 24 * 3600)  # 31 days
    late = Served(tmp_path, config, clock, wall=wall)
    try:
        late.cookie = cookie
        assert late.get("/api/me") == {"paired": False}
        assert late.post("/api/press", {"button": "NEXT"})[0] == 401
    finally:
        late.close()
    assert SESSION_TTL == 30 * 24 * 3600


def test_forget_all_phones_clears_the_kept_sessions(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    try:
        s.pair()
        cookie = s.cookie
        choose(s, "Table web")
        choose(s, "Forget all phones")
        box(s, Button.OK)  # "Forget all phones?" yes
        assert s.app.toast[0] == "Forgot 1 phone"
        assert s.get("/api/me") == {"paired": False}
    finally:
        s.close()
    again = Served(tmp_path, config, clock)
    try:
        again.cookie = cookie
        assert again.get("/api/me") == {"paired": False}
    finally:
        again.close()
    db = sqlite3.connect(tmp_path / "journal.db")
    assert db.execute("SELECT COUNT(*) FROM phones").fetchone() == (0,)
    db.close()


def test_a_phone_forgotten_before_its_session_is_kept_stays_forgotten(tmp_path, config, clock):
    """Forget all phones handled before the app thread keeps a new phone's session: the
    session is not written back (it would pair that phone again after a restart)."""
    from companion.inputs import PhonePaired
    from companion.web.pairing import digest
    s = Served(tmp_path, config, clock)
    try:
        h = digest("a-token-nobody-holds-any-more")
        s.app.post(PhonePaired(h, s.web.pairing.wall()))  # paired, then forgotten at once
        settle(s)
        db = sqlite3.connect(tmp_path / "journal.db")
        try:
            assert db.execute("SELECT COUNT(*) FROM phones WHERE hash=?", (h,)).fetchone() \
                == (0,)
        except sqlite3.OperationalError:  # no table: nothing was ever kept
            pass
        db.close()
    finally:
        s.close()


# --- issue 20.1: idle connections and bursts of streams ------------------------------------------

def idle_sockets(port: int, n: int, sources: list[str]) -> list[socket.socket]:
    out = []
    for i in range(n):
        out.append(socket.create_connection(("127.0.0.1", port), timeout=5,
                                            source_address=(sources[i % len(sources)], 0)))
    return out


def test_99_idle_connections_never_lock_out_a_paired_phone(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    guests = idle_sockets(served.web.port, 99, [f"127.0.0.{k}" for k in range(2, 6)])
    try:
        # The box holds all 99 open (it has accepted each), not just the kernel's backlog.
        until(lambda: sum(served.web.gate.by_address[f"127.0.0.{k}"] for k in range(2, 6)) == 99,
              "the box did not accept the 99 idle connections")
        for _ in range(3):
            status, data = served.post("/api/press", {"button": "NEXT"})
            assert status == 200, data
        assert served.get("/api/state")["events"] == 3  # a stranger reads too
    finally:
        for g in guests:
            g.close()


def test_a_connection_that_sends_no_request_is_closed_after_the_header_timeout(make):
    s = make(gate_options={"header_timeout": 0.5})
    silent = idle_sockets(s.web.port, 1, [GUEST])[0]
    slow = idle_sockets(s.web.port, 1, [GUEST])[0]
    slow.sendall(b"GET /api/state HTTP/1.1\r\n")  # headers begun, never finished
    t0 = time.monotonic()
    for sock in (silent, slow):
        sock.settimeout(5)
        try:
            assert sock.recv(100) == b""
        except ConnectionResetError:
            pass
        sock.close()
    assert time.monotonic() - t0 < 3


def test_a_burst_of_300_event_streams_from_one_address_leaves_the_phone_its_press(served):
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    port = served.web.port
    socks = idle_sockets(port, 300, [GUEST])
    request = f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    for sock in socks:
        try:
            sock.sendall(request)
        except OSError:
            pass  # closed by the box already
    try:
        for _ in range(3):
            status, data = served.post("/api/press", {"button": "NEXT"})
            assert status == 200, data
        # Each stream answered: 200 (at most 8 from one address), 429, or closed.
        firsts: dict[socket.socket, bytes] = {}
        deadline = time.monotonic() + 5
        pending = list(socks)
        while pending and time.monotonic() < deadline:
            ready, _, _ = select.select(pending, [], [], 0.2)
            for sock in ready:
                try:
                    firsts[sock] = sock.recv(64)
                except OSError:
                    firsts[sock] = b""
                pending.remove(sock)
        streams = sum(1 for v in firsts.values() if v.startswith(b"HTTP/1.1 200"))
        assert 1 <= streams <= 8
        assert served.web.gate.streams[GUEST] <= 8
    finally:
        for sock in socks:
            sock.close()


def test_paired_phones_keep_request_slots_that_strangers_cannot_take(make):
    s = make(gate_options={"max_requests": 8, "reserved": 2, "pairing": 0, "max_streams": 100,
                           "streams_per_address": 100})
    s.pair()
    s.new_game("table", ["Ann", "Ben"])
    streams = [Events(s.web.port) for _ in range(6)]  # every public slot held open
    try:
        cookie, s.cookie = s.cookie, ""  # a stranger
        status, data, _ = s.request("GET", "/api/state", source=GUEST)
        assert status == 503 and "busy" in data["error"]
        s.cookie = cookie
        status, data = s.post("/api/press", {"button": "NEXT"})
        assert status == 200, data
    finally:
        for e in streams:
            e.close()


def test_guests_on_many_addresses_cannot_take_a_paired_phones_event_stream(make):
    """Extra addresses cost a LAN guest nothing: the streams a guest can hold stop short of
    the cap, and the rest are kept for paired phones (whose page follows the game live)."""
    s = make(gate_options={"max_streams": 6, "reserved_streams": 2, "streams_per_address": 2})
    s.pair()
    guests = []
    try:
        for i in range(3, 5):  # two addresses, two streams each: every public slot
            guests += [Events(s.web.port, source=f"127.0.0.{i}") for _ in range(2)]
        refused = Events(s.web.port, source="127.0.0.5", expect=503)
        refused.close()
        phone = Events(s.web.port, cookie=s.cookie)  # 200: a kept slot
        assert phone.next()["seq"] == s.get("/api/state")["seq"]
        phone.close()
    finally:
        for e in guests:
            e.close()


# --- issue 20.5: every whole-log download checks Host ----------------------------------------------

def test_a_games_log_is_refused_to_a_foreign_host_like_the_backup(tmp_path, config, clock):
    s = Served(tmp_path, config, clock, route_modules=PAGE_MODULES,
               source=tmp_path / "journal.db")
    try:
        s.pair()
        s.new_game("table", ["Ann", "Ben"])
        gid = s.get("/api/state")["game_id"]
        for path in (f"/games/{gid}.jsonl", "/backup"):
            status, body, _ = s.request("GET", path, headers={"Host": "evil.example:80"})
            assert status == 403 and b"is not this box" in body, path
            status, body, _ = s.request("GET", path)
            assert status == 200, path
    finally:
        s.close()


def test_the_backup_a_guest_can_download_holds_no_phone_sessions(tmp_path, config, clock):
    """The kept sessions (hash, created) stay on the box: not even their bytes are in the
    public backup, and a restored copy pairs no phone again."""
    s = Served(tmp_path, config, clock, route_modules=PAGE_MODULES,
               source=tmp_path / "journal.db")
    try:
        s.pair()
        s.new_game("table", ["Ann", "Ben"])
        h = hashlib.sha256(s.cookie.split("=", 1)[1].encode()).hexdigest()
        s.cookie = ""
        status, body, _ = s.request("GET", "/backup", source=GUEST)
        assert status == 200 and h.encode() not in body
        copy = tmp_path / "copy.db"
        copy.write_bytes(body)
        db = sqlite3.connect(copy)
        assert db.execute("SELECT COUNT(*) FROM phones").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
        db.close()
    finally:
        s.close()


def test_a_frame_drawn_before_the_web_started_is_sent_on_connect(tmp_path, config, clock):
    """`companion run` draws its first frame, then starts the web: a new stream still gets
    that frame's number (found by the benchmark: no frame event until the panel changed)."""
    import random

    from companion.app.core import App
    from companion.drivers.display import dummy
    from companion.session.store import Store
    from companion.web.server import Web
    store = Store(tmp_path / "journal.db")
    app = App(config=config, store=store, display=dummy(), rng=random.Random(1))
    app.render()
    web = Web(config=config, post=app.post, host="127.0.0.1", port=0,
              frame=lambda: app.last_frame, clock=clock, route_modules=())
    app.attach_web(web)
    assert web.start() == ""
    try:
        ev = Events(web.port)
        assert ev.next_frame()["n"] == app.last_frame[0]
        ev.close()
    finally:
        web.stop()
        store.close()
