"""A 390 px phone (issue 18, item 7): no page, table or form is wider than the screen, with
the longest names a player can have (16 characters, some without a space to break at).
Pig Farm's round table, Penny Badger's savings, the head-to-head headers and the actions
heading all clipped or scrolled sideways before."""

from __future__ import annotations

import json

import pytest

from companion.gallery.web_shots import demos, pair
from companion.games import games
from companion.rules.game import Header
from companion.session.store import Store
from tests.web.helpers import expect, state
from tests.web.test_tv_fits import SIXTEEN_LONG, tied_games, winners_shown

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
# Six 16-character names (the most a name may have), four with no space to wrap at.
LONG = ["Wolfeschlegelste", "Anna-Maria Louis", "Bartholomewsmith", "Christophersonjr",
        "Maximilianussssz", "Ann Elisabethann"]

# Everything on the page that is wider than the screen, or whose content is wider than
# itself (text running out of its box, or a box that scrolls sideways). The chart's own
# SVG parts are drawn inside the scaled <svg> and are left out; form fields hold what is
# typed and are left out too, and so are the labels only screen readers read (.sr).
OVERFLOW = """(exempt) => {
  const W = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > W) {
    out.push('page ' + document.documentElement.scrollWidth + ' > ' + W);
  }
  const skip = new Set(['INPUT', 'SELECT', 'OPTION', 'TEXTAREA', 'SCRIPT', 'STYLE', 'BR']);
  for (const e of document.querySelectorAll('body *')) {
    if (skip.has(e.tagName) || (e.closest('svg') && e.tagName !== 'svg')) continue;
    if (e.closest('.sr, .sr-only')) continue;  // words for screen readers only: not seen
    if (exempt && e.closest(exempt)) continue;
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    const what = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
      (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '') +
      ' "' + (e.textContent || '').trim().slice(0, 30) + '"';
    if (r.right > W + 0.5 || r.left < -0.5) out.push(what + ' spans ' + Math.round(r.left) +
                                                    '..' + Math.round(r.right));
    const display = getComputedStyle(e).display;
    if (display !== 'inline' && display !== 'contents' && e.clientWidth &&
        e.scrollWidth > e.clientWidth + 1) {
      out.push(what + ' holds ' + e.scrollWidth + ' in ' + e.clientWidth);
    }
  }
  return out;
}"""


def settled(page) -> None:
    """Wait until the page is laid out as it stands: loaded (the frame's picture too), its
    fonts in, and a frame painted after that (the names are fitted as a snapshot renders, in
    the same task): events, not a pause a loaded machine can outlast."""
    page.wait_for_load_state("load")
    page.evaluate("""async () => { await document.fonts.ready;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); }""")


def fits(page, *, exempt: str | None = None) -> str:
    """"" when nothing is wider than the screen, else each thing that is, one a line (the
    page itself always counts; what is inside `exempt`, a selector, does not)."""
    settled(page)
    return "\n".join(page.evaluate(OVERFLOW, exempt))


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    pg = context.new_page()
    yield pg
    context.close()


def _long_game(kind: str) -> tuple[list[str], dict, list[dict]]:
    """The kind's demo game with six long names (five for Drop Rainbow, which takes five),
    a long name's turn."""
    players, rules, events = demos()[kind]
    n = min(6, games()[kind].max_players)
    per_seat = {"sell": "hands", "round_points": "points", "roll_off": "rolls", "pips": "pips"}
    events = [dict(e, **{per_seat[e["type"]]: (e[per_seat[e["type"]]] * 2)[:n]})
              if e["type"] in per_seat else e for e in events]
    return LONG[:n], rules, events


