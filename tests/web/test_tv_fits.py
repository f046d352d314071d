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
import time
from contextlib import contextmanager

import pytest

from companion import games
from companion.gallery import crowd
from companion.gallery.web_shots import Companion, pair
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.session.store import Store
from tests.web.helpers import WAIT_S, state

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


# What a viewer cannot read, one line each (issue 34 item 10): two things drawn over each
# other (the ink of words, a picture, a button, a seat light's dot: any two of them that are
# not one inside the other), words smaller than the floor (16 px at 1280x720, the same share
# of the screen at 1920x1080: 1.25 of table.css's --u), and words whose WCAG contrast against
# what is painted under them is below 4.5:1 (3:1 for large text: 24 px, or 18.66 px bold).
# The background is what the browser paints under the words' middle (elementsFromPoint:
# a badge fixed over the header counts against the header's amber, not against its parent),
# composited from the bottom up; the words' colour is blended by its alpha and the opacity
# of the element and its parents. A word on a gradient (the rainbow chip) is not measured.
LOOKS = """() => {
  const W = innerWidth, H = innerHeight, out = [];
  const u = Math.min(W / 100, H * 1.78 / 100);
  const floor = 1.25 * u - 0.05;
  const what = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '') +
    ' "' + (e.textContent || '').trim().slice(0, 24) + '"';
  const hidden = (e) => !e || e.closest('script, .sr-only, .sr, .sr-heading') ||
    !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden';
  // The ink: [owner element, rect], a rect for each line of each text node, and the whole
  // box of each picture, button and light.
  const ink = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const texts = [];
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const e = t.parentElement;
    if (!t.data.trim() || hidden(e)) continue;
    texts.push(t);
    range.selectNodeContents(t);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      // A line's box is the font's whole height: its ink is the middle of it.
      const pad = r.height * 0.18;
      ink.push([e, {left: r.left, right: r.right, top: r.top + pad, bottom: r.bottom - pad}]);
    }
  }
  for (const e of document.body.querySelectorAll('img, button, .ring-dot')) {
    if (hidden(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.height) ink.push([e, r, true]);
  }
  for (let i = 0; i < ink.length; i++) {
    for (let j = i + 1; j < ink.length; j++) {
      const [a, ra, boxA] = ink[i], [b, rb, boxB] = ink[j];
      if (a === b || a.contains(b) || b.contains(a)) continue;
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      // Two boxes (a light's dot and the picture) may not even touch; words get a pixel.
      const slack = boxA && boxB ? 0 : 1;
      if (x > slack && y > slack) out.push(what(a) + ' overlaps ' + what(b));
    }
  }
  const rgba = (c) => { const v = (c.match(/[\\d.]+/g) || []).map(Number);
                        return v.length >= 3 ? [v[0], v[1], v[2], v.length > 3 ? v[3] : 1] : null; };
  const over = (top, a, bottom) => top.map((v, i) => v * a + bottom[i] * (1 - a));
  const opacity = (e) => { let o = 1;
    for (; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity);
    return o; };
  const lum = (c) => c.map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const seen = new Set();
  for (const t of texts) {
    const e = t.parentElement;
    const st = getComputedStyle(e);
    const size = parseFloat(st.fontSize);
    if (size < floor && !seen.has(e)) {
      seen.add(e);
      out.push(what(e) + ' is ' + size.toFixed(1) + ' px, under ' + (floor + 0.05).toFixed(1));
    }
    range.selectNodeContents(t);
    const r = [...range.getClientRects()].find((q) => q.width >= 1 && q.height >= 1);
    if (!r) continue;
    const cx = Math.min(W - 1, Math.max(0, (r.left + r.right) / 2));
    const cy = Math.min(H - 1, Math.max(0, (r.top + r.bottom) / 2));
    const stack = document.elementsFromPoint(cx, cy);
    const at = stack.indexOf(e);
    // Bottom first: what is painted under the words there, or (words the point does not
    // find: under something that takes no pointer) the element and its parents.
    const under = at >= 0 ? stack.slice(at).reverse() : [];
    if (at < 0) { for (let p = e; p; p = p.parentElement) under.unshift(p); }
    let back = [0, 0, 0];
    let gradient = false;
    for (const b of under) {
      const bs = getComputedStyle(b);
      if (bs.backgroundImage !== 'none' && b.tagName !== 'HTML') gradient = true;
      const c = rgba(bs.backgroundColor);
      if (c && c[3] > 0) back = over(c.slice(0, 3), c[3] * opacity(b), back);
    }
    if (gradient) continue;
    const c = rgba(st.color);
    const fg = over(c.slice(0, 3), c[3] * opacity(e), back);
    const a = lum(fg), b = lum(back);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const bold = parseInt(st.fontWeight, 10) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need && !seen.has(t)) {
      seen.add(t);
      out.push(what(e) + ' contrast ' + ratio.toFixed(2) + ' < ' + need + ' (' +
               fg.map(Math.round) + ' on ' + back.map(Math.round) + ')');
    }
  }
  return out;
}"""


