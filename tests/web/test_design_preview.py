"""/design's TV preview is /tv's own renderer (issue 37, "a live preview of ... the TV view as
the design changes"): /tv-preview, /tv's page and table.js with no stream, framed by /design,
draws the snapshot the box's check made of the design's new game (docs/web.md, "Designing a
game on a phone"). It shows the design's tallies and pot, follows a renamed tally, holds the
box's own screen for a paired phone, takes no message but its framing page's, and may be
framed by the box's own pages alone. Every wait is on an event, never a pause."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.gallery.web_shots import PHONE, pair
from tests.web.helpers import expect

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "designs"
STILL_TV = re.compile(r"\bmode-tv\b.*\bstill\b")  # /tv-preview's body (a fit may add tv-tight)


def _open_design(page, c) -> None:
    page.goto(c.url + "/design")
    expect(page.locator("#check-status")).not_to_have_text("Checking…")
    page.locator("#import-file").set_input_files(str(EXAMPLES / "penalty-pot.toml"))
    expect(page.locator("#import-status")).to_contain_text('Imported "Penalty Pot"')


def _post(c, path: str, body: bytes, headers: dict[str, str] | None = None):
    req = urllib.request.Request(c.url + path, data=body, method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_the_preview_is_the_tv_renderer_and_follows_a_renamed_tally(browser, companion):
    """A guest's /design: the TV's own table (table.js's `.seats`, its column per tally as
    the design's web part heads it) and the pot in the game's panel; renaming the tally
    redraws the TV with the new name; the 390x844 page never scrolls sideways."""
    c = companion()
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        _open_design(page, c)
        figure = page.locator("#preview-tv")
        expect(figure).to_be_visible()
        tv = page.frame_locator("#tv-frame")
        expect(tv.locator("body")).to_have_class(STILL_TV)
        expect(tv.locator("#kind")).to_have_text("Penalty Pot")
        seats = tv.locator("#players table.seats")
        expect(seats.locator("thead")).to_contain_text("Coins")
        expect(seats.locator("tbody tr")).to_have_count(4)
        expect(seats.locator("tbody tr").first).to_contain_text("Ann")
        expect(seats.locator("tbody tr").first.locator("td.num")).to_have_text("10")
        pot = tv.locator("#game .stat", has=tv.locator(".stat-l", has_text="pot"))
        expect(pot.locator(".stat-v")).to_have_text("5")
        expect(tv.locator("#who")).to_have_text("Ann")  # whose turn, as the TV says it
        # No stream, no speech, no share: the preview only draws what it is given.
        expect(tv.locator("#conn")).to_have_count(0)
        expect(tv.locator("#tv-share")).to_have_count(0)

        name = page.locator('input[data-path="tallies.0.name"]')
        name.fill("gold")
        expect(seats.locator("thead")).to_contain_text("Gold")
        expect(seats.locator("thead")).not_to_contain_text("Coins")
        expect(pot.locator(".stat-v")).to_have_text("5")

        box = page.locator("#tv-frame-box").bounding_box()
        assert box is not None and abs(box["width"] / box["height"] - 16 / 9) < 0.05, box
        # The whole TV is in the box: its frame scaled to the width inside the box's border.
        inside = page.locator("#tv-frame-box").evaluate("e => e.clientWidth")
        frame = page.locator("#tv-frame").bounding_box()
        assert frame is not None and abs(frame["width"] - inside) < 1, (frame, inside)
        assert abs(frame["height"] - inside * 9 / 16) < 1, (frame, inside)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # A guest has the TV, not the box's screen: the box draws for a paired phone only.
        expect(page.locator("#preview-frame")).to_be_hidden()
        expect(tv.locator(".panel.frame")).to_be_hidden()  # no empty picture either
    finally:
        context.close()


def test_the_preview_has_the_tables_names_and_a_paired_phone_the_box_screen(browser, companion):
    """The preview's players are the table's own (the roster New game offers: 3 set here, and
    Ann for the fourth seat); a paired phone's TV holds the box's own first screen."""
    c = companion()
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        pair(page, c)
        status = page.evaluate("""async () => (await fetch('/api/roster', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({names: ['Zoe', 'Yan', 'Xi'], seq: null})})).status""")
        assert status == 200
        _open_design(page, c)
        names = ["Zoe", "Yan", "Xi", "Ann"]
        expect(page.locator(".preview-table tbody th")).to_have_text(names)
        tv = page.frame_locator("#tv-frame")
        expect(tv.locator("#players .name-t")).to_have_text(names)
        expect(tv.locator("#who")).to_have_text("Zoe")
        expect(page.locator("#preview-frame")).to_be_visible()
        expect(page.frame_locator("#tv-frame").locator(".panel.frame")).to_be_visible()
        img = page.frame_locator("#tv-frame").locator("#frame-img")
        expect(img).to_have_attribute("src", page.locator("#preview-frame").get_attribute("src")
                                      or "data:image/png;base64,")
        assert (img.get_attribute("src") or "").startswith("data:image/png;base64,")
    finally:
        context.close()


def test_the_preview_page_takes_no_message_but_its_framing_page(browser, companion):
    """Opened by itself (not framed), /tv-preview draws nothing it is posted; its headers let
    only the box's own pages frame it, while /tv and /design stay unframeable."""
    c = companion()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(c.url + "/tv-preview")
        expect(page.locator("body")).to_have_class(STILL_TV)
        # The test's own listener runs after the page's (added later, same message): once it
        # has the message, the page has seen it too.
        shown = page.evaluate("""() => new Promise((done) => {
            window.addEventListener('message', () => done(document.body.dataset.shown || null));
            window.postMessage({snapshot: {players: ['Mallory'], game: 'chaos', seq: 9,
                                           state: {current: 0, direction: 1}},
                                n: 1}, location.origin);
        })""")
        assert shown is None
        expect(page.locator("#who")).not_to_have_text("Mallory")
    finally:
        context.close()
    with urllib.request.urlopen(c.url + "/tv-preview", timeout=10) as r:
        csp = r.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in csp and "script-src 'self'" in csp
    for path in ("/tv", "/design"):
        with urllib.request.urlopen(c.url + path, timeout=10) as r:
            assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"], path


