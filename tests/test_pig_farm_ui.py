"""Pig Farm on the device: scoreboard, butcher roll, the sell flow on six buttons, round
summary, end screen (docs/rules.md, "Pig Farm"; issue 4, "On the device")."""

from __future__ import annotations

from companion.games import kinds, mode_for
from companion.games.pig_farm.panel import (
    ButcherScreen,
    HandEntry,
    PigEndScreen,
    RoundsTable,
    RoundSummary,
    Scoreboard,
    SellFlow,
    breakdown_lines,
    butcher_menu,
    verdict_lines,
)
from companion.games.pig_farm.rules import farm_score
from companion.inputs import Button, RollResult
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.testing import choose, press
from companion.ui import actions as A
from companion.ui.screen import Context, Menu

MODE = mode_for("pig-farm")


def start(app, players=("Ann", "Ben", "Cy", "Dee"), rules=None) -> Journal:
    app.perform(A.NewGame(Header("pig-farm", tuple(players), 0, rules or {})))
    press(app, Button.OK)  # house rules read
    press(app, Button.OK)  # the first seat goes first
    assert isinstance(app.top, Scoreboard)
    return app.journal


def ink(img, box) -> int:
    return sum(1 for x in range(box[0], box[2]) for y in range(box[1], box[3])
               if img.getpixel((x, y)))


def enter_hand(app, sets, unmatched) -> None:
    """Type one hand on a HandEntry screen, the way a player would: UP on "+" adds a set of
    2, more UPs grow it, NEXT moves on; then NEXT to the unmatched box, UPs, OK."""
    screen = app.top
    assert isinstance(screen, HandEntry)
    for size in sets:
        assert screen.cursor == screen.plus
        press(app, Button.UP)  # a new set of 2, cursor on it
        for _ in range(size - 2):
            press(app, Button.UP)
        press(app, Button.NEXT)  # on to "+"
    press(app, Button.NEXT)  # on to unmatched
    assert screen.cursor == screen.unmatched_cell
    for _ in range(unmatched):
        press(app, Button.UP)
    assert screen.draft.sets == list(sets) and screen.draft.unmatched == unmatched
    press(app, Button.OK)


# --- the scoreboard ------------------------------------------------------------------------------


