"""Chaos screens: the game played through button presses on the app, the one-second call
with an injected clock, and every gallery screen drawn (docs/rules.md, "Chaos")."""

from __future__ import annotations

from companion.games import kinds, mode_for
from companion.games.chaos.panel import (
    ChaosCall,
    ChaosEnd,
    ChaosMode,
    ChaosScreen,
    Countdown,
    DealerPicker,
    MarkMost,
    RoundPoints,
)
from companion.inputs import Button, Tick
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.testing import choose, press
from companion.ui.actions import After, Beep, Pop, Push
from companion.ui.color_picker import ColorPicker
from companion.ui.screen import Context


def pick_color(app, color: str) -> None:
    picker = app.top
    assert isinstance(picker, ColorPicker)
    while picker.color != color:
        press(app, Button.DOWN)
    press(app, Button.OK)


def start_chaos(app, *, dealer: str) -> None:
    press(app, Button.OK)  # "New game"
    choose(app, "Chaos")
    press(app, Button.OK)  # 4 players
    press(app, Button.OK)  # house rules read
    assert isinstance(app.top, DealerPicker)
    choose(app, dealer)


def lit(img, box) -> int:
    """How many pixels are on inside `box`."""
    return img.crop(box).convert("L").histogram()[255]


def test_chaos_played_with_buttons_dealer_stacks_reverse_points(make_app):
    app = make_app()
    start_chaos(app, dealer="Cy")  # seat 2 deals: Dee (seat 3) goes first
    j = app.journal
    assert j.header.game == "chaos" and j.state.table.current == 3
    assert j.events == [{"type": "first", "player": 3}]
    assert isinstance(app.top, ChaosScreen)
    # Dee: Draw 4, blue (menu with OK). The turn passes at once; Ann owes 4.
    press(app, Button.OK)
    choose(app, "Draw 4 + color…")
    pick_color(app, "blue")
    assert (j.state.table.current, j.state.draw_stack, j.state.color) == (0, 4, "blue")
    assert isinstance(app.top, ChaosScreen)
    # Ann: the menu now offers the answers first; she answers with a Draw 4 (green).
    press(app, Button.OK, hold=True)
    labels = [i.text(app.ctx()) for i in app.top.items]
    # (Pause clock second, as in every game menu: issue 34.11.)
    assert labels[:3] == ["Take 4 cards", "Pause clock", "Add Draw 4 → 8"]
    assert "Reverse" not in labels
    choose(app, "Add Draw 4 → 8")
    pick_color(app, "green")
    assert (j.state.table.current, j.state.draw_stack) == (1, 8)
    # Ben tries NEXT: refused (toast), then takes the 8 and passes.
    press(app, Button.NEXT)
    assert j.state.table.current == 1 and "Take the Draw 4 stack (8 cards)" in app.toast[0]
    press(app, Button.OK)
    choose(app, "Take 8 cards")
    assert j.state.draw_stack == 0
    press(app, Button.NEXT)
    # Cy: Two Train. Dee: Reverse, then NEXT -> Cy again (counter-clockwise).
    press(app, Button.OK)
    choose(app, "Two Train +2 → 2")
    assert (j.state.table.current, j.state.train) == (3, 2)
    press(app, Button.OK)
    choose(app, "Reverse")
    press(app, Button.NEXT)
    assert (j.state.table.current, j.state.table.direction) == (2, -1)
    press(app, Button.OK)
    choose(app, "Take the train (2)")
    assert j.state.train == 0 and j.state.table.current == 2
    # Skip to most: Ann and Dee tied; from Ben counter-clockwise Ann comes before Dee.
    press(app, Button.NEXT)  # Ben
    press(app, Button.OK)
    choose(app, "Skip to most…")
    most = app.top
    assert isinstance(most, MarkMost)
    choose(app, "□ Ann")
    choose(app, "□ Dee")
    choose(app, "▶ Skip to Ann")
    assert j.events[-1] == {"type": "skip_to", "player": 0} and j.state.table.current == 0
    # Swap hands: noted in the history, nothing else changes.
    press(app, Button.OK)
    choose(app, "Swap hands…")
    choose(app, "Ben")
    choose(app, "Dee")
    assert j.events[-1] == {"type": "swap_hands", "players": [1, 3]}
    # Color dump: sets the color.
    press(app, Button.OK)
    choose(app, "Color dump…")
    pick_color(app, "orange")
    assert j.state.color == "orange"
    # Round over: points entered seat by seat (UP +1, hold UP +10); then the next dealer.
    press(app, Button.OK)
    choose(app, "Round points…")
    assert isinstance(app.top, RoundPoints)
    press(app, Button.OK)  # Ann went out: 0
    for _ in range(2):
        press(app, Button.UP, hold=True)
    press(app, Button.UP)
    press(app, Button.OK)  # Ben 21
    press(app, Button.UP, hold=True)
    press(app, Button.OK)  # Cy 10
    press(app, Button.OK)  # Dee 0 -> recorded
    assert j.events[-1] == {"type": "round_points", "points": [0, 21, 10, 0]}
    assert j.state.scores == (0, 21, 10, 0) and j.state.table.direction == 1
    assert isinstance(app.top, DealerPicker)
    assert app.top.items[app.top.cursor].text(app.ctx()) == "Dee"  # the deal moves on
    press(app, Button.OK)
    assert j.state.table.current == 0 and isinstance(app.top, ChaosScreen)
    # Undo with hold BACK names the event.
    press(app, Button.BACK, hold=True)
    assert app.toast[0] == "Undone: Ann goes first"