def test_hostile_bodies_get_words_never_a_500(companion):
    """The check that makes the preview's snapshot (a guest may ask: it changes nothing and
    draws nothing on the box) answers a hostile body with a 4xx and words; the picture, which
    the box draws, stays a paired phone's."""
    c = companion()
    origin = {"Origin": c.url}
    bodies = [b"", b"[]", b"null", b'{"design": 7}', b'{"design": {}}', b'{"toml": 3}',
              b'{"toml": "title = "}', b'{"design": {"title": "x"}, "players": ["A"]}',
              b'{"design": {"format_version": 1, "title": "\\u0000", "tallies": "x"}}',
              b"\xff\xfe", json.dumps({"design": {"format_version": 1, "title": "T" * 5000}}).encode(),
              b'{"design": ' + b"[" * 60 + b"]" * 60 + b"}",
              b'{"design": {}, "players": "Ann"}', b'{"design": {}, "players": [1]}',
              b'{"design": {}, "players": ["Ann", "ann"]}', b'{"players": ["Ann"]}',
              json.dumps({"design": {}, "players": [f"P{i}" for i in range(17)]}).encode()]
    for body in bodies:
        status, raw = _post(c, "/api/design/check", body, origin)
        assert 400 <= status < 500, (body[:40], status, raw[:200])
        words = json.loads(raw)["error"]
        assert isinstance(words, str) and len(words) > 5, (body[:40], words)
    status, raw = _post(c, "/api/design/check", b'{"design": {}}', {"Origin": "http://evil.example"})
    assert status == 403
    design = json.dumps({"design": {"format_version": 1, "title": "Pairs",
                                    "tallies": [{"name": "pairs"}], "moves": []}, "seq": None})
    status, raw = _post(c, "/api/design/picture", design.encode(), origin)
    assert status == 401 and "pair" in json.loads(raw)["error"]
