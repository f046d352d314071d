"""Dice Factor, Flower Power, Match Patch, Rainbow Rush and rule-vote screens, driven through
the app with button presses (docs/rules.md sections of the same names)."""

from __future__ import annotations

import pytest

from companion.config import load
from companion.games import kinds, mode_for
from companion.games.dice_factor.panel import D8Outcome, DiceFactorScreen, RollOff, target_text
from companion.inputs import Button, RollResult
from companion.rules import dice as dicemod
from companion.rules.game import Header
from companion.testing import choose, make_app, press
from companion.ui.screen import Context
from companion.ui.vote import Ballot, VoteResult

NAMES = ("Ann", "Ben", "Cy", "Dee")


class FakeDice:
    """Rolls the faces it is given, in order, like the software dice would post them."""

    def __init__(self, post) -> None:
        self.post = post
        self.faces: list = []
        self.asked: list[list[str]] = []

    def roll(self, seq, names, *, note=""):
        self.asked.append(list(names))
        self.post(RollResult(seq, {n: self.faces.pop(0) for n in names}))

    def close(self):
        pass


def ink(img, box=None):
    part = img.crop(box) if box else img
    return part.width * part.height - part.histogram()[0]


# --- Dice Factor ---------------------------------------------------------------------------------

@pytest.mark.parametrize("die", ["colors", "shapes"])
def test_target_display_for_every_face(die):
    words = {f: target_text(die, f) for f in dicemod.die(die).faces}
    for face, text in words.items():
        if face == dicemod.LOGO:
            assert text == ("5 ANY ONE COLOR" if die == "colors" else "5 ANY ONE SHAPE")
        else:
            assert text == f"5 {face.upper()}"
    assert len(set(words.values())) == 6


@pytest.mark.parametrize("colors", dicemod.COLORS.faces)
@pytest.mark.parametrize("shapes", dicemod.SHAPES.faces)
def test_main_screen_draws_both_targets(colors, shapes, tmp_path):
    from companion.session.journal import Journal
    j = Journal(Header("dice-factor", NAMES), [{"type": "roll",
                                               "dice": {"colors": colors, "shapes": shapes}}])
    img = DiceFactorScreen(mode_for("dice-factor")).render(Context(config=load(None), journal=j))
    assert ink(img, (0, 23, 16, 37)) and ink(img, (0, 39, 16, 53))  # both glyphs
    assert ink(img, (20, 23, 128, 37)) and ink(img, (20, 39, 128, 53))  # both words


def roll_off(app, *faces):
    app.dice.faces = list(faces)
    assert isinstance(app.top, RollOff)
    press(app, Button.ROLL)


def test_roll_off_through_the_app(tmp_path):
    app = make_app(tmp_path, kind="dice-factor", dice=FakeDice)
    press(app, Button.OK)  # house rules read; the roll-off screen is next
    roll_off(app, 5, 5, 2, 2)  # every roll shared: roll again
    assert app.dice.asked == [["d8"]] * 4
    assert app.journal.events == [{"type": "roll_off", "rolls": [5, 5, 2, 2]}]
    assert app.journal.state.table.current == 0 and isinstance(app.top, RollOff)
    roll_off(app, 8, 8, 6, 3)  # docs/rules.md example: the 6 goes first
    assert app.journal.events[-1] == {"type": "roll_off", "rolls": [8, 8, 6, 3]}
    assert app.journal.state.table.current == 2
    press(app, Button.OK)
    assert isinstance(app.top, DiceFactorScreen)
    # ROLL on the main screen: the targets first (Colors + Shapes) ...
    app.dice.faces = ["green", "logo"]
    press(app, Button.ROLL)
    assert app.journal.state.colors == "green" and app.journal.state.shapes == "logo"
    press(app, Button.OK)
    # ... then the 8-sided die.
    app.dice.faces = [3]
    press(app, Button.ROLL)
    assert isinstance(app.top, D8Outcome)
    assert app.journal.state.table.current == 3  # 1-5: the turn ended by itself
    press(app, Button.NEXT)  # does not end Dee's turn too
    assert app.journal.state.table.current == 3 and isinstance(app.top, DiceFactorScreen)


def test_roll_off_8_7_7(tmp_path):
    app = make_app(tmp_path, kind="dice-factor", dice=FakeDice, players=NAMES[:3])
    press(app, Button.OK)
    roll_off(app, 8, 7, 7)
    assert app.journal.state.table.current == 0
    img = app.frame()
    assert ink(img, (0, 32, 42, 64))  # the winner's cell, inverted