def test_round_points_refused_without_a_zero_stays_on_the_entry(make_app):
    app = make_app()
    start_chaos(app, dealer="Ann")
    press(app, Button.OK)
    choose(app, "Round points…")
    for _ in range(4):
        press(app, Button.UP)
        press(app, Button.OK)
    assert isinstance(app.top, RoundPoints) and "at least one player has 0" in app.toast[0]
    assert app.journal.state.rounds == 0
    press(app, Button.DOWN)  # Dee: 0
    press(app, Button.OK)
    assert app.journal.state.scores == (1, 1, 1, 0)


def test_game_ends_at_500_with_the_end_screen(make_app):
    app = make_app()
    start_chaos(app, dealer="Ann")
    app.journal.append({"type": "round_points", "points": [0, 300, 200, 100]})
    press(app, Button.OK)
    choose(app, "Round points…")
    screen = app.top
    screen.points[:] = [250, 0, 400, 3]
    screen.seat = 3
    press(app, Button.OK)
    assert app.journal.state.over and app.journal.state.winners == (3,)
    assert isinstance(app.top, ChaosEnd)
    img = app.frame()
    assert lit(img, (0, 24, 128, 42)) > 0


# --- the one-second call, with an injected clock ---------------------------------------------

def test_countdown_is_pure_and_driven_by_the_given_clock():
    c = Countdown(started=10.0)
    assert c.deadline == 11.0
    assert c.fraction(10.0) == 1.0 and c.fraction(10.5) == 0.5 and c.fraction(12) == 0.0
    assert not c.expired(10.999) and c.expired(11.0)
    assert abs(c.next_tick(10.0) - 0.101) < 1e-9
    assert abs(c.next_tick(10.95) - 0.051) < 1e-9  # the last tick lands on the deadline


def test_call_in_time_is_safe(config):
    j = Journal(Header("chaos", ("A", "B", "C")))
    ctx = Context(config=config, journal=j, now=50.0)
    actions = ChaosCall.start(ctx)
    assert isinstance(actions[0], Push) and isinstance(actions[1], Beep)
    assert isinstance(actions[2], After) and actions[2].token == "call"
    call = actions[0].screen
    ctx.now = 50.4
    assert isinstance(call.on_tick("call", {}, ctx), After)  # still running: next tick
    ctx.now = 50.9
    assert call.on_press(Button.OK, ctx) is None
    assert call.outcome == "called" and abs(call.took - 0.9) < 1e-9
    ctx.now = 51.5
    assert call.on_tick("call", {}, ctx) is None  # a late tick changes nothing
    assert call.outcome == "called"
    assert isinstance(call.on_press(Button.OK, ctx), Pop)


