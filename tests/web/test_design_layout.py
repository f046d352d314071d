"""/design's Save bar on a phone (issue 37, a new user's second try): it covered about 170
of 844 pixels, and what the page jumped to (a design's Share, the preview) sat hidden under
it. The bar is one row, and every jump stops clear of it (design.css: scroll-padding), at a
390x844 phone and a small 360x640 one; the page's opening words say what a design is in
plain words, not a file's path."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import PHONE, pair
from tests.web.helpers import expect
from tests.web.test_design_keeping import EXAMPLES

SMALL = {"width": 360, "height": 640}
STEMS = {"penalty-pot": "Penalty Pot", "patch-pairs": "Patch Pairs",
         "flower-count": "Flower Count"}


def _box(page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _clear_of_bar(page, selector: str, viewport: dict) -> None:
    """`selector`'s box is on the screen and above the Save bar's (they do not overlap)."""
    bar, box = _box(page, ".save-box"), _box(page, selector)
    assert box["y"] >= 0, (selector, box)
    assert box["y"] + box["height"] <= bar["y"], (selector, box, bar)
    assert bar["y"] + bar["height"] <= viewport["height"] + 1, bar  # the bar is in sight


@pytest.mark.parametrize("viewport", [PHONE, SMALL], ids=["390x844", "360x640"])
def test_the_save_bar_is_one_row_and_jumps_stop_clear_of_it(browser, companion, viewport):
    c = companion()
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    try:
        pair(page, c)
        page.goto(c.url + "/design")
        for stem, title in STEMS.items():  # three kept: the last one's Share is low down
            page.locator("#import-file").set_input_files(str(EXAMPLES / f"{stem}.toml"))
            expect(page.locator("#import-status")).to_contain_text(f'Imported "{title}"')
            page.get_by_role("button", name="Save").click()
            expect(page.locator("#save-status")).to_contain_text(f'Saved "{title}"')
        expect(page.locator(".saved-title")).to_have_count(len(STEMS))
        bar = _box(page, ".save-box")
        assert bar["height"] <= 64, bar  # one row
        assert _box(page, "#save")["height"] >= 44, "Save is still a big target"
        # Share: the link (and its QR code) in sight, above the bar.
        page.evaluate("window.scrollTo(0, 0)")
        page.get_by_role("button", name="Share Flower Count").click()
        expect(page.locator("#share-link")).to_contain_text("/api/designs/3.json")
        _clear_of_bar(page, "#share-link", viewport)
        _clear_of_bar(page, "#share-qr", viewport)
        # The bar's words jump to the preview, its top clear of the bar.
        page.evaluate("window.scrollTo(0, 0)")
        page.locator("#bar-status").click()
        _clear_of_bar(page, "#preview-h", viewport)
        # A refusal at Save: the page jumps to its words, beside the title, clear of the bar.
        page.get_by_role("button", name="Start a new design").click()
        page.get_by_label("Title").fill("Patch Pairs")
        expect(page.locator("#check-status")).to_have_text("The box can play this.")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.get_by_role("button", name="Save").click()
        expect(page.locator('.field[data-field="title"] .field-error')).to_contain_text(
            "already one of your designs")
        _clear_of_bar(page, '.field[data-field="title"] .field-error', viewport)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], width
    finally:
        context.close()


def test_the_opening_words_say_what_a_design_is_in_plain_words(browser, companion):
    c = companion()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(c.url + "/design")
        intro = page.locator("#design-page > p.note").first
        expect(intro).to_contain_text("A design is")
        expect(intro).to_contain_text("Import a design")
        expect(intro).not_to_contain_text("docs/")
        expect(intro).not_to_contain_text(".md")
    finally:
        context.close()
