"""A paired phone at the end of a game, and its Undo and Redo (issue 37, tried as a new user
on a 390x844 phone): once the game is over, NEXT (which the box's end screen ignores) gives
its place to what the box offers after a game, Play again and New game; Undo stays, and an
undone end goes back into the game; Redo shows beside Undo while there is something to redo,
and both say what they took back or made again. For every kind, the nine and the designs:
a rule of the table lives in the shared page. Every wait is on an event, never a pause."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import games
from companion.gallery.web_shots import pair
from tests.web.helpers import expect, state

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Ben", "Cy", "Dee")
NEXT = "#drive button.press[data-button=NEXT]"


def example(name: str) -> dict:
    return tomllib.loads((ROOT / "examples" / "designs" / f"{name}.toml").read_text())


def design_kind(name: str) -> str:
    return games.design_kind(example(name)).kind


# The nine, and a design of each first-player rule: the group picks (patch-pairs), the next
# seat each game (penalty-pot), the highest 8-sided roll (ten-rounds).
KINDS = [*games.kinds(), "design:patch-pairs", "design:penalty-pot", "design:ten-rounds"]


def kind_of(name: str) -> str:
    return design_kind(name.removeprefix("design:")) if name.startswith("design:") else name


@pytest.mark.parametrize("name", KINDS)
def test_at_game_over_play_again_takes_nexts_place_and_undo_redo_say_what(page, companion,
                                                                             name):
    kind = kind_of(name)
    c = companion(kind, NAMES, events=[{"type": "end"}])
    pair(page, c)
    page.goto(c.url + "/control")
    drive = page.locator("#drive")
    again, new, undo, redo = (page.locator(s) for s in ("#again", "#to-new-game", "#undo",
                                                         "#redo"))
    # Over: Play again and New game where NEXT was (before the scoreboard), Undo beside them.
    expect(page.locator("#turn")).to_have_attribute("data-state", "over")
    expect(page.locator(NEXT)).to_be_hidden()
    expect(again).to_be_visible()
    expect(again).to_have_text("Play again")
    expect(again).to_have_attribute("aria-label", f"Play again: {c.app.journal.game.title} "
                                    "with Ann, Ben, Cy, Dee")
    expect(new).to_be_visible()
    expect(undo).to_be_enabled()
    expect(redo).to_be_hidden()  # nothing to redo
    assert drive.locator("#again").count() == 1
    # Undo: the end is taken back, the game goes on: NEXT is back; Redo shows beside Undo.
    undo.click()
    expect(page.locator("#turn")).to_have_attribute("data-state", "playing")
    expect(page.locator("#error")).to_have_text("Undone: End of game; it is Ann's turn")
    expect(page.locator(NEXT)).to_be_visible()
    expect(again).to_be_hidden()
    expect(new).to_be_hidden()
    expect(redo).to_be_visible()
    expect(redo).to_be_enabled()
    redo.click()
    expect(page.locator("#turn")).to_have_attribute("data-state", "over")
    expect(page.locator("#error")).to_have_text("Redone: End of game; the game is over")
    expect(redo).to_be_hidden()
    expect(again).to_be_visible()
    first = state(c)
    if first["picks_first"]:
        # The group picks who goes first: asked here, as New game asks it, before anything.
        again.click()
        expect(page.locator("#error")).to_have_text(
            "Who goes first? The group picks: choose who, then Play again")
        assert state(c)["game_id"] == first["game_id"]
        page.locator("#main-actions select[name=again-first]").select_option(label="Cy")
        again.click()
        expect(page.locator("#who")).to_have_text("Cy")
        assert c.app.journal.events == [{"type": "first", "player": 2}]
    else:
        again.click()  # one tap, straight to the game (the first player one seat on)
        expect(page.locator("#turn")).to_have_attribute("data-state", "playing")
        assert page.locator("#main-actions select[name=again-first]").count() == 0
    expect(page.locator(NEXT)).to_be_visible()
    expect(again).to_be_hidden()
    assert state(c)["game_id"] != first["game_id"]


def test_new_game_after_a_game_opens_new_game(page, companion):
    c = companion("table", NAMES, events=[{"type": "end"}])
    pair(page, c)
    page.goto(c.url + "/control")
    page.locator("#to-new-game").click()
    expect(page.locator("#new-game")).to_have_attribute("open", "")
    expect(page.locator("#ng-kind")).to_be_focused()
    expect(page.locator("#ng-players input").first).to_have_value("Ann")  # the same table


def test_a_chosen_players_field_says_what_the_player_is_for(page, companion):
    """A design's Steal (a coin from the chosen player) said only "Player: choose..."."""
    c = companion(design_kind("penalty-pot"), NAMES)
    pair(page, c)
    page.goto(c.url + "/control")
    steal = page.locator("#actions form[data-form=move-steal]")
    expect(steal.locator("label")).to_have_text("Take from")
    steal.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text("Take from: choose one")


def test_the_history_line_of_a_skip_names_who_is_skipped(browser, companion):
    c = companion(design_kind("penalty-pot"), NAMES, events=[{"type": "skip"}])
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    try:
        tv.goto(c.url + "/tv")
        expect(tv.locator("#history")).to_contain_text("Skip: Ben is skipped")
    finally:
        tv.context.close()
