"""The App's other parts built alone, without an App: the calls (given a journal getter, a
speaker and a callback), and the turn clock, the seat lights, the kept first frame, the ticks
and the presses, each given a small host of its own that has only what its module's Protocol
declares (companion/app/calls.py, clock.py, lights.py, firstframe.py, ticks.py, presses.py)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from companion.app import firstframe, presses, ticks
from companion.app.calls import Caller
from companion.app.clock import TurnClock
from companion.app.lights import Lights
from companion.config import Config, check
from companion.inputs import Button, ButtonInput, Gesture, Tick
from companion.rules.game import Header
from companion.session.store import Store
from companion.testing import FakeClock, RecordingRing, RecordingSpeaker, RecordingTimers
from companion.ui import actions as A
from companion.ui.screen import Context, Screen, TextScreen

PLAYERS = ("Ann", "Ben", "Cy")


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "journal.db", clock=FakeClock())
    try:
        yield s
    finally:
        s.close()


def test_the_caller_alone(store):
    journal = store.new_game(Header("table", PLAYERS))
    speaker, due = RecordingSpeaker(), []
    caller = Caller(lambda: journal, speaker, lambda: due.append(True))
    caller.started()
    assert speaker.texts and due == [True] and caller.last == speaker.said[-1].n
    caller.time_up()
    assert len(due) == 2 and caller.snapshot()[-1] == speaker.said[-1].to_json()
    quiet = Caller(lambda: None)  # no game, no speaker: nothing said, nothing due
    quiet.started()
    assert quiet.snapshot() == []


class ClockHost:
    """What the turn clock uses of the app (clock.ClockHost)."""

    def __init__(self, store: Store, journal: Any) -> None:
        self.store = store
        self.journal = journal
        self.commits = 0
        self.stack: list[Any] = []
        self.snapshot_due = False
        self.timers = RecordingTimers()
        self.buzzer = None
        self.calls: list[str] = []
        self.caller = self
        self.unsaved: list[Exception] = []

    def started(self) -> None:
        self.calls.append("started")

    def time_up(self) -> None:
        self.calls.append("time_up")

    def not_saved(self, e: Exception) -> None:
        self.unsaved.append(e)


def test_the_turn_clock_alone(store):
    host = ClockHost(store, store.new_game(Header("table", PLAYERS)))
    clock = TurnClock(host)
    reading = clock.reading()
    assert reading is not None and reading.seat == 0 and not reading.paused
    assert clock.pause(True) and clock.paused and host.snapshot_due
    assert clock.reading().paused
    host.journal = None
    assert clock.reading() is None


class LightsHost:
    """What the seat lights use of the app (lights.LightsHost)."""

    strict = True

    def __init__(self, store: Store, journal: Any) -> None:
        self.config = Config(check({}))
        self.store = store
        self.journal = journal
        self.timers = RecordingTimers()
        self.snapshot_due = False
        self.turn_clock = self
        self.toasts: list[str] = []

    def reading(self) -> None:
        return None

    def show_toast(self, text: str, seconds: float = 2.0) -> None:
        self.toasts.append(text)

    def flush_snapshot(self) -> None:
        pass


def test_the_seat_lights_alone(store):
    ring = RecordingRing(16)
    host = LightsHost(store, store.new_game(Header("table", PLAYERS)))
    lights = Lights(host, ring, minute=lambda: 12 * 60)
    lights.sync()
    assert ring.frames and any(rgb != (0, 0, 0) for rgb in ring.last)
    lights.close()
    assert ring.closed and ring.last == ((0, 0, 0),) * 16


class FrameHost:
    """What keeping the first frame uses of the app (firstframe.FrameHost)."""

    strict = True

    def __init__(self, store: Store, path: Any) -> None:
        self.keeper = firstframe.Keeper(path)
        self.journal = None
        self.left = None
        self.roster = None
        self.commits = 0
        self.store = store
        self.config = Config(check({}))
        self.clock = FakeClock()
        self.timers = RecordingTimers()


def test_the_first_frame_keeper_alone(store, tmp_path):
    host = FrameHost(store, tmp_path / "start.frame")
    firstframe.due(host)
    assert host.timers.ticks == [(firstframe.KEEP_AFTER, Tick("startframe"))]
    firstframe.due(host)  # already scheduled: not twice
    assert len(host.timers.ticks) == 1
    host.clock.advance(firstframe.KEEP_AFTER)
    firstframe.on_tick(host)  # nothing open: nothing kept, and nothing scheduled again
    assert host.keeper.kept == firstframe.state(host) and not host.keeper.pending


class Host:
    """What a tick and a press use of the app (ticks.TickHost, presses.PressHost)."""

    def __init__(self) -> None:
        self.stack: list[Screen] = [TextScreen("Home", [])]
        self.journal: Any = None
        self.toast: tuple[str, float] | None = None
        self.clock = FakeClock()
        self.performed: list[Any] = []
        self.tops: list[Screen] = []  # the screen on top when each action was carried out
        self.rolls = self
        self.rolling = False
        self.tumbled: list[Tick] = []

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def tumbling(self) -> bool:
        return self.rolling

    def on_tumble(self, tick: Tick) -> None:
        self.tumbled.append(tick)

    def ctx(self) -> Context:
        return Context(config=Config(check({})))

    def perform(self, action: Any) -> bool:
        self.performed.append(action)
        self.tops.append(self.top)
        return True


class Timed(TextScreen):
    def on_tick(self, token: str, data: dict, ctx: Context) -> Any:
        return A.Toast(token)


def test_ticks_alone():
    host = Host()
    host.toast = ("Hello", host.clock() + 2.0)
    ticks.on_tick(host, Tick("toast"))
    assert host.toast is not None  # not yet
    host.clock.advance(2.0)
    ticks.on_tick(host, Tick("toast"))
    assert host.toast is None
    ticks.on_tick(host, Tick("tumble", {"seq": 3}))
    assert host.tumbled == [Tick("tumble", {"seq": 3})]
    timed, menu = Timed("Timed", []), TextScreen("Menu", [])
    host.stack += [timed, menu]
    ticks.on_tick(host, Tick("blink", {"screen": timed}))
    # Carried out as if the timed screen were on top; the menu that covered it is back.
    assert host.performed == [A.Toast("blink")] and host.tops == [timed] and host.top is menu
    ticks.on_tick(host, Tick("blink", {"screen": TextScreen("Gone", [])}))  # not on the stack
    assert len(host.performed) == 1


def test_presses_alone(store):
    host = Host()
    host.journal = store.new_game(Header("table", PLAYERS))
    presses.on_button(host, ButtonInput(Button.BACK, Gesture.HOLD))
    assert host.performed == [A.Undo()]
    host.rolling = True  # a roll tumbling: presses wait for its result
    presses.on_button(host, ButtonInput(Button.BACK, Gesture.HOLD))
    assert host.performed == [A.Undo()]


# --- the shape: no part reaches back up to the App ----------------------------------------------

APP = Path(__file__).resolve().parents[1] / "companion" / "app"


def app_imports(path: Path) -> set[str]:
    """The modules of companion/app/ that `path` imports: every import, at the top, inside a
    function or under `if TYPE_CHECKING:` (a type-only import still ties the two together)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            module = name.removeprefix("companion.app.")
            if module != name and (APP / f"{module}.py").exists():
                found.add(module)
    return found


def test_no_part_imports_core_not_even_through_another():
    graph = {p.stem: app_imports(p) for p in APP.glob("*.py") if p.stem != "__init__"}
    parts = set(graph) - {"core"}

    def reaches_core(start: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            name = todo.pop()
            for nxt in graph.get(name, ()):
                if nxt == "core":
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    assert {"rolls", "timers", "handlers", "presses", "ticks", "clock", "calls", "lights",
            "firstframe", "bridge", "snapshots", "taps", "changes", "publicframe",
            "statscache"} <= parts
    assert sorted(p for p in parts if reaches_core(p)) == []


def test_each_part_imports_without_the_app():
    """Importing a part loads no App: companion/app/__init__.py imports nothing, and no part
    imports core (a fresh interpreter, so what the tests imported before does not count)."""
    import subprocess
    import sys
    parts = sorted(p.stem for p in APP.glob("*.py") if p.stem not in ("__init__", "core"))
    code = ("import importlib, sys\n"
            f"for name in {parts!r}:\n"
            "    importlib.import_module('companion.app.' + name)\n"
            "print('companion.app.core' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False", out.stderr