def problems(page) -> list[str]:
    """Everything cut (CUT) and everything unreadable (LOOKS) on the page as it is."""
    return [*page.evaluate(CUT), *page.evaluate(LOOKS)]


@pytest.fixture(scope="module")
def tv(browser, tmp_path_factory):
    """The companion (with seat lights) with every checked game in its journal (unfinished:
    resumable), and a paired TV-sized page of it: (page, companion, {(kind, players): game id})."""
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
    from companion.testing import RecordingRing
    c = Companion(journal, ring=RecordingRing(16)).start()  # the seat lights round the picture
    context = browser.new_context(viewport=SIZES[0], device_scale_factor=1)
    page = context.new_page()
    pair(page, c)
    page.goto(c.url + "/tv")
    page.wait_for_selector("#conn[data-state=live]")
    yield page, c, ids
    context.close()
    c.close()



@contextmanager
def _tv_page(browser, c: Companion, size, start: float, *, init: str | None = None):
    """A paired /tv at `size` whose page clock stands at `start` + 1 s (the box's fake clock
    starts at `start`), live; closed after."""
    context = browser.new_context(viewport=size, device_scale_factor=1)
    try:
        page = context.new_page()
        pair(page, c)
        if init is not None:
            page.add_init_script(init)
        page.clock.install(time=start * 1000)
        page.clock.pause_at(start * 1000 + 1000)
        page.goto(c.url + "/tv")
        page.wait_for_selector("#conn[data-state=live]")
        yield page
    finally:
        context.close()


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
    millisecond at a time until the page has refitted, for as long as a loaded machine takes
    (up to WAIT_S)."""
    size = page.viewport_size
    assert size is not None
    want = [f"{size['width']}x{size['height']}", seq]
    deadline = time.monotonic() + WAIT_S  # a bound on the wait, not a count of tries
    while not page.evaluate("(want) => { const f = (document.body.dataset.fitted || ':')"
                            ".split(':'); return f[0] === want[0] && +f[1] >= want[1]; }", want):
        assert time.monotonic() < deadline, f"the TV never refitted to {want}"
        page.wait_for_timeout(20)  # real time: the browser's own turn
        page.clock.run_for(1)


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
                cut += [where + line for line in problems(page)]
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
                assert problems(page) == [], size
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
        with _tv_page(browser, c, SIZES[0], start) as page:
            for kind, gid in ids.items():
                seq = _post(page, c, "/api/resume", {"game": gid, "replaces": _open(c)})
                # The page has this game's snapshot before its clock is moved on (a page
                # busy fitting the last game gets it later; its clock counts from then).
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
                        cut += [where + line for line in problems(page)]
                assert page.locator("#clock-state").inner_text() == "Time!"
    assert not cut, "\n".join(cut)


def _clock_game(path, clock, kind: str) -> None:
    """A journal at `path` holding one game of `kind` at its most players, a minute a turn,
    its longest name in the seat whose turn it is once the game's events are played."""
    players, rules, events = crowd.game(kind, crowd.counts(kind)[-1])
    rules = {**rules, "turn_limit": 60}
    dry = Journal(Header(kind, tuple(players), 0, rules))
    for e in events:
        dry.append(e)
    a, b = dry.state.table.current, players.index(max(crowd.NAMES, key=len))
    players[a], players[b] = players[b], players[a]
    with Store(path, clock=clock) as store:
        j = store.new_game(Header(kind, tuple(players), 0, rules))
        for e in events:
            j.append(e)


