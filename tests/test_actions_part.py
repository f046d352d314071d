"""The screen actions built alone, without an App (companion/app/handlers.py): `Actions` given a
small host of its own (handlers.ActionHost): a real store and journal on a fake clock, a
screen stack, and the parts a screen reaches (the rolls, the turn clock, the calls) as stand-ins
that note what they are asked."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from companion import games
from companion.app.handlers import HANDLERS, Actions
from companion.config import Config, check
from companion.inputs import Quit, Tick
from companion.rules.game import Header
from companion.session.store import Store
from companion.testing import FakeClock
from companion.ui import actions as A
from companion.ui.screen import Context, Screen, TextScreen
from companion.ui.start import StartScreen
from companion.ui.table import TableScreen

PLAYERS = ("Ann", "Ben", "Cy")


class Noted:
    """A stand-in part: every method call is noted in `calls`, and returns True."""

    def __init__(self, **values: Any) -> None:
        self.calls: list[tuple[str, tuple]] = []
        self.__dict__.update(values)

    def __getattr__(self, name: str) -> Any:
        def call(*args: Any) -> bool:
            self.calls.append((name, args))
            return True
        return call


class Host:
    """What the screen actions use of the app, and no more (handlers.ActionHost)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.config = Config(check({}))
        self.journal = store.resume()
        self.left = None
        self.unfinished: tuple = ()
        self.stack: list[Screen] = []
        self.toast: tuple[str, float] | None = None
        self.snapshot_due = False
        self.buzzer = Noted()
        self.power_runner = None
        self.timers = Noted()
        self.rolls = Noted()
        self.turn_clock = Noted(paused=False)
        self.caller = Noted()
        self.posted: list[object] = []
        self.commits: list[tuple[str, Any]] = []
        self.toasts: list[str] = []

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    @property
    def mode(self) -> Any:
        assert self.journal is not None
        return games.mode_for(self.journal.header.game)

    def ctx(self) -> Context:
        return Context(config=self.config, journal=self.journal)

    def post(self, item: object) -> None:
        self.posted.append(item)

    def perform(self, action: Any) -> bool:
        if action is None:
            return True
        if isinstance(action, (list, tuple)):
            return all(self.perform(a) for a in action)
        return HANDLERS[type(action)](self.actions, action)

    def committed(self, what: str, event: Any) -> None:
        self.commits.append((what, event))

    def show_toast(self, text: str, seconds: float = 2.0) -> None:
        self.toast = (text, seconds)
        self.toasts.append(text)

    def not_saved(self, e: Exception) -> None:
        self.show_toast(str(e), 4.0)

    @property
    def bridge(self):  # the web's switch (WebBridge.switch)
        return SimpleNamespace(switch=lambda on: self.posted.append(("web", on)))


@pytest.fixture
def host(tmp_path):
    store = Store(tmp_path / "journal.db", clock=FakeClock())
    h = Host(store)
    h.actions = Actions(h)
    try:
        yield h
    finally:
        store.close()


def test_the_screen_stack_actions(host):
    host.actions.start_menu()
    home = host.top
    assert isinstance(home, StartScreen)
    one, two = TextScreen("One", []), TextScreen("Two", [])
    assert host.perform([A.Push(one), A.Push(two)]) and host.stack == [home, one, two]
    assert host.perform(A.Pop()) and host.stack == [home, one]
    assert host.perform(A.Replace(two)) and host.stack == [home, two]
    assert host.perform(A.Home()) and host.stack == [home]
    assert host.perform(A.Pop(5)) and host.stack == [home]  # the home screen stays
    host.perform(A.After(1.5, "blink", {"n": 1}))
    assert host.timers.calls == [("after", (1.5, Tick("blink", {"n": 1, "screen": home})))]


def test_a_new_game_then_moves_undo_and_redo(host):
    assert host.actions.start_game(Header("table", PLAYERS))
    j = host.journal
    assert j is not None and j.header.players == PLAYERS and host.snapshot_due
    assert isinstance(host.stack[0], TableScreen)
    assert ("hold", (host.stack[1:],)) in host.turn_clock.calls  # its setup screens
    host.perform(A.Home())
    assert host.perform(A.Emit({"type": "skip"}))
    assert host.commits == [("append", {"type": "skip"})] and len(j.events) == 1
    assert host.perform(A.Undo()) and host.toasts[-1].startswith("Undone:")
    assert len(j.events) == 0 and host.commits[-1][0] == "undo"
    assert host.perform(A.Redo()) and host.toasts[-1].startswith("Redone:")
    assert not host.perform(A.Redo()) and host.toasts[-1] == "Nothing to redo"


def test_a_refused_move_is_a_toast_and_nothing_is_written(host):
    host.actions.start_game(Header("table", PLAYERS))
    assert not host.actions.append({"type": "no such move"})
    assert host.commits == [] and len(host.journal.events) == 0 and host.toast is not None


def test_leave_then_resume_a_game(host):
    host.actions.start_game(Header("table", PLAYERS))
    journal = host.journal
    assert host.perform(A.LeaveGame())
    assert host.journal is None and host.left is journal and isinstance(host.top, StartScreen)
    assert [u.players for u in host.unfinished] == [PLAYERS]
    assert host.perform(A.ResumeGame(None))
    assert host.journal is journal and host.left is None and isinstance(host.top, TableScreen)


def test_the_first_screens_of_a_start(host):
    host.actions.first_screens()  # no game to resume: the start menu
    assert isinstance(host.top, StartScreen) and len(host.stack) == 1


def test_the_parts_a_screen_reaches_are_the_hosts(host):
    host.actions.start_game(Header("table", PLAYERS))
    roll = A.Roll(("d6",))
    assert host.perform([roll, A.Beep(0.2), A.PauseClock(True), A.WebSwitch(False),
                         A.QuitApp()])
    assert host.rolls.calls == [("start", (roll,))]
    assert host.buzzer.calls == [("beep", (0.2,))]
    assert ("pause", (True,)) in host.turn_clock.calls
    assert host.posted == [("web", False), Quit()]
