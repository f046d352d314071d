"""A full disk seen from a phone, in a real browser (issue 29 item 6): a press the box could
not save says "Not saved: disk full", as the panel does, not "Nothing to do here"."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import pair
from tests.web.helpers import expect, state

pytestmark = pytest.mark.slow


def test_a_press_on_a_full_disk_says_not_saved(page, companion):
    c = companion("table", ("Ann", "Ben", "Cy"))
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    c.store.unwritable = "the disk is full"  # as after a start on a full disk (cli/common.py's open_store)
    page.click("button.press[data-button=NEXT]")
    expect(page.locator("#error")).to_contain_text("Not saved: disk full")
    expect(page.locator("#error")).not_to_contain_text("Nothing to do here")
    expect(page.locator("#who")).to_have_text("Ann")
    assert state(c)["events"] == 0
