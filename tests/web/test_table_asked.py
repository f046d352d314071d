"""While the table is asked a question (Chaos: who deals, after a round is scored) the pages
show nobody's clock running: no clock, no amber, no "Time!" on /tv, however long the
dealing takes with a 10 s turn limit (issue 34.4; docs/clock.md)."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import Companion
from companion.testing import FakeClock
from tests.web.helpers import expect
from tests.web.test_turn_clock import START, _open

pytestmark = pytest.mark.slow


def test_the_tv_shows_no_clock_while_the_table_chooses_the_dealer(browser, tmp_path):
    clock = FakeClock(START)
    c = Companion(tmp_path / "asked.db", clock=clock)
    c.seed("chaos", ["Ann", "Ben", "Cy"], {"turn_limit": 10},
           [{"type": "next"}, {"type": "round_points", "points": [0, 12, 30]}])
    clock.advance(45.0)  # the table has been choosing the next dealer for 45 s
    c.start()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        _open(page, c.url + "/tv")
        expect(page.locator("#clock")).to_be_hidden()
        page.clock.run_for(30000)
        expect(page.locator("#clock")).to_be_hidden()
        expect(page.locator("#turn")).to_have_attribute("data-alarm", "")
        assert "Time!" not in page.locator("body").inner_text()
    finally:
        context.close()
        c.close()
