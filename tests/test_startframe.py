"""The start frame (companion/session/startframe.py): the frame the last run kept for the next
start is exactly the app's own first frame at that start, and is used only while the journal,
the config and the code are as they were when it was kept."""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import games
from companion.app import firstframe
from companion.config import Config, check
from companion.gallery.sample import play, sampled
from companion.inputs import Button, StatsFilled
from companion.rules.game import Header
from companion.session import startframe
from companion.session.store import Store
from companion.testing import FakeClock, choose, close, drain, make_app, press

ROOT = Path(__file__).resolve().parent.parent
KINDS = sampled()


def app_config() -> dict:
    """The config data of an app made by make_app (its dice animation is 0)."""
    data = Config(check({})).data
    data["dice"]["animation"] = 0.0
    return data


def journal_with(tmp_path: Path, kind: str, *, events: int, finish: bool, seed: int = 7) -> Path:
    rng = random.Random(seed)
    g = games.game(kind)
    players = ("Ann", "Ben", "Cy", "Dee", "Eve")[:max(g.min_players, min(4, g.max_players))]
    path = tmp_path / "journal.db"
    with Store(path) as store:
        play(store.new_game(Header(kind, players, 0, {})), rng, events=events, finish=finish)
    return path


def app_on(path: Path, **kw):
    return make_app(path.parent, journal=path.name, **kw)


def keep(path: Path, **kw) -> bytes:
    """Start an app on the journal, let it keep its start frame, close it: the bytes kept."""
    app = app_on(path, **kw)
    app.keeper = firstframe.Keeper(startframe.path_for(path))
    try:
        firstframe.keep(app)
    finally:
        close(app)
    raw = startframe.read(startframe.path_for(path), path, app_config())
    assert raw is not None, "nothing kept, or not readable at once"
    return raw


def first_frame(path: Path) -> bytes:
    """What a start on the journal draws first (App.__init__ then its first render)."""
    app = app_on(path)
    try:
        return app.frame().tobytes()
    finally:
        close(app)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("finish", [False, True], ids=["in-play", "over"])
def test_the_kept_frame_is_the_next_starts_first_frame(tmp_path, kind, finish):
    path = journal_with(tmp_path, kind, events=25, finish=finish)
    assert keep(path) == first_frame(path)


@pytest.mark.parametrize("kind", KINDS)
def test_the_kept_frame_is_a_fresh_starts_after_play_on_other_screens(tmp_path, kind):
    """An app that rolled dice (its dice note), opened a menu and a toast keeps the frame a
    fresh start draws, not its own screen."""
    path = journal_with(tmp_path, kind, events=10, finish=False)
    app = app_on(path)
    app.keeper = firstframe.Keeper(startframe.path_for(path))
    try:
        press(app, Button.ROLL, Button.OK, Button.OK)
        press(app, Button.OK, hold=True)  # the game's menu on top
        app.show_toast("Hello", 30)
        firstframe.keep(app)
    finally:
        close(app)
    kept = startframe.read(startframe.path_for(path), path, app_config())
    assert kept == first_frame(path)


def test_a_change_to_the_game_makes_the_kept_frame_stale_until_kept_again(tmp_path):
    path = journal_with(tmp_path, "table", events=5, finish=False)
    frame_path = startframe.path_for(path)
    cfg = app_config()
    before = keep(path)
    app = app_on(path)
    try:
        press(app, Button.NEXT)  # a commit: the open game's rows changed
        assert startframe.read(frame_path, path, cfg) is None
        app.keeper = firstframe.Keeper(frame_path)
        firstframe.keep(app)
        after = startframe.read(frame_path, path, cfg)
        assert after is not None and after != before  # the turn moved on
        press(app, Button.BACK, hold=True)  # undo: the rows' statuses changed
        assert startframe.read(frame_path, path, cfg) is None
        firstframe.keep(app)
        assert startframe.read(frame_path, path, cfg) == before
    finally:
        close(app)


