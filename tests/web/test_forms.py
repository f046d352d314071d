"""The phone's forms in a real browser (issue 26, items 3 and 6): a player's input starts empty,
is refused empty naming it, and the form clears after a commit; every input has a label in
words; Penny Badger's claim says what is at stake; who goes first only before the first turn
ends; Pig Farm's round heads are turned upright only when the columns would not fit."""

from __future__ import annotations

import re

import pytest

from companion.gallery.web_shots import demos, pair
from tests.web.helpers import expect, state

pytestmark = pytest.mark.slow

NAMES = ("Olu", "Ann", "Ben")

# (kind, form, its input, what the untouched form is told, the values filled in)
UNTOUCHED = [
    ("chaos", "round_points", "points", "Enter Olu's points (a whole number)", (0, 4, 9)),
    ("match-patch", "pips", "pips", "Enter Olu's mini-pip total (a whole number)", (12, 15, 9)),
    ("dice-factor", "roll_off", "roll", "Enter Olu's roll (a whole number)", (3, 8, 5)),
]


@pytest.mark.parametrize("kind,form,name,said,values", UNTOUCHED)
def test_an_untouched_form_commits_nothing_and_a_committed_one_clears(page, companion, kind, form,
                                                                      name, said, values):
    """Chaos "Score the round" untouched recorded [0, 0, 0], Match Patch 0 0 0, a Dice Factor
    roll-off 1 1 1; and the values stayed, so a second tap scored the round again."""
    c = companion(kind, NAMES)
    pair(page, c)
    f = page.locator(f"#actions form[data-form={form}]")
    for k in range(len(NAMES)):
        expect(f.locator(f"input[name={name}{k}]")).to_have_value("")
    f.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text(said)
    expect(f.locator(f"input[name={name}0]")).to_be_focused()
    assert state(c)["events"] == 0
    for k, v in enumerate(values):
        f.locator(f"input[name={name}{k}]").fill(str(v))
    f.locator("button[type=submit]").click()
    expect(page.locator("#history li")).to_have_count(1)
    expect(page.locator("#error")).to_be_hidden()
    f = page.locator(f"#actions form[data-form={form}]")
    for k in range(len(NAMES)):  # cleared: a second tap sends nothing
        expect(f.locator(f"input[name={name}{k}]")).to_have_value("")
    if f.count():
        f.locator("button[type=submit]").click()
        expect(page.locator("#error")).to_have_text(said)
    assert state(c)["events"] == 1


def test_a_choice_of_the_players_starts_on_choose_and_is_refused_until_chosen(page, companion):
    c = companion("chaos", NAMES)
    pair(page, c)
    f = page.locator("#actions form[data-form=color]")
    expect(f.locator("select[name=color]")).to_have_value("")
    f.get_by_role("button", name="Pick a Color").click()
    expect(page.locator("#error")).to_have_text("Color: choose one")
    expect(f.locator("select[name=color]")).to_be_focused()
    assert state(c)["events"] == 0
    f.locator("select[name=color]").select_option("green")
    f.get_by_role("button", name="Pick a Color").click()
    expect(page.locator("#history li")).to_have_count(1)
    assert state(c)["state"]["color"] == "green"
    expect(page.locator("#actions form[data-form=color] select[name=color]")).to_have_value("")


def test_every_input_has_a_label_in_words_and_errors_use_it(page, companion):
    """Labels read as raw keys (unmatched0, points1) to screen readers and in messages."""
    c = companion("pig-farm", NAMES)
    pair(page, c)
    unlabelled = page.locator("#actions").evaluate("""box => [...box.querySelectorAll(
        "input, select")].filter(el => !el.labels || !el.labels.length
          || !/[A-Za-z]{3}/.test(el.labels[0].textContent)
          || /^[a-z_]+\\d*$/.test(el.labels[0].textContent.trim()))
        .map(el => el.name)""")
    assert unlabelled == []
    expect(page.get_by_label("Unmatched pigs, Ann", exact=True)).to_have_count(1)
    expect(page.get_by_label("Sets, Ben", exact=True)).to_have_count(1)
    expect(page.get_by_label("Goes first", exact=True)).to_have_count(1)
    expect(page.get_by_label("Face", exact=True)).to_have_count(1)  # not "Face choose…"
    expect(page.get_by_label("8-sided", exact=True)).to_have_count(1)
    sell = page.locator("#actions form[data-form=sell]")
    sell.locator("input[name=sets0]").fill("3 3 2")
    sell.locator("input[name=unmatched0]").fill("0")
    sell.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text("Enter Ann's unmatched pigs (0 if none)")
    expect(page.get_by_label("Unmatched pigs, Ann", exact=True)).to_be_focused()
    assert state(c)["events"] == 0
    chaos = companion("chaos", NAMES, journal="chaos")
    pair(page, chaos)
    expect(page.get_by_label("Points, Ben", exact=True)).to_have_count(1)


