"""No game on the table (issue 26, item 5), in a real browser: after "Leave to start" the pages
say the start menu's facts in plain words (how many unfinished games, where to resume them),
a paired phone's /control start view lists them with Resume as /games does, and /games
calls a game that is not on the table "set aside", not "playing"."""

from __future__ import annotations

import re

import pytest

from companion.gallery.web_shots import pair
from companion.inputs import Button, Gesture
from tests.web.helpers import expect, state
from tests.web.test_bye import choose, press

pytestmark = pytest.mark.slow

NAMES = ("Ann", "Ben", "Cy", "Dee")


def statuses(page, c) -> dict[str, str]:
    """/games: each game's title and id -> the word it shows for its result."""
    page.goto(c.url + "/games")
    out = {}
    for item in page.locator("#games li").all():
        kind = item.locator(".game-kind").inner_text()
        gid = re.search(r"#(\d+)", item.locator(".game-meta").inner_text()).group(1)
        out[f"{kind} #{gid}"] = item.locator(".game-win").inner_text()
    return out


def two_games_then_leave(page, c) -> None:
    """Table #1 set aside by Chaos #2 (from the phone), then Chaos left for the start menu."""
    status = page.evaluate("""async (body) => (await fetch("/api/new-game", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})).status""",
                           {"game": "chaos", "players": ["Ann", "Ben", "Cy"], "replaces": 1,
                            "seq": None})
    assert status == 200 and state(c)["game_id"] == 2
    assert statuses(page, c) == {"Chaos #2": "playing", "Table #1": "set aside"}
    press(c, Button.OK, Gesture.HOLD)  # the game's menu on the box
    choose(c, "Leave to start")
    press(c, Button.OK)  # "Leave this game?" yes


def test_the_start_view_words_the_start_menu_and_resumes_a_game(browser, page, companion):
    c = companion("table", NAMES, events=[{"type": "next"}])
    pair(page, c)
    two_games_then_leave(page, c)
    snap = state(c)
    assert snap["game"] is None and [g["game_id"] for g in snap["unfinished"]] == [2, 1]
    assert snap["unfinished"][1] == {"game_id": 1, "title": "Table", "players": list(NAMES),
                                     "when": snap["unfinished"][1]["when"]}
    # /games: the game left for the start menu is not being played: it is set aside.
    assert statuses(page, c) == {"Chaos #2": "set aside", "Table #1": "set aside"}
    page.goto(c.url + "/control")
    expect(page.locator("#who")).to_have_text("No game on the table")
    expect(page.locator("#turn-sub")).to_have_text(
        "2 unfinished games can be resumed on the box or below, or start a new game")
    buttons = page.locator("#actions button.resume")
    expect(buttons).to_have_text(["Resume Chaos #2", "Resume Table #1"])  # newest move first
    expect(page.locator("#actions")).to_contain_text("Ann, Ben, Cy, Dee")
    assert "null" not in page.locator("#actions").inner_text()
    # A guest and the TV are told where it can be done from them.
    for viewport, path, words in (((390, 844), "/", "on the box or from a paired phone"),
                                  ((1920, 1080), "/tv", "on the box")):
        other = browser.new_context(viewport=dict(zip(("width", "height"), viewport))).new_page()
        try:
            other.goto(c.url + path)
            expect(other.locator("#turn-sub")).to_have_text(
                f"2 unfinished games can be resumed {words}, or start a new game")
        finally:
            other.context.close()
    # Resume on the phone: Table #1 back on the table; Chaos (left) stays set aside.
    page.locator("#actions button.resume", has_text="Table #1").click()
    expect(page.locator("#who")).to_have_text("Ben")
    snap = state(c)
    assert (snap["game"], snap["game_id"], snap["events"]) == ("table", 1, 1)
    assert statuses(page, c) == {"Chaos #2": "set aside", "Table #1": "playing"}


def test_one_unfinished_game_is_named_with_its_players(page, companion):
    c = companion("table", NAMES, events=[{"type": "next"}])
    pair(page, c)
    press(c, Button.OK, Gesture.HOLD)
    choose(c, "Leave to start")
    press(c, Button.OK)
    page.goto(c.url + "/control")
    expect(page.locator("#turn-sub")).to_have_text(
        "Table #1 (Ann, Ben, Cy, Dee) is unfinished: resume it on the box or below, or start "
        "a new game")
    expect(page.locator("#actions button.resume")).to_have_text(["Resume Table #1"])


def test_games_resumes_another_game_over_the_one_left_for_the_start_menu(page, companion):
    """/games sent no "replaces" for the game left for the start menu: the box refused."""
    c = companion("table", NAMES, events=[{"type": "next"}])
    pair(page, c)
    two_games_then_leave(page, c)
    page.goto(c.url + "/games")
    page.locator("button.resume[data-game='1']").click()
    page.wait_for_url(c.url + "/")
    expect(page.locator("#who")).to_have_text("Ben")
    assert state(c)["game_id"] == 1
    assert statuses(page, c) == {"Chaos #2": "set aside", "Table #1": "playing"}


def test_games_resume_waits_for_the_boxs_snapshot(page, companion):
    """A Resume asks on the box's snapshot (which game is left for the start menu): tapped
    before /games had its first one, it sent no "replaces" and the box refused it (make test
    saw it on a loaded machine). The buttons wait, disabled, until the snapshot is in."""
    c = companion("table", NAMES, events=[{"type": "next"}])
    pair(page, c)
    two_games_then_leave(page, c)
    page.route("**/api/events", lambda route: route.abort())  # no snapshot comes
    page.goto(c.url + "/games")
    expect(page.locator("button.resume[data-game='1']")).to_be_disabled()
    page.unroute("**/api/events")
    page.reload()  # the snapshot comes: the button is enabled, and the resume is taken
    page.locator("button.resume[data-game='1']").click()
    page.wait_for_url(c.url + "/")
    assert state(c)["game_id"] == 1
