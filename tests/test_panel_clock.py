"""The turn clock on the panel (issue 28, items 1-3): the corner clock on every kind's home
screen and its states, the bytes a tick sends to the OLED, the game menu's Pause and the
Time screen. All on the fake clock of companion/testing.py."""

from __future__ import annotations

import re

import pytest

from companion import games
from companion.drivers import oled
from companion.drivers.display import Display
from companion.inputs import Button
from companion.session.clock import BREAK_AFTER
from companion.testing import FakeClock, choose, close, drain, make_app, press
from companion.ui import draw
from companion.ui.clock import TimeScreen, corner, corner_width

KINDS = sorted(games.kinds())
LIMIT = {"turn_limit": 60}
TIME = re.compile(r"^-?\d+:\d\d(:\d\d)?$")


@pytest.fixture
def made(tmp_path):
    apps = []

    def make(**kw):
        kw.setdefault("setup", False)
        kw.setdefault("clock", FakeClock())
        app = make_app(tmp_path / str(len(apps)), **kw)
        apps.append(app)
        return app

    yield make
    for app in apps:
        close(app)


def corner_texts(app) -> list[str]:
    """The texts drawn in the top right corner's first page (rows 0-7, the right 45
    columns) of the frame on top."""
    with draw.recording() as rec:
        app.frame()
    return [t for t, (x0, y0, x1, y1), _ink in rec.texts
            if y0 >= 0 and y1 <= 8 and x0 >= draw.WIDTH - 45]


def later(app, seconds: float) -> None:
    app.clock.advance(seconds)
    drain(app)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kinds_home_screen_shows_the_turns_time_in_its_corner(made, kind):
    app = made(kind=kind)
    assert app.top is app.stack[0]  # the game's home screen
    app.render()
    later(app, 3.4)
    assert corner_texts(app) == ["0:03"]
    later(app, 60)
    assert corner_texts(app) == ["1:03"]


@pytest.mark.parametrize("kind", KINDS)
def test_with_a_limit_the_corner_counts_down_inverts_at_10_s_and_says_time(made, kind):
    app = made(kind=kind, rules=LIMIT)
    app.render()
    later(app, 49.5)
    assert corner_texts(app) == ["0:11"]
    lit = app.frame().getpixel((draw.WIDTH - 1, 7))  # the slot's corner: the box's when inverted
    later(app, 1)
    assert corner_texts(app) == ["0:10"]
    assert app.frame().getpixel((draw.WIDTH - 1, 7)) != lit
    later(app, 10)
    assert corner_texts(app) == ["Time!"]
    assert app.frame().getpixel((draw.WIDTH - 1, 7)) != lit
    assert len(app.journal.events) == 0  # the clock never changes the game


def test_a_break_says_break_and_a_game_over_shows_no_clock(made):
    app = made(kind="table", rules=LIMIT)
    app.render()
    later(app, BREAK_AFTER + 5)
    assert corner_texts(app) == ["Break"]
    press(app, Button.NEXT)
    assert TIME.match(corner_texts(app)[0])
    press(app, Button.OK, hold=True)
    choose(app, "End game")
    press(app, Button.OK)
    assert app.journal.state.over and app.actions.at_end
    assert corner(app.ctx().clock) is None
    assert not any(TIME.match(t) for t in corner_texts(app))


@pytest.mark.parametrize("kind", KINDS)
def test_the_game_menu_pauses_the_clock_and_starts_it_again(made, kind):
    app = made(kind=kind)
    later(app, 5)
    press(app, Button.OK, hold=True)
    choose(app, "Pause clock")
    assert app.turn_clock.paused and app.top is app.stack[0]
    assert app.toast is not None and app.toast[0] == "Clock paused"
    later(app, 2.5)  # the toast is gone
    assert corner_texts(app) == ["Pause"]
    later(app, 100)
    assert app.turn_clock.reading().elapsed == 5
    press(app, Button.OK, hold=True)
    labels = [item.text(app.ctx()) for item in app.top.items]
    # The item says what it does (issue 34.11: not "Clock on" while the clock is off).
    assert "Start the clock" in labels and "Pause clock" not in labels
    choose(app, "Start the clock")
    assert not app.turn_clock.paused and app.toast[0] == "Clock started again"
    later(app, 2.5)
    assert corner_texts(app) == ["0:07"]


