"""The TV shows the whole game (issue 26, item 2): nobody can scroll a TV, so at 1920x1080 and
1280x720, for every kind the registry knows at 2, 6 and its most players, in progress and at
game over, nothing on /tv is cut: no element's content overflows its box, none reaches past
the screen, no word is broken across lines, the page does not scroll, and whose turn it is (or
who won) stays the biggest text. Twelve Pig Farm players showed 4 of 12 columns and "What
happened" ran off the bottom; Flower Power's colour chips broke mid-word.

One browser page and one companion for all of it: every game is in the journal from the
start, the page's own session resumes each in turn through the API (and ends it for game
over), and the screen is resized rather than the page reloaded. table.js marks the body
`data-fitted="WxH:seq"` once the TV's layout is fitted to that screen and snapshot.
"""

from __future__ import annotations

import json

import pytest

from companion import games
from companion.gallery import crowd
from companion.gallery.web_shots import Companion, pair
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.session.store import Store
from tests.web.helpers import state

pytestmark = pytest.mark.slow

SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})

# Everything on the page that is cut, one line each. `rect` is checked against the screen,
# `scroll` sizes against the box (1 px of rounding allowed); a word is broken when its letters
# stand on more than one line. The whose-turn line must be the biggest text on the screen.
CUT = """() => {
  const W = innerWidth, H = innerHeight, out = [];
  const root = document.documentElement;
  if (root.scrollWidth > W || root.scrollHeight > H) {
    out.push('the page scrolls: ' + root.scrollWidth + 'x' + root.scrollHeight);
  }
  const what = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '') +
    ' "' + (e.textContent || '').trim().slice(0, 24) + '"';
  const who = document.getElementById('who');
  const whoSize = parseFloat(getComputedStyle(who).fontSize);
  for (const e of document.body.querySelectorAll('*')) {
    // .sr-only: words for screen readers only (the calls' aria-live region), never seen.
    if (e.tagName === 'SCRIPT' || e.closest('.sr-only') || !e.getClientRects().length) continue;
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      out.push(what(e) + ' reaches past the screen: ' + [r.left, r.top, r.right, r.bottom]
        .map(Math.round).join(','));
    }
    const style = getComputedStyle(e);
    if (style.display !== 'inline' && style.display !== 'contents' &&
        (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)) {
      out.push(what(e) + ' holds ' + e.scrollWidth + 'x' + e.scrollHeight + ' in ' +
               e.clientWidth + 'x' + e.clientHeight);
    }
    const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
    if (text && e !== who && !who.contains(e) && parseFloat(style.fontSize) > whoSize) {
      out.push(what(e) + ' is bigger than whose turn: ' + style.fontSize + ' > ' + whoSize);
    }
  }
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (t.parentElement.closest('script')) continue;
    for (const m of t.data.matchAll(/\\S+/g)) {
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                            .map((r) => Math.round(r.bottom)));
      if (lines.size > 1) out.push('"' + m[0] + '" is broken across ' + lines.size + ' lines');
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def tv(browser, tmp_path_factory):
    """The companion with every checked game in its journal (unfinished: resumable), and a
    paired TV-sized page of it: (page, companion, {(kind, players): game id})."""
    journal = tmp_path_factory.mktemp("tv") / "journal.db"
    ids: dict[tuple[str, int], int] = {}
    with Store(journal) as store:  # each game in one transaction, as `companion import` does
        for kind in games.kinds():
            for n in crowd.counts(kind):
                players, rules, events = crowd.game(kind, n)
                j = Journal(Header(kind, tuple(players), 0, rules))
                for e in events:
                    j.append(e)
                ids[kind, n] = store.import_game(j, f"tv {kind} {n}")
    c = Companion(journal).start()
    context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
    page = context.new_page()
    pair(page, c)
    page.goto(c.url + "/tv")
    page.wait_for_selector("#conn[data-state=live]")
    yield page, c, ids
    context.close()
    c.close()


def _post(page, c: Companion, route: str, body: dict) -> int:
    """A change through the API with the page's paired session; the new snapshot's seq."""
    res = page.request.post(c.url + route, data=json.dumps({**body, "seq": None}),
                            headers={"Content-Type": "application/json", "Origin": c.url})
    assert res.ok, (route, body, res.status, res.text())
    return int(res.json()["seq"])


def _fitted(page, seq: int) -> None:
    size = page.viewport_size
    assert size is not None
    page.wait_for_function(
        "(want) => { const f = (document.body.dataset.fitted || ':').split(':');"
        " return f[0] === want[0] && +f[1] >= want[1]; }",
        arg=[f"{size['width']}x{size['height']}", seq])


def _refitted(page, seq: int) -> None:
    """_fitted on a page whose clock is Playwright's, paused: the TV refits on a timer that
    the resize sets, and the resize reaches the page when the browser gets to it (in a long
    run, after a first `run_for` had nothing to run yet), so the clock is moved on a
    millisecond at a time until the page has refitted."""
    size = page.viewport_size
    assert size is not None
    want = [f"{size['width']}x{size['height']}", seq]
    for _ in range(100):
        page.clock.run_for(1)
        if page.evaluate("(want) => { const f = (document.body.dataset.fitted || ':')"
                         ".split(':'); return f[0] === want[0] && +f[1] >= want[1]; }", want):
            return
        page.wait_for_timeout(50)  # real time: the browser's own turn
    _fitted(page, seq)


@pytest.mark.parametrize("kind", list(games.kinds()))
def test_tv_shows_every_game_whole_at_1080p_and_720p(tv, kind):
    page, c, ids = tv
    cut: list[str] = []
    for n in crowd.counts(kind):
        seq = _post(page, c, "/api/resume", {"game": ids[kind, n], "replaces": _open(c)})
        for over in (False, True):
            if over:
                seq = _post(page, c, "/api/action", {"event": {"type": "end"}})
            # Each state at both sizes, starting with the size the last one ended at.
            sizes = SIZES if page.viewport_size == SIZES[0] else SIZES[::-1]
            for size in sizes:
                page.set_viewport_size(size)
                _fitted(page, seq)
                where = f"{n} players, {'game over' if over else 'in progress'}, " \
                        f"{size['width']}x{size['height']}: "
                cut += [where + line for line in page.evaluate(CUT)]
    assert not cut, "\n".join(cut)


def _open(c: Companion) -> int | None:
    """The game open on the box, when it is unfinished (a resume sets it aside)."""
    s = state(c)
    return None if not s.get("game") or (s.get("state") or {}).get("over") else s["game_id"]


def test_tv_shows_the_start_menu_whole(browser, tmp_path):
    """No game on the box (the start menu, an unfinished game to resume): the TV says so, whole,
    at both sizes."""
    kind = max(games.kinds(), key=lambda k: crowd.counts(k)[-1])
    players, rules, events = crowd.game(kind, crowd.counts(kind)[-1])
    j = Journal(Header(kind, tuple(players), 0, rules))
    for e in events:
        j.append(e)
    with Store(tmp_path / "journal.db") as store:
        store.import_game(j, "start menu")  # parked: the box starts on its start menu
    with Companion(tmp_path / "journal.db") as c:
        assert state(c)["game"] is None and state(c)["unfinished"]
        context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
        try:
            page = context.new_page()
            page.goto(c.url + "/tv")
            page.wait_for_selector("#conn[data-state=live]")
            for size in (*SIZES, SIZES[0]):
                page.set_viewport_size(size)
                _fitted(page, state(c)["seq"])
                assert page.evaluate(CUT) == [], size
            said = page.locator("#turn").inner_text()
            assert "No game on the table" in said and "resume it on the box" in said
        finally:
            context.close()



def test_tv_with_a_chess_clock_fits_at_the_warning_and_at_time(browser, tmp_path):
    """Issue 28: the clock beside the name (smaller than it), each player's time, average
    and bank in the table, and at the warning and at "Time!" the words beside the time: for
    every kind at its most players, at both sizes, nothing is cut and whose turn it is stays
    the biggest text. The box's clock is a FakeClock that stands still (every turn so far
    took no time: what is left is the bank and its bonuses); the page's is Playwright's,
    moved by hand to 5 s before the bank runs out, then 3 s after."""
    from companion.testing import FakeClock

    start = 1_700_000_000.0
    clock = FakeClock(start)
    ids: dict[str, int] = {}
    with Store(tmp_path / "journal.db", clock=clock) as store:
        for kind in games.kinds():
            players, rules, events = crowd.game(kind, crowd.counts(kind)[-1])
            j = store.new_game(Header(kind, tuple(players), 0,
                                      {**rules, "time_bank": 60, "time_bonus": 5}), park=True)
            for e in events:
                j.append(e)
            ids[kind] = store.game_id(j)
    cut: list[str] = []
    with Companion(tmp_path / "journal.db", clock=clock) as c:
        context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
        try:
            page = context.new_page()
            pair(page, c)
            page.clock.install(time=start * 1000)
            page.clock.pause_at(start * 1000 + 1000)
            page.goto(c.url + "/tv")
            page.wait_for_selector("#conn[data-state=live]")
            for kind, gid in ids.items():
                seq = _post(page, c, "/api/resume", {"game": gid, "replaces": _open(c)})
                # The page counts the clock on from the snapshot it has: it must have this
                # game's before its clock moves (make test-flaky: else, now and then, no alarm).
                page.wait_for_function("(s) => +document.body.dataset.seq >= s", arg=seq)
                left = state(c)["clock"]["left"]
                moved = 0  # ms the page's clock has moved on since this game's snapshot
                for alarm, at in (("warn", int((left - 5) * 1000)), ("time", int((left + 3) * 1000))):
                    page.clock.run_for(at - moved)
                    moved = at
                    sizes = SIZES if page.viewport_size == SIZES[0] else SIZES[::-1]
                    for size in sizes:
                        page.set_viewport_size(size)
                        _refitted(page, seq)
                        assert page.locator("#turn").get_attribute("data-alarm") == alarm
                        assert page.locator("th.clock-col", has_text="Bank").count() >= 1
                        where = f"{kind}, {len(state(c)['players'])} players, {alarm}, " \
                                f"{size['width']}x{size['height']}: "
                        cut += [where + line for line in page.evaluate(CUT)]
                assert page.locator("#clock-state").inner_text() == "Time!"
        finally:
            context.close()
    assert not cut, "\n".join(cut)