def test_the_app_keeps_it_a_second_after_the_last_change_and_at_exit(tmp_path):
    path = journal_with(tmp_path, "table", events=5, finish=False)
    frame_path = startframe.path_for(path)
    clock = FakeClock()
    app = app_on(path, clock=clock)
    app.keeper = firstframe.Keeper(frame_path)
    try:
        firstframe.due(app)  # as App.run does once its queue is empty
        clock.advance(0.9)
        drain(app)
        assert not frame_path.exists()
        clock.advance(0.2)
        drain(app)
        assert frame_path.exists()
        kept = frame_path.read_bytes()
        firstframe.due(app)  # nothing changed since: nothing scheduled
        assert clock.pending == []
        press(app, Button.NEXT)
        firstframe.due(app)
        assert clock.pending and frame_path.read_bytes() == kept
    finally:
        close(app)  # at exit, without waiting for the second
    assert frame_path.read_bytes() != kept
    assert startframe.read(frame_path, path, app_config()) == first_frame(path)
    assert not frame_path.with_name(frame_path.name + ".new").exists()


def test_no_open_game_keeps_no_frame(tmp_path):
    path = journal_with(tmp_path, "table", events=5, finish=False)
    keep(path)
    app = app_on(path)
    app.keeper = firstframe.Keeper(startframe.path_for(path))
    try:
        press(app, Button.OK, hold=True)
        choose(app, "Leave to start")
        firstframe.keep(app)  # left, still open: the next start resumes it
        assert startframe.path_for(path).exists()
        other_app = make_app(tmp_path, journal="other.db")  # a journal with no game at all
        other_app.keeper = firstframe.Keeper(startframe.path_for(tmp_path / "other.db"))
        startframe.path_for(tmp_path / "other.db").write_bytes(b"old")
        try:
            firstframe.keep(other_app)
        finally:
            close(other_app)
        assert not startframe.path_for(tmp_path / "other.db").exists()
    finally:
        close(app)


def test_another_config_or_journal_is_not_shown_the_frame(tmp_path):
    path = journal_with(tmp_path, "table", events=5, finish=False)
    keep(path)
    frame_path = startframe.path_for(path)
    other_names = {**app_config(), "players": {"names": ["Zed"]}}
    assert startframe.read(frame_path, path, other_names) is None
    assert startframe.read(frame_path, tmp_path / "missing.db", app_config()) is None
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    (elsewhere / "journal.db").write_bytes(b"")  # not a database: no key
    assert startframe.read(frame_path, elsewhere / "journal.db", app_config()) is None


@pytest.mark.parametrize("damage", ["empty", "garbage", "short", "long", "format", "dirs",
                                    "not json", "no newline"])
def test_a_damaged_file_is_not_shown(tmp_path, damage):
    """After a power cut the file may be empty or cut; a file that is not exactly ours is
    never shown (and never raises)."""
    path = journal_with(tmp_path, "table", events=5, finish=False)
    raw = keep(path)
    frame_path = startframe.path_for(path)
    line, _, _ = frame_path.read_bytes().partition(b"\n")
    k = json.loads(line)
    bad = {
        "empty": b"",
        "garbage": os.urandom(2000),
        "short": line + b"\n" + raw[:-1],
        "long": line + b"\n" + raw + b"\0",
        "format": json.dumps({**k, "format": 99}).encode() + b"\n" + raw,
        "dirs": json.dumps({**k, "dirs": ["/elsewhere"]}).encode() + b"\n" + raw,
        "not json": b"{" + line + b"\n" + raw,
        "no newline": line + raw,
    }[damage]
    frame_path.write_bytes(bad)
    assert startframe.read(frame_path, path, app_config()) is None
    assert startframe.kept_key(frame_path) != k  # so the app keeps it again