# --- the bytes of a tick -----------------------------------------------------------------------

def windows(chip: str, calls) -> list[tuple[int, int]]:
    """(first page, last page) of each window the driver opened, from its commands."""
    out = []
    for kind, payload in calls:
        if kind != "command":
            continue
        if chip == "ssd1306" and len(payload) == 6 and payload[0] == 0x21:
            out.append((payload[4], payload[5]))  # COLUMNADDR c0 c1 PAGEADDR p0 p1
        elif chip == "sh1106" and len(payload) == 3 and payload[0] & 0xF0 == 0xB0:
            out.append((payload[0] - 0xB0,) * 2)
    return out


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_clock_tick_sends_one_window_in_one_page(made, kind, chip):
    """Each second of the game screen, with and without a limit, and the tick that inverts
    the corner: one window, in the first page, no wider than the clock's slot."""
    for rules, start in ((None, 0.0), (LIMIT, 0.0), (LIMIT, 49.5)):
        serial = oled.RecordingSerial()
        app = made(kind=kind, rules=rules, display=Display(oled.device(chip, serial)))
        app.render()
        later(app, start)
        app.render()
        slot = corner_width(app.ctx())
        for _second in range(3):
            serial.clear()
            later(app, 1.0)  # the tick falls due and is handled, then the frame is drawn
            app.render()
            assert windows(chip, serial.calls) == [(0, 0)], (kind, rules, start)
            data = sum(len(p) for k, p in serial.calls if k == "data")
            assert 0 < data <= slot, (kind, rules, start, data)


# --- the Time screen ---------------------------------------------------------------------------

def shown_names(app) -> list[str]:
    """The players' names on the Time screen, top to bottom."""
    with draw.recording() as rec:
        app.frame()
    names = set(app.journal.header.players)
    rows = [(box[1], t) for t, box, _ink in rec.texts if t in names]
    return [t for _y, t in sorted(rows)]


def test_the_time_screen_lists_each_players_total_most_first(made):
    app = made(kind="table")
    press(app, Button.OK, hold=True)
    choose(app, "Time")
    assert isinstance(app.top, TimeScreen)
    with draw.recording() as rec:
        app.frame()
    assert "No turns timed yet" in [t for t, _b, _i in rec.texts]
    press(app, Button.BACK)
    press(app, Button.BACK)
    later(app, 30)
    press(app, Button.NEXT)  # Ann 30 s
    later(app, 75)
    press(app, Button.NEXT)  # Ben 75 s
    later(app, 10)  # Cy 10 s so far
    press(app, Button.OK, hold=True)
    choose(app, "Time")
    assert shown_names(app) == ["Ben", "Ann", "Cy", "Dee"]
    with draw.recording() as rec:
        app.frame()
    texts = [t for t, _b, _i in rec.texts]
    assert ["1:15", "1:15", "1:15"] == texts[texts.index("Ben") + 1:texts.index("Ben") + 4]
    later(app, 70)  # the current turn counts as it runs: Cy 80 s
    assert shown_names(app) == ["Cy", "Ben", "Ann", "Dee"]
    press(app, Button.BACK)
    assert not isinstance(app.top, TimeScreen)


def test_the_time_screen_scrolls_through_sixteen_players(made):
    players = tuple(f"P{i}" for i in range(16))
    app = made(kind="table", players=players)
    for seat in range(16):
        later(app, 10 + seat)  # P15 played longest
        press(app, Button.NEXT)
    press(app, Button.OK, hold=True)
    choose(app, "Time")
    assert shown_names(app) == ["P15", "P14", "P13", "P12"]
    press(app, Button.DOWN)
    assert shown_names(app) == ["P14", "P13", "P12", "P11"]
    for _ in range(20):
        press(app, Button.DOWN)
    assert shown_names(app) == ["P3", "P2", "P1", "P0"]
    press(app, Button.UP)
    assert shown_names(app) == ["P4", "P3", "P2", "P1"]


