"""Colour is never the only sign of a fact on the pages (docs/web.md, Accessibility): the
Colors die, Flower Power's flowers and Drop Rainbow's cards say their colour in words too.
A browser reads the words (what a colour-blind player reads, and a screen reader says)."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import PHONE, TV, demos, pair
from tests.web.helpers import expect

pytestmark = pytest.mark.slow


def _open(browser, c, path: str):
    context = browser.new_context(viewport=TV if path == "/tv" else PHONE)
    page = context.new_page()
    page.goto(c.url + path)
    page.wait_for_selector("#conn[data-state=live]")
    return context, page


@pytest.mark.parametrize("path", ["/", "/tv"])
def test_the_colors_die_says_its_colour(browser, companion, path):
    c = companion("table", ("Ann", "Ben"),
                  events=[{"type": "roll", "dice": {"colors": "green", "shapes": "star"}},
                          {"type": "roll", "dice": {"colors": "logo"}}])
    context, page = _open(browser, c, path)
    try:
        die = page.locator("#roll .die[data-die=colors]")
        expect(die).to_have_class("die c-logo")
        expect(page.locator("#roll .die-box").first.locator(".die-l")).to_have_text("logo")
    finally:
        context.close()
    c2 = companion("table", ("Ann", "Ben"), journal="green",
                   events=[{"type": "roll", "dice": {"colors": "green", "shapes": "star"}}])
    context, page = _open(browser, c2, path)
    try:
        boxes = page.locator("#roll .die-box")
        expect(boxes.nth(0).locator(".die-l")).to_have_text("green")
        expect(boxes.nth(1).locator(".die-l")).to_have_text("star")
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/", "/tv"])
def test_flower_power_names_each_flowers_colour_and_counts_its_petals(browser, companion, path):
    players, rules, events = demos()["flower-power"]
    c = companion("flower-power", players, rules, events)
    context, page = _open(browser, c, path)
    try:
        chips = page.locator(".garden .bed .chip")
        expect(chips).to_have_text(["red", "orange", "yellow", "green", "blue"])
        # The petals are coloured dots; their count is said in words and in figures too.
        petals = page.locator(".garden .petals")
        for k in range(petals.count()):
            on = petals.nth(k).locator(".petal.on").count()
            expect(petals.nth(k)).to_have_attribute("aria-label", f"{on} of 5 petals")
            expect(page.locator(".garden .bed-n").nth(k)).to_have_text(f"{on}/5")
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/", "/tv"])
def test_drop_rainbow_letter_chips_carry_the_colours_name(browser, companion, path):
    """The players' table shows each collected colour as a chip with its first letter ("R"):
    its name is the chip's name for a screen reader (and its tooltip), not in the colour alone;
    and the TV's fitted table is as big as it was with the letter alone."""
    players, rules, events = demos()["drop-rainbow"]
    c = companion("drop-rainbow", players, rules, events)
    context, page = _open(browser, c, path)
    try:
        chips = page.locator("#players td .chip")
        expect(chips.first).to_be_visible()
        for k in range(chips.count()):
            chip = chips.nth(k)
            name = chip.get_attribute("data-color") or ""
            cls = chip.get_attribute("class") or ""
            assert name and f"c-{name}" in cls, cls
            expect(chip).to_have_text(name[:1].upper())  # what is seen
            expect(chip).to_have_attribute("title", name)
            expect(chip).to_have_attribute("role", "img")  # what is said: its name
            expect(chip).to_have_attribute("aria-label", name)
        if path == "/tv":  # three players fill the column in big type (a hidden word did not)
            page.wait_for_selector("body[data-fitted]")
            size = chips.first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
            assert size >= 24, f"the TV's players table shrank to {size}px"
    finally:
        context.close()


def test_drop_rainbows_draw_buttons_say_the_colour(browser, companion):
    players, rules, events = demos()["drop-rainbow"]
    c = companion("drop-rainbow", players, rules, events)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        pair(page, c)
        buttons = page.locator("#actions button.chip")
        expect(buttons.first).to_be_visible()
        for k in range(buttons.count()):
            b = buttons.nth(k)
            color = next(x[2:] for x in (b.get_attribute("class") or "").split()
                         if x.startswith("c-"))
            assert b.inner_text().strip().lower() == color, (b.inner_text(), color)
    finally:
        context.close()