def test_the_code_stamp_follows_the_modules(tmp_path):
    pkg = tmp_path / "house"
    pkg.mkdir()
    (pkg / "panel.py").write_text("A = 1\n")
    (pkg / "__pycache__").mkdir()
    first = startframe.code_stamp([str(pkg)])
    (pkg / "__pycache__" / "panel.cpython-311.pyc").write_bytes(b"x")
    assert startframe.code_stamp([str(pkg)]) == first  # bytecode is not the code
    st = (pkg / "panel.py").stat()
    os.utime(pkg / "panel.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert startframe.code_stamp([str(pkg)]) != first
    (pkg / "rules.py").write_text("")
    assert startframe.code_stamp([str(pkg)]) is not None
    assert startframe.code_stamp([str(tmp_path / "gone")]) is None  # an uninstalled game


def test_a_write_that_fails_is_logged_not_raised(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="companion.session.startframe")
    frame_path = tmp_path / "no-such-dir" / "journal.db.frame"
    startframe.write(frame_path, {"format": 1}, bytes(startframe.RAW_BYTES))
    assert "start frame not kept" in caplog.text
    with pytest.raises(ValueError):
        startframe.write(tmp_path / "f", {}, b"too short")


# `companion run` itself: the second start shows the kept frame first, and the app's own first
# frame after it is the same picture (the display sends nothing for it).
CHILD = """
import hashlib, os, sys
from companion.drivers import display
shown = display.Display.show
def show(self, image):
    sent = shown(self, image)
    when = b"app" if "companion.app.core" in sys.modules else b"early"
    os.write(1, b"SHOW %s %d %s\\n" % (hashlib.sha256(image.tobytes()).hexdigest()[:16].encode(),
                                      sent, when))
    return sent
display.Display.show = show
from companion import cli
sys.exit(cli.main(sys.argv[1:]))
"""


def run_twice_shows(tmp_path: Path, journal: Path) -> list[list[str]]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", CHILD, "run", "--no-web", "--display",
                              "dummy", "--input", "stdin", "--journal", str(journal)],
                             input="", capture_output=True, text=True, cwd=ROOT, env=env,
                             timeout=60)
        assert out.returncode == 0, out.stderr
        runs.append([line for line in out.stdout.splitlines() if line.startswith("SHOW")])
    return runs


def test_companion_run_shows_the_kept_frame_first_then_its_own_identical_frame(tmp_path):
    path = journal_with(tmp_path, "penny-badger", events=12, finish=False)
    first, second = run_twice_shows(tmp_path, path)
    assert first[0].endswith(" 1 app")  # no kept frame yet: the app's own frame is the first
    assert startframe.path_for(path).exists()  # kept at exit
    picture = first[0].split()[1]
    # The kept frame, sent before the app was imported; then the app's own, the same picture,
    # is not sent again. (Frames after it show the turn clock in its corner, blank in the
    # first: companion/ui/clock.py, STARTING.)
    assert second[0] == f"SHOW {picture} 1 early"
    assert second[1] == f"SHOW {picture} 0 app"


def run_on_mock_pins(tmp_path: Path, monkeypatch, journal: Path):
    """`companion run` in this process on gpiozero's mock pins (the journal named by its
    config, no roller), with App.run returning once its queue is empty. Returns `start`, which
    runs it once (with `press`: NEXT pressed after the kept frame shows, before the app is
    made), and the list of the items the app handled. The buttons run on a fake clock: the
    press lasts 60 ms however long the machine takes to make it."""
    import threading

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from companion import cli
    from companion.app import core
    from companion.cli import run as runmod
    from companion.drivers import buttons
    from companion.testing import FakeClock

    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\npath = "{journal}"\n[roller]\nport = "none"\n')
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    handled: list[object] = []

    def run_until_idle(self) -> None:
        self.render()
        while not self.queue.empty():
            item = self.queue.get()
            # The statistics' background thread posts what it folded whenever it is done
            # (StatsCache: the ratings, after the first frame): not one of the presses.
            if not isinstance(item, StatsFilled):
                handled.append(item)
            self.handle(item)
        self.render()

    monkeypatch.setattr(core.App, "run", run_until_idle)
    clock = FakeClock(100.0)
    posted = threading.Event()  # the panel has posted a gesture

    class Panel(buttons.ButtonPanel):
        def __init__(self, *args, post, **kwargs) -> None:
            def posting(item: object) -> None:
                post(item)
                posted.set()
            super().__init__(*args, post=posting, clock=clock, **kwargs)

    monkeypatch.setattr(buttons, "ButtonPanel", Panel)
    real_open = runmod.open_store

    def press_then_open(*args, **kwargs):  # the kept frame is up; the app is not made yet
        pin = factory.pin(17)  # NEXT
        pin.drive_low()
        clock.advance(0.06)
        pin.drive_high()
        assert posted.wait(30), "the press was never posted"
        return real_open(*args, **kwargs)

    def start(*, press: bool = False) -> None:
        with monkeypatch.context() as m:
            if press:
                m.setattr(runmod, "open_store", press_then_open)
            assert cli.main(["run", "--no-web", "--display", "dummy", "--input", "buttons",
                             "--config", str(config)]) == 0

    return start, handled


