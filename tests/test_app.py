"""The app end to end on the dummy display: the issue's "done means" walk-through."""

from __future__ import annotations

import pytest

from companion.games import kinds
from companion.inputs import Button
from companion.testing import choose, press
from companion.ui.actions import Redo
from companion.ui.dice import RollScreen
from companion.ui.table import EndScreen, TableScreen


def start_table_game(app, players: int = 4) -> None:
    press(app, Button.OK)  # "New game"
    press(app, Button.OK)  # "Table"
    for _ in range(players - 4):
        press(app, Button.UP)
    press(app, Button.OK)  # players
    press(app, Button.OK)  # house rules read
    press(app, Button.OK)  # first player: the first seat


def test_a_four_player_table_game_with_dice_skips_reverse_undo_and_resume(make_app, tmp_path):
    app = make_app()
    start_table_game(app)
    j = app.journal
    assert j.header.players == ("Ann", "Ben", "Cy", "Dee")
    assert isinstance(app.top, TableScreen)
    press(app, Button.NEXT)
    assert j.state.table.current == 1
    # Roll both dice from the ROLL button.
    press(app, Button.ROLL)
    press(app, Button.OK)  # "Colors + Shapes"
    assert isinstance(app.top, RollScreen) and app.top.result is not None
    assert j.events[-1]["type"] == "roll" and set(j.events[-1]["dice"]) == {"colors", "shapes"}
    press(app, Button.NEXT)  # NEXT on the result ends the turn
    assert j.state.table.current == 2 and isinstance(app.top, TableScreen)
    # Menu (hold OK): skip, then reverse.
    press(app, Button.OK, hold=True)
    choose(app, "Skip next player")
    assert j.state.table.pending_skips == 1
    press(app, Button.OK, hold=True)
    choose(app, "Reverse")
    assert j.state.table.direction == -1
    press(app, Button.NEXT)
    assert j.state.table.current == 0  # from seat 2, counter-clockwise, seat 1 skipped
    # Undo (hold BACK) twice: the toast says what was undone.
    press(app, Button.BACK, hold=True)
    assert app.toast[0].startswith("Undone:") and j.state.table.current == 2
    press(app, Button.BACK, hold=True)
    assert app.toast[0] == "Undone: Reverse"
    events = list(j.events)
    app.close()
    app.store.close()

    again = make_app(path=tmp_path / "journal.db")
    assert again.journal is not None and again.journal.events == events
    assert isinstance(again.top, TableScreen)
    assert again.journal.state.table.current == 2


def test_hold_back_at_the_start_says_nothing_to_undo(make_app):
    app = make_app()
    start_table_game(app)
    app.journal.undo()  # remove the "first" pick
    press(app, Button.BACK, hold=True)
    assert app.toast[0] == "Nothing to undo"


def test_end_game_shows_the_end_screen_and_undo_brings_the_game_back(make_app):
    app = make_app()
    start_table_game(app)
    press(app, Button.OK, hold=True)
    press(app, Button.UP)  # the menu wraps: UP from the top reaches the bottom
    assert app.top.items[app.top.cursor].text(app.ctx()) == "Leave to start"
    choose(app, "End game")
    press(app, Button.OK)  # confirm
    assert app.journal.state.over and isinstance(app.top, EndScreen)
    press(app, Button.BACK, hold=True)
    assert not app.journal.state.over and isinstance(app.top, TableScreen)


def test_leave_and_resume_from_the_start_menu(make_app):
    app = make_app()
    start_table_game(app)
    press(app, Button.NEXT)
    press(app, Button.OK, hold=True)
    choose(app, "Leave to start")
    press(app, Button.OK)
    assert app.journal is None and "Resume Table #1" in app.top.items[0].text(app.ctx())
    press(app, Button.OK)
    assert app.journal.state.table.current == 1


def test_a_refused_event_shows_why_and_changes_nothing(make_app):
    app = make_app()
    start_table_game(app)
    from companion.ui.actions import Emit
    app.perform(Emit({"type": "skip_to", "player": 9}))
    assert "seat number" in app.toast[0] and len(app.journal.events) == 1


