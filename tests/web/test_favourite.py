"""Who is favourite (issue 38, part 2) in the browser: when a game starts, /tv and the phones
show each player's chance to win; "Upset!" at game over when an outsider won; hidden when the
group turns it off or most players are new; the TV still shows everything whole with the line
(as tests/web/test_tv_fits.py checks every kind), and axe finds nothing serious."""

from __future__ import annotations

import datetime as dt
from concurrent.futures import Future

import pytest

from companion.gallery import crowd
from companion.gallery.web_shots import Companion, pair
from companion.games import load_config
from companion.inputs import WebRequest
from companion.rules.game import Header
from companion.session.store import Store
from companion.testing import FakeClock
from tests.test_stats_web import noon, regulars_and_a_newcomer, won
from tests.web.helpers import WAIT_S, expect, state
from tests.web.test_axe import axe_source, violations  # noqa: F401  (axe_source: a fixture)
from tests.web.test_tv_fits import SIZES, _fitted, _post, problems

pytestmark = pytest.mark.slow

YESTERDAY = dt.date.today() - dt.timedelta(days=1)


def act(c: Companion, event: dict) -> None:
    """`event` as a paired phone's action (the app thread, the same route)."""
    reply: Future = Future()
    c.app.post(WebRequest("action", {"event": event, "seq": None}, reply))
    assert reply.result(timeout=WAIT_S).get("ok"), event


def open_game(path, players: tuple[str, ...], kind: str = "match-patch") -> None:
    with Store(path, clock=FakeClock(noon(dt.date.today()))) as s:
        s.new_game(Header(kind, players))


@pytest.fixture
def regulars(tmp_path):
    """30 games of Reg, Ann and Ben yesterday (Reg won 12, Ann 10, Ben 8) and Neo's one."""
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, YESTERDAY)
    return path


def started(path, *, favourite: bool = True) -> Companion:
    """The companion on `path` (`with` starts it), with `[stats] favourite` as given."""
    config = load_config(None)
    config.data["stats"]["favourite"] = favourite
    return Companion(path, config=config)


def tv_page(browser, c: Companion):
    context = browser.new_context(viewport=SIZES[1], device_scale_factor=1)
    page = context.new_page()
    page.goto(c.url + "/tv")
    page.wait_for_selector("#conn[data-state=live]")
    return context, page


def test_chances_on_the_tv_and_the_phone_then_an_upset(browser, page, regulars):
    open_game(regulars, ("Reg", "Ann", "Ben"))
    with started(regulars) as c:
        context, tv = tv_page(browser, c)
        try:
            fav = tv.locator("#favourite")
            expect(fav).to_be_visible()
            chances = state(c)["favourite"]["chances"]
            pct = [f"{round(x * 100)}%" for x in chances]
            # The likeliest first, the favourite (Reg) marked.
            expect(fav.locator("span")).to_have_text(
                ["Chance to win:", f"Reg {pct[0]}", f"Ann {pct[1]}", f"Ben {pct[2]}"])
            expect(fav.locator(".top")).to_have_text(f"Reg {pct[0]}")
            page.goto(c.url + "/control")
            expect(page.locator("#favourite")).to_contain_text(f"Reg {pct[0]}")
            page.goto(c.url + "/")
            expect(page.locator("#favourite")).to_contain_text(f"Reg {pct[0]}")
            # Readable at arm's length on the TV: as big as the line under the name.
            assert tv.evaluate("parseFloat(getComputedStyle(document.querySelector("
                               "'#favourite .fav-seat')).fontSize)") >= 24
            act(c, {"type": "pair", "player": 2})
            act(c, {"type": "end"})
            expect(fav).to_have_text(f"Upset! Ben won at {pct[2]}")
            expect(fav).to_have_attribute("data-upset", "true")
            expect(page.locator("#favourite")).to_have_text(f"Upset! Ben won at {pct[2]}")
        finally:
            context.close()


