"""Penny Badger on the panel: every screen renders, the key facts are drawn, and whole turns
are played through the app with button presses (docs/rules.md "Penny Badger"; issue 3)."""

from __future__ import annotations

import pytest

from companion.config import load
from companion.games import kinds, mode_for
from companion.games.penny_badger.panel import (
    Accusers,
    Ledger,
    PennyEnd,
    Reveal,
    SettlementScreen,
    TurnPicker,
    claimant_change,
    end_facts,
    grid_layout,
    history_lines,
    stake_lines,
    wrap_list,
)
from companion.inputs import Button, ButtonInput, Gesture
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.testing import FakeClock, close, make_app, press
from companion.ui import actions as A, draw
from companion.ui.screen import Context, Menu

MODE = mode_for("penny-badger")
NAMES = ("Ann", "Ben", "Cy", "Dee")


@pytest.fixture
def cfg():
    return load(None)


def ink(img, box) -> int:
    """Lit pixels inside `box` (x0, y0, x1, y1), bounds exclusive at the right and bottom."""
    return sum(img.crop(box).histogram()[1:])


def journal(*events, players=NAMES, **rules) -> Journal:
    j = Journal(Header("penny-badger", tuple(players), 0, rules))
    for e in events:
        j.append(e)
    return j


# --- rendering ------------------------------------------------------------------------------

def test_every_gallery_screen_renders_something(cfg):
    shots = list(kinds()["penny-badger"].gallery(cfg))
    names = {name for name, _, _ in shots}
    assert {"ledger", "ledger-16", "ledger-16-page2", "turn-pass", "turn-claim-3",
            "accusers-none", "reveal", "settled-true", "settled-bluff", "history", "end",
            "end-standings"} <= names
    for name, j, stack in shots:
        img = stack[-1].render(Context(config=cfg, journal=j))
        assert img.size == (128, 64) and img.getbbox() is not None, name


def test_ledger_shows_bank_and_current_badger_biggest(cfg):
    j = journal({"type": "claim", "cards": 2, "challengers": []})
    img = Ledger(MODE).render(Context(config=cfg, journal=j))
    assert ink(img, (0, 10, 47, 30)) > 60  # the bank's figure
    # The current badger's block is inverted (mostly lit), with the name and savings in it.
    block = (49, 0, 128, 30)
    assert ink(img, block) > 0.6 * 79 * 30
    assert ink(img, block) < 79 * 30


