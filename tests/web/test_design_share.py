"""Share a design game from /tv (issue 37, section 2): while a group's own design is on, /tv
shows its design file's QR code and link (and never for a built-in kind); the link serves the
design file, which /design imports; axe-core finds no serious violation on /tv with the QR
(docs/web.md, "The TV" and "Designing a game on a phone"). /design's preview of the TV is
tests/web/test_design_preview.py's. Every wait is on an event, never a pause."""

from __future__ import annotations

import json
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion import games
from companion.gallery.web_shots import PHONE, pair
from tests.web.helpers import WAIT_S, expect
from tests.web.test_tv_fits import SIZES

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "designs"


def example(name: str) -> dict:
    return tomllib.loads((EXAMPLES / f"{name}.toml").read_text())


def _get(c, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(c.url + path, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _tv(browser, c):
    context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
    page = context.new_page()
    page.goto(c.url + "/tv")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    return context, page


def test_the_tv_shares_a_design_game_and_its_link_imports_on_design(browser, companion):
    kind = games.design_kind(example("penalty-pot")).kind
    c = companion(kind, ("Ann", "Ben", "Cy"))
    context, tv = _tv(browser, c)
    try:
        share = tv.locator("#tv-share")
        expect(share).to_be_visible()
        expect(share).to_contain_text("Scan to get this game: Penalty Pot")
        link = c.url + f"/api/design/{kind}.json"
        expect(tv.locator("#tv-share-link")).to_have_text(link)
        tv.wait_for_function("""() => { const i = document.getElementById('tv-share-qr');
            return i.complete && i.naturalWidth > 100; }""", timeout=WAIT_S * 1000)
        # Big enough to scan from a phone 1-2 m away: about an eighth of the TV's width.
        box = tv.locator("#tv-share-qr").bounding_box()
        assert box is not None and box["width"] >= 200, box
    finally:
        context.close()
    # The link serves the design file: the game's own design, as the header carries it.
    status, body = _get(c, f"/api/design/{kind}.json")
    assert status == 200
    assert json.loads(body) == c.app.journal.header.rules["design"]
    status, png = _get(c, f"/api/design/{kind}.png")
    assert status == 200 and png.startswith(b"\x89PNG")
    # /design imports it from the link, as a new design.
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        pair(page, c)
        page.goto(c.url + "/design")
        expect(page.locator("#check-status")).not_to_have_text("Checking…")
        page.get_by_label("Or a link from another box's Design page").fill(link)
        page.get_by_role("button", name="Import", exact=True).click()
        expect(page.locator("#import-status")).to_contain_text('Imported "Penalty Pot"')
        expect(page.get_by_label("Title")).to_have_value("Penalty Pot")
    finally:
        context.close()


def test_no_share_for_a_built_in_kind_and_no_file_for_it(browser, companion):
    c = companion("pig-farm", ("Ann", "Ben", "Cy"))
    context, tv = _tv(browser, c)
    try:
        expect(tv.locator("#who")).not_to_have_text("No game on the table")
        expect(tv.locator("#tv-share")).to_be_hidden()
    finally:
        context.close()
    for path in ("/api/design/pig-farm.json", "/api/design/pig-farm.png",
                 "/api/design/design:000000000000.json", "/api/design/design:000000000000.png"):
        status, body = _get(c, path)
        assert status == 404, path
        assert "is not a game this box has a design of" in json.loads(body)["error"]


def test_axe_finds_no_serious_violation_on_the_tv_with_the_qr(browser, companion):
    from tests.web.test_axe import AXE, violations

    if not AXE.exists():
        pytest.skip("axe-core is not installed (make axe)")
    kind = games.design_kind(example("penalty-pot")).kind
    c = companion(kind, ("Ann", "Ben", "Cy"))
    context, tv = _tv(browser, c)
    try:
        expect(tv.locator("#tv-share")).to_be_visible()
        found = violations(tv, AXE.read_text(encoding="utf-8"))
        assert not found, "\n".join(found)
    finally:
        context.close()
