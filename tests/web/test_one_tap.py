"""One tap is one action, in a real browser (issue #18, parts 2-4): a double click sends once,
a press the box ignores says so, a new game over an unfinished one asks first, and /games
resumes an unfinished game for a paired phone."""

from __future__ import annotations

import datetime

import pytest

from companion import games
from companion.gallery.web_shots import demos, pair
from companion.testing import FakeClock
from tests.web.helpers import count_posts, expect, posts_answered, state

pytestmark = pytest.mark.slow

NAMES = ("Ann", "Ben", "Cy", "Dee")


def test_a_double_click_advances_once(page, companion):
    c = companion("table", NAMES)
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    count_posts(page)
    page.dblclick("button.press[data-button=NEXT]")  # the box's NEXT
    expect(page.locator("#who")).to_have_text("Ben")
    page.dblclick("#actions button:text-is('Next player')")
    expect(page.locator("#who")).to_have_text("Cy")
    assert posts_answered(page) == 2  # one request a double click, each answered
    assert state(c)["events"] == 2 and c.app.journal.events == [{"type": "next"}] * 2
    expect(page.locator("#error")).to_be_hidden()  # nothing was refused: nothing sent twice
    # Once the answer is in, the next tap is a new action.
    page.click("button.press[data-button=NEXT]")
    expect(page.locator("#who")).to_have_text("Dee")


def test_a_double_clicked_pass_passes_one_player(page, companion):
    c = companion("penny-badger", NAMES)
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    count_posts(page)
    page.dblclick("#actions button:text-is('Pass (1 penny to the bank)')")
    expect(page.locator("#who")).to_have_text("Ben")
    assert posts_answered(page) == 1
    assert c.app.journal.events == [{"type": "pass"}] and state(c)["state"]["current"] == 1
    expect(page.locator("#error")).to_be_hidden()


def test_a_press_the_box_ignores_says_so(page, companion):
    c = companion("table", NAMES)
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    down = page.locator("button.press[data-button=DOWN]")
    down.scroll_into_view_if_needed()
    where = down.bounding_box()
    page.click("button.press[data-button=UP]")
    expect(page.locator("#error")).to_have_class("error info")
    expect(page.locator("#error")).to_contain_text("Nothing to do here")
    assert down.bounding_box() == where  # the note never moves a button under a finger
    expect(page.locator("#error")).to_be_hidden()
    assert state(c)["events"] == 0


def test_a_new_game_over_an_unfinished_one_asks_then_parks_it_and_games_resumes_it(
        browser, page, companion):
    c = companion("chaos", NAMES, events=[{"type": "next"}])
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ben")
    page.click("#new-game summary")
    inputs = page.locator("#ng-players input")
    # The form starts from the table on the box: its players in their seats, not empty lines.
    expect(inputs).to_have_count(len(NAMES))
    assert [inputs.nth(i).input_value() for i in range(len(NAMES))] == list(NAMES)
    page.select_option("#ng-kind", "table")
    for i in range(inputs.count()):
        inputs.nth(i).fill(("Zoe", "Yan", "Xia", "Wu")[i])
    go = page.locator("#new-game-form button[type=submit]")
    go.click()
    # The box sets Chaos aside (resumable), it does not end it: the button says so, as the
    # note does, and not in red.
    expect(go).to_have_text("Set Chaos #1 aside and start")
    expect(page.locator("#error")).to_have_text(
        "Chaos #1 is not finished: tap again to set it aside and start (it can be resumed from Games)")
    assert "danger" not in (go.get_attribute("class") or "")
    assert state(c)["game"] == "chaos"  # one tap changed nothing
    page.wait_for_timeout(750)  # a second thought, not a double tap's second tap
    go.click()
    expect(page.locator("#who")).to_have_text("Zoe")
    snap = state(c)
    assert (snap["game"], snap["game_id"]) == ("table", 2)
    expect(go).to_have_text("Start the game")
    # Chaos was set aside, not thrown away: /games offers it to this paired phone.
    page.goto(c.url + "/games")
    resume = page.locator("button.resume")
    expect(resume).to_have_count(2)  # Chaos #1, and the table game, hidden while played
    expect(page.locator("button.resume:visible")).to_have_count(1)
    chaos = page.locator("button.resume[data-game='1']")
    expect(chaos).to_have_text("Resume Chaos #1")
    chaos.click()
    expect(chaos).to_have_text("Set Table #2 aside and resume")
    assert state(c)["game_id"] == 2
    page.wait_for_timeout(750)
    chaos.click()
    page.wait_for_url(c.url + "/")
    expect(page.locator("#who")).to_have_text("Ben")
    snap = state(c)
    assert (snap["game"], snap["game_id"], snap["events"]) == ("chaos", 1, 1)
    # Watching needs no pairing, but resuming does: no buttons, no script for a guest.
    guest = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        guest.goto(c.url + "/games")
        expect(guest.locator("#games li")).to_have_count(2)
        assert guest.locator("button.resume").count() == 0
        assert guest.locator("script").count() == 0
    finally:
        guest.context.close()


