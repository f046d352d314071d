"""What NEXT means on a phone (issue 34.3; docs/web.md, "What NEXT means"): where the rules
need a choice before the turn ends, the phone's "Next player" offers the same choice as the
box's NEXT (it takes the player to the controls that answer it) and sends nothing; a double
tap on it changes nothing either."""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import pair
from tests.web.helpers import expect, state

pytestmark = pytest.mark.slow

NAMES = ("Ann", "Ben", "Cy", "Dee")
NEXT = "#actions button:text-is('Next player')"


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    yield pg
    context.close()


def test_penny_badger_next_player_takes_the_badger_to_pass_or_claim(phone, companion):
    c = companion("penny-badger", NAMES)
    pair(phone, c)
    expect(phone.locator("#who")).to_have_text("Ann")
    phone.dblclick(NEXT)  # a double tap: the second lands while the page moves
    expect(phone.locator("#error")).to_have_text("Pass or claim first")
    # The first answer has the focus once the double-tap window is over: the Pass button,
    # with the Claim form beside it.
    focused = phone.locator("#actions [data-move=pass]")
    expect(focused).to_be_focused()
    expect(focused).to_be_in_viewport()
    expect(phone.locator("#actions form[data-move=claim]")).to_have_count(1)
    assert c.app.journal.events == [] and state(c)["state"]["bank"] == 100  # no penny lost
    expect(phone.locator("#who")).to_have_text("Ann")
    focused.click()  # the answer: a penny to the bank, and Ben's turn
    expect(phone.locator("#who")).to_have_text("Ben")
    assert c.app.journal.events == [{"type": "pass"}]


def test_chaos_next_player_with_a_draw_4_stack_owed_takes_the_player_to_take_it(phone,
                                                                                companion):
    c = companion("chaos", NAMES, events=[{"type": "draw_four", "color": "red"}])
    pair(phone, c)
    expect(phone.locator("#who")).to_have_text("Ben")
    phone.click(NEXT)
    expect(phone.locator("#error")).to_have_text(
        "Take the Draw 4 stack (4 cards) or answer with a Draw 4 first")
    expect(phone.locator("#actions [data-move=take_draw_four]")).to_be_focused()
    assert len(c.app.journal.events) == 1
    # Taken, NEXT ends the turn again.
    phone.click("#actions [data-move=take_draw_four]")
    expect(phone.locator("#error")).to_be_hidden()
    phone.wait_for_timeout(750)  # past the double-tap window: a new tap
    phone.click(NEXT)
    expect(phone.locator("#who")).to_have_text("Cy")


def test_drop_rainbow_next_player_with_side_cards_takes_the_player_to_bank_them(phone,
                                                                                 companion):
    """The box's NEXT banks the side cards; the phone's takes the player to Bank first (the
    draw buttons, the other answer, come before it on the page)."""
    c = companion("drop-rainbow", NAMES[:3], events=[{"type": "reveal", "color": "red"},
                                                     {"type": "draw", "color": "blue"}])
    pair(phone, c)
    expect(phone.locator("#who")).to_have_text("Ann")
    phone.click(NEXT)
    expect(phone.locator("#error")).to_have_text("Bank the side cards or draw first")
    expect(phone.locator("#actions [data-move=bank]")).to_be_focused()
    assert len(c.app.journal.events) == 2
