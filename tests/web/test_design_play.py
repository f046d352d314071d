"""A group's own design played from the phones and watched on / and /tv (issue 37, section 2):
its moves as buttons and forms, the tallies and the pot on every page, undo from a phone, a
refused move in words, one tap one action, New game offering it "(ours)", and the TV fitting
it at 1080p and 720p at 16 players with long names. Every wait is on an event (the snapshot,
`#conn` live, an element's text), never a pause."""

from __future__ import annotations

import copy
import datetime
import tomllib
from pathlib import Path

import pytest

from companion import games
from companion.gallery import crowd
from companion.gallery.web_shots import Companion, pair
from companion.rules.design import load
from companion.rules.game import Header
from companion.session import designs
from companion.session.journal import Journal
from companion.session.store import Store
from companion.testing import FakeClock
from tests.web.helpers import count_posts, expect, posts_answered, state
from tests.web.test_narrow import AT_HAND, LONG, fits
from tests.web.test_one_tap import tap
from tests.web.test_tv_fits import SIZES, _fitted, _open, _post, problems

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Ben", "Cy")


def example(name: str) -> dict:
    return tomllib.loads((ROOT / "examples" / "designs" / f"{name}.toml").read_text())


@pytest.fixture
def offered():
    """New game's designs as the test leaves them: none (the registry is the process's)."""
    yield
    games.offer_designs([])


def kind_of(name: str) -> str:
    return games.design_kind(example(name)).kind


def test_a_design_game_from_a_phone_on_the_board_and_the_tv(browser, page, companion):
    kind = kind_of("penalty-pot")
    c = companion(kind, NAMES)
    tv = browser.new_context(viewport=SIZES[1]).new_page()
    try:
        tv.goto(c.url + "/tv")
        expect(tv.locator("#conn")).to_have_attribute("data-state", "live")
        pair(page, c)
        expect(page.locator("#who")).to_have_text("Ann")
        for p in (page, tv):
            expect(p.locator("#players thead")).to_contain_text("Coins")
            expect(p.locator("#game")).to_contain_text("pot")
            expect(p.locator("#game .stat", has_text="pot")).to_contain_text("5")
        # A move that needs nothing typed: one tap. Penalty pays 2 to the pot, ends the turn.
        page.locator("#actions button:text-is('Penalty')").click()
        expect(page.locator("#who")).to_have_text("Ben")
        for p in (page, tv):
            expect(p.locator("#game .stat", has_text="pot")).to_contain_text("7")
            expect(p.locator("#players tbody tr").first).to_contain_text("8")
            expect(p.locator("#history li").first).to_contain_text("Ann: Penalty, pays 2 to "
                                                                   "the pot")
        # A move that asks a number: refused empty in the field's words, then sent.
        jackpot = page.locator("#actions form[data-form=move-jackpot]")
        jackpot.locator("button[type=submit]").click()
        expect(page.locator("#error")).to_have_text("Amount: enter a whole number, 1 to 20")
        assert state(c)["events"] == 1
        jackpot.locator("input[name=amount]").fill("3")
        jackpot.locator("button[type=submit]").click()
        expect(page.locator("#who")).to_have_text("Cy")
        for p in (page, tv):
            expect(p.locator("#game .stat", has_text="pot")).to_contain_text("4")
            expect(p.locator("#players tbody tr").nth(1)).to_contain_text("13")
        assert c.app.journal.events[-1] == {"type": "move", "name": "Jackpot", "amount": 3}
        # A move with a chosen player: Cy steals a coin from Ann.
        steal = page.locator("#actions form[data-form=move-steal]")
        steal.locator("select[name=player]").select_option(label="Ann")
        steal.locator("button[type=submit]").click()
        for p in (page, tv):
            expect(p.locator("#players tbody tr").nth(2)).to_contain_text("11")
        # Undo from the phone: the steal is taken back on every page.
        page.click("#undo")
        for p in (page, tv):
            expect(p.locator("#players tbody tr").nth(2)).not_to_contain_text("11")
            expect(p.locator("#players tbody tr").first).to_contain_text("8")
        assert state(c)["state"]["tallies"]["coins"] == [8, 13, 10]
        expect(page.locator("#redo")).to_be_enabled()
    finally:
        tv.context.close()


def test_a_refused_design_move_reads_in_words_on_the_phone(page, companion):
    """Ten Rounds rolls for who goes first: a move before it is refused in words, and the
    roll is the question the phone asks first."""
    c = companion(kind_of("ten-rounds"), NAMES)
    pair(page, c)
    expect(page.locator("#actions form[data-form=roll-off] h3")).to_have_text(
        "Who goes first: Ann rolls the 8-sided die")
    page.locator("#actions button:text-is('Bonus')").click()
    expect(page.locator("#error")).to_have_text(
        "First roll for who goes first: each player rolls the 8-sided die (or the group "
        "picks, Who goes first)")
    assert state(c)["events"] == 0
    roll = page.locator("#actions form[data-form=roll-off]")
    roll.locator("select[name=die-d8]").select_option("7")
    roll.locator("button[type=submit]").click()
    expect(page.locator("#actions form[data-form=roll-off] h3")).to_have_text(
        "Who goes first: Ben rolls the 8-sided die")
    assert c.app.journal.events == [{"type": "roll", "player": 0, "dice": {"d8": 7}}]