def tap(page, selector: str) -> None:
    """A finger's tap where the control is (a disabled button under it takes nothing)."""
    page.locator(selector).evaluate("e => e.scrollIntoView({block: 'center'})")  # clear of the bar
    box = page.locator(selector).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_double_tap_60_to_350_ms_apart_moves_one_turn(page, companion):
    """Issue 26, item 1: the page re-enabled NEXT once the first answer rendered (~50 ms), so
    a double tap moved two turns. The control stays disabled 0.7 s after its answer, the
    page says what the one tap did, and a tap after that is a new one. The page's clock is
    Playwright's, paused while the second tap lands: a busy machine cannot stretch the
    gap past the 0.7 s, and the 0.7 s themselves are run by hand (on the box's clock too,
    so that the box's own check, below, never sees the next tap as a double)."""
    c = companion("table", NAMES)
    box_clock = c.web.clock = FakeClock()  # the box's 0.7 s: moved with the page's
    page.clock.install()
    pair(page, c)
    expect(page.locator("#who")).to_have_text("Ann")
    count_posts(page)
    next_pad = "button.press[data-button=NEXT]"
    next_form = "#actions button:text-is('Next player')"
    turns = ["Ann", "Ben", "Cy", "Dee", "Ann"]
    for i, (selector, gap) in enumerate(((next_pad, 60), (next_pad, 350),
                                          (next_form, 200), (next_form, 350))):
        expect(page.locator(selector)).to_be_enabled()
        now = datetime.datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1)
        page.clock.pause_at(now)  # the page's time stands still
        tap(page, selector)
        expect(page.locator("#who")).to_have_text(turns[i + 1])
        page.wait_for_timeout(gap)  # real time: the page's clock is paused
        tap(page, selector)
        expect(page.locator("#error")).to_have_text(
            f"{turns[i]}'s turn ended; it is {turns[i + 1]}'s turn")
        expect(page.locator(selector)).to_be_disabled()
        page.clock.run_for(650)
        expect(page.locator(selector)).to_be_disabled()  # still within the 0.7 s
        page.clock.run_for(60)
        expect(page.locator(selector)).to_be_enabled()
        page.clock.resume()
        box_clock.advance(0.71)
        assert posts_answered(page) == i + 1  # the second tap sent nothing
    assert c.app.journal.events == [{"type": "next"}] * 4
    # A deliberate second tap, once the first's 0.7 s are over, is a new tap.
    tap(page, next_pad)
    expect(page.locator("#who")).to_have_text("Ben")


def test_a_second_tab_of_the_same_phone_cannot_get_round_it(page, companion):
    """The box refuses the same tap from the same phone (its cookie, in any tab) within 0.7 s
    of the first, on the web's clock (frozen here: no race with a slow machine)."""
    c = companion("table", NAMES)
    pair(page, c)
    other = page.context.new_page()  # a second tab: the same cookie
    other.goto(c.url + "/control")
    expect(other.locator("#control-box")).to_be_visible()
    c.web.clock = lambda: 1000.0  # the 0.7 s never pass
    page.click("button.press[data-button=NEXT]")
    expect(other.locator("#who")).to_have_text("Ben")  # the other tab has rendered it
    other.click("button.press[data-button=NEXT]")
    expect(other.locator("#error")).to_have_text(
        "Double tap: ignored; the first tap: Ann's turn ended; it is Ben's turn")
    expect(other.locator("#error")).to_have_class("error info")
    assert c.app.journal.events == [{"type": "next"}]
    c.web.clock = lambda: 1001.0  # a second later: a new tap
    other.click("button.press[data-button=NEXT]")
    expect(other.locator("#who")).to_have_text("Cy")
    assert len(c.app.journal.events) == 2