def test_buttons_wait_while_the_dice_tumble(make_app):
    app = make_app(animation=0.5)
    start_table_game(app)
    press(app, Button.ROLL)
    choose(app, "8-sided die")
    assert isinstance(app.top, RollScreen) and app.top.result is None
    n = len(app.journal.events)
    press(app, Button.NEXT)  # ignored while tumbling
    assert len(app.journal.events) == n
    app.clock.advance(0.6)
    from companion.inputs import Tick
    app.handle(Tick("tumble", {"seq": app.rolls.seq}))
    assert app.top.result is not None and app.journal.events[-1]["type"] == "roll"
    assert set(app.journal.events[-1]["dice"]) == {"d8"}


def test_a_late_roll_result_is_ignored(make_app):
    from companion.inputs import RollResult
    app = make_app()
    start_table_game(app)
    n = len(app.journal.events)
    app.handle(RollResult(seq=99, dice={"d8": 3}))
    assert len(app.journal.events) == n


def test_idle_app_blocks_on_its_queue(make_app):
    """Event-driven: with nothing to do, run() sits in queue.get() and uses no CPU.

    Not a speed target: a polling loop would burn about all of the 0.5 s idle time in CPU;
    an app blocked on its queue uses next to none. The bound leaves room for anything else.
    """
    import threading
    import time

    from companion.inputs import Quit

    app = make_app()
    t = threading.Thread(target=app.run)
    t.start()
    deadline = time.monotonic() + 30  # a bound on the wait, not a speed requirement
    while app.display.frames_sent < 1:  # the first frame is drawn: then it waits
        assert time.monotonic() < deadline and t.is_alive()
        time.sleep(0.01)
    cpu0 = time.process_time()
    time.sleep(0.5)
    used = time.process_time() - cpu0
    app.post(Quit())
    t.join(timeout=5)
    assert not t.is_alive()
    assert used < 0.25
    assert app.display.frames_sent == 1  # drew the start menu once, then waited


def test_a_save_that_fails_is_a_toast_and_the_game_goes_on(make_app):
    """Disk full, a lock, an I/O error: the app says "Not saved" and keeps running."""
    import sqlite3

    app = make_app()
    start_table_game(app)
    n = len(app.journal.events)
    blocker = sqlite3.connect(app.store.path, timeout=0)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        press(app, Button.NEXT)
        assert app.toast[0].startswith("Not saved") and len(app.journal.events) == n
        press(app, Button.BACK, hold=True)  # undo cannot be saved either
        assert app.toast[0].startswith("Not saved") and len(app.journal.events) == n
        # A roll whose result cannot be saved leaves the dice screen, not stuck tumbling.
        press(app, Button.ROLL)
        choose(app, "6-sided die")
        assert app.toast[0].startswith("Not saved") and not isinstance(app.top, RollScreen)
        assert app.top.title == "Roll which dice?"  # back where the roll was asked for
    finally:
        blocker.rollback()
        blocker.close()
    press(app, Button.BACK)
    press(app, Button.NEXT)
    assert len(app.journal.events) == n + 1


def test_at_the_table_a_screen_bug_is_a_toast_and_the_game_goes_on(make_app, monkeypatch):
    """App.strict is off on the box: a failing screen must not end the evening."""
    app = make_app()
    start_table_game(app)
    monkeypatch.setattr(type(app), "strict", False)
    monkeypatch.setattr(TableScreen, "on_press", lambda *a: 1 / 0)
    press(app, Button.NEXT)
    assert "Internal error (ZeroDivisionError)" in app.toast[0]
    monkeypatch.setattr(TableScreen, "draw_on", lambda *a: 1 / 0)
    app.render()
    assert app.display.image is not None  # the error frame was shown
    monkeypatch.undo()
    press(app, Button.NEXT)
    assert app.journal.events[-1] == {"type": "next"}


def test_a_roll_whose_result_never_comes_is_rolled_in_software(make_app):
    from companion.inputs import Tick

    class Silent:
        def roll(self, seq, names, **kw):
            pass  # the result is lost on the way

    app = make_app(animation=0.5)
    start_table_game(app)
    app.dice = Silent()
    press(app, Button.ROLL)
    choose(app, "8-sided die")
    assert isinstance(app.top, RollScreen) and app.top.result is None
    app.clock.advance(app.rolls.deadline + 0.1)
    app.handle(Tick("tumble", {"seq": app.rolls.seq}))
    assert app.top.result is not None and app.journal.events[-1]["type"] == "roll"
    assert app.top.note == "No answer from the dice: software roll"


