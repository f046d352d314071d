"""The pages' spoken calls (issue 27, docs/speech.md), in real chromium with a stubbed
`window.speechSynthesis` that records what it is asked to say: a scripted game's calls are
said in order once a person taps the switch on (and not before), with the snapshot's rate,
volume and language; the aria-live region says the same words; the switch is remembered; a
page opened late says nothing old, one that fell behind skips a turn that is over, and one
that missed a restart of the box (`speech.run`) says nothing of the new run's old calls."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from companion.gallery.web_shots import Companion
from companion.inputs import WebRequest
from companion.testing import FakeClock
from tests.web.helpers import expect

pytestmark = pytest.mark.slow

# Records each utterance (its words, language, rate and volume) and ends it at once; with
# window.holdSpeech = true it keeps them queued, the first being said, as a browser does while
# it speaks: a cancel() then drops the rest unheard.
STUB = """(() => {
  window.said = []; window.spoken = []; window.cancels = 0; window.holdSpeech = false;
  const queue = [];  // held utterances: the first is being said, the rest wait
  const start = (u) => { u.started = true; u.onstart && u.onstart(); };
  window.SpeechSynthesisUtterance = function (text) {
    this.text = text; this.lang = ''; this.rate = 1; this.volume = 1; };
  const synth = {
    speak(u) {
      window.said.push(u.text);
      window.spoken.push({text: u.text, lang: u.lang, rate: u.rate, volume: u.volume});
      if (!window.holdSpeech) {
        setTimeout(() => { start(u); u.onend && u.onend(); }, 0);
        return;
      }
      queue.push(u);
      if (queue.length === 1) start(u);
    },
    cancel() {  // what had not started is never heard: it leaves `said`
      window.cancels += 1;
      for (const u of queue) {
        if (!u.started) window.said.splice(window.said.lastIndexOf(u.text), 1);
      }
      queue.length = 0;
    },
    pause() {}, resume() {}, getVoices() { return []; },
  };
  Object.defineProperty(window, 'speechSynthesis', {configurable: true, value: synth});
})();"""

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
WAIT_MS = 30_000  # how long a page may take to show an event: a bound, never a pause


@pytest.fixture
def box(tmp_path):
    """The companion on a FakeClock with a game of `kind` (a 60 s turn limit)."""
    made: list[Companion] = []

    def make(kind: str = "chaos", players=PLAYERS, rules=None, config=None):
        clock = FakeClock(1_700_000_000.0)
        c = Companion(tmp_path / f"speech{len(made)}.db", clock=clock, config=config)
        c.seed(kind, list(players), rules if rules is not None else {"turn_limit": 60}, [])
        made.append(c)
        return c.start(), clock

    yield make
    for c in made:
        c.close()


def act(c: Companion, event: dict) -> None:
    """Do `event` as a paired phone's action does (the app thread, the same route)."""
    reply: Future = Future()
    c.app.post(WebRequest("action", {"event": event, "seq": None}, reply))
    assert reply.result(timeout=WAIT_MS / 1000).get("ok"), event


def said(page, count: int) -> list[str]:
    page.wait_for_function("(n) => window.said.length >= n", arg=count, timeout=WAIT_MS)
    return page.evaluate("window.said")


def call_number(c: Companion) -> int:
    """The number of the box's newest call (0: none yet)."""
    calls = c.app.caller.snapshot()
    return calls[-1]["n"] if calls else 0


def act_heard(c: Companion, page, event: dict) -> None:
    """`act(c, event)`, then wait until the page has rendered the snapshot that carries its
    calls. A page that is sent several moves in one snapshot drops the turn calls a later
    one made stale (docs/speech.md): one move at a time, each snapshot seen before the
    next, the page is sent, and says, every call, on a fast machine or a loaded one."""
    act(c, event)
    page.wait_for_function("(n) => Table.snapshot && Table.snapshot.calls.length"
                           " && Table.snapshot.calls.at(-1).n >= n", arg=call_number(c),
                           timeout=WAIT_MS)