@pytest.mark.parametrize("kind", list(demos()))
def test_live_and_control_pages_fit_a_390px_phone_with_long_names(phone, companion, kind):
    players, rules, events = _long_game(kind)
    c = companion(kind, players, rules, events)
    phone.goto(c.url + "/")
    expect(phone.locator("#conn")).to_have_attribute("data-state", "live")
    assert fits(phone) == ""
    # Each name without a space on one line beside its marker, and every name at one indent
    # (a guest trial found "Bartholomewsm / ith" on a line of its own under the marker).
    # A long name is written smaller (fewer breaks); where it still wraps, it starts on its
    # marker's line.
    names = phone.locator("#players td.name").evaluate_all("""tds => tds.map(td => {
        const t = td.querySelector('.name-t'), m = td.querySelector('.marker');
        const r = document.createRange(); r.selectNodeContents(t);
        return [t.textContent, r.getClientRects().length,
                Math.round(t.getBoundingClientRect().left),
                !m.textContent || Math.abs(r.getClientRects()[0].bottom -
                                           m.getBoundingClientRect().bottom) < 3]; })""")
    assert len(names) == len(players)
    assert len({left for _, _, left, _ in names}) == 1, names
    assert all(beside for *_, beside in names), names
    pair(phone, c)
    phone.goto(c.url + "/control")
    expect(phone.locator("#actions h2")).to_contain_text("'s turn")
    phone.click("#new-game summary")
    assert fits(phone) == ""


def test_history_pages_fit_a_390px_phone_with_long_names(phone, companion, tmp_path):
    with Store(tmp_path / "journal.db") as s:
        for kind in ("pig-farm", "penny-badger", "chaos"):
            players, rules, events = _long_game(kind)
            j = s.new_game(Header(kind, tuple(players), 0, rules))
            for e in events:
                j.append(e)
            j.append({"type": "end"})
    c = companion()
    for path in ("/games", "/games/1", "/games/2", "/games/3", "/stats", "/stats?game=pig-farm",
                 "/stats?game=penny-badger", "/stats?game=chaos"):
        phone.goto(c.url + path)
        # The head-to-head table may scroll sideways in its own box (six 16-letter names
        # need 400 px); its row names keep a readable width instead (below).
        assert fits(phone, exempt="#head-to-head .scroll") == "", path
    # Each row of the head-to-head table is headed by its name a few letters a line at
    # least (a guest trial found one letter a line with nine players).
    phone.goto(c.url + "/stats")
    widths = phone.locator("#head-to-head tbody th").evaluate_all(
        "ths => ths.map(t => t.getBoundingClientRect().width)")
    assert widths and min(widths) >= 60, widths
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # The head-to-head table names every player in full (not its first four letters).
    phone.goto(c.url + "/stats")
    heads = phone.locator("#head-to-head thead th").all_inner_texts()
    assert sorted(h.replace("\n", "") for h in heads if h.strip()) == sorted(LONG[:6])


def test_the_widest_16_letter_name_fits_the_actions_heading(phone, companion):
    wide = "WMWMWMWMWMWMWMWM"  # legal, if unlikely: the widest letters of the font
    c = companion("penny-badger", [wide, "Ann", "Ben"])
    pair(phone, c)
    phone.goto(c.url + "/control")
    expect(phone.locator("#actions h2")).to_contain_text(wide + "'s turn", ignore_case=True)
    assert fits(phone) == ""


# --- the turn's controls without scrolling (issue 34, item 7) ---------------------------------

SIXTEEN = [*LONG, "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Mo", "Ned", "Oz", "Pia"]