def test_a_double_tap_on_a_tap_twice_button_only_arms_it(page, companion):
    """Found trying it as players: the first tap of "End the game" (and of "Set Chaos #1
    aside and start", "Set ... aside and resume") only arms the button and sends nothing, so a double tap's
    second tap confirmed it and one double tap ended the game. The second tap within 0.7 s of
    arming is ignored; a tap after that confirms. The page's clock stands still while the two
    taps land, so a slow machine cannot stretch them apart."""
    c = companion("table", NAMES)
    page.clock.install()
    pair(page, c)
    end = "#actions button:text-is('End the game')"
    expect(page.locator(end)).to_be_visible()
    count_posts(page)
    page.clock.pause_at(datetime.datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1))
    tap(page, end)
    armed = page.locator("#actions button:text-is('Tap again: End the game')")
    expect(armed).to_be_visible()
    page.wait_for_timeout(120)  # real time; the page's stands still
    tap(page, "#actions button:text-is('Tap again: End the game')")
    assert posts_answered(page) == 0  # the first tap only armed it, the second was ignored
    assert not state(c)["state"]["over"] and c.app.journal.events == []
    page.clock.run_for(750)  # then a deliberate second tap
    tap(page, "#actions button:text-is('Tap again: End the game')")
    expect(page.locator("#who")).not_to_have_text("Ann")
    assert state(c)["state"]["over"] and c.app.journal.events == [{"type": "end"}]


# --- one tap, one action on every button of every kind (issue 34, item 1) ---------------------

FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")
GAPS = (60, 200, 350)

# The buttons a double tap is tried on: every button of the game's actions (the kind's own
# forms and quick buttons, the turn row, Skip to, Who goes first, Record a roll) but the
# tap-twice "End the game" (test_a_double_tap_on_a_tap_twice_button_only_arms_it), and the
# main ones: the box's NEXT, Undo, Pause and the quick buttons among the main actions under
# them. Each as [its form ("#main": the main actions; "": none), its text].
BUTTONS = """() => {
  const out = [];
  for (const b of document.querySelectorAll('#main-actions button:not(.jump)')) {
    out.push(['#main', b.textContent]);
  }
  for (const b of document.querySelectorAll('#actions button')) {
    const f = b.closest('form');
    if (/End the game/.test(b.textContent)) continue;
    out.push([f ? f.dataset.form : '', b.textContent]);
  }
  return out;
}"""

# Fill a form in as players would, with what its rules take: the k-th select of the form on its
# k-th option (two players of a swap are two seats), numbers low + k (a one-per-player form's
# values differ and its lowest is the "0 for who went out"), a list its placeholder ("3 3 2"
# for the seller), boxes left unticked (nobody challenges, not dealt).
FILL = """(name) => {
  const f = document.querySelector('#actions form[data-form="' + name + '"]');
  if (!f) return;
  let k = 0;
  for (const sel of f.querySelectorAll('select')) {
    const opts = [...sel.options].filter((o) => o.value !== '');
    sel.value = opts[k % opts.length].value;
    sel.dispatchEvent(new Event('change', {bubbles: true}));
    k++;
  }
  let n = 0;
  for (const i of f.querySelectorAll('input[type=number]')) {
    i.value = String(Math.min(Number(i.min) + n++, Number(i.max)));
  }
  for (const i of f.querySelectorAll('input[inputmode=text]')) i.value = i.placeholder;
}"""


