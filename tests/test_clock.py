"""The turn clock (docs/clock.md; issue 28): seconds derived from the journal's times, on the
fake clock of companion/testing.py."""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from companion.inputs import Button
from companion.session import asides
from companion.session.clock import BREAK_AFTER, Ledger, Limits, clock_text
from companion.testing import FakeClock, choose, close, drain, make_app, press
from companion.ui import actions as A


class Chirps:
    def __init__(self) -> None:
        self.beeps: list[float] = []

    def beep(self, seconds: float = 0.2) -> None:
        self.beeps.append(seconds)


def test_a_60_s_limit_warns_at_50_s_and_calls_time_at_60(tmp_path):
    clock, buzzer = FakeClock(), Chirps()
    app = make_app(tmp_path, kind="table", setup=False, rules={"turn_limit": 60}, clock=clock,
                   buzzer=buzzer)
    try:
        app.render()
        clock.advance(49.9)
        drain(app)
        r = app.turn_clock.reading()
        assert r.seat == 0 and r.alarm == "" and math.ceil(r.left) == 11
        assert buzzer.beeps == []
        clock.advance(0.2)  # 50.1 s: 10 s left
        drain(app)
        r = app.turn_clock.reading()
        assert r.alarm == "warn" and math.ceil(r.left) == 10
        assert len(buzzer.beeps) == 1
        clock.advance(10)  # 60.1 s
        drain(app)
        r = app.turn_clock.reading()
        assert r.alarm == "time" and r.left < 0
        assert len(buzzer.beeps) == 2 and buzzer.beeps[1] > buzzer.beeps[0]
        # The game is never changed by the clock: still seat 0's turn, nothing recorded.
        assert app.journal.state.table.current == 0 and len(app.journal.events) == 0
        press(app, Button.NEXT)
        r = app.turn_clock.reading()
        assert r.seat == 1 and r.alarm == "" and r.elapsed == 0
        assert math.isclose(r.totals[0], 60.1)
    finally:
        close(app)