@pytest.mark.parametrize("kind", list(games.kinds()))
def test_tv_is_readable_in_every_clock_state_with_the_longest_name_on_turn(browser, tmp_path,
                                                                            kind):
    """Issue 34 item 10: with a limit of a minute a turn, the 16-letter name on turn, the
    seat lights round the box's picture and "Speak calls ON", for every kind at its most
    players, at both sizes: the clock running, at the warning, at Time!, paused at the
    warning and paused after Time! nothing is cut, nothing is drawn over anything else
    (the switch stood over the clock), no word is under the floor, every word is readable
    on what is under it ("Speak calls ON" was green on amber); and paused looks paused: no
    amber or red, "Paused" said, and the ring's line says the clock is paused instead of
    "time is running out". The box's clock is a FakeClock, moved by hand for the pauses;
    the page's is Playwright's, moved by hand for the warning and Time!."""
    from companion.testing import FakeClock, RecordingRing

    start = 1_700_000_000.0
    clock = FakeClock(start)
    _clock_game(tmp_path / "journal.db", clock, kind)
    cut: list[str] = []
    with Companion(tmp_path / "journal.db", clock=clock, ring=RecordingRing(16)) as c:
        with _tv_page(browser, c, SIZES[1], start, init="localStorage.setItem('chroma.speech', 'on')") as page:
            assert page.locator("#speech-switch").get_attribute("aria-pressed") == "true"
            s = state(c)
            assert s["players"][s["state"]["current"]] == max(crowd.NAMES, key=len)
            assert s["clock"]["left"] == 60

            def check(name: str, seq: int) -> None:
                sizes = SIZES if page.viewport_size == SIZES[0] else SIZES[::-1]
                for size in sizes:
                    page.set_viewport_size(size)
                    _refitted(page, seq)
                    where = f"{name}, {size['width']}x{size['height']}: "
                    cut.extend(where + line for line in problems(page))

            seq = s["seq"]
            check("running", seq)
            page.clock.run_for(55_000)
            check("warn", seq)
            assert page.locator("#turn").get_attribute("data-alarm") == "warn"
            page.clock.run_for(8_000)
            check("time", seq)
            assert page.locator("#turn").get_attribute("data-alarm") == "time"
            # The box's own clock on to 5 s before the limit, then past it; paused there.
            for alarm, by in (("warn", 55), ("time", 8)):
                clock.advance(by)
                seq = _post(page, c, "/api/pause", {"paused": True})
                assert state(c)["clock"]["alarm"] == alarm
                check("paused at " + alarm, seq)
                looks = (page.locator("#turn").get_attribute("data-alarm"),
                         page.locator("body").get_attribute("data-alarm"),
                         page.locator("#clock-state").inner_text())
                if looks != ("", "", "Paused"):
                    cut.append(f"paused at {alarm}: the alarm and the words: {looks}")
                ring = page.locator("#ring-words").inner_text()
                if "paused" not in ring or "running out" in ring or "time is up" in ring:
                    cut.append(f"paused at {alarm}: the ring says {ring!r}")
                if alarm == "warn":
                    _post(page, c, "/api/pause", {"paused": False})
    assert not cut, "\n".join(cut)


# --- a group's own designs (issue 37): their words head the players' table's columns -------
# A tally's name is the schema's "words": at most 16 characters (companion/rules/design/
# schema.json), and one word may be all of them. The heads below are 16 letters each, heavy
# with the widest letters (m, w): as long and about as wide as a real word gets ("the widest
# letters" below goes further).
LONGEST_TALLIES = ("mammothmushrooms", "wombatwhirlwinds", "moonwalkmarathon",
                   "windmillwoodwork")


def _design(title: str, tallies: tuple[str, ...], *, pot: bool = False, most: int = 16,
            target: bool = False, rounds: bool = False, out_at: bool = False) -> dict:
    """A legal design named `title` keeping `tallies` (the first one money when there is a
    `pot`), for 2 to `most` players: a move adding to each tally, a payment into the pot,
    and each optional stat the TV's game panel shows (a target, rounds, who is out)."""
    first = tallies[0]
    d: dict = {
        "format_version": 1, "title": title, "players": {"min": 2, "max": most},
        "tallies": [{"name": t, "start": 10} for t in tallies],
        "moves": [{"name": f"Add {i + 1}", "effects": [{"do": "add", "tally": t, "amount": 3}]}
                  for i, t in enumerate(tallies[1:] if pot else tallies)],
        "end": [{"when": "group"}],
        "winner": {"by": "most", "tally": first},
    }
    if pot:
        d["tallies"][0] = {"name": first, "start": 10, "money": True}
        d["pot"] = {"start": 5}
        d["moves"].append({"name": "Pay", "effects": [
            {"do": "pay", "amount": 1, "from": "current", "to": "pot"}, {"do": "end_turn"}]})
    if target:
        d["end"].append({"when": "reach", "tally": tallies[-1], "target": 9999})
    if rounds:
        d["end"].append({"when": "rounds", "rounds": 999})
    if out_at:
        d["tallies"][-1]["out_at"] = 0
        d["moves"].append({"name": "Lose", "effects": [
            {"do": "take", "tally": tallies[-1], "amount": 5, "who": "chosen"}]})
    return d