def test_ledger_grid_strikes_out_the_eliminated(cfg):
    live = journal({"type": "pass"}, savings=2)
    out = journal({"type": "pass"}, savings=1, players=NAMES + ("Eve",))
    assert out.state.table.eliminated == {0}
    ctx = Context(config=cfg, journal=out)
    img = Ledger(MODE).render(ctx)
    cols, rows, _ = grid_layout(5)
    assert (cols, rows) == (2, 3)
    # Ann (seat 0, out) is struck: a lit horizontal line across the middle of her cell.
    cw = 128 // cols
    rh = (64 - 32) // rows
    mid = 32 + (rh - 1) // 2
    row = [img.getpixel((x, mid)) for x in range(3, cw - 4)]
    assert all(row)
    live_img = Ledger(MODE).render(Context(config=cfg, journal=live))
    live_row = [live_img.getpixel((x, 32 + (16 - 1) // 2)) for x in range(3, 60)]
    assert not all(live_row)


def grid_texts(cfg, j, monkeypatch) -> list[str]:
    """The texts the ledger draws below its top block (the savings grid)."""
    drawn: list[str] = []
    real = draw.Draw.text

    def spy(self, xy, text, *args, **kwargs):
        if xy[1] >= 32:
            drawn.append(text)
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(draw.Draw, "text", spy)
    Ledger(MODE).render(Context(config=cfg, journal=j))
    return drawn


@pytest.mark.parametrize("names,cards,olu", [
    (("Olu", "Ann", "Ben", "Dee", "Eve"), 7, "227"),  # Olu takes 128: three figures
    (("Olu", "Ann", "Ben", "Dee", "Eve", "Mia"), 7, "227"),
    (("Olu", "Ann", "Ben", "Dee", "Eve", "Mia", "Zoe", "Kim", "Ray"), 2, "24")])
def test_five_or_more_three_letter_names_are_drawn_whole(cfg, monkeypatch, names, cards, olu):
    """Five badgers were drawn "O…", "A…" (issue 18, item 7): each 3-letter name is whole
    beside its savings (seven to nine badgers: beside two figures)."""
    j = journal({"type": "claim", "cards": cards, "challengers": []}, players=names,
                bank=200, savings=99 if cards == 7 else 20)
    assert not j.state.over
    texts = grid_texts(cfg, j, monkeypatch)
    assert [t for t in texts if t.isalpha()] == list(names)
    assert olu in texts


def test_long_names_keep_as_much_as_fits(cfg, monkeypatch):
    names = ("Wolfeschlegelste", "Anna-Maria Louis", "Bartholomew", "Dee", "Eve",
             "Maximilian")
    texts = grid_texts(cfg, journal(players=names), monkeypatch)
    shown = [t for t in texts if not t.isdigit()]
    assert shown[3:5] == ["Dee", "Eve"]
    room = 128 // 2 - draw.text_size("20", 10)[0] - 7  # a cell of two columns, less savings
    for name, text in zip(names, shown):
        if text != name:
            kept = text.removesuffix("…")
            assert name.startswith(kept) and len(kept) >= 5, (name, text)  # was 1
            assert draw.text_size(name[:len(kept) + 1] + "…", 10)[0] > room  # no more fits


@pytest.mark.parametrize("n", range(2, 17))
def test_every_badger_is_on_exactly_one_ledger_page(n):
    cols, rows, size = grid_layout(n)
    assert size >= 10 and rows * (size + 0) <= 64 - 32 + rows
    per = cols * rows
    pages = -(-n // per)
    assert pages <= 2
    seen = [s for p in range(pages) for s in range(p * per, min(n, (p + 1) * per))]
    assert seen == list(range(n))


def test_ledger_pages_with_up_and_down_and_follows_the_current_badger(cfg):
    names = tuple(f"B{i}" for i in range(16))
    j = journal(players=names)
    ctx = Context(config=cfg, journal=j)
    led = Ledger(MODE)
    assert led.shown_page(ctx) == 0
    led.on_press(Button.DOWN, ctx)
    assert led.shown_page(ctx) == 1
    led.on_press(Button.DOWN, ctx)
    assert led.shown_page(ctx) == 0
    j.append({"type": "skip_to", "player": 12})
    led.page = None
    assert led.shown_page(ctx) == 1


def test_turn_screen_shows_what_is_at_stake():
    s = journal({"type": "claim", "cards": 2}, {"type": "pass"}).state  # bank 97
    assert stake_lines(s, 0) == ("Pays 1 to the bank", "nobody may challenge")
    assert stake_lines(s, 3) == ("Takes 8 from the bank", "Penalty 4 to bank + each")
    assert stake_lines(s, 1) == ("Takes 3 from the bank", "Penalty 1, bluffer 2")
    assert stake_lines(s, 8) == ("Takes the bank: 97", "Penalty: all savings")
    small = journal(bank=5).state
    assert stake_lines(small, 4)[0] == "Takes 5: all there is"


def test_reveal_figures_come_from_the_settlement():
    """docs/rules.md worked example: seat 2's three, challenged by 0 and 3: +16 true, -12 bluff."""
    s = journal({"type": "claim", "cards": 2}, {"type": "pass"}).state
    assert claimant_change(s, 3, [0, 3], True) == 16
    assert claimant_change(s, 3, [0, 3], False) == -12


def test_accusers_are_the_active_opponents_clockwise_from_the_claimant(cfg):
    j = journal({"type": "pass"}, {"type": "claim", "cards": 8, "challengers": [2],
                                    "truthful": False}, players=NAMES + ("Eve",))
    assert j.state.table.eliminated == {1} and j.state.table.current == 2
    ctx = Context(config=cfg, journal=j)
    assert Accusers(3).opponents(ctx) == [3, 4, 0]


def test_wrap_list_breaks_between_payments():
    line = "Cy pays 4 to bank, 4 to Dee, 4 to Ann"
    out = wrap_list(line, 122, 12)
    assert out[0] == "Cy pays 4 to bank," and len(out) >= 2
    assert all(draw.text_size(x, 12)[0] <= 122 for x in out)
    assert " ".join(x.strip() for x in out) == line


def test_history_and_end_facts_words():
    j = journal({"type": "claim", "cards": 4, "challengers": [2, 3], "truthful": False},
                {"type": "claim", "cards": 5}, {"type": "pass"}, {"type": "claim", "cards": 8})
    s = j.state
    assert s.over and s.winners == (3,)
    assert history_lines(s, NAMES)[:2] == ["4. Dee claimed 8 of a kind", "   bank -77, Dee +77"]
    facts = end_facts(s, NAMES)
    assert facts[:4] == ["Biggest claim:", "  Dee: 8 of a kind +77", "Best catch:",
                         "  Cy & Dee on Ann +12"]
    # Ann's bluff cost her all 20 (8 to the bank, 6 to each accuser): out.
    assert facts[4:] == ["Standings:", "  1. Dee 103", "  2. Ben 52", "  3. Cy 25",
                         "  4. Ann 0 (out)", "Bank: 0"]


def test_end_facts_without_claims_or_catches():
    s = journal({"type": "pass"}, {"type": "pass"}, savings=1, players=("A", "B", "C")).state
    facts = end_facts(s, ("A", "B", "C"))
    assert facts[1] == "  none kept" and facts[3] == "  no bluff caught"
    assert "  2. A 0 (out)" in facts and "  2. B 0 (out)" in facts


# --- playing through the app ------------------------------------------------------------------

@pytest.fixture
def app(tmp_path, cfg):
    a = make_app(tmp_path, journal="j.db", config=cfg)
    yield a
    close(a)


def start(app, players=NAMES, **rules) -> None:
    app.perform(A.NewGame(Header("penny-badger", tuple(players), 0, rules)))
    app.perform(A.Home())


def test_pass_is_one_press_plus_a_confirm(app):
    start(app)
    press(app, Button.NEXT)
    assert isinstance(app.top, TurnPicker)
    press(app, Button.OK)
    assert app.journal.events == [{"type": "pass"}]
    assert app.journal.state.savings == (19, 20, 20, 20) and app.journal.state.bank == 101
    assert isinstance(app.top, SettlementScreen) and len(app.stack) == 2
    press(app, Button.OK)
    assert isinstance(app.top, Ledger) and app.journal.state.table.current == 1


def test_back_leaves_the_turn_screen_without_paying(app):
    start(app)
    press(app, Button.NEXT, Button.UP, Button.BACK)
    assert isinstance(app.top, Ledger) and app.journal.events == []


def test_unchallenged_claim(app):
    start(app)
    press(app, Button.NEXT, Button.UP, Button.UP, Button.OK)
    assert isinstance(app.top, Accusers)
    press(app, Button.OK)
    assert app.journal.events == [{"type": "claim", "cards": 2, "challengers": []}]
    assert app.journal.state.savings[0] == 24
    assert isinstance(app.top, SettlementScreen)


def test_worked_example_played_on_the_buttons_then_undone(app):
    """docs/rules.md worked example, both branches, entered with the six buttons."""
    start(app)
    press(app, Button.NEXT, Button.UP, Button.UP, Button.OK, Button.OK, Button.OK)  # pair
    press(app, Button.NEXT, Button.OK, Button.OK)  # Ben passes
    # Cy claims three; accusers listed clockwise from Cy's left: Dee, Ann, Ben.
    press(app, Button.NEXT, Button.UP, Button.UP, Button.UP, Button.OK)
    press(app, Button.DOWN, Button.OK, Button.DOWN, Button.OK)  # tick Dee and Ann
    press(app, Button.NEXT)  # go on
    assert isinstance(app.top, Reveal)
    press(app, Button.OK)  # TRUE
    assert app.journal.events[-1] == {"type": "claim", "cards": 3, "challengers": [3, 0],
                                      "truthful": True}
    assert app.journal.state.savings == (16, 19, 36, 12) and app.journal.state.bank == 97
    # Hold BACK: the whole settlement is undone, back on the ledger with Cy to play.
    app.handle(ButtonInput(Button.BACK, Gesture.HOLD))
    assert app.journal.state.savings == (24, 19, 20, 20) and app.journal.state.bank == 97
    assert isinstance(app.top, Ledger) and app.journal.state.table.current == 2
    assert app.toast[0] == ("Undone: Cy claimed 3 of a kind, challenged by Dee and Ann, true: "
                            "bank paid Cy 8; Dee paid bank 4 and Cy 4; Ann paid bank 4 and Cy 4")
    # The bluff branch.
    press(app, Button.NEXT, Button.UP, Button.UP, Button.UP, Button.OK)
    press(app, Button.DOWN, Button.OK, Button.DOWN, Button.OK, Button.UP, Button.UP, Button.OK)
    press(app, Button.DOWN, Button.OK)  # BLUFF
    assert app.journal.state.savings == (28, 19, 8, 24) and app.journal.state.bank == 101


def test_toggling_an_accuser_twice_unticks_and_next_on_summary_starts_the_next_turn(app):
    start(app)
    press(app, Button.NEXT, Button.UP, Button.UP, Button.OK, Button.DOWN, Button.OK,
          Button.OK, Button.UP, Button.OK)
    assert app.journal.events == [{"type": "claim", "cards": 2, "challengers": []}]
    press(app, Button.NEXT)
    assert isinstance(app.top, TurnPicker) and len(app.stack) == 2
    assert app.journal.state.table.current == 1


def test_game_end_shows_the_summary_then_the_end_screen(app):
    start(app, bank=4)
    press(app, Button.NEXT, Button.UP, Button.UP, Button.OK, Button.OK)
    assert app.journal.state.over and app.journal.state.winners == (0,)
    assert isinstance(app.top, SettlementScreen) and isinstance(app.stack[0], PennyEnd)
    press(app, Button.NEXT)
    assert isinstance(app.top, PennyEnd) and len(app.stack) == 1
    press(app, Button.DOWN, Button.DOWN, Button.UP)
    app.handle(ButtonInput(Button.BACK, Gesture.HOLD))  # undo reopens the game
    assert not app.journal.state.over and isinstance(app.top, Ledger)


def test_refused_claim_shows_a_toast_and_records_nothing(app):
    start(app)
    # A stale screen naming the claimant as an accuser: the engine refuses, nothing recorded.
    app.perform(A.Push(Reveal(2, [0])))
    press(app, Button.OK)
    assert app.journal.events == [] and "cannot challenge their own claim" in app.toast[0]
    assert isinstance(app.top, Reveal)


def test_menu_offers_only_skip_and_reverse_of_the_turn_actions(app):
    start(app)
    app.handle(ButtonInput(Button.OK, Gesture.HOLD))
    menu = app.top
    assert isinstance(menu, Menu)
    labels = [i.text(app.ctx()) for i in menu.items]
    assert labels[:3] == ["Pass or claim", "Pause clock", "Claims history"]
    assert "Skip next player" in labels and "Reverse" in labels
    assert "Double skip" not in labels and "Reverse + skip" not in labels
    assert not any(label.startswith("Skip to") for label in labels)
    press(app, *([Button.DOWN] * labels.index("Skip next player")), Button.OK)
    assert app.journal.events == [{"type": "skip"}] and isinstance(app.top, Ledger)
    press(app, Button.NEXT, Button.OK)
    assert app.journal.state.table.current == 2  # Ben lost his turn


def test_resume_after_a_power_cut_carries_on(tmp_path, cfg):
    """Done means: unplug the box and carry on, every penny where it was."""
    a = make_app(tmp_path, journal="j.db", config=cfg, clock=FakeClock(0.0))
    start(a)
    press(a, Button.NEXT, Button.UP, Button.UP, Button.UP, Button.OK, Button.DOWN, Button.OK,
          Button.NEXT, Button.DOWN, Button.OK)  # Ann's three, Ben accuses: bluff
    state = a.journal.state
    close(a)
    b = make_app(tmp_path, journal="j.db", config=cfg, clock=FakeClock(0.0))
    try:
        assert b.journal.state == state
        assert state.savings == (12, 24, 20, 20) and state.bank == 104
        assert isinstance(b.top, Ledger)
    finally:
        close(b)


def test_the_engine_and_the_mode_are_registered():
    """The kind's entry point names both (a fresh interpreter: importing this test module has
    already imported the panel by itself)."""
    import subprocess
    import sys
    code = ("from companion import games as g; "
            "print(type(g.game('penny-badger')).__name__, type(g.mode_for('penny-badger')).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["PennyBadger", "PennyMode"]


def test_house_rules_say_in_plain_words_that_a_called_bluff_takes_nothing():
    """Issue 26, item 7: "The withdrawal is taken when the claim is made" (a called bluff takes
    none: docs/rules.md) and the cryptic "Penalty P: wild 1 (bluffer 2)"."""
    lines = MODE.house_rules(Header("penny-badger", NAMES, 0, {"bank": 100, "savings": 20}))
    text = " ".join(lines)
    assert "taken when the claim is made" not in text and "Penalty P" not in text
    assert "A bluff: the claimant takes nothing" in text
    assert "Not challenged: the claimant keeps them" in text
    assert "for a wild 1 (an accuser) or 2 (a bluffer)" in text