def test_as_predicted_at_game_over(page, regulars):
    open_game(regulars, ("Reg", "Ben"))
    with started(regulars) as c:
        page.goto(c.url + "/")
        expect(page.locator("#favourite .top")).to_contain_text("Reg")
        act(c, {"type": "pair", "player": 0})
        act(c, {"type": "end"})
        expect(page.locator("#favourite")).to_have_text("Reg was the favourite: as predicted")
        expect(page.locator("#favourite")).not_to_have_attribute("data-upset", "true")


def test_hidden_when_turned_off(page, regulars):
    open_game(regulars, ("Reg", "Ann", "Ben"))
    with started(regulars, favourite=False) as c:
        page.goto(c.url + "/")
        page.wait_for_selector("#conn[data-state=live]")
        expect(page.locator("#who")).to_have_text("Reg")
        assert state(c)["favourite"] is None
        expect(page.locator("#favourite")).to_be_hidden()


def test_hidden_when_most_players_are_new(page, regulars):
    open_game(regulars, ("Neo", "Zed", "Reg"))
    with started(regulars) as c:
        page.goto(c.url + "/")
        page.wait_for_selector("#conn[data-state=live]")
        expect(page.locator("#who")).to_have_text("Neo")
        assert state(c)["favourite"] is None
        expect(page.locator("#favourite")).to_be_hidden()


# --- the TV still fits ----------------------------------------------------------------------------

FIT_KINDS = ["pig-farm", "chaos", "penny-badger"]


@pytest.fixture(scope="module")
def crowd_tv(browser, tmp_path_factory):
    """Sixteen players with settled ratings (six Match Patch games of all of them yesterday),
    then each of FIT_KINDS at 6 and at its most players, resumable; a paired TV page."""
    path = tmp_path_factory.mktemp("fav") / "journal.db"
    clock = FakeClock(noon(YESTERDAY))
    ids: dict[tuple[str, int], int] = {}
    with Store(path, clock=clock) as s:
        for w in range(6):
            won(s, clock, crowd.NAMES, w)
        for kind in FIT_KINDS:
            for n in (6, crowd.counts(kind)[-1]):
                players, rules, events = crowd.game(kind, n)
                j = s.new_game(Header(kind, tuple(players), 0, rules), park=True)
                for e in events:
                    j.append(e)
                ids[kind, n] = s.game_id(j)
    c = Companion(path).start()
    context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
    page = context.new_page()
    pair(page, c)
    page.goto(c.url + "/tv")
    page.wait_for_selector("#conn[data-state=live]")
    yield page, c, ids
    context.close()
    c.close()


@pytest.mark.parametrize("kind", FIT_KINDS)
def test_the_tv_fits_with_the_favourite_line(crowd_tv, kind):
    page, c, ids = crowd_tv
    cut: list[str] = []
    for n in (6, crowd.counts(kind)[-1]):
        s = state(c)
        replaces = None if not s.get("game") or s["state"].get("over") else s["game_id"]
        seq = _post(page, c, "/api/resume", {"game": ids[kind, n], "replaces": replaces})
        for over in (False, True):
            if over:
                seq = _post(page, c, "/api/action", {"event": {"type": "end"}})
            for size in SIZES:
                page.set_viewport_size(size)
                _fitted(page, seq)
                fav = page.locator("#favourite")
                expect(fav).to_be_visible()
                if not over:
                    # On the TV, past four players: the three likeliest and "N more".
                    expect(fav.locator(".fav-seat")).to_have_count(3)
                    expect(fav.locator(".fav-more")).to_have_text(f"{n - 3} more")
                where = f"{n} players, {'over' if over else 'playing'}, {size['width']}: "
                cut += [where + line for line in problems(page)]
    assert not cut, "\n".join(cut)


def test_axe_with_the_favourite_shown(browser, regulars, axe_source):  # noqa: F811
    open_game(regulars, ("Reg", "Ann", "Ben"))
    with started(regulars) as c:
        for path, size in (("/tv", SIZES[1]), ("/", {"width": 390, "height": 844})):
            context = browser.new_context(viewport=size, bypass_csp=True)
            try:
                pg = context.new_page()
                pg.goto(c.url + path)
                pg.wait_for_selector("#favourite:not([hidden])")
                assert violations(pg, axe_source) == [], path
            finally:
                context.close()