# The worst a design can ask of the TV: four tallies with the longest names, a pot, every
# stat of the game panel, 16 players; then a handful of odd ones.
DESIGNS = {
    "the worst": _design("Mmmmmmmmmmmmmmmm", LONGEST_TALLIES, pot=True, target=True,
                         rounds=True, out_at=True),
    "one long tally": _design("Onelongtallyname", ("thunderstrikes12",)),
    "four short tallies": _design("Short", ("a", "bb", "xp", "hp"), pot=True),
    "four 8-letter tallies": _design("Eight letters", ("mushroom", "windmill", "woodwork",
                                                       "marathon"), pot=True, out_at=True),
    "two-word tallies": _design("Two words", ("gold coins", "magic beans", "big wins",
                                              "bad luck cards"), target=True),
    "long tallies, 2 players": _design("Two players", LONGEST_TALLIES, most=2, pot=True),
    "look-alike long tallies": _design("Look alike", tuple(f"mammothmonsters{i}"
                                                           for i in range(1, 5)), pot=True),
    "look-alike 8-letter tallies": _design("Look alike 8", ("scorefirst", "scoresecond",
                                                            "scorethird", "scorefourth")),
    # Legal, if no group would: the widest letters, even their first four too wide.
    "the widest letters": _design("Wwwwwwwwwwwwwwww", ("mmmmmmmmmmmmmmmm", "wwwwwwwwwwwwwwww",
                                                       "mwmwmwmwmwmwmwmw", "wmwmwmwmwmwmwmwm"),
                                  pot=True, out_at=True),
}


# How the heads are written where the choice is plain: a short word across; two players'
# rows leave the room for the whole words upwards; 16 rows do not (short, with the key).
HEADS = {"four short tallies": "across", "long tallies, 2 players": "upright",
         "the worst": "short"}
HEADS_NOW = """() => document.querySelector('#players .heads-key') ? 'short'
  : document.querySelector('#players table.upright') ? 'upright' : 'across'"""


def test_tv_fits_every_kind_of_design_at_its_most_players(browser, tmp_path):
    """Issue 37: a designed game's own words head the players' table: four 16-letter tally
    names at 16 players (the 16-letter player name among them) were cut at 1280x720: the
    table 1178 px wide in 685 (8 letters: 816 in 685). Each design above at its most
    players, with a chess clock running (a time, an average and a bank per player), in
    progress and at game over, at both sizes: nothing cut, nothing over anything else, no
    word under the floor; every tally's whole name is on the screen, as words (a head
    written short is in the key under the table), and names its head for a screen reader;
    no two heads read the same."""
    from companion.testing import FakeClock, RecordingRing

    start = 1_700_000_000.0
    clock = FakeClock(start)
    ids: dict[str, tuple[int, dict]] = {}
    with Store(tmp_path / "journal.db", clock=clock) as store:
        for name, d in DESIGNS.items():
            kind = games.design_kind(d).kind
            players, rules, events = crowd.game(kind, d["players"]["max"])
            j = store.new_game(Header(kind, tuple(players), 0,
                                      {**rules, "time_bank": 600, "time_bonus": 5}), park=True)
            for e in events:
                j.append(e)
            ids[name] = store.game_id(j), d
    cut: list[str] = []
    with Companion(tmp_path / "journal.db", clock=clock, ring=RecordingRing(16)) as c:
        with _tv_page(browser, c, SIZES[1], start) as page:
            for name, (gid, d) in ids.items():
                seq = _post(page, c, "/api/resume", {"game": gid, "replaces": _open(c)})
                for over in (False, True):
                    if over:
                        seq = _post(page, c, "/api/action", {"event": {"type": "end"}})
                    sizes = SIZES if page.viewport_size == SIZES[0] else SIZES[::-1]
                    for size in sizes:
                        page.set_viewport_size(size)
                        _refitted(page, seq)
                        where = f"{name}, {'game over' if over else 'clock running'}, " \
                                f"{size['width']}x{size['height']}: "
                        rows = page.locator("#players tbody tr").count()
                        if rows != d["players"]["max"]:
                            cut.append(where + f"{rows} players' rows shown")
                        cut += [where + line for line in problems(page)]
                        seen = page.locator("#board").inner_text().casefold()
                        cut += [where + f"the tally {t!r} is not on the screen"
                                for t in (t["name"] for t in d["tallies"]) if t not in seen]
                        # A head written short is named in full for a screen reader, and
                        # no two heads read the same.
                        heads = page.eval_on_selector_all(
                            "#players table:first-child thead th", "ths => ths.map((t) => "
                            "[(t.getAttribute('aria-label') || t.textContent).toLowerCase(),"
                            " t.textContent.toLowerCase()])")
                        cut += [where + f"no head of the players' table is named {t!r}"
                                for t in (t["name"] for t in d["tallies"])
                                if t not in [named for named, _ in heads]]
                        shown = [text for _, text in heads]
                        if len(set(shown)) < len(shown):
                            cut.append(where + f"two heads read the same: {shown}")
                        way = page.evaluate(HEADS_NOW)
                        if name in HEADS and way != HEADS[name]:
                            cut.append(where + f"the heads are written {way}, not {HEADS[name]}")
    assert not cut, "\n".join(cut)