def test_the_penny_badger_claim_says_what_it_takes_and_what_a_bluff_costs(page, companion):
    """The panel's turn screen shows the withdrawal and the penalty of each claim; the phone's
    claim form showed neither (issue 26, item 6)."""
    c = companion("penny-badger", NAMES)
    pair(page, c)
    claim = page.locator("#actions form[data-form=claim]")
    cards = claim.locator("select[name=cards]")
    expect(cards).to_have_value("")
    cards.select_option("3")
    note = claim.locator(".option-note")
    expect(note).to_contain_text("Takes 8 from the bank.")
    expect(note).to_contain_text("A called bluff costs Olu 4 to the bank + 4 to each challenger")
    cards.select_option("1")
    expect(note).to_contain_text("Takes 3 from the bank.")
    expect(note).to_contain_text("costs Olu 2 to the bank + 2 to each challenger")
    cards.select_option("8")
    expect(note).to_contain_text("Takes the whole bank: 100.")
    expect(note).to_contain_text("all savings (20)")
    # What is at stake follows the bank: after a claim of 7 (128, more than the bank's 100).
    cards.select_option("7")
    expect(note).to_contain_text("Takes 100 from the bank: all there is.")


def test_who_goes_first_is_offered_only_before_the_first_turn_ends(page, companion):
    c = companion("table", NAMES)
    pair(page, c)
    first = page.locator("#actions form[data-form=first]")
    expect(first).to_have_count(1)
    page.locator("#actions").get_by_role("button", name="Next player", exact=True).click()
    expect(page.locator("#who")).to_have_text("Ann")
    expect(page.locator("#actions form[data-form=first]")).to_have_count(0)
    # Nor does the box take it from a page that still shows it.
    status = page.evaluate("""async () => (await fetch('/api/action', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({event: {type: 'first', player: 2}, seq: null})})).status""")
    assert status == 422
    assert [e["type"] for e in c.app.journal.events] == ["next"]
    page.click("#undo")
    expect(page.locator("#actions form[data-form=first]")).to_have_count(1)


def _sales(n: int, rounds: int) -> list[dict]:
    """`rounds` sales, each by the player whose turn it is (the seat after the last seller)."""
    out = []
    for r in range(rounds):
        seller = r % n
        out.append({"type": "sell", "hands": [
            {"sets": [3, 3, 2] if k == seller else [2, 2], "unmatched": 1} for k in range(n)]})
    return out


@pytest.mark.parametrize("players,upright", [
    (("Olu", "Ann", "Ben"), False),
    (("Olu", "Ann", "Ben", "Dee"), False),
    (("Olu", "Ann", "Ben", "Dee", "Eve", "Fay"), True),  # 375 px of columns across: upright
    (tuple(f"{n}-the-long-named" for n in ("Olu", "Ann", "Ben", "Dee", "Eve", "Fay", "Gus",
                                            "Hal")), True),
])
def test_pig_farm_round_heads_turn_upright_only_when_they_would_not_fit(browser, companion,
                                                                        players, upright):
    c = companion("pig-farm", players, {"target": 5000}, _sales(len(players), 2))
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        pg = context.new_page()
        pg.goto(c.url + "/")
        table = pg.locator("#game table.rounds")
        expect(table).to_be_visible()
        # Read in one go in the page (handles taken first could be of a table drawn again
        # since: a detached element's style is ''), once the stream's snapshot is drawn.
        expect(pg.locator("#conn")).to_have_text("live")
        modes = pg.evaluate("() => [...document.querySelectorAll("
                            "'#game table.rounds th.pcol > span')]"
                            ".map(e => getComputedStyle(e).writingMode)")
        assert len(modes) == len(players)
        assert set(modes) == ({"vertical-rl"} if upright else {"horizontal-tb"}), modes
        # Either way the table fits the phone's width: nothing to scroll sideways.
        box = pg.locator("#game .scroll").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert box[0] <= box[1] or upright, box
    finally:
        context.close()


def test_api_refuses_the_untouched_form_naming_the_field(page, companion):
    """A page that skips its own check (or a script) is refused by the box in the same
    words: not "missing field 'points'"."""
    c = companion("chaos", NAMES)
    pair(page, c)
    answer = page.evaluate("""async () => { const r = await fetch('/api/action', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({event: {type: 'round_points', points: [0, null, 3]}, seq: null})});
        return [r.status, (await r.json()).error]; }""")
    assert answer == [422, "Enter Ann's points (a whole number)"]
    assert not re.search(r"points\d|'points'", answer[1])
    assert state(c)["events"] == 0