def test_a_press_while_the_kept_frame_shows_is_handled_once_the_app_is_up(tmp_path, monkeypatch):
    """With the kept frame on the panel, the buttons are live before the app is: a press then
    waits in the app's queue and is handled when the app runs, never lost (gpiozero's mock
    pins; App.run returns once its queue is empty)."""
    path = journal_with(tmp_path, "table", events=5, finish=False)
    start, handled = run_on_mock_pins(tmp_path, monkeypatch, path)
    start()  # no kept frame yet: it is kept at exit
    assert startframe.path_for(path).exists()
    start(press=True)
    assert [type(i).__name__ for i in handled] == ["ButtonInput"]
    with Store(path) as store:
        journal = store.resume()
        assert journal is not None and len(journal.events) == 6
        assert journal.events[-1]["type"] == "next"


def test_the_stamp_in_a_key_is_the_code_the_process_started_with(tmp_path):
    """A package upgraded under a running companion must not stamp the frames its old code
    draws with the new code's stamp: code_stamp_once answers the first stamp for good."""
    pkg = tmp_path / "house"
    pkg.mkdir()
    (pkg / "panel.py").write_text("A = 1\n")
    first = startframe.code_stamp_once([str(pkg)])
    (pkg / "panel.py").write_text("A = 22\n")
    assert startframe.code_stamp_once([str(pkg)]) == first
    assert startframe.code_stamp([str(pkg)]) != first