# --- many tied winners (issue 37): a design's "the most of a tally, ties shared" -----------
# Sixteen players, every name 16 letters (the most a name may have), with wide letters.
SIXTEEN_LONG = ("Bartholomewsmith", "Maximilianbrowne", "Wilhelminamorgan", "Alexandrawoodrow",
                "Christophermills", "Gwendolynmorrows", "Evangelinemonroe", "Montgomerywillis",
                "Theodorewhitaker", "Josephinemorwood", "Margueritemwidow", "Fitzwilliamdarcy",
                "Bernadettemurray", "Konstantinmorrow", "Sebastianwarwick", "Wenceslausmonroe")
TIED = {"format_version": 1, "title": "Tied crowns", "players": {"min": 2, "max": 16},
        "tallies": [{"name": "points", "start": 10}],
        "moves": [{"name": "Add", "effects": [{"do": "add", "tally": "points", "amount": 3},
                                              {"do": "end_turn"}]},
                  {"name": "Pass", "effects": [{"do": "end_turn"}]}],
        "end": [{"when": "group"}], "winner": {"by": "most", "tally": "points"}}
WINNERS = (2, 7, 16)


def tied_games(store: Store) -> dict[int, int]:
    """In `store`, parked: for each count in WINNERS a game of TIED at 16 players whose first
    that many seats scored (the others passed), so they tie for the most; {count: game id}.
    Six finished games before them, won by the last three seats, rate every player: who is
    favourite is shown, and its verdict at game over is an upset ("Upset! 7 players won at
    6% each"; it named all seven with their chances on three lines)."""
    kind = games.design_kind(TIED).kind
    assert all(len(name) == 16 for name in SIXTEEN_LONG) and len(set(SIXTEEN_LONG)) == 16
    for _ in range(6):
        j = store.new_game(Header(kind, SIXTEEN_LONG, 0, {}))
        for seat in range(16):
            j.append({"type": "move", "name": "Add" if seat >= 13 else "Pass"})
        j.append({"type": "end"})
    ids = {}
    for k in WINNERS:
        j = store.new_game(Header(kind, SIXTEEN_LONG, 0, {"time_bank": 600, "time_bonus": 5}),
                           park=True)
        for seat in range(16):
            j.append({"type": "move", "name": "Add" if seat < k else "Pass"})
        ids[k] = store.game_id(j)
    return ids


def winners_shown(page, k: int) -> list[str]:
    """What is wrong with how the `k` winners (the first k seats) are shown, one line each:
    the players' table marks exactly their rows, each with a star named "winner" for a
    screen reader, and each winner's whole name is on the screen."""
    wrong = []
    rows = page.eval_on_selector_all(
        "#players tbody tr", "trs => trs.map((r) => [r.dataset.seat, r.classList.contains("
        "'winner'), (r.querySelector('.marker[aria-label=winner]') || {}).textContent || ''])")
    marked = sorted(int(seat) for seat, win, star in rows if win and star == "★")
    if marked != list(range(k)):
        wrong.append(f"the rows marked as winners: {marked}")
    seen = page.locator("#board").inner_text()
    wrong += [f"{name} (a winner) is not on the screen" for name in SIXTEEN_LONG[:k]
              if name not in seen]
    return wrong


