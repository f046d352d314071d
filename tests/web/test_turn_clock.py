"""The turn clock on the table web (issue 28): on /tv and /control it ticks, turns amber at
the warning and red at "Time!" (with the words too, and readable: the contrast of every
word over it is checked), a phone vibrates once at each, Pause stops it, and New game sets
the clock's house rules.

The box's time is a FakeClock (the snapshot's figures are as of it); the page's is
Playwright's `page.clock`, paused and moved by hand: a page counts on by itself between
snapshots, from performance.now().
"""

from __future__ import annotations

import pytest

from companion.gallery.web_shots import Companion, pair
from companion.inputs import Button, ButtonInput
from companion.testing import FakeClock
from tests.web.helpers import count_posts, expect, posts_answered, state

pytestmark = pytest.mark.slow

START = 1_700_000_000.0  # the box's fake wall clock when the game starts

# Every word in the turn header over its background: WCAG contrast below 4.5:1 (3:1 for
# large text: 24 px, or 18.66 px bold) is listed.
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const back = (e) => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [0, 0, 0];
  };
  const out = [];
  for (const e of document.querySelectorAll('#turn *')) {
    if (!e.getClientRects().length) continue;
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.data.trim())) continue;
    const st = getComputedStyle(e);
    const a = lum(rgb(st.color)), b = lum(back(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(st.fontSize), bold = parseInt(st.fontWeight, 10) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (st.opacity !== '1' && parseFloat(st.opacity) < 1) continue;
    if (ratio < need) out.push(e.className + ' "' + e.textContent.trim() + '" ' + ratio.toFixed(2));
  }
  return out;
}"""

BUZZ = """Object.defineProperty(navigator, 'vibrate', {configurable: true,
  value: (p) => { (window.buzzed = window.buzzed || []).push(p); return true; }});"""


@pytest.fixture
def game(tmp_path):
    """`game(elapsed, rules)`: the companion on a FakeClock, its game's first turn
    `elapsed` seconds old as it starts (its first snapshot is made then); (companion, clock)."""
    made: list[Companion] = []

    def make(elapsed: float, rules=None, kind="table", players=("Ann", "Ben")):
        clock = FakeClock(START)
        c = Companion(tmp_path / f"clock{len(made)}.db", clock=clock)
        c.seed(kind, list(players), rules if rules is not None else {"turn_limit": 60}, [])
        clock.advance(elapsed)
        made.append(c)
        return c.start(), clock

    yield make
    for c in made:
        c.close()


def _open(page, url: str) -> None:
    """Open `url` with the page's clock installed and standing still (run_for moves it)."""
    page.clock.install(time=START * 1000)
    page.clock.pause_at(START * 1000 + 1000)
    page.goto(url)
    page.wait_for_selector("#conn[data-state=live]")
    # A tenth of a second into the snapshot's second: each whole second moved on from here
    # is past the page's tick of that second (it ticks just after the second changes).
    page.clock.run_for(100)


def test_the_tv_clock_ticks_turns_amber_at_the_warning_and_red_at_time(browser, game):
    c, _ = game(45.0)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        _open(page, c.url + "/tv")
        turn, time_ = page.locator("#turn"), page.locator("#clock-time")
        expect(time_).to_have_text("0:15")  # a limit: the time left, counting down
        expect(page.locator("#clock-note")).to_have_text("left of 1:00 a turn · 0:45 played")
        expect(page.locator("td[data-clock=total][data-seat='0']")).to_have_text("0:45")
        expect(turn).to_have_attribute("data-alarm", "")
        page.clock.run_for(4000)
        expect(time_).to_have_text("0:11")
        expect(page.locator("td[data-clock=total][data-seat='0']")).to_have_text("0:49")
        expect(page.locator("#clock-state")).to_be_hidden()
        page.clock.run_for(1000)  # 10 s left: the warning
        expect(time_).to_have_text("0:10")
        expect(turn).to_have_attribute("data-alarm", "warn")
        expect(page.locator("#clock-state")).to_have_text("Almost time")
        assert page.evaluate("getComputedStyle(document.getElementById('turn')).backgroundColor") \
            == "rgb(255, 176, 0)"
        assert page.evaluate(CONTRAST) == []
        page.clock.run_for(10000)  # none left
        expect(turn).to_have_attribute("data-alarm", "time")
        expect(page.locator("#clock-state")).to_have_text("Time!")
        expect(time_).to_have_text("0:00")
        assert page.evaluate("getComputedStyle(document.getElementById('turn')).backgroundColor") \
            == "rgb(200, 16, 46)"
        assert page.evaluate(CONTRAST) == []
        page.clock.run_for(4000)
        expect(time_).to_have_text("-0:04")
        expect(page.locator("#clock-note")).to_have_text("0:04 over · 1:04 this turn")
        # Whose turn stays the biggest text.
        assert page.evaluate("parseFloat(getComputedStyle(document.getElementById('clock-time'))"
                             ".fontSize) < parseFloat(getComputedStyle(document.getElementById("
                             "'who')).fontSize)")
        # A move: the next player's turn starts at 0 (the box's snapshot), the alarm is gone.
        c.app.post(ButtonInput(Button.NEXT))
        expect(page.locator("#who")).to_have_text("Ben")
        expect(time_).to_have_text("1:00")
        expect(turn).to_have_attribute("data-alarm", "")
    finally:
        context.close()