def test_a_starts_first_frame_keeps_the_corner_blank_and_the_next_shows_the_time(made):
    """The first frame is the one the last run kept (companion/app/firstframe.py): drawn
    before the clock is read, with its corner's room kept; the time shows from the next."""
    app = made(kind="dice-factor")
    first = app.frame()
    assert corner_texts(app) == []
    app.render()  # the first frame shown
    assert corner_texts(app) == ["0:00"]
    later(app, 1)
    after = app.frame()
    # Only the corner's slot differs: nothing beside it moved when the time came.
    slot = corner_width(app.ctx())
    diff = [(x, y) for x in range(draw.WIDTH) for y in range(draw.HEIGHT)
            if first.getpixel((x, y)) != after.getpixel((x, y))]
    assert diff and all(y < 8 and x >= draw.WIDTH - slot for x, y in diff)


def test_a_house_game_gets_the_corner_clock_and_the_menus_items(made, monkeypatch):
    """The worked example of docs/adding-a-game.md (examples/coin-toss), as if installed: its
    main screen draws the shared top row, so it has the clock; its menu is the base one."""
    from pathlib import Path
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "examples" / "coin-toss"))
    import coin_toss
    monkeypatch.setattr(games, "_KINDS", {**games.kinds(), "coin-toss": coin_toss.KIND})
    monkeypatch.setattr(games, "_ONE", {})
    monkeypatch.setattr(games, "_MODES", dict(games._MODES))
    serial = oled.RecordingSerial()
    app = made(kind="coin-toss", rules=LIMIT, display=Display(oled.device("ssd1306", serial)))
    app.render()
    later(app, 5)
    app.render()
    assert corner_texts(app) == ["0:55"]
    serial.clear()
    later(app, 1)
    app.render()
    assert windows("ssd1306", serial.calls) == [(0, 0)]
    press(app, Button.OK, hold=True)
    choose(app, "Pause clock")
    later(app, 3)
    assert corner_texts(app) == ["Pause"]


class Frames:
    """A display that keeps every frame shown; `two` is set once two have been."""

    def __init__(self) -> None:
        import threading
        self.shown: list = []
        self.two = threading.Event()

    def show(self, image) -> bool:
        self.shown.append(image.copy())
        if len(self.shown) >= 2:
            self.two.set()
        return True


@pytest.mark.parametrize("state", ["paused", "running"])
def test_a_resumed_game_shows_its_clock_right_after_the_first_frame(tmp_path, state):
    """The first frame leaves the corner blank; the app draws the next at once, even with no
    tick to come (a paused clock)."""
    import threading

    from companion.inputs import Quit
    from companion.ui import actions as A
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    later(app, 5)
    if state == "paused":
        assert app.perform(A.PauseClock(True))
    close(app)
    frames = Frames()
    app = make_app(tmp_path, clock=clock, display=frames)
    runner = threading.Thread(target=app.run, daemon=True)
    try:
        runner.start()
        assert frames.two.wait(30), "the app drew one frame only"
        app.post(Quit())
        runner.join(30)
        assert not runner.is_alive()
        first, second = frames.shown[:2]
        assert first.crop((96, 0, 128, 8)).getbbox() is None  # the corner, blank
        with draw.recording() as rec:
            app.frame()
        assert [t for t, box, _i in rec.texts if box[3] <= 8 and box[0] >= 90] == \
            (["Pause"] if state == "paused" else ["0:05"])
        assert second.tobytes() == app.frame().tobytes()
    finally:
        close(app)


@pytest.mark.parametrize("kind", KINDS)
def test_pause_is_near_the_top_of_every_game_menu(made, kind):
    """Issue 34.11: "Pause clock" was item 17 of 24 in the Chaos menu. In every kind's menu
    it is one of the first two (after the kind's main action), never a scroll away."""
    app = made(kind=kind)
    press(app, Button.OK, hold=True)
    labels = [item.text(app.ctx()) for item in app.top.items]
    assert "Pause clock" in labels[:2], labels
