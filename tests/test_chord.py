"""The power-off chord: BACK + NEXT held 5 s asks to power off, and does nothing else.

Pure `ChordDetector` with an explicit clock; then the same through `ButtonPanel` on gpiozero's
MockFactory with an injected clock (timers are driven by hand, nothing waits); then the app's
"Power off?" question with a recording runner, so nothing is ever powered off.
"""

from __future__ import annotations

import subprocess

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as configmod
from companion.drivers.buttons import ButtonPanel
from companion.drivers.chord import ChordDetector
from companion.inputs import Button, ButtonInput, Gesture, ShutdownRequest
from companion.testing import FakeClock, make_app
from companion.ui import power
from companion.ui.screen import Confirm, TextScreen

B, N, OK = Button.BACK, Button.NEXT, Button.OK
HOLD, PRESS = Gesture.HOLD, Gesture.PRESS


# --- the pure detector ----------------------------------------------------------------------

def test_held_together_for_five_seconds_asks_once():
    c = ChordDetector(hold_time=5.0)
    assert c.step(B, True, [], 0.0) == ([], [])
    assert c.step(N, True, [], 0.3) == ([], [])
    assert c.due() == pytest.approx(5.3)
    assert c.tick(5.2) == []
    assert c.tick(5.3) == [ShutdownRequest()]
    assert c.due() is None and c.tick(9.0) == []  # once per chord


def test_the_chord_swallows_the_undo_hold_and_the_release_presses():
    c = ChordDetector(hold_time=5.0)
    c.step(B, True, [], 0.0)
    c.step(N, True, [], 0.5)
    assert c.step(B, True, [HOLD], 0.8) == ([], [])  # BACK's own hold: no undo
    assert c.step(N, True, [HOLD], 1.3)[0] == []
    assert c.step(N, False, [], 2.0) == ([], [])  # let go early: nothing at all
    assert c.due() is None
    assert c.step(B, False, [], 2.1) == ([], [])
    assert not c.active


def test_a_quick_press_of_both_does_nothing():
    c = ChordDetector()
    c.step(N, True, [], 0.0)
    c.step(B, True, [], 0.1)
    assert c.step(N, False, [PRESS], 0.2) == ([], [])  # no end of turn
    assert c.step(B, False, [PRESS], 0.3) == ([], [])  # no "back"
    assert c.step(N, False, [PRESS], 1.0) == ([PRESS], [])  # afterwards NEXT works again


def test_after_an_undo_hold_the_other_button_is_an_ordinary_press():
    c = ChordDetector()
    c.step(B, True, [], 0.0)
    assert c.step(B, True, [HOLD], 0.8) == ([HOLD], [])  # the undo goes through
    c.step(N, True, [], 1.0)
    assert not c.active and c.due() is None
    assert c.step(N, False, [PRESS], 1.2) == ([PRESS], [])
    assert c.step(B, False, [], 1.5) == ([], [])


def test_other_buttons_pass_untouched_while_the_chord_is_held():
    c = ChordDetector()
    c.step(B, True, [], 0.0)
    c.step(N, True, [], 0.1)
    assert c.step(OK, False, [PRESS], 0.5) == ([PRESS], [])


def test_letting_one_go_restarts_the_five_seconds():
    c = ChordDetector(hold_time=5.0)
    c.step(B, True, [], 0.0)
    c.step(N, True, [], 0.1)
    c.step(N, False, [], 3.0)
    c.step(N, True, [], 4.0)
    assert c.tick(5.1) == []
    assert c.tick(9.0) == [ShutdownRequest()]


def test_a_chord_of_one_button_is_refused():
    with pytest.raises(ValueError):
        ChordDetector([B])


# --- through the button panel ---------------------------------------------------------------