def test_a_house_games_own_package_is_in_the_key(tmp_path, monkeypatch):
    """A house game's screens live outside the companion: its package's folder is stamped
    too, and a start after it changed or was uninstalled draws its own first frame."""
    from companion.games import GameKind
    from companion.rules.game import Game, State

    pkg = tmp_path / "house_game_x"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("def panel():\n    from companion.ui.modes import Mode\n"
                                     "    return Mode()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import house_game_x  # type: ignore[import-not-found]

    monkeypatch.setattr(games, "_KINDS", {**games.kinds(), "house-x": GameKind(
        rules=Game[State](), panel=house_game_x.panel)})
    monkeypatch.setitem(games._SOURCES, "house-x", "house_game_x")  # as its entry point says
    dirs = firstframe.code_dirs("house-x")
    assert dirs == [startframe.companion_dir(), str(pkg.resolve())]
    assert firstframe.code_dirs("table") == [startframe.companion_dir()]

    path = journal_with(tmp_path, "table", events=3, finish=False)
    frame_path = startframe.path_for(path)
    with Store(path) as store:
        k = startframe.key(store.db, app_config(), dirs)
    assert k is not None
    startframe.write(frame_path, k, bytes(startframe.RAW_BYTES))
    assert startframe.read(frame_path, path, app_config()) == bytes(startframe.RAW_BYTES)
    monkeypatch.setattr(startframe, "_STAMPS", {})  # the next start: a new process
    (pkg / "__init__.py").write_text("def panel():\n    raise ImportError('gone')\n")
    os.utime(pkg / "__init__.py", ns=(1, 1))
    assert startframe.read(frame_path, path, app_config()) is None
    monkeypatch.setattr(startframe, "_STAMPS", {})
    shutil.rmtree(pkg)  # uninstalled: with the __pycache__ its import wrote, if it did
    assert startframe.read(frame_path, path, app_config()) is None


def test_keeping_waits_for_a_second_with_no_change(tmp_path):
    """Quick play does not keep a frame between two presses: the keep waits until nothing
    has changed for KEEP_AFTER."""
    path = journal_with(tmp_path, "table", events=5, finish=False)
    frame_path = startframe.path_for(path)
    clock = FakeClock()
    app = app_on(path, clock=clock)
    app.keeper = firstframe.Keeper(frame_path)
    try:
        for _ in range(5):  # a press every 0.9 s: never a second's pause
            press(app, Button.NEXT)
            firstframe.due(app)
            clock.advance(0.9)
            drain(app)
            assert not frame_path.exists()
        clock.advance(0.2)
        drain(app)
        assert startframe.read(frame_path, path, app_config()) == firstframe.image(
            app, app.journal).tobytes()
    finally:
        close(app)


def test_a_start_that_raised_a_notice_keeps_no_frame(tmp_path):
    """A notice at start (here: a game whose header was changed by hand to a kind that is not
    installed: not resumed, its checksum no longer matches) is the next start's first frame
    too: the game's frame is not kept."""
    path = tmp_path / "journal.db"
    with Store(path) as store:
        store.new_game(Header("table", ("Ann", "Ben"), 0, {}))
        store.db.execute("UPDATE games SET header=replace(header, '\"table\"', '\"gone-kind\"')")
        store.db.commit()
        play(store.new_game(Header("table", ("Ann", "Ben"), 0, {}), park=True),
             random.Random(1), events=3, finish=False)
    startframe.path_for(path).write_bytes(b"an old frame")
    app = app_on(path)
    app.keeper = firstframe.Keeper(startframe.path_for(path))
    try:
        assert "header: checksum does not match" in app.store.notice
        firstframe.keep(app)
    finally:
        close(app)
    assert not startframe.path_for(path).exists()


@pytest.mark.parametrize("what", ["nested", "fifo", "directory"])
def test_no_file_there_can_stop_or_stall_a_start(tmp_path, what):
    path = journal_with(tmp_path, "table", events=3, finish=False)
    frame_path = startframe.path_for(path)
    if what == "nested":
        # an object whose value nests too deep for json: RecursionError
        frame_path.write_bytes(b'{"a":' + b"[" * 3000 + b"\n" + bytes(startframe.RAW_BYTES))
    elif what == "fifo":
        os.mkfifo(frame_path)  # nobody writes: a blocking open would wait for ever
    else:
        frame_path.mkdir()
    assert startframe.read(frame_path, path, app_config()) is None
    assert startframe.kept_key(frame_path) is None


def test_a_write_that_fails_leaves_no_new_file(tmp_path):
    frame_path = tmp_path / "journal.db.frame"
    frame_path.mkdir()  # os.replace cannot put a file there
    startframe.write(frame_path, {"format": 1}, bytes(startframe.RAW_BYTES))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db.frame"]


def test_presses_on_a_kept_frame_the_app_does_not_confirm_are_dropped(tmp_path, monkeypatch):
    """The kept frame shows the game, but the journal's checks then raise a notice (here: a
    parked game edited by hand since, found broken): the app's first frame is the notice,
    and a press made on the game's picture is not handled on it. Nothing else is dropped."""
    path = tmp_path / "journal.db"
    with Store(path) as store:
        play(store.new_game(Header("table", ("Ann", "Ben"), 0, {})), random.Random(1),
             events=3, finish=False)
        play(store.new_game(Header("table", ("Ann", "Ben", "Cy"), 0, {}), park=True),
             random.Random(2), events=4, finish=False)
    start, handled = run_on_mock_pins(tmp_path, monkeypatch, path)
    start()
    assert startframe.path_for(path).exists()
    with Store(path) as store:  # game 1, parked: one of its rows edited by hand
        store.db.execute("UPDATE events SET body=body || ' ' WHERE game_id=1 AND seq=0")
        store.db.commit()
    start(press=True)
    assert handled == []
    with Store(path) as store:
        journal = store.resume()
        assert journal is not None and len(journal.events) == 4  # no 'next' recorded
    assert not startframe.path_for(path).exists()  # a start with a notice keeps none


def test_drop_presses_keeps_everything_else_in_order():
    import queue

    from companion.cli.run import _drop_presses
    from companion.inputs import ButtonInput, Gesture, Quit, Tick

    q: queue.SimpleQueue = queue.SimpleQueue()
    for item in (ButtonInput(Button.NEXT, Gesture.PRESS), Tick("x"),
                 ButtonInput(Button.OK, Gesture.HOLD), Quit()):
        q.put(item)
    _drop_presses(q)
    assert [q.get_nowait() for _ in range(2)] == [Tick("x"), Quit()] and q.empty()