def test_the_clock_ticks_once_a_second_on_the_second(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        app.render()
        assert len(clock.pending) == 1 and math.isclose(clock.pending[0] - clock.t, 1.005)
        clock.advance(3.0)
        drain(app)
        app.render()
        assert len(clock.pending) == 1  # one tick due at a time, never a pile of them
    finally:
        close(app)


def test_a_pause_stops_the_clock_and_a_move_starts_it_again(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        clock.advance(20)
        assert app.perform(A.PauseClock())
        assert app.turn_clock.paused
        clock.advance(300)
        drain(app)
        r = app.turn_clock.reading()
        assert r.paused and r.elapsed == 20
        app.render()
        assert clock.pending == []  # nothing ticks while paused
        assert app.perform(A.PauseClock())  # on again
        clock.advance(5)
        assert app.turn_clock.reading().elapsed == 25
        app.perform(A.PauseClock(True))
        clock.advance(100)
        press(app, Button.NEXT)  # a move while paused: the group is playing
        r = app.turn_clock.reading()
        assert not r.paused and r.totals[0] == 25 and r.seat == 1
    finally:
        close(app)


def test_an_undone_next_gives_its_seconds_back_to_the_seat_that_was_playing(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        clock.advance(30)
        press(app, Button.NEXT)  # by mistake: Ann was still playing
        clock.advance(12)
        assert app.turn_clock.reading().seat == 1
        press(app, Button.BACK, hold=True)  # undo
        r = app.turn_clock.reading()
        assert r.seat == 0 and r.elapsed == 42 and r.totals == (42, 0, 0, 0)
        assert r.turns == (1, 0, 0, 0)
    finally:
        close(app)


def test_a_power_cut_mid_turn_resumes_with_the_elapsed_time_and_the_pause(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    clock.advance(10)
    press(app, Button.NEXT)
    clock.advance(25)  # Ben is 25 s into his turn when the plug is pulled
    app.store.close()  # no clean exit: nothing more is written
    clock.advance(5)  # the box comes back 5 s later: a clock on the wall went on
    again = make_app(tmp_path, clock=clock)
    try:
        r = again.turn_clock.reading()
        assert r.seat == 1 and r.elapsed == 30 and r.totals[0] == 10
        again.perform(A.PauseClock(True))
        clock.advance(60)
        again.store.close()
        clock.advance(60)
        third = make_app(tmp_path, clock=clock)
        try:
            r = third.turn_clock.reading()
            assert r.paused and r.elapsed == 30  # still paused, as it was left
        finally:
            close(third)
    finally:
        again.timers.close()


def test_a_chess_clock_bank_gets_its_bonus_at_the_end_of_each_turn(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, players=("Ann", "Ben"), clock=clock,
                   rules={"time_bank": 600, "time_bonus": 5})
    try:
        clock.advance(40)
        press(app, Button.NEXT)
        clock.advance(15)
        r = app.turn_clock.reading()
        assert r.banks == (565, 585) and r.left == 585
    finally:
        close(app)


# --- the ledger on its own -----------------------------------------------------------------------

def test_a_break_of_15_minutes_counts_for_nobody():
    ledger = Ledger(0, 0, 2)
    ledger.update([10, 10 + BREAK_AFTER + 5, 30 + BREAK_AFTER], [1, 1, 0], [1, 1, 2])
    r = ledger.read(30 + BREAK_AFTER)
    assert r.totals == (10, 15 - 5 + 0) or r.totals == (10, 15)
    assert ledger.breaks == [(10, 10 + BREAK_AFTER + 5)]
    live = ledger.read(30 + 2 * BREAK_AFTER)
    assert live.on_break and live.seat == 0


def test_a_clock_set_back_counts_that_stretch_as_nothing():
    ledger = Ledger(100, 0, 2)
    ledger.update([90, 95], [1, 0], [1, 2])
    assert ledger.read(97).totals == (2, 5)


def test_clock_text():
    assert clock_text(7.9) == "0:07"
    assert clock_text(754) == "12:34"
    assert clock_text(3723) == "1:02:03"
    assert clock_text(9.01, left=True) == "0:10"
    assert clock_text(-3.5, left=True) == "-0:03"


events = st.lists(st.tuples(st.floats(0, 2000), st.integers(0, 2), st.booleans()),
                  max_size=30)
spans = st.lists(st.tuples(st.floats(0, 40000), st.floats(0, 2000)), max_size=4)


def timeline(steps):
    times, seats, numbers = [], [], []
    t, turn = 0.0, 0
    for gap, seat, ends in steps:
        t += gap
        turn += ends
        times.append(t)
        seats.append(seat)
        numbers.append(turn)
    return times, seats, numbers


@settings(max_examples=150, deadline=None)
@given(events, spans, st.integers(0, 30))
def test_every_counted_second_belongs_to_one_seat_and_folding_step_by_step_is_a_fresh_fold(
        steps, away, undo):
    """The seats' seconds add up to the game's time less its spans away and its breaks, and a
    ledger kept up to date through appends, undos and pauses reads as one folded afresh."""
    times, seats, numbers = timeline(steps)
    spans_ = [(f, f + d) for f, d in away]
    step = Ledger(0, 0, 3)
    for k in range(len(times) + 1):
        step.update(times[:k], seats[:k], numbers[:k])
    k = max(0, len(times) - undo)
    step.update(times[:k], seats[:k], numbers[:k], spans_)
    step.update(times, seats, numbers, spans_)
    fresh = Ledger(0, 0, 3)
    fresh.update(times, seats, numbers, spans_)
    end = times[-1] if times else 0.0
    a, b = step.read(end), fresh.read(end)
    assert a == b
    # The table's stretches (a turn handed to another seat with no turn ended: a pick of
    # who plays) are nobody's, but still the game's time.
    played = fresh.playing_seconds() - sum(e - f for f, e in fresh.breaks)
    assert sum(a.totals) <= played + 1e-6
    covered = _measure([(max(0, f), min(end, e)) for f, e in spans_ + fresh.breaks])
    assert math.isclose(played, end - covered, abs_tol=1e-6)
    assert all(t >= 0 for t in a.totals)


def _measure(spans):
    total, reach = 0.0, -math.inf
    for f, e in sorted(spans):
        f = max(f, reach)
        if e > f:
            total += e - f
            reach = e
    return total


def test_limits_of_house_rules():
    assert not Limits.of({})
    assert Limits.of({"turn_limit": 60}).turn == 60
    assert Limits.of({"time_bank": 600, "time_bonus": 5}) == Limits(None, 600, 5)


def test_time_follows_the_seat_through_skip_reverse_and_skip_to(tmp_path):
    """docs/clock.md: whatever the engine says is the current seat after an event is whose
    time runs; a skipped seat gets no turn and no seconds."""
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        def emit(event, after):
            assert app.perform(A.Emit(event))
            clock.advance(after)

        clock.advance(5)
        emit({"type": "skip"}, 1)  # Ann's turn goes on: 6 s
        emit({"type": "next"}, 7)  # Ben is skipped: Cy plays 7 s
        emit({"type": "reverse"}, 2)  # still Cy's turn: 9 s
        emit({"type": "next"}, 4)  # reversed: Ben plays 4 s
        emit({"type": "skip_to", "player": 3}, 3)  # Dee plays 3 s
        r = app.turn_clock.reading()
        assert r.seat == 3
        assert r.totals == (6, 4, 9, 3) and r.turns == (1, 1, 1, 1)
        press(app, Button.BACK, hold=True)  # undo "skip to": Ben's turn again, 7 s
        r = app.turn_clock.reading()
        assert r.seat == 1 and r.elapsed == 7 and r.totals == (6, 7, 9, 0)
    finally:
        close(app)


def test_a_game_left_for_the_start_menu_does_not_run(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        clock.advance(10)
        assert app.perform(A.LeaveGame())
        assert app.turn_clock.reading() is None
        clock.advance(600)
        assert app.perform(A.ResumeGame(None))
        clock.advance(2)
        assert app.turn_clock.reading().elapsed == 12
    finally:
        close(app)


@settings(max_examples=150, deadline=None)
@given(events, st.lists(st.tuples(st.integers(0, 30), st.floats(0, 1500), st.floats(0, 1500)),
                        max_size=5), st.lists(st.integers(0, 30), max_size=4))
def test_pauses_and_undos_between_presses_fold_as_a_fresh_fold(steps, pauses, undos):
    """A pause refolds only from the turn it falls in: whatever the order of presses, pauses
    (at any time, even before earlier events: an import) and undos, the ledger reads as one
    folded afresh from the same rows."""
    times, seats, numbers = timeline(steps)
    ledger, spans_ = Ledger(0, 0, 3), []
    for k in range(len(times) + 1):
        for at, f, d in pauses:
            if at == k:
                spans_.append((f, f + d))
        if k in undos and k:
            ledger.update(times[:k - 1], seats[:k - 1], numbers[:k - 1], spans_)
        ledger.update(times[:k], seats[:k], numbers[:k], spans_)
        fresh = Ledger(0, 0, 3)
        fresh.update(times[:k], seats[:k], numbers[:k], spans_)
        now = (times[k - 1] if k else 0.0) + 5
        assert ledger.read(now) == fresh.read(now)
        assert ledger.playing_seconds() == fresh.playing_seconds()


def test_nobody_s_turn_runs_while_a_new_game_s_rules_are_read(tmp_path):
    """Review: the setup screens (house rules, who goes first) charged seat 0 with a turn, and
    a 60 s limit called time before the first move."""
    clock, buzzer = FakeClock(), Chirps()
    app = make_app(tmp_path, kind="table", rules={"turn_limit": 60}, clock=clock,
                   buzzer=buzzer)
    try:
        app.render()
        clock.advance(65)  # the house rules read aloud
        drain(app)
        assert app.turn_clock.reading().paused and buzzer.beeps == []
        press(app, Button.OK)  # the rules read: "Who goes first?"
        clock.advance(10)
        choose(app, "Cy")
        clock.advance(3)
        r = app.turn_clock.reading()
        assert not r.paused and r.seat == 2 and r.elapsed == 3
        assert r.totals == (0, 0, 3, 0) and r.turns == (0, 0, 1, 0)
    finally:
        close(app)


def test_the_setup_screens_gone_without_a_move_start_the_clock(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", clock=clock)
    try:
        press(app, Button.OK)  # the rules
        press(app, Button.BACK)  # no pick: the first seat goes first
        clock.advance(4)
        r = app.turn_clock.reading()
        assert not r.paused and r.seat == 0 and r.elapsed == 4
    finally:
        close(app)


def test_a_game_left_for_the_start_menu_then_restarted_counts_from_the_restart(tmp_path):
    """Review: the aside of a game left for the start menu never ended when the companion
    resumed it at its next start, so the live clock gave the player the whole wait."""
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    clock.advance(10)
    press(app, Button.NEXT)
    clock.advance(20)
    assert app.perform(A.LeaveGame())
    clock.advance(300)
    close(app)
    clock.advance(5)
    again = make_app(tmp_path, clock=clock)
    try:
        clock.advance(5)
        r = again.turn_clock.reading()
        assert r.seat == 1 and r.elapsed == 25  # 20 s before leaving, 5 s since the restart
        assert asides.open_since(again.store.db, 1, "asides") is None
        press(again, Button.NEXT)
        from companion.session.tally import History
        g, = [g for g in History(again.store).records() if g.id == 1]
        assert g.seconds == 10 + 25  # the statistics see the same game
    finally:
        close(again)


def test_an_undone_end_gives_the_end_screen_s_time_to_nobody(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        clock.advance(10)
        press(app, Button.NEXT)
        clock.advance(7)
        assert app.perform(A.PauseClock(True))
        assert app.emit({"type": "end"})  # the end, made while paused, ends the pause too
        assert asides.open_since(app.store.db, 1) is None
        clock.advance(600)  # ten minutes on the end screen
        press(app, Button.BACK, hold=True)  # undo: the game goes on
        clock.advance(2)
        r = app.turn_clock.reading()
        assert r.seat == 1 and r.elapsed == 9 and not r.paused and r.alarm == ""
    finally:
        close(app)


def test_an_eliminated_badger_gets_no_more_seconds():
    """docs/clock.md: eliminations need nothing of their own: the seat the engine passes
    over is never on turn, so its clock stops at its last turn (Penny Badger, docs/rules.md:
    a badger whose savings reach 0 is out)."""
    from companion.rules.game import Header
    from companion.session.clock import ledger_of
    from companion.session.journal import Journal

    j = Journal(Header("penny-badger", ("Ann", "Ben", "Cy"), 0, {"bank": 100, "savings": 2}))
    at = 0.0
    for gap in (10, 7, 3, 20):  # Ann, Ben, Cy, then Ann pays her last penny: she is out
        at += gap
        j.append({"type": "pass"})
        j.times[-1] = at
    assert j.state.table.eliminated == frozenset({0}) and not j.state.over
    ledger = ledger_of(j, 0.0)
    r = ledger.read(at + 5)
    assert r.seat == 1 and r.totals == (30, 7 + 5, 3) and r.turns == (2, 2, 1)
    assert ledger.read(at + 60).totals[0] == 30  # the clock runs on for Ben, never for Ann


def test_a_clock_rule_typo_in_the_config_is_one_line_naming_it():
    import pytest

    from companion.errors import ConfigError
    from companion.games import check_config as check

    for rules, words in (({"turn_limit": "60"}, "turn_limit must be whole seconds 10-3600"),
                         ({"turn_limit": 5}, "turn_limit must be whole seconds 10-3600"),
                         ({"turn_limit": 60, "time_bank": 600}, "choose one"),
                         ({"time_bonus": 5}, "set time_bank too")):
        with pytest.raises(ConfigError) as e:
            check({"rules": {"table": rules}})
        assert "rules.table" in str(e.value) and words in str(e.value)
        assert "\n" not in str(e.value)
    assert check({"rules": {"pig-farm": {"time_bank": 600, "time_bonus": 5}}})["rules"][
        "pig-farm"]["time_bank"] == 600


def test_time_is_called_once_a_turn_across_undo_and_redo(tmp_path):
    """Issue 34 item 6: "Time!", NEXT, undo said "Time!" again for the same turn. Once a turn,
    on the box's voice, the buzzer and the snapshot's calls (what the pages say)."""
    from companion.testing import RecordingSpeaker
    clock, buzzer, speaker = FakeClock(), Chirps(), RecordingSpeaker()
    app = make_app(tmp_path, kind="table", setup=False, rules={"turn_limit": 30}, clock=clock,
                   buzzer=buzzer, speaker=speaker)

    def times_called() -> tuple[int, int, int]:
        pages = [c for c in app.caller.recent if c.text == "Time!"]
        return speaker.texts.count("Time!"), len(pages), buzzer.beeps.count(max(buzzer.beeps))

    try:
        app.render()
        clock.advance(31)
        drain(app)
        assert app.turn_clock.reading().alarm == "time"
        assert times_called() == (1, 1, 1)
        press(app, Button.NEXT)
        for _ in range(2):
            app.render()
            clock.advance(1)
            drain(app)
        assert app.turn_clock.reading().alarm == ""
        press(app, Button.BACK, hold=True)  # undo: Ann's turn again, still past its limit
        assert app.journal.state.table.current == 0
        for _ in range(3):
            clock.advance(1)
            drain(app)
            app.render()
        assert app.turn_clock.reading().alarm == "time"
        assert times_called() == (1, 1, 1)
        app.perform(A.Redo())  # Ben's turn: his own, called when his time is up
        for _ in range(32):
            app.render()
            clock.advance(1)
            drain(app)
        assert app.journal.state.table.current == 1
        assert times_called() == (2, 2, 2)
    finally:
        close(app)


def test_a_turn_made_again_after_an_undo_calls_time_when_its_own_time_is_up(tmp_path):
    """Once a turn means once for the turn played: an undone NEXT takes Ben's turn away;
    a NEXT pressed again gives him a new one (its clock starts at 0, unlike a redo, which
    brings the same turn back with its own times), and when that turn's time is up, "Time!"
    is called for it, as the clock on every screen shows it."""
    from companion.testing import RecordingSpeaker
    clock, speaker = FakeClock(), RecordingSpeaker()
    app = make_app(tmp_path, kind="table", setup=False, rules={"turn_limit": 30}, clock=clock,
                   speaker=speaker)

    def run(seconds: int) -> None:
        for _ in range(seconds):
            app.render()
            clock.advance(1)
            drain(app)

    try:
        app.render()
        run(1)
        press(app, Button.NEXT)  # Ben's turn
        run(31)
        assert speaker.texts.count("Time!") == 1  # Ben's
        press(app, Button.BACK, hold=True)  # undo: Ann's turn again, her 32 s past the limit
        run(2)
        assert speaker.texts.count("Time!") == 2  # Ann's, her first
        press(app, Button.NEXT)  # Ben's turn, a new one: 0 s on his clock
        run(2)
        r = app.turn_clock.reading()
        assert r.seat == 1 and r.elapsed < 5 and r.alarm == ""
        run(30)
        assert app.turn_clock.reading().alarm == "time"
        assert speaker.texts.count("Time!") == 3
    finally:
        close(app)