# --- a half-typed form is kept across snapshots (issue 34, item 8) ----------------------------

FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")


def test_round_points_typed_for_two_of_five_stay_when_another_phone_presses_next(
        browser, page, companion):
    """Chaos round points typed for 2 of 5 players vanished when another phone (or the box)
    pressed NEXT: the snapshot redrew the forms empty."""
    c = companion("chaos", FIVE)
    pair(page, c)
    f = page.locator("#actions form[data-form=round_points]")
    f.locator("input[name=points0]").fill("0")
    f.locator("input[name=points1]").fill("17")
    f.locator("input[name=points1]").focus()
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        pair(other, c)
        other.click("button.press[data-button=NEXT]")
        expect(page.locator("#who")).to_have_text("Ben")
        expect(page.locator("#actions h2")).to_contain_text("Ben's turn")
    finally:
        other.context.close()
    f = page.locator("#actions form[data-form=round_points]")
    expect(f.locator("input[name=points0]")).to_have_value("0")
    expect(f.locator("input[name=points1]")).to_have_value("17")
    expect(f.locator("input[name=points1]")).to_be_focused()  # the player types on
    for k in (2, 3, 4):
        expect(f.locator(f"input[name=points{k}]")).to_have_value("")
    expect(f.locator(".moved-on")).to_have_count(0)  # still meaningful: nothing to say
    for k, v in ((2, 5), (3, 9), (4, 3)):
        f.locator(f"input[name=points{k}]").fill(str(v))
    f.locator("button[type=submit]").click()
    # Sent (the answer is in): that form is drawn empty again.
    expect(page.locator("#actions form[data-form=round_points] input[name=points1]")) \
        .to_have_value("")
    assert state(c)["state"]["scores"] == [0, 17, 5, 9, 3]


def test_a_form_the_move_made_meaningless_says_so_in_words(browser, page, companion):
    """Dice Factor's roll-off is offered before the first turn ends only: once another input
    ends the turn, what was typed in it cannot be sent, and the page says so. A choice no
    longer offered (Skip to the player whose turn it now is) is said on its form."""
    c = companion("dice-factor", FIVE)
    pair(page, c)
    page.locator("#actions form[data-form=roll_off] input[name=roll0]").fill("6")
    page.locator("#actions form[data-form=skip_to] select").select_option(label="Ben")
    page.locator("#actions form[data-form=trade] select").select_option(label="Cy")
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        pair(other, c)
        other.click("button.press[data-button=NEXT]")
        expect(page.locator("#who")).to_have_text("Ben")
    finally:
        other.context.close()
    expect(page.locator("#actions form[data-form=roll_off]")).to_have_count(0)
    expect(page.locator("#actions > .moved-on")).to_have_text(
        "What you typed in Roll-off (8-sided, one per player) was cleared: the game moved on "
        "and no longer asks for it.")
    expect(page.locator("#actions form[data-form=skip_to] .moved-on")).to_have_text(
        "The game moved on: Skip to: Ben is no longer a choice; choose again.")
    expect(page.locator("#actions form[data-form=skip_to] select")).to_have_value("")
    # Trade hands with Cy is still a choice (Ben's turn now): kept, nothing said.
    trade = page.locator("#actions form[data-form=trade]")
    expect(trade.locator("select")).to_have_value("2")
    expect(trade.locator(".moved-on")).to_have_count(0)


def test_a_form_whose_title_changed_keeps_the_typing_and_says_so(browser, page, companion):
    """Pig Farm's sale is the current player's: after another input's NEXT the same hands
    are kept, and the form says whose sale it now is."""
    c = companion("pig-farm", NAMES)
    pair(page, c)
    sell = page.locator("#actions form[data-form=sell]")
    sell.locator("input[name=sets0]").fill("3 3 2")
    sell.locator("input[name=unmatched0]").fill("1")
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        pair(other, c)
        other.click("button.press[data-button=NEXT]")
        expect(page.locator("#who")).to_have_text("Ann")
    finally:
        other.context.close()
    sell = page.locator("#actions form[data-form=sell]")
    expect(sell.locator("input[name=sets0]")).to_have_value("3 3 2")
    expect(sell.locator("input[name=unmatched0]")).to_have_value("1")
    expect(sell.locator(".moved-on")).to_have_text(
        "The game moved on: the form now reads \u201cSell the farm: Ann sells\u201d; check "
        "what you typed.")