def test_tv_fits_a_game_over_with_many_tied_winners(browser, tmp_path):
    """Issue 37: a designed game won by the most points, ties shared, over with 2, 7 and all
    16 of 16 players tied, every name 16 letters, the seat lights on, at both sizes: seven
    winners' names were one 18 px line, cut, and "Lights: <seven names> win" ran past its
    column. Now nothing is cut, over anything else or under the floor; the headline is the
    biggest words and bigger than the line under it; two names still head the screen, more
    are counted there ("7 players share the win", "All 16 ...") with each winner's row
    marked in the table; the lights' line and the favourite's verdict beside the headline
    count the seats when they would name more than two."""
    from companion.testing import RecordingRing

    with Store(tmp_path / "journal.db") as store:
        ids = tied_games(store)
    cut: list[str] = []
    with Companion(tmp_path / "journal.db", ring=RecordingRing(16)) as c:
        context = browser.new_context(viewport=SIZES[1], device_scale_factor=1)
        try:
            page = context.new_page()
            pair(page, c)
            page.goto(c.url + "/tv")
            page.wait_for_selector("#conn[data-state=live]")
            for k, gid in ids.items():
                _post(page, c, "/api/resume", {"game": gid, "replaces": _open(c)})
                seq = _post(page, c, "/api/action", {"event": {"type": "end"}})
                assert state(c)["state"]["winners"] == list(range(k))
                sizes = SIZES if page.viewport_size == SIZES[0] else SIZES[::-1]
                for size in sizes:
                    page.set_viewport_size(size)
                    _fitted(page, seq)
                    where = f"{k} winners, {size['width']}x{size['height']}: "
                    cut += [where + line for line in problems(page)]
                    cut += [where + line for line in winners_shown(page, k)]
                    who = page.locator("#who").inner_text()
                    want = ("Bartholomewsmith, Maximilianbrowne" if k == 2
                            else "All 16 players share the win" if k == 16
                            else f"{k} players share the win")
                    if who != want:
                        cut.append(where + f"the headline says {who!r}, not {want!r}")
                    sizes_px = page.evaluate(
                        "() => [...document.querySelectorAll('#who, #turn-sub > *')]"
                        ".map((e) => parseFloat(getComputedStyle(e).fontSize))")
                    if sizes_px[0] < 1.3 * max(sizes_px[1:]):
                        cut.append(where + f"the headline ({sizes_px[0]} px) is not a third "
                                           f"bigger than the line under it ({sizes_px[1:]})")
                    verdict = page.locator("#favourite").inner_text()
                    want = ("Upset! Bartholomewsmith (6%) & Maximilianbrowne (6%) won" if k == 2
                            else "3 players were the favourites: as predicted" if k == 16
                            else f"Upset! {k} players won at 6% each")
                    if not page.locator("#favourite").is_visible() or verdict != want:
                        cut.append(where + f"the favourite's verdict is {verdict!r}, not {want!r}")
                    ring = page.locator("#ring-words").inner_text()
                    want = ("Lights: Bartholomewsmith, Maximilianbrowne win" if k == 2
                            else f"Lights: {k} winners lit")
                    if ring != want:
                        cut.append(where + f"the lights' line says {ring!r}, not {want!r}")
        finally:
            context.close()
    assert not cut, "\n".join(cut)


# --- the history in every clock state (issue 37 tryout) --------------------------------------
HISTORY_MIN = 3  # table.js's TV_HISTORY_MIN: the fewest events the history is shown with
HISTORY_SHOWN = """() => { const box = document.getElementById('history');
  return box.hidden || !box.getClientRects().length ? 0 : box.querySelectorAll('li').length; }"""
