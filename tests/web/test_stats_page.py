"""/stats in the browser (issue 38, parts 1 and 3): players ranked by rating with the rating
big enough to read across the table on a phone, the rating chart, the season picker and the
champions; nothing wider than the phone; axe finds nothing serious."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import Companion
from companion.games import load_config
from tests.test_stats_web import SEASONS, seasons_played  # noqa: F401  (a fixture)
from tests.web.helpers import expect
from tests.web.test_axe import axe_source, violations  # noqa: F401  (a fixture)

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def served(seasons_played):  # noqa: F811
    config = load_config(None)
    config.data["stats"]["seasons"] = SEASONS
    with Companion(seasons_played, config=config) as c:
        yield c


def test_stats_on_a_phone(browser, served):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(served.url + "/stats")
        # This season first: Ann won six of six against Ben.
        expect(page.locator("#season-table h2")).to_have_text("This season: Autumn")
        expect(page.locator("#season-table td.what")).to_have_text(["1. Ann", "2. Ben"])
        # All time: Ann (her six wins this season too), the regulars above the newcomer, who
        # is marked in words.
        names = page.locator("#players-table td.what")
        expect(names).to_have_text(["1. Ann", "2. Reg", "3. Ben", "Neonew: 1 of 5 games"])
        rating = page.locator("#players-table td.rating").first
        assert rating.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 28
        expect(page.locator("#ratings-chart svg")).to_have_count(1)
        expect(page.locator("#ratings-chart .legend li").first).to_have_text("Ann")
        expect(page.locator("#champions li")).to_have_count(2)
        expect(page.locator("#champions li").nth(1)).to_contain_text("Reg")
        expect(page.locator("#rivals")).to_contain_text("loses most to Reg (12 of 30)")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # The picker: Summer's own games and ratings, a link away.
        page.get_by_role("navigation", name="Seasons").get_by_role("link", name="Summer").click()
        expect(page).to_have_url(served.url + "/stats?season=Summer")
        expect(page.locator("h1")).to_have_text("All games: Summer")
        expect(page.locator("#players-table td.what")).to_have_text(
            ["Bennew: 2 of 5 games", "Regnew: 2 of 5 games"])
        page.get_by_role("link", name="All time").click()
        expect(page.locator("h1")).to_have_text("All games")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/stats", "/stats?season=Spring&game=match-patch"])
def test_axe_on_stats(browser, served, axe_source, path):  # noqa: F811
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(served.url + path)
        page.wait_for_load_state("load")
        assert violations(page, axe_source) == []
    finally:
        context.close()
