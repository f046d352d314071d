"""The "Design a game" page (/design) in a browser: a paired phone designs "Pairs to 6" in the
form, sees how the game starts, saves it, and New game lists it; a refusal is shown beside
the field it names; a 390x844 phone never scrolls sideways; axe-core finds no serious
violation (docs/web.md, "Designing a game on a phone")."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from companion import games
from companion.gallery.web_shots import PHONE, pair
from tests.web.helpers import WAIT_S, expect
from tests.web.test_axe import violations

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "designs"


def _get(c, path: str):
    with urllib.request.urlopen(c.url + path, timeout=10) as r:
        return json.loads(r.read())


def _open(browser, c, *, paired: bool, csp: bool = True):
    context = browser.new_context(viewport=PHONE, bypass_csp=not csp)
    page = context.new_page()
    if paired:
        pair(page, c)
    page.goto(c.url + "/design")
    expect(page.locator("#check-status")).not_to_have_text("Checking…")
    return context, page


def _loaded(page, id: str, wider_than: int) -> None:
    """Wait until the image `id` has loaded, wider than `wider_than` pixels."""
    page.wait_for_function(f"""() => {{ const i = document.getElementById({json.dumps(id)});
        return i.complete && i.naturalWidth > {wider_than}; }}""", timeout=WAIT_S * 1000)


def _section(page, heading: str):
    return page.locator("section.dsec", has=page.get_by_role("heading", name=heading))


def test_a_paired_phone_designs_pairs_to_6_and_saves_it(browser, companion):
    c = companion()
    context, page = _open(browser, c, paired=True)
    try:
        page.get_by_label("Title").fill("Pairs to 6")
        tallies = _section(page, "What the box counts for each player")
        tallies.get_by_label("Name").fill("pairs")
        tallies.get_by_label("Name").blur()
        page.get_by_role("button", name="Add a move").click()
        moves = _section(page, "Moves: the buttons a player presses")
        moves.get_by_label("Name on its button").fill("Pair")
        expect(moves.get_by_label("To the tally")).to_have_value("pairs")
        expect(moves.get_by_label("How many")).to_have_value("1")
        ends = _section(page, "How it ends")
        ends.get_by_label("First to reach a number").check()
        ends.get_by_label("When the group ends it").uncheck()
        ends.get_by_label("The number").fill("6")
        winner = _section(page, "Who wins")
        expect(winner.get_by_label("The winner is")).to_have_value("most")
        expect(winner.get_by_label("Of the tally")).to_have_value("pairs")
        # The preview: the table as the game starts, for 4 sample players.
        expect(page.locator("#check-status")).to_have_text("The box can play this.")
        expect(page.locator(".preview-title")).to_have_text("Pairs to 6")
        expect(page.locator(".preview-table thead th")).to_have_text(["Player", "pairs"])
        expect(page.locator(".preview-table tbody tr")).to_have_count(4)
        expect(page.locator(".preview-table tbody td")).to_have_text(["0"] * 4)
        expect(page.locator(".preview-moves .chip")).to_have_text(["Pair"])
        # And the box's own first screen of it (a paired phone's).
        frame = page.locator("#preview-frame")
        expect(frame).to_be_visible()
        _loaded(page, "preview-frame", 511)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#save-status")).to_contain_text('Saved "Pairs to 6" (version 1)')
        expect(page.locator(".saved-title")).to_contain_text(["Pairs to 6"])
        saved = _get(c, "/api/designs")["designs"]
        assert [(s["title"], s["version"]) for s in saved] == [("Pairs to 6", 1)]
        kind = saved[0]["kind"]
        assert kind in games.kinds()
        assert kind in [k["kind"] for k in _get(c, "/api/kinds")]
        design = _get(c, "/api/designs/1.json")
        assert design["tallies"][0]["name"] == "pairs"
        assert design["moves"][0] == {"name": "Pair", "ask": None, "effects": [
            {"do": "add", "tally": "pairs", "amount": 1, "who": "current"}]}
        assert design["end"] == [{"when": "reach", "tally": "pairs", "target": 6}]
        assert design["winner"] == {"by": "most", "tally": "pairs"}
        # Share: its link and QR code; Copy: a new design from it.
        page.get_by_role("button", name="Share Pairs to 6").click()
        expect(page.locator("#share-link")).to_have_text(c.url + "/api/designs/1.json")
        _loaded(page, "share-qr", 0)
        page.get_by_role("button", name="Copy Pairs to 6").click()
        expect(page.get_by_label("Title")).to_have_value("Copy of Pairs to")
        expect(page.locator("#editing")).to_have_text("A new design.")
    finally:
        context.close()


def test_a_refusal_is_shown_beside_its_field(browser, companion):
    c = companion()
    context, page = _open(browser, c, paired=False)
    try:
        expect(page.locator("#pair-banner")).to_be_visible()
        page.get_by_label("Title").fill("Penny Badger")  # a built-in game's name
        title = page.locator('.field[data-field="title"]')
        expect(title.locator(".field-error")).to_contain_text("is the name of a game the box has")
        page.get_by_label("Title").fill("Coins")
        tallies = _section(page, "What the box counts for each player")
        tallies.get_by_label("Starts at").fill("1.5")
        start = page.locator('.field[data-field="tallies[0].start"]')
        expect(start.locator(".field-error")).to_contain_text("must be a whole number")
        expect(start.locator("input")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#check-status")).to_contain_text("Not yet")
        tallies.get_by_label("Starts at").fill("3")
        expect(page.locator("#check-status")).to_have_text("The box can play this.")
        expect(page.locator("#form-body .field-error")).to_have_count(0)
        expect(page.locator("#preview-frame")).to_be_hidden()  # a guest: the table only
        expect(page.get_by_role("button", name="Save")).to_be_disabled()  # not paired
    finally:
        context.close()


def test_the_page_fits_a_phone_with_every_section_open(browser, companion):
    c = companion()
    context, page = _open(browser, c, paired=True)
    try:
        page.get_by_label("Title").fill("Wide Game Name")
        page.get_by_role("button", name="Add a tally").click()
        for _ in range(2):
            page.get_by_role("button", name="Add a move").click()
        page.get_by_role("button", name="Add an effect").first.click()
        page.get_by_label("A shared pot in the middle of the table").check()
        page.get_by_label("Once a round, the group types a number per player").check()
        page.get_by_label("After a number of rounds").check()
        page.get_by_label("It asks for a number when played (an amount \"ask\")").first.check()
        expect(page.locator("#check-status")).not_to_have_text("Checking…")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
    finally:
        context.close()


def test_axe_finds_no_serious_violation_on_design(browser, companion):
    from tests.web.test_axe import AXE
    if not AXE.exists():
        import pytest
        pytest.skip("axe-core is not installed (make test runs npm ci in tests/axe)")
    source = AXE.read_text(encoding="utf-8")
    c = companion()
    for paired in (False, True):
        context, page = _open(browser, c, paired=paired, csp=False)
        try:
            page.get_by_role("button", name="Add a move").click()
            page.get_by_label("Title").fill("Chaos")  # a refusal shown too
            expect(page.locator("#form-body .field-error")).to_have_count(1)
            problems = violations(page, source)
            assert not problems, "\n".join(problems)
        finally:
            context.close()


def test_import_edit_and_delete(browser, companion):
    c = companion()
    context, page = _open(browser, c, paired=True)
    try:
        # A design file (TOML, as examples/designs/ has them) fills the form as a new design.
        page.locator("#import-file").set_input_files(str(EXAMPLES / "penalty-pot.toml"))
        expect(page.locator("#import-status")).to_contain_text('Imported "Penalty Pot"')
        expect(page.get_by_label("Title")).to_have_value("Penalty Pot")
        expect(page.locator(".preview-pot")).to_have_text("The pot: 5")
        expect(page.locator(".preview-table tbody td").first).to_have_text("10")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#save-status")).to_contain_text('Saved "Penalty Pot" (version 1)')
        # Edit: Save keeps a new version of the same design.
        page.get_by_role("button", name="Start a new design").click()
        expect(page.locator("#editing")).to_have_text("A new design.")
        page.get_by_role("button", name="Edit Penalty Pot").click()
        expect(page.locator("#editing")).to_contain_text('Editing "Penalty Pot"')
        page.get_by_label("The pot starts with").fill("7")
        expect(page.locator(".preview-pot")).to_have_text("The pot: 7")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#save-status")).to_contain_text("(version 2)")
        assert [(s["id"], s["version"]) for s in _get(c, "/api/designs")["designs"]] == [(1, 2)]
        # A link (here this box's own): the phone fetches it, the box checks it.
        page.get_by_role("button", name="Start a new design").click()
        page.get_by_label("Or a link from another box's Design page").fill(
            c.url + "/api/designs/1.json")
        page.get_by_role("button", name="Import", exact=True).click()
        expect(page.locator("#import-status")).to_contain_text('Imported "Penalty Pot"')
        # It is the design kept (the same content): editing it, not a new one.
        expect(page.locator("#editing")).to_contain_text('Editing "Penalty Pot"')
        # Delete: two taps; New game no longer lists it.
        delete = page.get_by_role("button", name="Delete Penalty Pot")
        delete.click()
        expect(delete).to_have_text("Tap again: delete")
        delete.click()
        expect(page.locator("#save-status")).to_contain_text('Deleted "Penalty Pot"')
        expect(page.locator("#saved-none")).to_be_visible()
        assert _get(c, "/api/designs")["designs"] == []
        assert not any(k.startswith("design:") for k in
                       [k["kind"] for k in _get(c, "/api/kinds")])
    finally:
        context.close()


def test_what_a_new_user_met_first(browser, companion):
    """Tried as a new user would (issue 37): the empty page asks for a title instead of showing
    a fault in red; the first tap on "Add a move" straight after typing a tally's name is
    taken (the name's change drew the form again under the finger, and the tap was lost); a
    design with no pot says nothing of one ("null" was written under the table); a money tally
    left without "never below" stops at 0; and a reloaded tab keeps what was typed."""
    c = companion()
    context, page = _open(browser, c, paired=True)
    try:
        expect(page.locator("#check-status")).to_have_text("Start with the game's title.")
        expect(page.locator("#form-body .field-error")).to_have_count(0)
        page.get_by_label("Title").fill("Pairs to 6")
        tallies = _section(page, "What the box counts for each player")
        tallies.get_by_label("Name").first.fill("pairs")
        moves = _section(page, "Moves: the buttons a player presses")
        page.get_by_role("button", name="Add a move").click()  # the name's field still has focus
        expect(moves.locator("fieldset.move")).to_have_count(1)
        moves.get_by_label("Name on its button").fill("Pair")
        expect(page.locator("#check-status")).to_have_text("The box can play this.")
        expect(page.locator("#preview")).not_to_contain_text("null")
        expect(page.locator(".preview-pot")).to_have_count(0)
        page.reload()
        expect(page.get_by_label("Title")).to_have_value("Pairs to 6")
        expect(moves.get_by_label("Name on its button")).to_have_value("Pair")
        expect(page.locator("#check-status")).to_have_text("The box can play this.")
    finally:
        context.close()


def test_ties_share_the_win_only_where_ties_can_happen(browser, companion):
    """"Ties share the win" is said under the most or the fewest of a tally, not under "The
    last player left", where there is never a tie (a new user's findings, issue 37)."""
    c = companion()
    context, page = _open(browser, c, paired=False)
    try:
        winner = _section(page, "Who wins")
        expect(winner.get_by_label("The winner is")).to_have_value("most")
        expect(winner.get_by_text("Ties share the win")).to_be_visible()
        winner.get_by_label("The winner is").select_option("last_left")
        expect(winner.get_by_label("Of the tally")).to_have_count(0)
        expect(winner.get_by_text("Ties share the win")).to_have_count(0)
        winner.get_by_label("The winner is").select_option("fewest")
        expect(winner.get_by_text("Ties share the win")).to_be_visible()
    finally:
        context.close()