def test_scoreboard_shows_totals_current_player_and_target(make_app):
    app = make_app()
    j = start(app, rules={"target": 300})
    j.append({"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 1}, {"sets": [2]},
                                        {"sets": [2, 2]}, {"sets": []}]})
    img = app.frame()
    # Ben (seat 1) is current: his row is inverted (mostly lit).
    row_h = min(17, (64 - 13) // 4)
    ben = (0, 13 + row_h, 123, 13 + 2 * row_h)
    ann = (0, 13, 123, 13 + row_h)
    area = (ben[2] - ben[0]) * (ben[3] - ben[1])
    assert ink(img, ben) > area // 2 > ink(img, ann) > 0
    # The target is in the title bar: an open-ended game draws a different title.
    open_ended = Journal(Header("pig-farm", j.header.players, 0, {"target": None}), j.events)
    other = Scoreboard(MODE).render(Context(config=app.config, journal=open_ended))
    assert img.crop((64, 0, 128, 12)).tobytes() != other.crop((64, 0, 128, 12)).tobytes()
    assert img.crop((0, 12, 128, 64)).tobytes() == other.crop((0, 12, 128, 64)).tobytes()


def test_scoreboard_with_many_seats_keeps_the_current_player_in_view(config):
    names = tuple(f"P{i}" for i in range(9))
    j = Journal(Header("pig-farm", names))
    for _ in range(7):
        j.append({"type": "next"})
    ctx = Context(config=config, journal=j)
    board = Scoreboard(MODE)
    first, shown = board.window(ctx)
    assert first <= 7 < first + shown
    board.render(ctx)
    board.on_press(Button.UP, ctx)
    assert board.window(ctx)[0] == first - 1
    board.on_press(Button.DOWN, ctx)
    board.on_press(Button.DOWN, ctx)
    assert board.window(ctx)[0] == first == 9 - 4  # the last page does not scroll further
    board.on_press(Button.NEXT, ctx)  # ending the turn follows the current player again
    assert board.first is None


# --- the butcher ---------------------------------------------------------------------------------


def test_butcher_from_roll_records_the_face_ends_the_turn_and_shows_the_verdict(make_app):
    app = make_app(seed=3)
    j = start(app)
    press(app, Button.NEXT)  # Ben's turn
    press(app, Button.ROLL)
    assert isinstance(app.top, Menu)
    choose(app, "Shapes die")
    e = j.events[-1]
    assert e["type"] == "butcher" and e["die"] == "shapes" and "deal" not in e
    assert j.state.table.current == 2  # Ben's turn ended
    assert isinstance(app.top, ButcherScreen)
    img = app.frame()
    assert ink(img, (30, 13, 128, 50)) > 100  # the verdict in big letters
    press(app, Button.OK)
    assert isinstance(app.top, Scoreboard)


class FakeRoller:
    """Stands in for the dice roller: answers every request with the faces it is given."""

    name = "Roller"

    def __init__(self, post, faces):
        self.post = post
        self.faces = list(faces)
        self.asked = []

    def roll(self, seq, names, *, note=""):
        self.asked.append(list(names))
        self.post(RollResult(seq, {names[0]: self.faces.pop(0)}, source="roller"))

    def close(self):
        pass


def test_butcher_goes_through_the_dice_roller_when_one_is_attached(make_app):
    app = make_app()
    j = start(app)
    app.dice = FakeRoller(app.post, ["red", "logo"])
    press(app, Button.ROLL)
    choose(app, "Colors die")
    assert app.dice.asked == [["colors"]]
    assert j.events[-1] == {"type": "butcher", "die": "colors", "face": "red"}
    assert app.rolls.dice_note == "Roller"
    assert verdict_lines("colors", "red") == ("All RED", "pigs out")
    press(app, Button.OK)
    press(app, Button.ROLL)
    choose(app, "Colors die")
    assert j.events[-1]["face"] == "logo"
    assert verdict_lines("colors", "logo") == ("Logo:", "pigs are safe")
    assert j.state.table.current == 2


def test_deal_time_butcher_from_the_menu_does_not_move_the_turn(make_app):
    app = make_app()
    j = start(app)
    app.dice = FakeRoller(app.post, ["circle"])
    press(app, Button.ROLL)
    choose(app, "Dealt: Shapes die")
    assert j.events[-1] == {"type": "butcher", "die": "shapes", "face": "circle", "deal": True}
    assert j.state.table.current == 0 and j.state.table.turns == 0
    assert isinstance(app.top, ButcherScreen)
    press(app, Button.OK)
    press(app, Button.NEXT)
    # After the first turn the "Dealt:" choices are gone.
    labels = [i.text(app.ctx()) for i in butcher_menu(app.ctx()).items]
    assert labels == ["Colors die", "Shapes die"]


# --- selling the farm ----------------------------------------------------------------------------


def test_a_whole_round_on_the_buttons_then_undo_reverses_it(make_app):
    app = make_app()
    j = start(app)
    press(app, Button.NEXT)  # Ben's turn: Ben sells
    press(app, Button.OK)  # the menu
    choose(app, "Sell the farm")
    assert isinstance(app.top, HandEntry) and app.top.seat == 1 and app.top.seller
    enter_hand(app, [3, 3, 2], 1)  # Ben: 130
    assert app.top.seat == 2
    enter_hand(app, [2, 2, 2, 2, 2], 0)  # Cy: -30
    assert app.top.seat == 3
    enter_hand(app, [], 4)  # Dee: 0
    assert app.top.seat == 0
    enter_hand(app, [4, 2], 0)  # Ann: 15
    assert j.events[-1] == {"type": "sell", "hands": [
        {"sets": [4, 2], "unmatched": 0}, {"sets": [3, 3, 2], "unmatched": 1},
        {"sets": [2, 2, 2, 2, 2], "unmatched": 0}, {"sets": [], "unmatched": 4}]}
    assert j.state.scores == (15, 130, -30, 0)
    assert isinstance(app.top, RoundSummary)
    img = app.frame()
    assert ink(img, (60, 13, 128, 64)) > 50  # points and totals drawn
    press(app, Button.OK)
    assert isinstance(app.top, Scoreboard) and j.state.table.current == 2
    # Hold BACK: the whole round's scoring goes at once.
    press(app, Button.BACK, hold=True)
    assert j.state.scores == (0, 0, 0, 0) and j.state.rounds == 0
    assert j.state.table.current == 1
    assert app.toast[0] == "Undone: Ben sold the farm (round 1): Ann 15, Ben 130, Cy -30, Dee 0"


def test_a_seller_with_fewer_than_3_sets_cannot_confirm(make_app):
    app = make_app()
    j = start(app, players=("Ann", "Ben"))
    press(app, Button.OK)
    choose(app, "Sell the farm")
    entry = app.top
    press(app, Button.UP, Button.UP, Button.NEXT, Button.UP)  # sets [3, 2]
    assert entry.draft.sets == [3, 2] and entry.score() is None
    press(app, Button.OK)
    assert app.top is entry and "at least 3 sets" in app.toast[0]
    assert not any(e["type"] == "sell" for e in j.events)
    press(app, Button.NEXT, Button.UP, Button.OK)  # a third set: now it confirms
    assert isinstance(app.top, HandEntry) and app.top.seat == 1


def test_editing_a_hand_change_size_remove_and_move_back(make_app):
    app = make_app()
    start(app, players=("Ann", "Ben"))
    press(app, Button.OK)
    choose(app, "Sell the farm")
    e = app.top
    press(app, Button.UP, Button.NEXT, Button.UP, Button.NEXT, Button.UP, Button.NEXT)
    assert e.draft.sets == [2, 2, 2] and e.cursor == e.plus
    press(app, Button.ROLL)  # back onto the third set
    press(app, Button.UP, Button.UP)
    assert e.draft.sets == [2, 2, 4]
    press(app, Button.ROLL, Button.ROLL, Button.DOWN)  # the first set of 2 goes
    assert e.draft.sets == [2, 4] and e.cursor == 0
    press(app, Button.ROLL)  # wraps to the unmatched box
    assert e.cursor == e.unmatched_cell
    press(app, Button.DOWN)
    assert e.draft.unmatched == 0  # never below 0
    press(app, Button.UP, Button.UP)
    assert e.draft.unmatched == 2
    # The running points follow the entry.
    assert e.score() is None  # two sets: no sale yet
    press(app, Button.ROLL, Button.UP, Button.UP)  # back to "+": a set of 3
    assert e.draft.sets == [2, 4, 3]
    assert e.score().total == 30 + 150 + 50


def test_back_from_a_later_seat_keeps_what_was_entered_and_back_from_the_seller_asks(make_app):
    app = make_app()
    j = start(app, players=("Ann", "Ben", "Cy"))
    press(app, Button.OK)
    choose(app, "Sell the farm")
    enter_hand(app, [2, 2, 2], 0)
    assert app.top.seat == 1
    press(app, Button.BACK)
    assert isinstance(app.top, HandEntry) and app.top.seat == 0
    assert app.top.draft.sets == [2, 2, 2]
    press(app, Button.BACK)  # leaving the seller's entered hand asks first
    assert "Stop selling?" == app.top.question
    press(app, Button.BACK)  # no
    assert isinstance(app.top, HandEntry)
    press(app, Button.BACK)
    press(app, Button.OK)  # yes
    assert isinstance(app.top, Scoreboard) and [e["type"] for e in j.events] == ["first"]


def test_the_last_round_shows_its_summary_then_the_end_screen_and_round_table(make_app):
    app = make_app()
    j = start(app, players=("Ann", "Ben"), rules={"target": 100})
    press(app, Button.OK)
    choose(app, "Sell the farm")
    enter_hand(app, [3, 3, 3], 0)  # 30 + 150 + 100 = 280
    enter_hand(app, [2], 1)
    assert j.state.over and j.state.winners == (0,)
    assert isinstance(app.top, RoundSummary)
    press(app, Button.OK)
    assert isinstance(app.top, PigEndScreen)
    img = app.frame()
    assert ink(img, (0, 24, 128, 51)) > 100  # the winner's name, big
    press(app, Button.DOWN)
    assert isinstance(app.top, RoundsTable)
    app.frame()
    press(app, Button.OK)
    assert isinstance(app.top, PigEndScreen)
    # Undo from the end screen reopens the game.
    press(app, Button.BACK, hold=True)
    assert not j.state.over and isinstance(app.top, Scoreboard)


def test_house_rules_from_the_config_open_ended(make_app, config):
    config.data["rules"]["pig-farm"] = {"target": None}
    app = make_app()
    press(app, Button.OK)  # New game
    choose(app, "Pig Farm")
    press(app, Button.OK)  # 4 players
    assert app.journal.header.rules == {"target": None}
    lines = MODE.house_rules(app.journal.header)
    assert any("Target: none" in line for line in lines)
    press(app, Button.OK)
    press(app, Button.OK)
    assert isinstance(app.top, Scoreboard)
    app.frame()


# --- what the entry screen shows -----------------------------------------------------------------


def test_breakdown_lines_show_every_bonus_and_fit_the_panel():
    from companion.ui import draw
    s = farm_score([3, 3, 2], 1, seller=True)
    assert breakdown_lines(s, 126) == ["3 sets: 30  2×3: +100"]
    s = farm_score([3, 4, 5, 2, 2, 2, 2, 3], 0, seller=True)
    lines = breakdown_lines(s, 126)
    assert len(lines) == 2 and "bonus +600" in lines[0]
    assert lines[1] == "+100 +150 +250 +100"
    assert all(draw.text_size(x, draw.SMALL)[0] <= 126 for x in lines)
    s = farm_score([3, 3, 2, 2, 2], 1, seller=False)
    assert breakdown_lines(s, 126) == ["5 sets: -30", "no bonus: not seller"]


def test_every_gallery_screen_renders_something(config):
    names = []
    for name, journal, stack in kinds()["pig-farm"].gallery(config):
        ctx = Context(config=config, journal=journal, dice_note="Software")
        img = stack[-1].render(ctx)
        assert img.getbbox() is not None, name
        names.append(name)
    for expected in ("scoreboard", "butcher-red", "butcher-logo", "butcher-deal",
                     "sell-seller-130", "sell-seller-two-sets", "round-summary", "end",
                     "end-rounds", "rounds-table"):
        assert expected in names


def test_hand_entry_running_points_match_farm_score(config):
    j = Journal(Header("pig-farm", ("Ann", "Ben", "Cy")))
    ctx = Context(config=config, journal=j)
    flow = SellFlow.start(ctx)
    assert flow.order == [0, 1, 2]
    e = HandEntry(flow, 0)
    for b in (Button.UP, Button.UP, Button.NEXT, Button.UP, Button.NEXT, Button.UP,
              Button.UP, Button.UP):
        e.on_press(b, ctx)
        e.render(ctx)
    assert e.draft.sets == [3, 2, 4]
    assert e.score() == farm_score([3, 2, 4], 0, seller=True)
    assert e.score().total == 30 + 50 + 150 + 100


def test_several_rounds_on_the_buttons_match_a_hand_count(make_app):
    """Issue 4, "Done means": the companion does the arithmetic of several rounds."""
    app = make_app()
    j = start(app, players=("Ann", "Ben", "Cy"))

    def sell_round(hands_in_order):
        press(app, Button.OK)
        choose(app, "Sell the farm")
        for sets, unmatched in hands_in_order:
            enter_hand(app, sets, unmatched)
        assert isinstance(app.top, RoundSummary)
        press(app, Button.OK)

    # Round 1, Ann sells: 30 + 2x50 + 100 = 230; Ben 2 sets 15; Cy 4 sets 0.
    sell_round([([3, 3, 2], 0), ([2, 2], 1), ([2, 2, 2, 2], 0)])
    assert j.state.scores == (230, 15, 0) and j.state.table.current == 1
    # Round 2: Ben ends his turn, Cy sells: 50 + 150 = 200; Ann 6 sets -50; Ben 1 set 5.
    press(app, Button.NEXT)
    sell_round([([4, 2, 2, 2], 2), ([2, 2, 2, 2, 2, 2], 0), ([3], 0)])
    assert j.state.scores == (180, 20, 200) and j.state.table.current == 0
    # Round 3, Ann sells: 30 + 250 + 150 + 50 + 100 = 580 -> 760, over the target of 500.
    sell_round([([5, 4, 3], 0), ([2, 2, 2], 1), ([], 3)])
    assert j.state.scores == (760, 50, 200)
    assert j.state.over and j.state.winners == (0,)
    assert isinstance(app.top, PigEndScreen)
    assert [list(r.points) for r in j.state.results] == [[230, 15, 0], [-50, 5, 200],
                                                         [580, 30, 0]]