FOUR = ("Ann", "Ben", "Cy", "Dee")
# The tryout's game: a design with a pot and a target, its first seven events (two turns
# ended, a reverse): the history stood beside the box while the clock ran.
STEAL = {"format_version": 1, "title": "Steal 3", "players": {"min": 2, "max": 8},
         "tallies": [{"name": "coins", "start": 5, "floor": 0, "money": True}],
         "pot": {"start": 0},
         "moves": [{"name": "Steal", "effects": [{"do": "pay", "amount": 1, "from": "chosen",
                                                   "to": "current"}]},
                   {"name": "Tax", "effects": [{"do": "pay", "amount": 1, "from": "current",
                                                 "to": "pot"}]}],
         "turn_order": {"moves": ["skip", "reverse"], "first": "picked"},
         "end": [{"when": "group"}, {"when": "reach", "tally": "coins", "target": 10}],
         "winner": {"by": "most", "tally": "coins"}}
STEAL_EVENTS = [{"type": "move", "name": "Steal", "player": 0}, {"type": "next"},
                {"type": "move", "name": "Tax"}, {"type": "next"}, {"type": "move", "name": "Tax"},
                {"type": "reverse"}, {"type": "next"}]


def test_tv_keeps_the_history_in_every_clock_state(browser, tmp_path):
    """Issue 37 tryout: a designed game of 4 players with a minute a turn, at 1920x1080, lost
    "What happened" at "Almost time" and at "Time!" (a third of the screen left empty): the
    layout fitted under the running clock's header (the history beside the box) was taken
    again under the taller one, though the history had no room there any more. And with
    examples/designs/penalty-pot.toml's long events the history, under the players' table,
    widened the left column, so the box's column came out smaller and the history gave way,
    the clock running or not. Now those two designs and two built-in kinds, 4 players each,
    the clock running, at the warning and at Time!, at both sizes: the history is shown with
    at least its fewest events, the newest first, and nothing is cut or unreadable. The
    box's clock is a FakeClock that stands still; the page's is Playwright's, moved by hand
    to the warning and past the limit."""
    import tomllib
    from pathlib import Path

    from companion.testing import FakeClock

    pot = tomllib.loads((Path(__file__).parents[2] / "examples" / "designs" /
                         "penalty-pot.toml").read_text(encoding="utf-8"))
    start = 1_700_000_000.0
    clock = FakeClock(start)
    ids: dict[str, int] = {}
    with Store(tmp_path / "journal.db", clock=clock) as store:
        tryout = games.design_kind(STEAL).kind
        for kind in (tryout, games.design_kind(pot).kind, "table", "pig-farm"):
            _, rules, events = ((None, {}, STEAL_EVENTS) if kind == tryout
                                else crowd.game(kind, len(FOUR)))
            j = store.new_game(Header(kind, FOUR, 1 if kind == tryout else 0,
                                      {**rules, "turn_limit": 60}), park=True)
            for e in events:
                j.append(e)
            ids[kind] = store.game_id(j)
    cut: list[str] = []
    with Companion(tmp_path / "journal.db", clock=clock) as c:
        with _tv_page(browser, c, SIZES[0], start) as page:
            for kind, gid in ids.items():
                seq = _post(page, c, "/api/resume", {"game": gid, "replaces": _open(c)})
                page.wait_for_function("(s) => +document.body.dataset.seq >= s", arg=seq)
                s = state(c)
                assert s["clock"]["left"] == 60 and s["players"] == list(FOUR)
                assert len(s["history"]) >= HISTORY_MIN, (kind, s["history"])
                for alarm, by in (("", 0), ("warn", 55_000), ("time", 8_000)):
                    page.clock.run_for(by)
                    # Each state at both sizes, starting with the size the last one ended at.
                    sizes = SIZES if page.viewport_size == SIZES[0] else SIZES[::-1]
                    for size in sizes:
                        page.set_viewport_size(size)
                        _refitted(page, seq)
                        where = f"{s['title'] or kind}, {alarm or 'running'}, " \
                                f"{size['width']}x{size['height']}: "
                        if page.locator("#turn").get_attribute("data-alarm") != alarm:
                            cut.append(where + "the clock is not in this state")
                        shown = page.evaluate(HISTORY_SHOWN)
                        if shown < HISTORY_MIN:
                            cut.append(where + f"the history shows {shown} events, "
                                               f"not {HISTORY_MIN} or more")
                        elif page.locator("#history li .n").first.inner_text() != \
                                str(s["history"][-1]["n"]):
                            cut.append(where + "the history's first line is not the newest event")
                        cut += [where + line for line in problems(page)]
    assert not cut, "\n".join(cut)