def at_main_with_targets(tmp_path, **kw):
    app = make_app(tmp_path, kind="dice-factor", dice=FakeDice, **kw)
    press(app, Button.OK, Button.BACK)  # house rules, then keep seat 0
    app.dice.faces = ["red", "star"]
    press(app, Button.ROLL, Button.OK)
    return app


@pytest.mark.parametrize("face", range(1, 9))
def test_d8_outcomes_through_the_app(face, tmp_path):
    app = at_main_with_targets(tmp_path)
    app.dice.faces = [face]
    press(app, Button.ROLL)
    assert isinstance(app.top, D8Outcome)
    assert ink(app.frame())
    state = app.journal.state
    if face <= 5:
        assert state.table.current == 1
        press(app, Button.OK)
        assert isinstance(app.top, DiceFactorScreen)
    elif face == 6:
        assert state.table.current == 0
        press(app, Button.NEXT)  # the player traded a card; NEXT ends the turn
        assert app.journal.state.table.current == 1
    elif face == 7:
        press(app, Button.OK)  # pick who to trade hands with: Ben, Cy, Dee
        app.journal.append({"type": "add_card", "player": 2})
        press(app, Button.DOWN, Button.OK)
        assert app.journal.events[-1] == {"type": "trade_hands", "player": 2}
        assert app.journal.state.hand_limits == (6, 5, 5, 5)
    else:
        press(app, Button.OK)  # which die? Colors / Shapes
        app.dice.faces = ["pentagon"]
        press(app, Button.DOWN, Button.OK)
        assert app.dice.asked[-1] == ["shapes"]
        assert (app.journal.state.colors, app.journal.state.shapes) == ("red", "pentagon")


def test_hand_limits_through_the_menu(tmp_path):
    app = at_main_with_targets(tmp_path)
    press(app, Button.OK)
    choose(app, "Add a card", prefix=True)
    assert app.journal.state.hand_limits == (6, 5, 5, 5)
    img = app.frame()
    assert ink(img, (90, 0, 128, 20))  # "HAND 6" badge
    press(app, Button.NEXT, Button.OK)
    choose(app, "Trade hands", prefix=True)
    choose(app, "Ann", prefix=True)
    assert app.journal.state.hand_limits == (5, 6, 5, 5)
    press(app, Button.OK)
    choose(app, "Winner", prefix=True)
    choose(app, "Ben", prefix=True)
    press(app, Button.OK)  # confirm
    assert app.journal.state.over and app.journal.state.winners == (1,)


# --- Flower Power --------------------------------------------------------------------------------

def test_flower_petals_through_buttons(tmp_path):
    app = make_app(tmp_path, kind="flower-power", dice=FakeDice)
    press(app, Button.OK, Button.BACK)
    press(app, Button.OK)  # red petals (the cursor starts on red)
    press(app, Button.UP, Button.UP, Button.UP, Button.OK)  # 4 red petals
    assert app.journal.events == [{"type": "petals", "color": "red", "count": 4}]
    press(app, Button.NEXT)
    press(app, Button.OK, Button.UP, Button.UP, Button.OK)  # Ben: 3 red -> takes the flower
    assert app.journal.state.scores == (0, 1, 0, 0) and app.journal.state.garden[0] == 2
    press(app, Button.OK, Button.UP, Button.UP, Button.UP, Button.OK)  # only 2 cards left
    assert app.journal.events[-1] == {"type": "petals", "color": "red", "count": 2}
    assert app.journal.state.played == 5


def test_flower_garden_is_drawn(tmp_path):
    app = make_app(tmp_path, kind="flower-power", dice=FakeDice)
    press(app, Button.OK, Button.BACK)
    empty = ink(app.frame(), (0, 19, 128, 42))
    app.journal.append({"type": "petals", "color": "blue", "count": 4})
    assert ink(app.frame(), (100, 19, 128, 42)) > ink(app.frame(), (75, 19, 100, 42))
    assert ink(app.frame(), (0, 19, 128, 42)) > empty


# --- Match Patch ---------------------------------------------------------------------------------

def enter_pips(app, pips):
    for p in pips:
        press(app, *([Button.UP] * p))
        press(app, Button.OK)


def test_pips_unique_highest_goes_first(tmp_path):
    app = make_app(tmp_path, kind="match-patch", dice=FakeDice)
    press(app, Button.OK)
    enter_pips(app, [3, 5, 1, 2])
    assert app.journal.events == [{"type": "pips", "pips": [3, 5, 1, 2]}]
    assert app.journal.state.table.current == 1
    press(app, Button.UP)  # a pair for Ben
    assert app.journal.state.scores == (0, 1, 0, 0)


