"""Drop Rainbow screens: a game played through button presses on the app, the strips that
show colors as letters, and every gallery screen drawn (docs/rules.md, "Drop Rainbow")."""

from __future__ import annotations

from companion.games import kinds, mode_for
from companion.games.drop_rainbow.panel import CollectedScreen, DropEnd, DropScreen, draw_picker
from companion.inputs import Button
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.testing import choose, press
from companion.ui.color_picker import ColorPicker, abbreviations
from companion.ui.screen import Context


def say(app, color: str) -> None:
    """OK on the home screen, then the color by name."""
    press(app, Button.OK)
    picker = app.top
    assert isinstance(picker, ColorPicker)
    while picker.color != color:
        press(app, Button.UP)
    press(app, Button.OK)


def lit(img, box) -> int:
    return img.crop(box).convert("L").histogram()[255]


def test_abbreviations_tell_colors_apart():
    assert "".join(abbreviations(["red", "orange", "yellow", "green", "blue", "indigo",
                                  "violet"]).values()) == "ROYGBIV"
    assert abbreviations(["blue", "black", "brown", "red"]) == {
        "blue": "BLU", "black": "BLA", "brown": "BR", "red": "R"}
    assert abbreviations(["blue", "bluegreen"]) == {"blue": "BLUE", "bluegreen": "BLUEG"}


def test_drop_rainbow_played_with_buttons_to_the_rainbow(make_app):
    app = make_app()
    press(app, Button.OK)  # New game
    choose(app, "Drop Rainbow")
    for _ in range(2):
        press(app, Button.DOWN)  # 2 players
    press(app, Button.OK)
    press(app, Button.OK)  # house rules read
    press(app, Button.OK)  # first player: Ann
    j = app.journal
    assert j.header.game == "drop-rainbow" and len(j.header.players) == 2
    assert isinstance(app.top, DropScreen)
    press(app, Button.NEXT)  # banking before the first card is turned up: a hint only
    assert j.events == [{"type": "first", "player": 0}] and "first card" in app.toast[0]
    say(app, "red")
    assert j.state.top == "red"
    say(app, "blue")  # success
    say(app, "green")  # success
    assert j.state.side == ("red", "blue")
    press(app, Button.NEXT)  # bank
    assert j.state.score[0] == ("red", "blue") and j.state.table.current == 1
    say(app, "yellow")
    say(app, "yellow")  # failure: the turn ends by itself
    assert j.state.table.current == 0 and j.state.discarded == 2
    press(app, Button.NEXT)  # a bank with nothing at the side: a pass
    assert j.state.score == (("red", "blue"), ()) and j.state.table.current == 1
    press(app, Button.DOWN)
    assert isinstance(app.top, CollectedScreen)
    press(app, Button.BACK)
    say(app, "indigo")
    say(app, "rainbow")
    assert j.state.over and j.state.winners == (0, 1) and isinstance(app.top, DropEnd)
    press(app, Button.BACK, hold=True)  # undo reopens the game
    assert not j.state.over and isinstance(app.top, DropScreen)
    assert app.toast[0] == "Undone: Ben drew the RAINBOW"


def test_the_draw_picker_warns_before_a_failure(config):
    j = Journal(Header("drop-rainbow", ("Ann", "Ben")))
    for e in ({"type": "reveal", "color": "red"}, {"type": "draw", "color": "blue"}):
        j.append(e)
    picker = draw_picker(Context(config=config, journal=j))
    assert picker.note("red") == "!FAIL: 2 lost" and picker.note("blue") == "!FAIL: 2 lost"
    assert picker.note("green") == "success"
    assert picker.note("rainbow").startswith("!ENDS")


def test_home_strips_mark_failing_and_collected_colors(config):
    j = Journal(Header("drop-rainbow", ("Ann", "Ben")))
    for e in ({"type": "reveal", "color": "red"}, {"type": "draw", "color": "violet"}):
        j.append(e)
    img = DropScreen(mode_for("drop-rainbow")).render(Context(config=config, journal=j))
    # FAIL strip: slots 28..127, 7 wide; red (first) and violet (last) inverted, green not.
    slot = (128 - 28) / 7
    def fill(row: tuple[int, int], i: int) -> float:
        a, b = round(28 + i * slot) + 2, round(28 + (i + 1) * slot) - 4
        return lit(img, (a, row[0], b, row[1])) / ((b - a) * (row[1] - row[0]))
    fail_row, have_row = (35, 46), (52, 62)
    assert fill(fail_row, 0) > 0.5 and fill(fail_row, 6) > 0.5 and fill(fail_row, 3) < 0.5
    assert all(fill(have_row, i) < 0.5 for i in range(7))


def test_every_gallery_screen_draws(config):
    names = []
    for name, journal, stack in kinds()["drop-rainbow"].gallery(config):
        img = stack[-1].render(Context(config=config, journal=journal))
        assert lit(img, (0, 0, 128, 64)) > 50, name
        names.append(name)
    for needed in ("reveal", "home", "draw-fail", "draw-rainbow", "colors", "end-seven",
                   "end-rainbow"):
        assert needed in names


def test_menu_draw_and_bank(make_app):
    app = make_app()
    press(app, Button.OK)
    choose(app, "Drop Rainbow")
    press(app, Button.OK)  # 4 players
    press(app, Button.OK)  # house rules
    press(app, Button.OK)  # Ann first
    j = app.journal
    press(app, Button.OK, hold=True)
    choose(app, "Turn up first card…")
    press(app, Button.DOWN)
    press(app, Button.OK)
    assert j.state.top == "orange"
    press(app, Button.OK, hold=True)
    choose(app, "Drew a card…")
    press(app, Button.OK)  # red
    press(app, Button.OK, hold=True)
    choose(app, "Bank 1 side card")
    assert j.state.score[0] == ("orange",) and j.state.table.current == 1
    assert isinstance(app.top, DropScreen)