# --- nothing chosen for the players, in every kind (issue 34, item 9) -------------------------

UNTOUCHED_PAGE = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#actions select, #actions input')) {
    const f = el.closest('form');
    const where = (f ? f.dataset.form : '') + ' ' + el.name;
    if (el.type === 'checkbox' || el.type === 'radio') { if (el.checked) out.push(where); }
    else if (el.value !== '') out.push(where + '=' + el.value);
  }
  return out;
}"""


@pytest.mark.parametrize("kind", list(demos()))
def test_every_field_of_every_kinds_forms_starts_empty_and_refuses_to_send(page, companion,
                                                                           kind):
    """Selects and numbers included, on a new game and on the kind's game under way: nothing
    is chosen for the players, and no form's button sends its change untouched (Dice
    Factor's "Set the targets" recorded a roll nobody made, "Add a card" raised the hand limit
    of the player whose turn it was, "Goes first" recorded a first player nobody picked)."""
    players, rules, events = demos()[kind]
    for j, (names, game_events) in enumerate(((NAMES, []), (players, events))):
        c = companion(kind, names, rules if j else {}, game_events, journal=f"j{j}")
        pair(page, c)
        expect(page.locator("#actions h2")).to_contain_text("'s turn")
        assert page.evaluate(UNTOUCHED_PAGE) == [], (kind, j)
        seq = state(c)["seq"]
        forms = page.locator("#actions form")
        for i in range(forms.count()):
            for b in forms.nth(i).locator("button").all():
                b.click()
                expect(page.locator("#error")).to_be_visible()
                expect(page.locator("#error")).not_to_have_class("error info")
        assert state(c)["seq"] == seq and len(c.app.journal.events) == len(events) * j, kind


def test_goes_first_after_play_again_waits_for_a_choice(page, companion):
    """After Play again an untouched "Goes first" recorded, and the calls spoke, a first
    player nobody picked."""
    c = companion("table", NAMES, events=[{"type": "end"}])
    pair(page, c)
    page.locator("#actions button.play-again").click()
    first = page.locator("#actions form[data-form=first]")
    expect(first.locator("select")).to_have_value("")
    first.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text("Who goes first: choose one")
    assert c.app.journal.events == []
    first.locator("select").select_option(label="Ben")
    first.locator("button[type=submit]").click()
    expect(page.locator("#who")).to_have_text("Ben")
    assert c.app.journal.events == [{"type": "first", "player": 2}]


# --- the pairing form's words (issue 34, item 11) ---------------------------------------------

@pytest.mark.parametrize("typed,said", [
    ("12345", "The code is 6 digits; this one has 5"),
    ("12a456", "The code is 6 digits (0-9), not 12a456"),
    ("", "Type the 6 digits the box shows under Pair a phone"),
])
def test_a_code_that_is_not_6_digits_is_said_as_that(page, companion, typed, said):
    """5 digits typed answered "no valid code", of the code on the box's screen."""
    c = companion("table", NAMES)
    page.goto(c.url + "/control")
    box = page.locator("#pair-box")
    expect(box).to_contain_text("hold OK for the menu, choose Table web, then Pair a phone")
    expect(box).not_to_contain_text("device menu")
    page.fill("#pair-code", typed)
    page.click("#pair-form button[type=submit]")
    expect(page.locator("#error")).to_have_text(said)
    expect(page.locator("#pair-code")).to_have_attribute("aria-invalid", "true")
    # The pairing landing's form (a link with no code in it) says the same.
    page.goto(c.url + "/J/x")
    expect(page.locator("#pair-help")).to_contain_text("choose Table web, then Pair a phone")
    page.fill("#pair-code", typed)
    page.click("#pair-again button[type=submit]")
    expect(page.locator("#pair-status")).to_have_text(said)


@pytest.mark.parametrize("link,said", [
    ("12345", "This link's code is wrong. The code is 6 digits; this one has 5."),
    ("12a456", "This link's code is wrong. The code is 6 digits (0-9), not 12a456."),
    ("x" * 40, "This link holds no code."),  # not said back: only a short word is
])
def test_a_pairing_link_whose_code_is_wrong_says_what_is_wrong(page, companion, link, said):
    """A link typed by hand or cut short (/J/12345) says what is wrong with its code, in the
    words of the pairing forms, not only that it holds none."""
    c = companion("table")
    page.goto(f"{c.url}/J/{link}")
    expect(page.locator("#pair-status")).to_have_text(said)
    expect(page.locator("#pair-again")).to_be_visible()  # the way on: type the 6 digits
