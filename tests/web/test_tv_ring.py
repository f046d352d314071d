"""/tv shows the seat lights (issue 27): the snapshot's `ring` drawn as dots round the box's
picture, in the ring's colours, each seat's dot with a mark and a line of words, so that colour
is never the only sign; it follows the game; and the TV still fits on one screen. No ring
configured: nothing of it shows."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import Companion
from companion.inputs import Button, ButtonInput
from companion.testing import RecordingRing
from tests.web.helpers import expect, state
from tests.web.test_tv_fits import CUT, SIZES

pytestmark = pytest.mark.slow


@pytest.fixture
def tv(browser, tmp_path):
    made: list[Companion] = []
    contexts = []

    def make(ring):
        c = Companion(tmp_path / f"ring{len(made)}.db", ring=ring)
        c.seed("table", ["Ann", "Ben", "Cy", "Dee"], {}, [])
        made.append(c.start())
        context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
        contexts.append(context)
        page = context.new_page()
        page.goto(c.url + "/tv")
        page.wait_for_selector("#conn[data-state=live]")
        return page, c

    yield make
    for ctx in contexts:
        ctx.close()
    for c in made:
        c.close()


DOTS = """() => [...document.querySelectorAll('#ring .ring-dot')].map((d) => ({
  led: +d.dataset.led, mark: d.dataset.mark || '', text: d.textContent,
  colour: getComputedStyle(d).backgroundColor}))"""


def test_tv_shows_the_ring_with_marks_and_words_and_follows_the_game(tv):
    page, c = tv(RecordingRing(16))
    expect(page.locator("#ring-words")).to_have_text("Lights: Ann's turn")
    dots = page.evaluate(DOTS)
    assert len(dots) == 16
    assert [d["led"] for d in dots if d["mark"]] == [0]
    assert dots[0]["text"] == "▶" and dots[0]["colour"] == "rgb(255, 255, 255)"
    # A seat's dim LED drawn as it looks (ui/ring.py seen), a dark one black.
    assert dots[4]["colour"] == "rgb(88, 88, 88)" and dots[2]["colour"] == "rgb(0, 0, 0)"
    # The dots stand round the picture: LED 0 at the middle of its top, LED 4 on its right.
    img = page.locator("#frame-img").bounding_box()
    d0 = page.locator('#ring .ring-dot[data-led="0"]').bounding_box()
    d4 = page.locator('#ring .ring-dot[data-led="4"]').bounding_box()
    assert img and d0 and d4
    assert abs(d0["x"] + d0["width"] / 2 - (img["x"] + img["width"] / 2)) < 2
    assert d0["y"] + d0["height"] / 2 < img["y"] + 1
    assert d4["x"] + d4["width"] / 2 > img["x"] + img["width"] - 1
    seq = state(c)["seq"]
    c.app.post(ButtonInput(Button.NEXT))  # the box's own NEXT: Ben's turn
    page.wait_for_function("(s) => +document.body.dataset.seq > s", arg=seq)
    expect(page.locator("#ring-words")).to_have_text("Lights: Ben's turn")
    dots = page.evaluate(DOTS)
    assert [d["led"] for d in dots if d["mark"]] == [4]
    assert state(c)["ring"]["marks"] == ["", "turn", "", ""]
    page.wait_for_function("() => (document.body.dataset.fitted || '').endsWith(':' + "
                           "document.body.dataset.seq)")
    assert page.evaluate(CUT) == []  # the TV still fits


def test_no_ring_configured_no_ring_on_the_tv(tv):
    page, c = tv(None)
    assert state(c)["ring"] is None
    expect(page.locator("#ring-words")).to_be_hidden()
    assert page.evaluate(DOTS) == []
