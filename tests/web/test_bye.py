"""Open pages hear why the box ends their stream (issue 26, item 4), in a real browser: after
Forget all phones an open /control page says so and its controls go; after Web off, / and
/tv say the web was switched off instead of "reconnecting…" forever, and come back by
themselves when it is on again."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import pair
from companion.inputs import Button, ButtonInput, Gesture
from tests.web.helpers import expect, settle

pytestmark = pytest.mark.slow

NAMES = ("Ann", "Ben", "Cy", "Dee")
# Counts the page's failed connections (window.failedLooks): the quiet look whether the web is
# back, every 5 s while it is off, is one.
COUNT_LOOKS = """(() => {
  window.failedLooks = 0;
  const Source = window.EventSource;
  window.EventSource = class extends Source {
    constructor(...args) {
      super(...args);
      this.addEventListener('error', () => { window.failedLooks += 1; });
    }
  };
})();"""


def press(c, button: Button, gesture: Gesture = Gesture.PRESS) -> None:
    """The box's own button (the app's queue, as gpiozero posts it)."""
    c.app.post(ButtonInput(button, gesture))
    settle(c)


def choose(c, label: str) -> None:
    """Move the box's menu to `label` and press OK."""
    menu = c.app.top
    while menu.items[menu.cursor].text(c.app.ctx()) != label:
        press(c, Button.DOWN)
    press(c, Button.OK)


def web_menu(c) -> None:
    while getattr(c.app.top, "items", None) is not None:  # a menu still open: back to the game
        press(c, Button.BACK)
    press(c, Button.OK, Gesture.HOLD)  # the game's menu
    choose(c, "Table web")


def test_an_open_control_page_is_told_its_phone_was_forgotten(page, companion):
    c = companion("table", NAMES)
    pair(page, c)
    page.goto(c.url + "/control")
    expect(page.locator("#control-box")).to_be_visible()
    # The page's stream is open (live: the box's state came through it), so the box tells
    # it with a "bye"; a page whose stream was away is told as it reconnects (the next test).
    expect(page.locator("#conn")).to_have_text("live")
    web_menu(c)
    choose(c, "Forget all phones")
    press(c, Button.OK)  # "Forget all phones?" yes
    expect(page.locator("#error")).to_have_text("This phone was forgotten on the box: pair again")
    expect(page.locator("#control-box")).to_be_hidden()
    expect(page.locator("#pair-box")).to_be_visible()  # the way back: pair again
    expect(page.locator("#conn")).to_have_text("live")  # still watching, as a guest


def test_a_control_page_whose_stream_was_away_is_told_as_it_reconnects(page, companion):
    """Forgotten while the page had no stream (a phone asleep, wifi gone): no "bye" reached
    it, so the page says so when its stream is back and the box no longer knows it."""
    c = companion("table", NAMES)
    pair(page, c)
    page.route("**/api/events", lambda route: route.abort())
    page.goto(c.url + "/control")
    expect(page.locator("#control-box")).to_be_visible()  # paired as it loaded (/api/me)
    expect(page.locator("#conn")).not_to_have_text("live")
    web_menu(c)
    choose(c, "Forget all phones")
    press(c, Button.OK)
    expect(page.locator("#control-box")).to_be_visible()  # nothing told it yet
    page.unroute("**/api/events")
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#error")).to_have_text("This phone was forgotten on the box: pair again")
    expect(page.locator("#control-box")).to_be_hidden()
    expect(page.locator("#pair-box")).to_be_visible()


def test_open_pages_say_the_web_was_switched_off_and_come_back_with_it(browser, page,
                                                                      companion):
    c = companion("table", NAMES)
    page.add_init_script(COUNT_LOOKS)
    page.goto(c.url + "/")
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.add_init_script(COUNT_LOOKS)
    try:
        tv.goto(c.url + "/tv")
        for pg in (page, tv):
            expect(pg.locator("#conn")).to_have_text("live")
            expect(pg.locator("#box-note")).to_be_hidden()
        web_menu(c)
        choose(c, "Web off")
        for pg in (page, tv):
            expect(pg.locator("#box-note")).to_contain_text("The web was switched off on the box")
            expect(pg.locator("#box-note")).to_be_visible()
            expect(pg.locator("#conn")).to_have_text("web off")
        for pg in (page, tv):  # past a quiet look whether the web is back: still saying so
            looked = pg.evaluate("window.failedLooks")
            pg.wait_for_function("(n) => window.failedLooks > n", arg=looked)
            expect(pg.locator("#conn")).to_have_text("web off")
            expect(pg.locator("#box-note")).to_be_visible()
        web_menu(c)
        choose(c, "Web on")
        for pg in (page, tv):
            expect(pg.locator("#conn")).to_have_text("live")
            expect(pg.locator("#box-note")).to_be_hidden()
    finally:
        tv.context.close()