# Where each thing a phone that drives the game needs is, on the page as it opens (not
# scrolled): whose turn it is, NEXT, Undo, Pause, every one of the kind's main actions; and
# where the scoreboard (the players' table, the game's figures) begins.
AT_HAND = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return [Math.round(r.top), Math.round(r.bottom), Math.round(r.left),
                               Math.round(r.right)]; };
  const out = {who: box(document.getElementById('who')),
               NEXT: box(document.querySelector('#drive button.press[data-button=NEXT]')),
               Undo: box(document.getElementById('undo')),
               Pause: box(document.getElementById('pause'))};
  for (const b of document.querySelectorAll('#main-actions button')) out[b.textContent] = box(b);
  out.scoreboard = Math.min(box(document.getElementById('players'))[0],
                            box(document.getElementById('game'))[0]);
  out.view = [window.innerWidth, window.innerHeight, window.scrollY];
  return out;
}"""


def _players(kind: str, n: int) -> list[str]:
    k = games()[kind]
    n = max(k.min_players, min(n, k.max_players))
    return (["Ann", "Ben", "Cy", "Dee", "Eve"] if n <= 5 else SIXTEEN)[:n]


@pytest.mark.parametrize("kind", list(demos()))
def test_control_shows_the_turn_and_its_controls_without_scrolling(browser, companion, kind):
    """At 390x844 NEXT began at 1,326 px with 5 players and 2,156 px with 16, Pause and the
    game's actions further still. Now whose turn it is, NEXT, Undo, Pause and each of the
    kind's main actions are on the screen as /control opens, at 390x844 and 360x640, with 5
    and with 16 players (or the kind's most), a new game (with its first-turn forms) and the
    kind's demo game under way, with a turn clock shown; the scoreboard comes after them."""
    demo = demos()[kind]
    for j, (players, rules, events) in enumerate([(_players(kind, 5), {}, []),
                                                   (_players(kind, 16), {}, []), demo]):
        c = companion(kind, players, {**rules, "turn_limit": 60}, events, journal=f"j{j}")
        for width, height in ((390, 844), (360, 640)):
            context = browser.new_context(viewport={"width": width, "height": height})
            try:
                page = context.new_page()
                pair(page, c)
                page.goto(c.url + "/control")
                expect(page.locator("#actions h2")).to_contain_text("'s turn")
                expect(page.locator("#pause")).to_be_visible()
                settled(page)  # the name is fitted
                at = page.evaluate(AT_HAND)
                where = (kind, len(players), len(events), width, height)
                w, h, scrolled = at.pop("view")
                assert scrolled == 0, where
                scoreboard = at.pop("scoreboard")
                assert len(at) > 4 or kind == "table", (where, at)  # main actions shown
                for name, (top, bottom, left, right) in at.items():
                    assert 0 <= top and bottom <= h and 0 <= left and right <= w, \
                        (where, name, (top, bottom), at)
                    assert bottom <= scoreboard, (where, name, "under the scoreboard")
            finally:
                context.close()


# --- many tied winners (issue 37) -----------------------------------------------------------

# Each `names` whole on one line where #turn says it: [name, lines it stands on] (0: absent).
NAME_LINES = """(names) => {
  const walk = document.createTreeWalker(document.getElementById('turn'), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const lines = Object.fromEntries(names.map((n) => [n, 0]));
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (const n of names) {
      const i = t.data.indexOf(n);
      if (i < 0) continue;
      range.setStart(t, i);
      range.setEnd(t, i + n.length);
      lines[n] = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                         .map((r) => Math.round(r.bottom))).size;
    }
  }
  return Object.entries(lines);
}"""


def test_a_phone_shows_every_one_of_many_tied_winners(phone, companion, tmp_path):
    """Issue 37: at game over with 2, 7 and 16 tied winners among 16 players with 16-letter
    names, the phone's / (390x844) showed them as one line cut at the screen's edge. Now
    the headline counts them and the line under it names every winner, each name whole on
    one line; nothing is wider than the screen; the table stars each winner's row."""
    with Store(tmp_path / "journal.db") as store:
        ids = tied_games(store)
    c = companion()
    pair(phone, c)
    phone.goto(c.url + "/")
    expect(phone.locator("#conn")).to_have_attribute("data-state", "live")
    for k, gid in ids.items():
        s = state(c)
        open_game = None if (s.get("state") or {}).get("over") or not s.get("game") \
            else s["game_id"]
        for route, body in (("/api/resume", {"game": gid, "replaces": open_game}),
                            ("/api/action", {"event": {"type": "end"}})):
            res = phone.request.post(c.url + route, data=json.dumps({**body, "seq": None}),
                                     headers={"Content-Type": "application/json",
                                              "Origin": c.url})
            assert res.ok, (route, res.text())
        expect(phone.locator("#who")).to_have_text(
            "All 16 players share the win" if k == 16 else f"{k} players share the win")
        assert fits(phone) == "", k
        lines = dict(phone.evaluate(NAME_LINES, list(SIXTEEN_LONG[:k])))
        assert lines == {name: 1 for name in SIXTEEN_LONG[:k]}, (k, lines)
        assert winners_shown(phone, k) == [], k
