"""The box's picture in a real browser (issue 18, items 4 and 5): pushed as it changes to the
live page and above the phone's buttons, and the pages saying when they are not paired."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import pair
from companion.inputs import Button, ButtonInput, Gesture
from tests.web.helpers import WAIT_S, expect

pytestmark = pytest.mark.slow

NAMES = ("Ann", "Ben", "Cy", "Dee")


def frame_n(page, selector: str) -> int:
    src = page.locator(selector).get_attribute("src") or ""
    return int(src.split("n=")[1]) if "n=" in src else 0


def wait_frame_above(page, selector: str, n: int, timeout: float = WAIT_S) -> int:
    """Wait (polling from here: the pages' policy forbids eval) for a frame newer than n.
    `timeout` bounds the wait for the event; a loaded machine takes seconds, not one."""
    import time
    deadline = time.monotonic() + timeout
    while True:
        now = frame_n(page, selector)
        if now > n:
            return now
        assert time.monotonic() < deadline, f"{selector} stayed at frame {now}"
        page.wait_for_timeout(20)


def test_the_live_picture_follows_a_menu_that_saves_nothing(page, companion):
    c = companion("table", NAMES)
    page.goto(c.url + "/")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    seq = page.evaluate("document.body.dataset.seq")
    before = wait_frame_above(page, "#frame-img", 0)
    c.app.post(ButtonInput(Button.OK, Gesture.HOLD))  # the game's menu: nothing is saved
    wait_frame_above(page, "#frame-img", before)
    assert page.evaluate("document.body.dataset.seq") == seq  # no new snapshot


def test_control_shows_the_box_above_the_buttons_and_each_press_changes_it(page, companion):
    c = companion("table", NAMES)
    pair(page, c)
    page.goto(c.url + "/control")
    expect(page.locator("#control-box")).to_be_visible()
    img = page.locator("#control-frame")
    expect(img).to_be_visible()
    assert img.bounding_box()["y"] < page.locator(".pad").bounding_box()["y"]
    n0 = wait_frame_above(page, "#control-frame", 0)
    page.click("button.press[data-button='HOLD OK']")  # the menu opens
    n1 = wait_frame_above(page, "#control-frame", n0)
    page.click("button.press[data-button=DOWN]")  # the cursor moves: only the picture changes
    wait_frame_above(page, "#control-frame", n1)
    loaded = page.evaluate("""async () => {
        const img = document.getElementById('control-frame');
        await img.decode();
        return img.naturalWidth;
    }""")
    assert loaded == 512


def test_a_page_says_at_the_top_when_it_is_not_paired_after_a_restart(page, companion):
    c = companion("table", NAMES)
    port = c.port
    pair(page, c)
    page.goto(c.url + "/control")
    expect(page.locator("#control-box")).to_be_visible()
    expect(page.locator("#pair-banner")).to_be_hidden()
    c.close()
    again = companion(port=port)  # the same journal: the phone is still paired
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    expect(page.locator("#control-box")).to_be_visible()
    expect(page.locator("#pair-banner")).to_be_hidden()
    again.close()
    other = companion(port=port, journal="another")  # a box that never paired this phone
    # /control says it at the top with its own pairing form (one message, not two).
    expect(page.locator("#pair-box")).to_be_visible(timeout=15000)
    expect(page.locator("#control-box")).to_be_hidden()
    assert page.locator("#pair-box").bounding_box()["y"] < 200
    expect(page.locator("#pair-banner")).to_be_hidden()
    page.goto(other.url + "/")  # the live page has no form: the line at the top says it
    expect(page.locator("#pair-banner")).to_be_visible()