def test_a_scripted_game_is_said_in_order_once_the_switch_is_on(browser, box):
    c, clock = box()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.add_init_script(STUB)
    try:
        page.goto(c.url + "/tv")
        page.wait_for_selector("#conn[data-state=live]")
        switch = page.locator("#speech-switch")
        expect(switch).to_be_visible()
        expect(switch).to_have_attribute("aria-pressed", "false")
        act(c, {"type": "next"})
        # Off until a person taps it: nothing said, but the aria-live region has the words.
        expect(page.locator("#call-live")).to_have_text("Ben's turn")
        assert page.evaluate("window.said") == []
        switch.click()
        expect(switch).to_have_attribute("aria-pressed", "true")
        expect(switch).to_contain_text("on")
        assert said(page, 1) == ["Calls on"]
        script = [
            ({"type": "next"}, ["Cy's turn"]),
            ({"type": "next"}, ["Dee's turn"]),
            ({"type": "reverse"}, ["Reverse: Cy's turn"]),
            ({"type": "next"}, ["Cy's turn"]),
            ({"type": "draw_four", "color": "red"}, ["Chaos: draw four", "Ben's turn"]),
            ({"type": "take_draw_four"}, ["Ben drew 4"]),
            ({"type": "skip"}, ["Ann is skipped"]),
            ({"type": "next"}, ["Dee's turn"]),
        ]
        expected = ["Calls on"]
        for event, words in script:
            act(c, event)
            expected += words
            assert said(page, len(expected)) == expected, event
        clock.advance(61)  # the turn limit runs out on the box: "Time!"
        expected.append("Time!")
        assert said(page, len(expected)) == expected
        expect(page.locator("#call-live")).to_have_text("Time!")
        # Said at the box's [speech] rate and volume, in its voice's language.
        last = page.evaluate("window.spoken[window.spoken.length - 1]")
        assert last["lang"] == "en" and last["volume"] == 1
        assert abs(last["rate"] - 170 / 175) < 1e-6
        # The switch is remembered by this browser: a reload keeps it on, and says nothing old.
        page.reload()
        page.wait_for_selector("#conn[data-state=live]")
        expect(page.locator("#speech-switch")).to_have_attribute("aria-pressed", "true")
        act(c, {"type": "next"})
        assert said(page, 1) == ["Cy's turn"]
    finally:
        context.close()


def test_the_issues_other_calls_pig_farm_and_penny_badger(browser, box):
    farm, _ = box("pig-farm", ["Ann", "Ben", "Cy"], {"target": 500})
    badger, _ = box("penny-badger", ["Ann", "Ben", "Cy"], {"bank": 100, "savings": 20})
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(STUB)
    try:
        page.goto(farm.url + "/")
        page.wait_for_selector("#conn[data-state=live]")
        page.click("#speech-switch")
        hand, other = {"sets": [3, 3, 2], "unmatched": 0}, {"sets": [], "unmatched": 3}
        act(farm, {"type": "sell", "hands": [hand, other, other]})
        assert said(page, 3) == ["Calls on", "Ann sold the farm for 230", "Ben's turn"]
        page.goto(badger.url + "/")  # another box (another port): its own switch
        page.wait_for_selector("#conn[data-state=live]")
        page.click("#speech-switch")
        act(badger, {"type": "pass"})  # a bare next: refused in Penny Badger
        assert said(page, 2) == ["Calls on", "Ben's turn"]
        act(badger, {"type": "claim", "cards": 2, "challengers": [0], "truthful": False})
        assert said(page, 4)[1:] == ["Ben's turn", "Bluff called: Ben pays 4", "Cy's turn"]
        reply: Future = Future()
        badger.app.post(WebRequest("undo", {"seq": None}, reply))
        assert reply.result(timeout=WAIT_MS / 1000).get("ok")
        assert said(page, 6)[4:] == [
            "Undone: Ben claimed a pair, challenged by Ann, a bluff: Ben paid bank 2 and Ann 2",
            "Ben's turn"]
    finally:
        page.context.close()


def test_a_page_that_fell_behind_drops_the_turn_that_is_over(browser, box):
    c, _ = box()
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(STUB)
    try:
        page.goto(c.url + "/")
        page.wait_for_selector("#conn[data-state=live]")
        page.click("#speech-switch")
        said(page, 1)
        # The browser is still saying a move when two turns go by: the first turn's call,
        # waiting behind it, is over before it is heard, and is dropped.
        page.evaluate("window.holdSpeech = true")
        act(c, {"type": "swap_hands", "players": [0, 1]})
        assert said(page, 2) == ["Calls on", "Swap: Ann & Ben"]
        act(c, {"type": "next"})
        assert said(page, 3) == ["Calls on", "Swap: Ann & Ben", "Ben's turn"]
        act(c, {"type": "next"})
        page.wait_for_function("() => window.said.includes(\"Cy's turn\")")
        assert page.evaluate("window.said") == ["Calls on", "Swap: Ann & Ben", "Cy's turn"]
        # A move call still unsaid behind a stale turn call is kept.
        act(c, {"type": "swap_hands", "players": [1, 2]})
        act(c, {"type": "next"})
        page.wait_for_function("() => window.said.includes(\"Dee's turn\")")
        assert page.evaluate("window.said")[3:] == ["Swap: Ben & Cy", "Dee's turn"]
        # A page whose stream was cut while the game went on hears only what is not over.
        page.evaluate("window.holdSpeech = false; window.said = []")
        page.context.set_offline(True)
        page.evaluate("Table.reconnect()")  # the stream drops (the phone lost the network)
        expect(page.locator("#conn")).not_to_have_attribute("data-state", "live")
        for event in ({"type": "next"}, {"type": "draw_four", "color": "red"},
                      {"type": "take_draw_four"}, {"type": "next"}):
            act(c, event)  # Ann's turn, draw four + Ben's turn, Ben drew 4, Cy's turn
        page.context.set_offline(False)
        assert said(page, 3) == ["Chaos: draw four", "Ben drew 4", "Cy's turn"]
        # From a review: a skip taken back, and a turn call still waiting when the game
        # ends, are over too (an undo says whose turn it is; the game over ends every turn).
        page.evaluate("window.holdSpeech = true; window.said = []")
        act(c, {"type": "swap_hands", "players": [0, 1]})
        said(page, 1)
        act(c, {"type": "skip"})
        page.wait_for_function("() => window.said.includes('Dee is skipped')")
        undo: Future = Future()
        c.app.post(WebRequest("undo", {"seq": None}, undo))
        assert undo.result(timeout=WAIT_MS / 1000).get("ok")
        page.wait_for_function("() => window.said.includes(\"Cy's turn\")")
        # "Undone: " and the skip's history line, which names who it passed over
        assert page.evaluate("window.said") == ["Swap: Ann & Ben", "Undone: Skip: Dee is skipped",
                                                "Cy's turn"]
        act(c, {"type": "next"})  # "Cy's turn", not yet heard, is over: "Dee's turn" is said
        page.wait_for_function("() => window.said.includes(\"Dee's turn\")")
        cancels = page.evaluate("window.cancels")
        act(c, {"type": "end"})  # and "Dee's turn", being said, is cut short
        page.wait_for_function("() => window.said.includes('Game over')")
        assert page.evaluate("window.said") == ["Swap: Ann & Ben", "Undone: Skip: Dee is skipped",
                                                "Dee's turn", "Game over"]
        assert page.evaluate("window.cancels") == cancels + 1
    finally:
        page.context.close()