def test_a_round_score_takes_a_minus_and_adds_to_the_tally(page, companion):
    c = companion(kind_of("ten-rounds"), NAMES, events=[{"type": "first", "player": 0}])
    pair(page, c)
    score = page.locator("#actions form[data-form=score]")
    for k, v in enumerate(("-5", "12", "")):
        score.locator(f"input[name=scores{k}]").fill(v)
    score.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text("Enter Cy's points (a whole number)")
    score.locator("input[name=scores2]").fill("0")
    score.locator("button[type=submit]").click()
    expect(page.locator("#game .stat", has_text="rounds played")).to_contain_text("1 of 10")
    assert state(c)["state"]["tallies"]["points"] == [-5, 12, 0]
    expect(page.locator("#players tbody tr").first).to_contain_text("-5")


def test_a_double_tap_and_two_phones_at_once_are_one_action_each(browser, page, companion):
    c = companion(kind_of("penalty-pot"), NAMES)
    box_clock = c.web.clock = FakeClock()
    page.clock.install()
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    count_posts(page)
    button = "#actions button:text-is('Tax')"  # no end of turn: a second one would show
    page.clock.pause_at(datetime.datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1))
    tap(page, button)
    page.wait_for_timeout(200)  # real time: the page's clock stands still
    tap(page, button)
    page.clock.run_for(750)
    page.clock.resume()
    box_clock.advance(0.75)
    assert posts_answered(page) == 1
    assert c.app.journal.events == [{"type": "move", "name": "Tax"}]
    assert state(c)["state"]["pot"] == 7
    # Two phones tap Penalty at once: both asked on the same snapshot (its seq). The box
    # takes the first; the second, asked on a game that has moved on, changes nothing.
    other = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
    try:
        pair(other, c)
        seq = state(c)["seq"]
        said = [p.evaluate(SEND, [{"type": "move", "name": "Penalty"}, seq])
                for p in (page, other)]
        assert [s for s, _ in said] == [200, 409], said
        assert c.app.journal.events == [{"type": "move", "name": "Tax"},
                                        {"type": "move", "name": "Penalty"}]
        expect(other.locator("#who")).to_have_text("Cy")  # Tax skipped Ben
    finally:
        other.context.close()


# A tap's request as the page sends it, with the seq of the snapshot it was made on.
SEND = """async ([event, seq]) => {
  const r = await fetch('/api/action', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify({event, seq})});
  return [r.status, await r.text()];
}"""


def test_new_game_of_a_design_from_a_phone(page, tmp_path, offered):
    """A design kept in the journal is in the phone's New game, "(ours)" in its colour, and
    a new game of it starts from the phone with the kind name alone."""
    with Store(tmp_path / "journal.db") as store:  # kept before the box starts
        saved = designs.save(store, load(example("penalty-pot")))
    c = Companion(tmp_path / "journal.db")
    c.seed("table", list(NAMES), {}, [])
    with c:
        _new_game(page, c, saved)


def _new_game(page, c: Companion, saved: designs.SavedDesign) -> None:
    pair(page, c)
    page.click("#new-game summary")
    option = page.locator(f"#ng-kind option[value='{saved.kind}']")
    expect(option).to_have_text("Penalty Pot (ours)")
    assert option.evaluate("o => o.style.color") == "rgb(46, 134, 171)"  # #2e86ab
    page.select_option("#ng-kind", saved.kind)
    expect(page.locator("#ng-count")).to_have_text("2-8 players")
    page.get_by_label("Coins at the start").fill("4")
    page.locator("#new-game-form button[type=submit]").click()
    expect(page.locator("#new-game-form button[data-armed]")).to_be_visible()
    page.wait_for_timeout(750)  # a second thought, not a double tap's second tap
    page.locator("#new-game-form button[type=submit]").click()
    expect(page.locator("#players thead")).to_contain_text("Coins")
    snap = state(c)
    assert snap["game"] == saved.kind and snap["state"]["tallies"]["coins"] == [4, 4, 4]
    assert c.app.journal.header.rules["design"] == saved.design.to_json()


def _biggest(name: str, title: str, extra: int) -> dict:
    """The example design `name` for 16 players, titled `title` (16 letters: the longest),
    with `extra` more tallies of long names."""
    d = copy.deepcopy(example(name))
    d["players"] = {"min": 2, "max": 16}
    d["title"] = title
    for i in range(extra):
        d["tallies"].append({"name": ("flowers", "thunder", "nuggets")[i]})
    return d


