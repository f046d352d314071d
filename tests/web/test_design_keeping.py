"""Saving a design on /design keeps it once (issue 37, a new user's second try): after a
reload the page brought the saved design back as "A new design", and Save kept it a second
time ("Your designs" listed "Steal 3" twice). A design on the page that is a kept design is
that design (editing it); saving it again keeps nothing and says so; a new design may not
take a kept design's title (docs/designing-a-game.md, "How the box keeps a design")."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from companion.gallery.web_shots import PHONE, pair
from tests.web.helpers import expect

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "designs"


def _designs(c) -> list[tuple[int, int, str]]:
    with urllib.request.urlopen(c.url + "/api/designs", timeout=10) as r:
        return [(s["id"], s["version"], s["title"]) for s in json.loads(r.read())["designs"]]


def _import(page, stem: str) -> None:
    page.locator("#import-file").set_input_files(str(EXAMPLES / f"{stem}.toml"))
    expect(page.locator("#import-status")).to_contain_text("Imported")


def test_a_saved_design_is_that_design_after_a_reload_and_saving_it_again_keeps_nothing(
        browser, companion):
    c = companion()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        pair(page, c)
        page.goto(c.url + "/design")
        _import(page, "penalty-pot")
        expect(page.locator("#editing")).to_have_text("A new design.")
        save = page.get_by_role("button", name="Save")
        save.click()
        expect(page.locator("#save-status")).to_contain_text('Saved "Penalty Pot" (version 1)')
        # The tab is reloaded (a phone's screen was locked): the same design, being edited.
        page.reload()
        expect(page.locator("#editing")).to_contain_text('Editing "Penalty Pot"')
        expect(page.locator(".saved-title")).to_have_count(1)
        save.click()
        expect(page.locator("#save-status")).to_have_text(
            'Already kept as "Penalty Pot" (version 1): nothing new to save.')
        expect(page.locator(".saved-title")).to_have_count(1)
        assert _designs(c) == [(1, 1, "Penalty Pot")]
        # A draft kept before the page knew what it was a version of (a new design, on the
        # phone, that the box keeps already): it is that design too.
        page.evaluate("""() => { const k = JSON.parse(sessionStorage.getItem('chroma-design-draft'));
            sessionStorage.setItem('chroma-design-draft', JSON.stringify({...k, editing: null})); }""")
        page.reload()
        expect(page.locator("#editing")).to_contain_text('Editing "Penalty Pot"')
        # The same file imported again: the design kept, not a new one.
        page.get_by_role("button", name="Start a new design").click()
        expect(page.locator("#editing")).to_have_text("A new design.")
        _import(page, "penalty-pot")
        expect(page.locator("#editing")).to_contain_text('Editing "Penalty Pot"')
        # Edited: Save keeps a new version of it, one row in "Your designs".
        page.get_by_label("The pot starts with").fill("7")
        expect(page.locator(".preview-pot")).to_have_text("The pot: 7")
        save.click()
        expect(page.locator("#save-status")).to_contain_text('Saved "Penalty Pot" (version 2)')
        expect(page.locator(".saved-title")).to_have_count(1)
        assert _designs(c) == [(1, 2, "Penalty Pot")]
    finally:
        context.close()


def test_a_new_design_with_a_kept_design_s_title_is_refused_beside_the_title(browser, companion):
    c = companion()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        pair(page, c)
        page.goto(c.url + "/design")
        _import(page, "penalty-pot")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#save-status")).to_contain_text('Saved "Penalty Pot" (version 1)')
        page.get_by_role("button", name="Start a new design").click()
        page.get_by_label("Title").fill("penalty pot")
        expect(page.locator("#check-status")).to_have_text("The box can play this.")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#save-status")).to_contain_text(
            "Not saved: title: 'penalty pot' is already one of your designs")
        title = page.locator('.field[data-field="title"]')
        expect(title.locator(".field-error")).to_contain_text("Edit that one")
        expect(title.locator("input")).to_have_attribute("aria-invalid", "true")
        assert _designs(c) == [(1, 1, "Penalty Pot")]
    finally:
        context.close()
