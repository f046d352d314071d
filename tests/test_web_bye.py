"""The box tells open pages before it ends their event streams (issue 26, item 4): after
Forget all phones a paired phone's stream gets `bye` "forgotten" (a guest's goes on), and
Web off sends every stream `bye` "web-off" before the server stops."""

from __future__ import annotations

import time

import test_web_seq
from test_web_api import Events
from test_web_guests import box, choose

from companion.inputs import Button, ButtonInput, Gesture
from companion.web.snapshot import BYES

served = test_web_seq.served  # the fixture, by its name: a served app, paired


def bye(ev: Events) -> dict:
    """The stream's `bye` event, past the frames and snapshots before it."""
    event, data = ev.message()
    while event != "bye":
        event, data = ev.message()
    return data


def ended(ev: Events) -> bool:
    """Whether the stream's response is over (its last chunk, or the socket closed)."""
    while True:
        line = ev.file.readline()
        if line in (b"", b"0\r\n"):
            return True
        if line.startswith(b"data:"):
            return False


def test_forget_all_phones_tells_the_paired_pages_and_ends_their_streams(served):
    phone = Events(served.web.port, cookie=served.cookie)
    guest = Events(served.web.port, source="127.0.0.2")
    phone.next(), guest.next()
    choose(served, "Table web")
    choose(served, "Forget all phones")
    box(served, Button.OK)  # "Forget all phones?" yes
    forgotten = served.cookie
    assert served.web.pairing.phones == 0
    assert bye(phone) == {"why": "forgotten", "text": BYES["forgotten"]}
    assert BYES["forgotten"] == "This phone was forgotten on the box: pair again"
    assert ended(phone)
    # A guest's page was never paired: its stream goes on (the next snapshot comes).
    served.pair()
    served.new_game("table", ["Ann", "Ben"])
    event, data = guest.message()
    while event == "frame":
        event, data = guest.message()
    assert event == "message" and data["game"] == "table"
    phone.close(), guest.close()
    served.cookie = forgotten
    # The forgotten phone is a guest now: its new stream is a guest's, its changes 401.
    status, data = served.post("/api/press", {"button": "NEXT"})
    assert status == 401 and "no longer paired" in data["error"]


def test_web_off_tells_every_page_before_the_server_stops(served):
    phone = Events(served.web.port, cookie=served.cookie)
    guest = Events(served.web.port, source="127.0.0.2")
    phone.next(), guest.next()
    choose(served, "Table web")
    menu = served.app.top
    while menu.items[menu.cursor].text(served.app.ctx()) != "Web off":
        box(served, Button.DOWN)
    served.app.post(ButtonInput(Button.OK, Gesture.PRESS))  # not box(): it asks the web
    for ev in (phone, guest):
        assert bye(ev) == {"why": "web-off", "text": "The web was switched off on the box"}
        assert ended(ev)
        ev.close()
    deadline = time.monotonic() + 30  # a bound on the wait, not a speed requirement
    while served.web.running and time.monotonic() < deadline:
        time.sleep(0.02)  # the app thread joins the server thread
    assert not served.web.running


def test_web_off_from_a_phone_answers_it_then_says_bye(served):
    """Web off pressed on a phone: its press is answered first, then the streams hear why."""
    phone = Events(served.web.port, cookie=served.cookie)
    phone.next()
    menu = served.app.top
    labels = [item.text(served.app.ctx()) for item in menu.items]
    while labels[menu.cursor] != "Table web":
        assert served.post("/api/press", {"button": "DOWN"})[0] == 200
    assert served.post("/api/press", {"button": "OK"})[0] == 200
    web_menu = served.app.top
    while web_menu.items[web_menu.cursor].text(served.app.ctx()) != "Web off":
        assert served.post("/api/press", {"button": "DOWN"})[0] == 200
    assert served.post("/api/press", {"button": "OK"})[0] == 200
    assert bye(phone)["why"] == "web-off"
    phone.close()
