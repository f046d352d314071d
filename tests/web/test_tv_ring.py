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


# Each ring mark drawn as the TV draws it (Table.ringMark, in a dot of the ring), then its
# pixels compared with an unassigned code point's (the font's empty box) and with nothing:
# a text mark the page's fonts lack looks like one of them. A drawn mark is an <svg>.
MARKS = """() => {
  const fonts = getComputedStyle(document.getElementById('ring')).fontFamily ||
                getComputedStyle(document.body).fontFamily;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const g = canvas.getContext('2d');
  const ink = (text) => {
    g.clearRect(0, 0, 64, 64);
    g.font = 'bold 40px ' + fonts;
    g.fillStyle = '#000';
    g.textBaseline = 'middle';
    g.fillText(text, 8, 32);
    return g.getImageData(0, 0, 64, 64).data.join(',');
  };
  const missing = ink('\\u0378'), blank = ink(' ');
  const out = {};
  for (const mark of ['turn', 'warn', 'time', 'won', 'out', 'skip']) {
    const node = Table.ringMark(mark);
    if (!node) { out[mark] = 'none'; continue; }
    if (node.nodeName.toLowerCase() === 'svg') { out[mark] = 'svg'; continue; }
    const drawn = ink(node.textContent);
    out[mark] = drawn === missing ? 'empty box ' + node.textContent
              : drawn === blank ? 'nothing ' + node.textContent : 'glyph';
  }
  return out;
}"""


def test_every_ring_mark_is_drawn_with_the_fonts_a_pi_has(tv):
    """Issue 34 item 10: the Time! mark ⏱ was an empty box in a browser with no emoji font
    (Debian's chromium here has the fonts a Pi has: DejaVu). Every mark the ring's seats
    can carry is a glyph these fonts have, or drawn (the stopwatch)."""
    page, _ = tv(RecordingRing(16))
    marks = page.evaluate(MARKS)
    assert marks == {"turn": "glyph", "warn": "glyph", "time": "svg", "won": "glyph",
                     "out": "glyph", "skip": "glyph"}
