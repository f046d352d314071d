"""The new-game form's roster buttons ("+ Ann") offer only the names not seated yet: a seated
name's button did nothing when tapped (issue 37, a new user's findings, item 3)."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import pair
from tests.web.helpers import expect

pytestmark = pytest.mark.slow


def test_the_roster_offers_only_the_names_not_seated(page, companion):
    c = companion("table", ("Ann", "Ben"))
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    page.click("#new-game summary")
    inputs = page.locator("#ng-players input")
    expect(inputs).to_have_count(2)
    chips = page.locator("#ng-roster button")
    roster = [chips.nth(i).get_attribute("data-name") for i in range(chips.count())]
    assert {"Ann", "Ben"} < set(roster)
    shown = page.locator("#ng-roster button:visible")
    expect(shown).to_have_count(len(roster) - 2)
    expect(page.locator("#ng-roster button:text-is('+ Ann')")).to_be_hidden()
    expect(page.locator("#ng-roster button:text-is('+ Ben')")).to_be_hidden()
    # Ben leaves the list: his button is back; typing a name (any case) hides it.
    page.locator("#ng-players li").nth(1).get_by_role("button", name="Remove this player").click()
    expect(page.locator("#ng-roster button:text-is('+ Ben')")).to_be_visible()
    page.click("#ng-roster button:text-is('+ Ben')")
    expect(page.locator("#ng-roster button:text-is('+ Ben')")).to_be_hidden()
    assert [inputs.nth(i).input_value() for i in range(inputs.count())] == ["Ann", "Ben"]
    page.click("#ng-add")
    inputs.nth(2).fill(roster[2].lower())
    expect(page.locator(f"#ng-roster button:text-is('+ {roster[2]}')")).to_be_hidden()