def test_the_tv_fits_a_design_game_at_16_players_with_long_names(browser, tmp_path):
    ids: dict[str, int] = {}
    kinds = [games.design_kind(_biggest("penalty-pot", "Penaltypotpotpot", 3)).kind,
             games.design_kind(_biggest("ten-rounds", "Tenroundsroundss", 2)).kind]
    with Store(tmp_path / "journal.db") as store:
        for kind in kinds:
            players, rules, events = crowd.game(kind, 16)
            j = Journal(Header(kind, tuple(players), 0, rules))
            for e in events:
                j.append(e)
            ids[kind] = store.import_game(j, f"tv {kind}")
    cut: list[str] = []
    with Companion(tmp_path / "journal.db") as c:
        context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
        try:
            page = context.new_page()
            pair(page, c)
            page.goto(c.url + "/tv")
            page.wait_for_selector("#conn[data-state=live]")
            for kind, gid in ids.items():
                seq = _post(page, c, "/api/resume", {"game": gid, "replaces": _open(c)})
                for over in (False, True):  # in progress, then ended by the group
                    if over:
                        seq = _post(page, c, "/api/action", {"event": {"type": "end"}})
                    for size in SIZES:
                        page.set_viewport_size(size)
                        _fitted(page, seq)
                        assert page.locator("#players tbody tr").count() == 16
                        where = f"{kind}, {'over' if over else 'on'}, {size}: "
                        cut += [where + line for line in problems(page)]
        finally:
            context.close()
    assert not cut, "\n".join(cut)


@pytest.mark.parametrize("name", ["penalty-pot", "ten-rounds"])
def test_a_design_fits_a_phone_and_its_moves_are_at_hand(browser, companion, name):
    """As every kind (tests/web/test_narrow.py): with long names nothing is wider than a
    390 px phone, and on /control whose turn it is, NEXT, Undo, Pause and the design's main
    moves are on a 360x640 screen as it opens, above the scoreboard."""
    kind = kind_of(name)
    c = companion(kind, LONG[:4], {"turn_limit": 60}, crowd.game(kind, 4)[2])
    for width, height in ((390, 844), (360, 640)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(c.url + "/")
            expect(page.locator("#conn")).to_have_attribute("data-state", "live")
            assert fits(page) == ""
            pair(page, c)
            page.goto(c.url + "/control")
            expect(page.locator("#actions h2")).to_contain_text("'s turn")
            expect(page.locator("#pause")).to_be_visible()
            assert fits(page) == ""
            at = page.evaluate(AT_HAND)
            w, h, scrolled = at.pop("view")
            scoreboard = at.pop("scoreboard")
            assert scrolled == 0 and len(at) > 4, at
            for what, (top, bottom, left, right) in at.items():
                assert 0 <= top and bottom <= h and 0 <= left and right <= w, (what, at)
                assert bottom <= scoreboard, (what, "under the scoreboard")
        finally:
            context.close()


def twelve_moves() -> dict:
    """A design with the most moves a design may have (12): six buttons, six forms, and a
    round score."""
    d = copy.deepcopy(example("ten-rounds"))
    d["title"] = "Twelve Moves"
    d["moves"] = [{"name": f"Button {i + 1}", "effects": [
        {"do": "add", "tally": "points", "amount": i + 1}]} for i in range(6)] + \
        [{"name": f"Asked {i + 1}", "ask": {"min": 1, "max": 9}, "effects": [
            {"do": "add", "tally": "points", "amount": "ask"}]} for i in range(6)]
    return d


def test_a_design_of_twelve_moves_keeps_six_at_hand(browser, companion):
    kind = games.design_kind(twelve_moves()).kind
    c = companion(kind, LONG[:4], {}, [{"type": "first", "player": 0}])
    context = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        page = context.new_page()
        pair(page, c)
        page.goto(c.url + "/control")
        expect(page.locator("#actions h2")).to_contain_text("'s turn")
        at = page.evaluate(AT_HAND)
        w, h, _ = at.pop("view")
        at.pop("scoreboard")
        assert {"Button 1", "Button 6", "Round scores"} <= set(at) and "Asked 1" not in set(at)
        for what, (top, bottom, left, right) in at.items():
            assert 0 <= top and bottom <= h and 0 <= left and right <= w, (what, at)
        for k in range(1, 7):  # the others are in the actions below, with their forms
            expect(page.locator(f"#actions form[data-form=move-asked-{k}]")).to_be_attached()
    finally:
        context.close()


def test_no_serious_accessibility_violation_with_a_design_game_running(browser, companion):
    """axe-core on every page (tests/web/test_axe.py) with a design game under way."""
    from tests.web.test_axe import AXE, _check

    if not AXE.exists():
        pytest.skip("axe-core is not installed (make axe)")
    kind = kind_of("penalty-pot")
    c = companion(kind, *crowd.game(kind, 4))
    problems = _check(browser, c, AXE.read_text(encoding="utf-8"), game=True)
    assert not problems, "\n".join(problems)


def test_a_double_tap_on_any_button_of_a_design_is_one_action(browser, companion):
    """Every button of a design's moves and forms, and the main ones, tapped twice at the
    same place 60, 200 and 350 ms apart: one change, one request (as every kind's,
    tests/web/test_one_tap.py, whose Undo check records a roll of the 6-sided die: Penalty
    Pot's own die)."""
    from tests.web.test_one_tap import test_a_double_tap_on_any_button_of_any_kind_is_one_action
    test_a_double_tap_on_any_button_of_any_kind_is_one_action(browser, companion,
                                                              kind_of("penalty-pot"))