def test_an_unknown_die_is_refused_before_anything_changes(make_app):
    import pytest

    from companion.errors import IllegalEvent
    from companion.ui.actions import Roll

    app = make_app()
    start_table_game(app)
    stack = list(app.stack)
    with pytest.raises(IllegalEvent, match="unknown die 'd20'"):
        app.perform(Roll(("d20",)))
    assert app.stack == stack and app.rolls.pending is None


def test_the_end_screen_is_not_covered_by_a_toast(make_app):
    """A "Redone: ..." toast of the move that ended the game, or any toast still up, covered
    the winners on the end screen (issue 18, item 7): the game's end clears it."""
    app = make_app()
    start_table_game(app)
    press(app, Button.BACK)  # "Hold BACK to undo": a toast is up when the game ends
    assert app.toast is not None
    press(app, Button.OK, hold=True)
    choose(app, "End game")
    press(app, Button.OK)  # "End this game?" yes
    assert isinstance(app.top, EndScreen) and app.toast is None
    press(app, Button.BACK, hold=True)  # undo: the game is open again, and says so
    assert isinstance(app.top, TableScreen) and app.toast[0] == "Undone: End of game"
    assert app.perform(Redo())
    assert isinstance(app.top, EndScreen) and app.toast is None
    clean = app.top.render(app.ctx())
    assert app.frame().tobytes() == clean.tobytes()  # nothing drawn over the end screen


@pytest.mark.parametrize("kind", sorted(kinds()))
def test_play_again_from_the_end_screen(make_app, kind):
    """One item on every end screen: the same players and house rules, a new game in the
    journal (the finished one kept), the first player one seat on, then who goes first."""
    from companion.rules.game import Header
    app = make_app()
    players = ("Ann", "Ben", "Cy", "Dee")
    assert app.actions.start_game(Header(kind, players, 2, {**app.config.house_rules(kind)}))
    del app.stack[1:]
    old = app.journal
    old_id = old.sink.game_id
    app.emit({"type": "end"})
    assert old.state.over and len(app.stack) == 1
    press(app, Button.OK)
    menu = app.top
    assert menu.title == "Game over"
    assert [i.text(app.ctx()) for i in menu.items] == ["Play again", "Start menu"]
    press(app, Button.OK)  # Play again
    j = app.journal
    assert j is not old and j.sink.game_id != old_id and not j.state.over and j.events == []
    assert (j.header.game, j.header.players, dict(j.header.rules)) == \
        (kind, players, dict(old.header.rules))
    assert j.header.first == 3
    assert app.top is not app.stack[0]  # the game's own "who goes first"
    press(app, Button.BACK)
    assert len(app.stack) == 1 and app.journal.state.table.current == 3
    rows = {r.id: r for r in app.store.history_rows()}
    assert set(rows) == {old_id, j.sink.game_id} and rows[old_id].events == 1  # kept, "end"


def test_play_again_is_only_for_a_finished_game(make_app):
    from companion.ui.actions import PlayAgain
    app = make_app()
    start_table_game(app)
    before = (app.journal, list(app.journal.events))
    assert app.perform(PlayAgain()) is False
    assert app.toast[0] == "Play again: the game is not over"
    assert (app.journal, list(app.journal.events)) == before


def test_hold_ok_in_the_menu_closes_it_and_never_opens_a_second_one(make_app):
    """Issue 26, item 8: hold OK inside the menu opened a second copy (BACK twice to leave)."""
    from companion.ui.modes import GameMenu
    app = make_app()
    start_table_game(app)
    press(app, Button.OK, hold=True)
    assert isinstance(app.top, GameMenu) and len(app.stack) == 2
    press(app, Button.OK, hold=True)  # the menu is open: the hold closes it
    assert isinstance(app.top, TableScreen) and len(app.stack) == 1
    press(app, Button.OK, hold=True)
    menu = app.top
    choose(app, "Skip to player…")  # a screen opened from the menu
    assert len(app.stack) == 3
    press(app, Button.OK, hold=True)  # back to that menu, not a second one on top
    assert app.top is menu and len(app.stack) == 2
    press(app, Button.BACK)  # one BACK leaves it
    assert isinstance(app.top, TableScreen) and len(app.stack) == 1
