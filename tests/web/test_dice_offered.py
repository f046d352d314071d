"""/control offers the dice the game uses (a new user's findings, issue 37): a design with
`dice = []` has no ROLL and no "Record a roll", a design's own dice are the only ones offered
(tests/test_design_engine.py: the 8-sided die alone while the table rolls for who goes
first), and a kind that does not declare its dice (every built-in kind) keeps all four."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import pair
from tests.web.helpers import expect, state
from tests.web.test_design_play import kind_of

pytestmark = pytest.mark.slow

NAMES = ("Ann", "Ben", "Cy")
ROLL = "button.press[data-button=ROLL]"
RECORD = "#actions form[data-form=roll]"


def _dice_offered(page) -> list[str]:
    return page.locator(f"{RECORD} select").evaluate_all("els => els.map((e) => e.name)")


def test_a_design_with_no_dice_offers_no_roll(page, companion):
    c = companion(kind_of("patch-pairs"), NAMES)
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    expect(page.locator("#actions button:text-is('Pair')")).to_be_visible()
    assert state(c)["dice"] == []
    expect(page.locator(ROLL)).to_be_hidden()
    expect(page.locator(RECORD)).to_have_count(0)
    expect(page.locator("#actions", has_text="Record a roll")).to_have_count(0)


def test_a_design_offers_its_own_dice(page, companion):
    c = companion(kind_of("penalty-pot"), NAMES)
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    expect(page.locator(ROLL)).to_be_visible()
    expect(page.locator(RECORD)).to_have_count(1)
    assert _dice_offered(page) == ["d6"]
    page.locator(f"{RECORD} select[name=d6]").select_option("4")
    page.locator(f"{RECORD} button[type=submit]").click()
    expect(page.locator("#history")).to_contain_text("4")
    assert state(c)["state"]["last_roll"] == {"d6": 4}


def test_a_kind_that_does_not_say_offers_every_die(page, companion):
    c = companion("match-patch", NAMES)
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    assert state(c)["dice"] is None
    expect(page.locator(ROLL)).to_be_visible()
    assert _dice_offered(page) == ["colors", "shapes", "d8", "d6"]