def test_a_phone_says_time_and_vibrates_once_at_the_warning_and_once_at_time(page, game):
    c, _ = game(48.0)
    page.add_init_script(BUZZ)
    _open(page, c.url + "/")
    expect(page.locator("#clock-time")).to_have_text("0:12")
    assert page.evaluate("window.buzzed || []") == []
    page.clock.run_for(2500)
    expect(page.locator("#turn")).to_have_attribute("data-alarm", "warn")
    expect(page.locator("#clock-state")).to_have_text("Almost time")
    page.clock.run_for(3000)
    assert page.evaluate("window.buzzed") == [[200]]  # once, not once a second
    page.clock.run_for(8000)
    expect(page.locator("#clock-state")).to_have_text("Time!")
    assert page.evaluate(CONTRAST) == []
    page.clock.run_for(3000)
    assert page.evaluate("window.buzzed") == [[200], [400, 150, 400]]


def test_pause_on_control_stops_the_clock_and_clock_on_starts_it(page, game):
    c, clock = game(20.0, rules={})
    pair(page, c)
    _open(page, c.url + "/control")
    time_, button = page.locator("#clock-time"), page.locator("#pause")
    expect(time_).to_have_text("0:20")  # no limit: the time played this turn
    expect(page.locator("#clock-note")).to_have_text("this turn")
    expect(button).to_have_text("Pause the clock")
    page.clock.run_for(3000)
    clock.advance(3)  # the box's time goes on too
    expect(time_).to_have_text("0:23")
    expect(page.locator("td[data-clock=both][data-seat='0'] .t")).to_have_text("0:23")
    count_posts(page)
    button.click()
    expect(button).to_have_text("Start the clock")
    expect(page.locator("#clock-state")).to_have_text("Paused")
    assert state(c)["clock"]["paused"] is True
    # The page has the answer (its double-tap hold starts from it, on the page's clock):
    # only then is the clock moved on, or the hold would outlast it (a loaded machine).
    assert posts_answered(page) == 1
    page.clock.run_for(5000)
    clock.advance(5)
    expect(time_).to_have_text("0:23")  # stood still
    page.clock.run_for(1000)  # the button's double-tap hold is over
    # The hold ends 0.7 s after the answer, once the page has rendered the answer's snapshot
    # (or 3 s on, control.js `rendered`): both on the page's clock, which stands still here,
    # so it is moved on until the button is back (a loaded machine renders later).
    for _ in range(100):
        if button.is_enabled():
            break
        page.clock.run_for(500)
    expect(button).to_be_enabled()
    button.click()
    expect(button).to_have_text("Pause the clock")
    expect(page.locator("#clock-state")).to_be_hidden()
    page.clock.run_for(2100)  # the snapshot came on a second of its own: past its tick
    expect(time_).to_have_text("0:25")
    assert state(c)["clock"]["paused"] is False


def test_new_game_sets_the_turn_clock_and_a_refused_value_says_why(page, companion):
    c = companion()  # no game: the start view
    pair(page, c)
    page.goto(c.url + "/control")
    page.click("#new-game summary")
    page.wait_for_selector("#ng-kind option", state="attached")
    page.select_option("#ng-kind", "table")
    for i, name in enumerate(("Ann", "Ben")):
        page.locator("#ng-players input").nth(i).fill(name)
    expect(page.locator("#ng-limit")).to_be_hidden()
    page.check("input[name=ng-clock][value=limit]")
    page.select_option("#ng-limit-s", "other")
    page.fill("#ng-limit-other", "5")
    page.click("#new-game-form button[type=submit]")
    expect(page.locator("#error")).to_contain_text("turn_limit must be whole seconds 10-3600")
    assert state(c)["game"] is None
    page.fill("#ng-limit-other", "soon")
    page.click("#new-game-form button[type=submit]")
    expect(page.locator("#error")).to_have_text("Seconds a turn: a number, not soon")
    page.check("input[name=ng-clock][value=bank]")
    page.fill("#ng-bank-min", "2.5")
    page.fill("#ng-bonus", "5")
    page.click("#new-game-form button[type=submit]")
    expect(page.locator("#who")).to_have_text("Ann")
    s = state(c)
    assert s["rules"]["time_bank"] == 150 and s["rules"]["time_bonus"] == 5
    assert s["clock"]["limit"] == {"turn": None, "bank": 150, "bonus": 5}
    expect(page.locator("#clock-note")).to_contain_text("left in the bank (+5 s a turn) · ")
    expect(page.locator("th.clock-col", has_text="Bank")).to_be_visible()
    # The form opened again shows this game's turn clock.
    page.click("#new-game summary")
    page.click("#new-game summary")
    expect(page.locator("input[name=ng-clock][value=bank]")).to_be_checked()
    expect(page.locator("#ng-bank-min")).to_have_value("2.5")


def test_a_break_is_said_and_the_clock_stands_still(page, game):
    """No press for 15 minutes: the box's snapshot says the turn is on a break (it counts
    for nobody), and the page says so in words and stops counting."""
    c, _ = game(15 * 60 + 20.0, rules={})
    _open(page, c.url + "/")
    expect(page.locator("#clock-state")).to_have_text("Break")
    expect(page.locator("#clock-note")).to_have_text("no press for 15 min: not counted")
    expect(page.locator("#clock-time")).to_have_text("0:00")  # the break counts for nobody
    page.clock.run_for(5000)
    expect(page.locator("#clock-time")).to_have_text("0:00")
    expect(page.locator("#clock")).to_have_attribute("data-state", "break")


def test_a_page_opened_long_after_the_last_snapshot_counts_from_when_it_was_made(page, game):
    """The box makes a snapshot only on a change; a page that opens 30 s later gets that
    snapshot (embedded, then as the stream's first message) and must show 0:30, not 0:00:
    each copy sent carries the box's `now`, and the clock its `at`."""
    c, clock = game(0.0, rules={})
    clock.advance(30)
    _open(page, c.url + "/")
    expect(page.locator("#clock-time")).to_have_text("0:30")
    page.clock.run_for(2000)
    expect(page.locator("#clock-time")).to_have_text("0:32")