def test_the_switch_is_off_for_a_new_browser_and_a_late_page_says_nothing_old(browser, box):
    c, _ = box()
    for event in ({"type": "next"}, {"type": "next"}):
        act(c, event)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(STUB)
    try:
        page.goto(c.url + "/")
        page.wait_for_selector("#conn[data-state=live]")
        expect(page.locator("#speech-switch")).to_have_attribute("aria-pressed", "false")
        page.click("#speech-switch")
        assert said(page, 1) == ["Calls on"]
        # Nothing old follows (the two turns before it opened): the next thing said is the
        # next move's call, which the stream delivers after every snapshot before it.
        act(c, {"type": "next"})
        assert said(page, 2) == ["Calls on", "Dee's turn"]
        page.click("#speech-switch")  # off again: nothing is said
        expect(page.locator("#speech-switch")).to_have_attribute("aria-pressed", "false")
        act(c, {"type": "next"})
        expect(page.locator("#call-live")).to_have_text("Ann's turn")
        assert page.evaluate("window.said") == ["Calls on", "Dee's turn"]
    finally:
        page.context.close()


def test_a_page_that_missed_a_restart_of_the_box_says_nothing_old(browser, box):
    """The box restarts (its calls are numbered from 1 again) and makes more calls than the
    page had heard before the page is back: the page tells the new run by `speech.run`, not
    by the numbers, says none of that run's old calls and then the next new one."""
    c, _ = box()
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(STUB)
    try:
        page.goto(c.url + "/")
        page.wait_for_selector("#conn[data-state=live]")
        page.click("#speech-switch")
        assert said(page, 1) == ["Calls on"]
        for _ in range(5):
            act_heard(c, page, {"type": "next"})
        assert said(page, 6) == ["Calls on", "Ben's turn", "Cy's turn", "Dee's turn",
                                 "Ann's turn", "Ben's turn"]  # calls n=1..5
        assert page.evaluate("Table.snapshot.calls.at(-1).n") == 5
        old_run = page.evaluate("Table.snapshot.speech.run")
        # The page loses the box; the box restarts on the same address and makes 7 calls.
        page.context.set_offline(True)
        page.evaluate("Table.reconnect()")
        expect(page.locator("#conn")).not_to_have_attribute("data-state", "live")
        port, journal, config = c.port, c.journal, c.config
        c.close()
        again = Companion(journal, port=port, clock=FakeClock(1_700_000_100.0),
                          config=config).start()
        try:
            for _ in range(7):
                act(again, {"type": "next"})
            assert [x["n"] for x in again.app.caller.snapshot()][-1] == 7
            page.evaluate("window.said = []")
            page.context.set_offline(False)
            page.wait_for_function("(run) => Table.snapshot.speech.run !== run"
                                   " && Table.snapshot.calls.at(-1).n === 7", arg=old_run,
                                   timeout=WAIT_MS)
            # Nothing of the new run's 7 calls was said ("Ann's turn", n=7, would be).
            act(again, {"type": "next"})  # n=8: the 13th turn from Ann's: Ben's
            assert said(page, 1) == ["Ben's turn"]
            expect(page.locator("#call-live")).to_have_text("Ben's turn")
            assert page.evaluate("window.said") == ["Ben's turn"]
        finally:
            again.close()
    finally:
        page.context.close()
