"""The phone's New game labels each house rule in words, never by its key (docs/web.md,
Accessibility): "Pennies in the bank at the start", not "bank"; "Points to win", not "target"."""

from __future__ import annotations

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