def test_no_call_within_the_second_says_draw_3(config):
    j = Journal(Header("chaos", ("A", "B", "C")))
    ctx = Context(config=config, journal=j, now=5.0)
    call = ChaosCall.start(ctx)[0].screen
    ctx.now = 6.0
    result = call.on_tick("call", {}, ctx)
    assert call.outcome == "late" and isinstance(result, Beep)
    img = call.render(ctx)
    assert lit(img, (0, 0, 128, 44)) > 128 * 44 * 0.5  # inverted: DRAW 3 in black on white
    # A press that comes after the deadline but before the tick is late too.
    call2 = ChaosCall(5.0)
    ctx.now = 6.2
    call2.on_press(Button.ROLL, ctx)
    assert call2.outcome == "late"


def test_the_bar_shrinks_with_the_clock(config):
    j = Journal(Header("chaos", ("A", "B", "C")))
    call = ChaosCall(0.0)
    widths = []
    for now in (0.0, 0.3, 0.6, 0.9):
        img = call.render(Context(config=config, journal=j, now=now))
        widths.append(lit(img, (1, 53, 127, 62)))
    assert widths == sorted(widths, reverse=True) and widths[0] > widths[-1] > 0


def test_call_through_the_app_with_its_clock(make_app):
    app = make_app()
    start_chaos(app, dealer="Ann")
    press(app, Button.ROLL)
    call = app.top
    assert isinstance(call, ChaosCall) and call.countdown.started == app.clock()
    app.clock.advance(1.05)
    app.handle(Tick("call", {"screen": call}))
    assert call.outcome == "late"
    press(app, Button.OK)
    assert isinstance(app.top, ChaosScreen)
    press(app, Button.ROLL)
    call = app.top
    app.clock.advance(0.3)
    press(app, Button.OK)
    assert call.outcome == "called"
    press(app, Button.BACK)
    assert isinstance(app.top, ChaosScreen) and app.journal.events[1:] == []


# --- drawing ---------------------------------------------------------------------------------

def test_home_shows_the_color_word_and_the_stack(config):
    j = Journal(Header("chaos", ("Ann", "Ben", "Cy")))
    j.append({"type": "draw_four", "color": "blue"})
    img = ChaosScreen(mode_for("chaos")).render(Context(config=config, journal=j))
    assert lit(img, (90, 0, 128, 12)) > 30  # the color badge
    assert lit(img, (0, 35, 128, 50)) > 128 * 15 * 0.5  # TAKE 4 or DRAW 4, inverted


def test_every_gallery_screen_draws(config):
    mode = mode_for("chaos")
    assert isinstance(mode, ChaosMode)
    names = []
    for name, journal, stack in kinds()["chaos"].gallery(config):
        img = stack[-1].render(Context(config=config, journal=journal))
        assert lit(img, (0, 0, 128, 64)) > 50, name
        names.append(name)
    for needed in ("home", "home-draw-stack", "home-train", "call-running", "call-draw-3",
                   "round-points", "dealer", "skip-to-most", "end"):
        assert needed in names


def test_menu_labels_fit_the_panel_unclipped(config):
    from companion.ui import draw
    for name, journal, stack in kinds()["chaos"].gallery(config):
        if name.startswith("menu"):
            menu = stack[-1]
            ctx = Context(config=config, journal=journal)
            for item in menu.items:
                assert draw.text_size(item.text(ctx), 12)[0] <= draw.WIDTH - 12, item.text(ctx)


def test_chaos_call_from_the_menu(make_app):
    app = make_app()
    start_chaos(app, dealer="Ann")
    press(app, Button.OK, hold=True)
    choose(app, "Chaos! (1 s call)")
    assert isinstance(app.top, ChaosCall) and len(app.stack) == 2