@pytest.fixture
def panel():
    factory = MockFactory()
    clock = FakeClock(100.0)
    posted: list[object] = []
    pins = configmod.Config(configmod.check({})).pins()
    with ButtonPanel(pins, post=posted.append, pin_factory=factory, clock=clock) as p:
        yield p, factory, clock, posted, pins


def test_panel_posts_a_shutdown_request_and_no_undo(panel):
    p, factory, clock, posted, pins = panel
    factory.pin(pins["back"]).drive_low()
    clock.t += 0.2
    factory.pin(pins["next"]).drive_low()
    clock.t += 1.0
    p._tick(Button.BACK)  # the hold timers fire: BACK's hold is swallowed
    p._tick(Button.NEXT)
    assert posted == []
    clock.t += 4.0
    p._chord_tick()
    assert posted == [ShutdownRequest()]
    factory.pin(pins["next"]).drive_high()
    clock.t += 0.1
    factory.pin(pins["back"]).drive_high()
    assert posted == [ShutdownRequest()]
    assert p._chord_timer is None


def test_panel_buttons_work_as_before_outside_the_chord(panel):
    p, factory, clock, posted, pins = panel
    factory.pin(pins["next"]).drive_low()
    clock.t += 0.1
    factory.pin(pins["next"]).drive_high()
    factory.pin(pins["back"]).drive_low()
    clock.t += 1.0
    p._tick(Button.BACK)
    assert posted == [ButtonInput(Button.NEXT, PRESS), ButtonInput(Button.BACK, HOLD)]


# --- the app's question ---------------------------------------------------------------------

class Runner:
    def __init__(self, returncode: int = 0, stderr: str = "", error: Exception | None = None):
        self.calls: list[list[str]] = []
        self.returncode, self.stderr, self.error = returncode, stderr, error

    def __call__(self, argv, **kwargs):
        self.calls.append(list(argv))
        if self.error is not None:
            raise self.error
        return subprocess.CompletedProcess(argv, self.returncode, "", self.stderr)


def test_ok_on_the_question_runs_the_power_off_command(tmp_path):
    runner = Runner()
    app = make_app(tmp_path, power_runner=runner)
    with app.store:
        depth = len(app.stack)
        app.handle(ShutdownRequest())
        assert isinstance(app.top, Confirm) and app.top.question == "Power off?"
        app.handle(ShutdownRequest())  # asking again does not pile up questions
        assert len(app.stack) == depth + 1
        app.frame()  # it draws
        app.handle(ButtonInput(Button.OK))
        assert runner.calls == [["systemctl", "poweroff"]]
        assert isinstance(app.top, TextScreen) and app.top.title == "Power off"
        app.close()


def test_back_on_the_question_leaves_the_box_on(tmp_path):
    runner = Runner()
    app = make_app(tmp_path, power_runner=runner)
    with app.store:
        before = list(app.stack)
        app.handle(ShutdownRequest())
        app.handle(ButtonInput(Button.BACK))
        assert app.stack == before and runner.calls == []
        app.close()


@pytest.mark.parametrize("runner, shown", [
    (Runner(returncode=1, stderr="Access denied\n"), "Power off failed: Access denied"),
    (Runner(error=FileNotFoundError(2, "No such file", "halt")), "Power off failed"),
])
def test_a_failing_command_says_why_and_goes_back(tmp_path, runner, shown):
    app = make_app(tmp_path, config={"power": {"command": "/sbin/halt -p"}}, power_runner=runner)
    with app.store:
        before = list(app.stack)
        app.handle(ShutdownRequest())
        app.handle(ButtonInput(Button.OK))
        assert runner.calls == [["/sbin/halt", "-p"]]
        assert app.stack == before
        assert app.toast is not None and app.toast[0].startswith(shown)
        app.close()


def test_power_command_must_not_be_empty():
    with pytest.raises(configmod.ConfigError) as e:
        configmod.check({"power": {"command": "  "}})
    assert e.value.key == "power.command"
    assert power.split_command("sudo  halt") == ["sudo", "halt"]