def test_pips_tie_asks_the_group_deck_owner_first(tmp_path):
    app = make_app(tmp_path, kind="match-patch", dice=FakeDice, rules={"deck_owner": 3})
    press(app, Button.OK)
    enter_pips(app, [2, 4, 1, 4])
    assert app.journal.state.table.current == 0 and app.journal.state.tied == (1, 3)
    press(app, Button.OK)  # the cursor starts on the deck owner among the tied
    assert app.journal.events[-1] == {"type": "first", "player": 3}
    assert app.journal.state.table.current == 3


# --- Rainbow Rush --------------------------------------------------------------------------------

def test_discard_lock_on_screen_counts_down(tmp_path):
    app = make_app(tmp_path, kind="rainbow-rush", dice=FakeDice)
    press(app, Button.OK, Button.BACK)
    free = ink(app.frame(), (0, 38, 128, 50))
    press(app, Button.OK)
    choose(app, "Wild replaced", prefix=True)
    app.toast = None
    assert app.journal.state.discard_lock == 2
    assert ink(app.frame(), (0, 38, 128, 50)) > free + 400  # the inverted bar
    press(app, Button.NEXT, Button.NEXT)
    assert app.journal.state.discard_lock == 0
    app.toast = None
    assert ink(app.frame(), (0, 38, 128, 50)) < free + 100  # the bar is gone


# --- Rule vote (any game's menu) -----------------------------------------------------------------

def vote(app, *choices):
    for c in choices:
        press(app, *([Button.DOWN] * c))
        press(app, Button.OK)


@pytest.mark.parametrize("kind", ["dice-factor", "flower-power", "match-patch", "rainbow-rush",
                                  "table"])
def test_vote_is_in_every_menu(kind, tmp_path):
    app = make_app(tmp_path, kind=kind, dice=FakeDice)
    app.stack[1:] = []
    press(app, Button.OK, hold=True)
    choose(app, "Rule vote", prefix=True)
    press(app, Button.UP, Button.OK)  # 3 versions
    assert isinstance(app.top, Ballot) and app.top.versions == 3
    vote(app, 0, 2, 0, 1)
    assert isinstance(app.top, VoteResult) and app.top.outcome().winner == 0
    n = len(app.journal.events)
    press(app, Button.OK)
    assert len(app.journal.events) == n  # the vote is not journaled


def test_vote_tie_asks_for_the_deck_owner_then_revotes(tmp_path):
    app = make_app(tmp_path, kind="rainbow-rush", dice=FakeDice)
    app.stack[1:] = []
    press(app, Button.OK, hold=True)
    choose(app, "Rule vote", prefix=True)
    press(app, Button.OK)  # 2 versions
    vote(app, 0, 1, 0, 1)
    assert app.top.needs_owner
    press(app, Button.OK)
    choose(app, "Ben", prefix=True)
    assert app.top.outcome().winner == 1 and app.top.outcome().by_deck_owner
    # Nobody owns the deck: a tie is voted again.
    press(app, Button.OK, hold=True)
    choose(app, "Rule vote", prefix=True)
    press(app, Button.OK)
    vote(app, 0, 1, 0, 1)
    press(app, Button.OK)
    choose(app, "Nobody", prefix=True)
    assert app.top.outcome().revote
    press(app, Button.OK)
    assert isinstance(app.top, Ballot) and app.top.votes == []


def test_vote_uses_the_house_rule_deck_owner_and_back_takes_a_vote_back(tmp_path):
    app = make_app(tmp_path, kind="flower-power", dice=FakeDice, rules={"deck_owner": 2})
    app.stack[1:] = []
    press(app, Button.OK, hold=True)
    choose(app, "Rule vote", prefix=True)
    press(app, Button.OK)
    vote(app, 1, 1)
    press(app, Button.BACK)  # Ben changes his mind
    assert app.top.votes == [1] and app.top.cursor == 1  # his vote, to change
    press(app, Button.UP, Button.OK)  # Ben: A
    vote(app, 0, 1)  # Cy (the deck owner): A, Dee: B -> 2:2, Cy's vote counts 2
    assert app.top.outcome().winner == 0 and app.top.outcome().by_deck_owner


# --- every gallery screen renders something ------------------------------------------------------

@pytest.mark.parametrize("kind", ["dice-factor", "flower-power", "match-patch", "rainbow-rush"])
def test_galleries_render(kind):
    config = load(None)
    shots = list(kinds()[kind].gallery(config))
    assert len(shots) >= 6
    for name, journal, stack in shots:
        img = stack[-1].render(Context(config=config, journal=journal))
        assert ink(img) > 50, name