def _double_tap(page, c, where, gap: int, box_clock) -> None:
    form, text = where
    scope = "#main-actions " if form == "#main" else \
        f"#actions form[data-form='{form}'] " if form else "#actions "
    selector = {"#next": "button.press[data-button=NEXT]", "#undo": "#undo",
                "#pause": "#pause"}.get(text) or f"{scope}button:text-is({text!r})"
    button = page.locator(selector).first
    expect(button).to_be_enabled()
    if form and form != "#main":
        page.evaluate(FILL, form)
    button.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = list(c.app.journal.events)
    paused = state(c)["clock"]["paused"]
    sent = posts_answered(page)
    # The page's "Next player" where the rules need a choice first (the snapshot's `next`)
    # sends nothing: it says so and takes the player to the answers (control.js nextButton).
    asks = text == "Next player" and page.evaluate("!!(Table.snapshot && Table.snapshot.next)")
    page.clock.pause_at(datetime.datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1))
    page.mouse.click(x, y)
    page.wait_for_timeout(gap)  # real time: the page's clock stands still
    page.mouse.click(x, y)  # the second tap of a double tap, where the first was
    page.clock.run_for(750)  # the double-tap window is over
    page.clock.resume()
    box_clock.advance(0.75)
    # Each answered: none is on its way.
    assert posts_answered(page) == sent + (0 if asks else 1), (where, gap, asks)
    after = list(c.app.journal.events)
    wrong = page.locator("#error:not(.info)")
    if wrong.is_visible():  # the rules refuse this move in this game (the stack is empty)
        assert after == before, (where, gap, wrong.text_content())
    elif asks:
        assert after == before, (where, gap, after)
    elif text == "#pause":
        assert state(c)["clock"]["paused"] is not paused, (where, gap)
    elif text == "#undo":
        assert after == before[:-1], (where, gap, after)
    elif text == "#next":  # the box's NEXT: a turn ended, or the panel asks first
        assert after[:len(before)] == before and len(after) - len(before) <= 1, (where, gap)
    else:
        assert after[:len(before)] == before and len(after) == len(before) + 1, \
            (where, gap, after[len(before):])


def _api(page, c, path: str, body: dict, box_clock) -> None:
    """A change asked as a script would (no tap), once the page has rendered it."""
    status = page.evaluate("""async ([path, body]) => (await fetch(path, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).status""",
                           [path, {**body, "seq": state(c)["seq"]}])
    assert status == 200, (path, body, status)
    box_clock.advance(0.75)
    page.wait_for_function("s => Table.snapshot && Table.snapshot.seq >= s", arg=state(c)["seq"])


def _back_to(page, c, n: int, box_clock) -> None:
    """Undo until the journal holds `n` events, and the clock on."""
    while len(c.app.journal.events) > n:
        _api(page, c, "/api/undo", {}, box_clock)
    if state(c)["clock"]["paused"]:
        _api(page, c, "/api/pause", {"paused": False}, box_clock)


@pytest.mark.parametrize("kind", list(games.kinds()))
def test_a_double_tap_on_any_button_of_any_kind_is_one_action(browser, companion, kind):
    """Penny Badger's "Settle the claim" redrew the form (the stake's note went) and moved the
    Turn row's Reverse under the finger: a double tap settled the claim and flipped the
    direction. Every button of every kind's forms, and the main ones, tapped twice at the same
    place 60, 200 and 350 ms apart, makes one change and sends one request. The journal is
    taken back after each (by the API, not a tap), so each button is tried on the same game:
    a new one, then the kind's demo game (a question's forms, the buttons of a game under
    way)."""
    k = games.get(kind)
    starts = [(list(FIVE)[:max(k.rules.min_players, min(5, k.rules.max_players))], {}, [])]
    if kind in demos():
        starts.append(demos()[kind])
    for players, rules, events in starts:
        c = companion(kind, players, rules, events, journal=f"j{len(events)}")
        box_clock = c.web.clock = FakeClock()
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            page = context.new_page()
            page.clock.install()
            pair(page, c)
            expect(page.locator("#actions h2")).to_contain_text("'s turn")
            count_posts(page)
            wheres = [tuple(w) for w in page.evaluate(BUTTONS)]
            wheres += [("", "#next"), ("", "#pause")]
            for where in wheres:
                for gap in GAPS:
                    _double_tap(page, c, where, gap, box_clock)
                    if where[1] != "#next" or len(c.app.journal.events) > len(events):
                        _back_to(page, c, len(events), box_clock)
                    else:  # the panel asked instead (a kind whose NEXT needs a choice)
                        _api(page, c, "/api/press", {"button": "BACK"}, box_clock)
            for gap in GAPS:  # Undo, with one change to take back (a roll: every kind takes one)
                _api(page, c, "/api/action", {"event": {"type": "roll", "dice": {"d6": 3}}},
                     box_clock)
                _double_tap(page, c, ("", "#undo"), gap, box_clock)
        finally:
            context.close()
