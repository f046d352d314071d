"""The phone's New game labels each house rule in words, never by its key (docs/web.md,
Accessibility): "Pennies in the bank at the start", not "bank"; "Points to win", not "target"."""

from __future__ import annotations

import re

import pytest

from companion.gallery.web_shots import pair
from tests.web.helpers import expect

pytestmark = pytest.mark.slow

WORDS = {
    "penny-badger": {"bank": "Pennies in the bank at the start",
                     "savings": "Each badger's savings at the start"},
    "pig-farm": {"target": "Points to win (off: no end)"},
    "drop-rainbow": {"colors": "The seven colors, in order (commas between)"},
}


def test_new_game_house_rules_are_labelled_in_words(page, companion):
    c = companion()
    pair(page, c)
    page.goto(c.url + "/control")
    page.locator("#new-game > summary").click()
    for kind, labels in WORDS.items():
        page.locator("#ng-kind").select_option(kind)
        for key, words in labels.items():
            label = page.locator(f"#ng-rules label[for=rule-{key}]")
            expect(label).to_have_text(words)
            # The input is named by the words (what a screen reader says of it).
            expect(page.get_by_label(words, exact=True)).to_have_attribute("name", key)
        shown = page.locator("#ng-rules label").all_inner_texts()
        assert not [t for t in shown if "_" in t or t.strip() in labels], shown


def test_the_players_list_buttons_are_named_in_words(page, companion):
    """"↑", "✕" and "+ Zoe" are signs; a screen reader says what they do."""
    c = companion()
    pair(page, c)
    page.goto(c.url + "/control")
    page.locator("#roster > summary").click()
    # The box's list fills the text box when it loads: filled in before, it could land in
    # the middle of Playwright's fill (select all, then type) and join it ("HalZoe").
    expect(page.locator("#roster-text")).to_have_value(re.compile(r"\S"))
    page.fill("#roster-text", "Zoe\nYan")
    page.click("#roster-form button[type=submit]")
    page.locator("#new-game > summary").click()
    expect(page.get_by_role("button", name="Add Zoe", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Add Yan", exact=True)).to_be_visible()
    page.get_by_role("button", name="Add Zoe", exact=True).click()
    page.get_by_role("button", name="Add Yan", exact=True).click()
    rows = page.locator("#ng-players li")
    expect(rows).to_have_count(page.locator("#ng-players input").count())
    for k in range(rows.count()):
        row = rows.nth(k)
        expect(row.get_by_role("button", name="Move this player up", exact=True)).to_have_count(1)
        expect(row.get_by_role("button", name="Remove this player", exact=True)).to_have_count(1)
