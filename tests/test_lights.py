"""The seat light ring's behaviour (docs/lights.md): what it shows and when, asserted on the
frames a RecordingRing keeps, on the test driver's fake clock."""

from __future__ import annotations

import logging
import time

import pytest

from companion.app import lights
from companion.inputs import Button
from companion.rules.game import State
from companion.rules.table import Table
from companion.session.clock import WARN_BEFORE
from companion.testing import FakeClock, RecordingRing, close, drain, make_app, press
from companion.ui import ring as R

COUNT = 16  # 4 seats: LEDs 0, 4, 8, 12


def run_for(app, clock: FakeClock, seconds: float) -> None:
    """Let `seconds` pass, handling each timer's tick at its own time (as the app thread)."""
    end = clock.t + seconds
    while True:
        due = [w for w in clock.pending if w <= end]
        if not due:
            break
        clock.t = max(clock.t, due[0])
        drain(app)
    clock.t = end
    drain(app)


def lit(frame, colour=R.TURN) -> list[int]:
    return [i for i, p in enumerate(frame) if p == colour]


def head(frame, direction: int = 1) -> int:
    """The head of a chase's comet: the lit LED with a lit one behind it."""
    on = lit(frame)
    return on[0] if len(on) == 1 else next(i for i in on if (i - direction) % COUNT in on)


@pytest.fixture
def table(tmp_path):
    clock = FakeClock()
    ring = RecordingRing(COUNT, clock=clock)
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring)
    yield app, ring, clock
    close(app)


# --- the pure part: seats on the ring, the frame at rest ----------------------------------------

def test_seats_spread_evenly_from_led_0_unless_configured():
    assert R.Layout.of(16, 4).centres == (0, 4, 8, 12)
    assert R.Layout.of(24, 5).centres == (0, 5, 10, 14, 19)
    assert R.Layout.of(16, 3, (2, 7, 11, 14)).centres == (2, 7, 11)
    # Too few configured for this game's seats: spread evenly.
    assert R.Layout.of(16, 5, (2, 7, 11, 14)).centres == (0, 3, 6, 10, 13)


def test_a_seat_lights_its_led_and_the_neighbours_nearer_to_it_than_to_another_seat():
    assert R.Layout.of(16, 4).arc(0) == (15, 0, 1)
    assert R.Layout.of(16, 8).arc(1) == (2,)  # seats two LEDs apart: one LED each


def test_steady_current_lit_others_dim_eliminated_dark():
    look = R.Look(4, 1, eliminated=frozenset({3}))
    frame = R.steady(R.Layout.of(16, 4), look)
    assert lit(frame) == [3, 4, 5]
    assert lit(frame, R.SEAT) == [0, 8]
    assert frame[12] == R.DARK  # seat 3 is out
    assert R.steady(R.Layout.of(16, 4), None) == (R.DARK,) * 16  # no game: dark


def test_look_of_a_state_names_the_seats_a_pending_skip_passes():
    state = State(Table(4, current=0, pending_skips=1, eliminated=frozenset({1})))
    assert R.Look.of(state).skipped == (2,)


def test_night_hours_run_over_midnight():
    night = (22 * 60, 7 * 60)
    assert R.in_night(23 * 60, night) and R.in_night(6 * 60 + 59, night)
    assert not R.in_night(7 * 60, night) and not R.in_night(12 * 60, night)
    assert not R.in_night(23 * 60, None)
    assert R.in_night(13 * 60, (12 * 60, 14 * 60)) and not R.in_night(15 * 60, (12 * 60, 14 * 60))


# --- the app: a turn, a reverse, a skip ----------------------------------------------------------

def test_the_current_players_leds_are_lit_from_the_start(table):
    app, ring, clock = table
    assert lit(ring.last) == [0, 1, 15]
    assert lit(ring.last, R.SEAT) == [4, 8, 12]


def test_a_turn_chases_from_the_old_seat_to_the_new_in_the_direction_of_play(table):
    app, ring, clock = table
    before = len(ring.frames)
    press(app, Button.NEXT)
    # The press itself shows one frame: the rest runs on the app's timers, after it.
    assert len(ring.frames) == before + 1
    run_for(app, clock, 2.0)
    chase = [f for _, f, _ in ring.frames[before:-1]]
    heads = [head(f) for f in chase]
    assert heads == [0, 1, 2, 3, 4]  # LED 0 (Ann) to LED 4 (Ben), clockwise
    times = [t for t, _, _ in ring.frames[before:]]
    assert times == sorted(times) and times[-1] - times[0] <= R.CHASE_MAX + 1e-9
    assert lit(ring.last) == [3, 4, 5]  # Ben's seat, at rest


def test_reverse_sweeps_round_the_other_way_and_the_chase_follows_it(table):
    app, ring, clock = table
    app.emit({"type": "reverse"})
    before = len(ring.frames)
    app.handle(object())  # any input: the ring follows what changed
    run_for(app, clock, 3.0)
    heads = [head(f, -1) for _, f, _ in ring.frames[before:-1]]
    # Once round from Ann's LED 0 the other way: 15, 14, ... 1, 0.
    assert heads[:COUNT + 1] == [0, *range(15, 0, -1), 0]
    assert lit(ring.last) == [0, 1, 15]  # still Ann's turn
    # The next turn goes the other way round: to Dee at LED 12.
    before = len(ring.frames)
    press(app, Button.NEXT)
    run_for(app, clock, 2.0)
    heads = [head(f, -1) for _, f, _ in ring.frames[before:-1]]
    assert heads == [0, 15, 14, 13, 12]
    assert lit(ring.last) == [11, 12, 13]


def test_a_skipped_seat_blinks(table):
    app, ring, clock = table
    app.emit({"type": "skip"})
    before = len(ring.frames)
    app.handle(object())
    run_for(app, clock, 2.0)
    ben = [3, 4, 5]
    blinks = [all(f[i] == R.TURN for i in ben) for _, f, _ in ring.frames[before:]]
    assert blinks[:6] == [True, False] * 3  # three blinks of Ben's seat, who will be passed
    before = len(ring.frames)
    press(app, Button.NEXT)  # the turn passes Ben by, to Cy
    run_for(app, clock, 3.0)
    frames = [f for _, f, _ in ring.frames[before:]]
    ons = [i for i, f in enumerate(frames) if all(f[k] == R.TURN for k in ben)]
    offs = [i for i, f in enumerate(frames) if all(f[k] == R.DARK for k in ben)]
    assert len(ons) >= 3 and len(offs) == 3  # Ben blinks three times after the chase
    assert lit(ring.last) == [7, 8, 9]  # Cy


def test_skip_to_chases_to_the_seat_and_blinks_nobody(table):
    app, ring, clock = table
    app.emit({"type": "skip_to", "player": 2})
    before = len(ring.frames)
    app.handle(object())
    run_for(app, clock, 3.0)
    heads = [head(f) for _, f, _ in ring.frames[before:-1]]
    assert heads == list(range(0, 9))  # Ann's LED 0 to Cy's LED 8, and no blink after
    assert lit(ring.last) == [7, 8, 9]


def test_eliminated_seats_are_dark(tmp_path):
    clock = FakeClock()
    ring = RecordingRing(COUNT, clock=clock)
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring)
    try:
        app.lights.look = None  # as if the table came on with Cy out
        table = app.journal.state.table
        look = R.Look.of(State(Table(4, table.current, eliminated=frozenset({2}))))
        frame = R.steady(R.Layout.of(COUNT, 4), look)
        assert frame[8] == R.DARK and frame[4] == R.SEAT
    finally:
        close(app)


def test_a_press_during_an_animation_cuts_it_short_to_the_new_state(table):
    app, ring, clock = table
    press(app, Button.NEXT)
    clock.advance(0.05)
    drain(app)  # one step into the chase to Ben
    press(app, Button.NEXT)  # and on to Cy before it ends
    mark = len(ring.frames)
    run_for(app, clock, 3.0)
    heads = [head(f) for _, f, _ in ring.frames[mark:-1]]
    assert heads == [5, 6, 7, 8]  # only the chase on to Cy: the old one's ticks are ignored
    assert lit(ring.last) == [7, 8, 9]


def test_undo_shows_the_state_at_once(table):
    app, ring, clock = table
    press(app, Button.NEXT)
    run_for(app, clock, 2.0)
    before = len(ring.frames)
    press(app, Button.BACK, hold=True)  # undo
    assert ring.frames[before:] and lit(ring.last) == [0, 1, 15]
    assert len(ring.frames) == before + 1
    run_for(app, clock, 2.0)
    assert len(ring.frames) == before + 1  # no animation


# --- a roll, the clock, the end ------------------------------------------------------------------

def test_a_roll_shows_the_colors_die_colour_for_two_seconds(table):
    app, ring, clock = table
    app.emit({"type": "roll", "player": 0, "dice": {"colors": "green", "shapes": "star"}})
    before = len(ring.frames)
    app.handle(object())
    assert ring.last == (R.DIE["green"],) * COUNT
    t0 = ring.frames[-1][0]
    run_for(app, clock, 3.0)
    assert ring.frames[-1][0] - t0 == pytest.approx(R.ROLL)
    assert lit(ring.last) == [0, 1, 15]
    assert len(ring.frames) == before + 2


def test_a_roll_of_the_logo_shows_every_colour_and_a_roll_without_colors_a_white_sweep(table):
    app, ring, clock = table
    app.emit({"type": "roll", "player": 0, "dice": {"colors": "logo"}})
    app.handle(object())
    assert set(ring.last) == set(R.DIE.values())
    run_for(app, clock, 3.0)
    before = len(ring.frames)
    app.emit({"type": "roll", "player": 0, "dice": {"d8": 5}})
    app.handle(object())
    run_for(app, clock, 3.0)
    sweep = ring.frames[before:-1]
    assert len(sweep) == COUNT
    assert all(not any(p in R.DIE.values() for p in f) for _, f, _ in sweep)


def test_the_clock_warning_turns_the_seat_amber_then_red_at_time(tmp_path):
    clock = FakeClock()
    ring = RecordingRing(COUNT, clock=clock)
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring,
                   rules={"turn_limit": 30})
    try:
        app.render()  # the clock's tick is set by a frame
        run_for(app, clock, 30 - WARN_BEFORE + 0.5)
        assert lit(ring.last, R.WARN) == [0, 1, 15]
        run_for(app, clock, WARN_BEFORE)
        assert lit(ring.last, R.TIME) == [0, 1, 15]
        press(app, Button.NEXT)  # a new turn: lit as usual
        run_for(app, clock, 1.0)
        assert lit(ring.last) == [3, 4, 5]
    finally:
        close(app)


@pytest.mark.parametrize("alarm,seconds", [("warn", 30 - WARN_BEFORE + 0.5), ("time", 30.5)])
def test_a_paused_clock_shows_the_turn_not_the_alarm(tmp_path, alarm, seconds):
    """Issue 34 item 10: paused at the warning or after Time!, the ring stood amber or red
    (and its words said "time is running out"); the clock stands still, so the ring shows
    the turn, as the TV does; going on shows the alarm again."""
    from companion.ui.actions import PauseClock
    colour = R.WARN if alarm == "warn" else R.TIME
    clock = FakeClock()
    ring = RecordingRing(COUNT, clock=clock)
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring,
                   rules={"turn_limit": 30})
    try:
        app.render()
        run_for(app, clock, seconds)
        assert lit(ring.last, colour) == [0, 1, 15]
        assert app.perform(PauseClock(True))
        app.lights.sync()
        run_for(app, clock, 1.0)
        assert app.turn_clock.reading().alarm == alarm  # still that late, but paused
        assert lit(ring.last) == [0, 1, 15]
        assert app.lights.snapshot()["marks"][0] == "turn"
        assert app.perform(PauseClock(False))
        app.lights.sync()
        run_for(app, clock, 0.1)
        assert lit(ring.last, colour) == [0, 1, 15]
    finally:
        close(app)


def test_at_game_over_the_winners_seats_pulse(tmp_path):
    clock = FakeClock()
    ring = RecordingRing(COUNT, clock=clock)
    app = make_app(tmp_path, kind="flower-power", setup=False, clock=clock, ring=ring)
    try:
        app.emit({"type": "petals", "color": "red", "count": 5})  # Ann scores a flower
        app.emit({"type": "end"})
        app.handle(object())
        assert app.journal.state.winners == (0,)
        before = len(ring.frames)
        run_for(app, clock, 2 * R.PULSE)
        glows = [f[0] for _, f, _ in ring.frames[before:]]
        assert len(set(glows)) > 3 and max(glows) == R.WIN and min(glows) < R.WIN
        assert all(f[4] == R.SEAT for _, f, _ in ring.frames[before:])  # the others dim
        # Each pulse lasts PULSE, its steps evenly spaced (from a review: the last step of
        # one pulse was replaced by the next pulse's first at once, two writes at one time).
        times = [t for t, _, _ in ring.frames[before:]]
        gaps = [round(b - a, 6) for a, b in zip(times, times[1:])]
        assert gaps and min(gaps) == max(gaps) == round(R.PULSE / R.PULSE_STEPS, 6), gaps
        press(app, Button.BACK, hold=True)  # undo the end: the pulse stops
        mark = len(ring.frames)
        run_for(app, clock, 2 * R.PULSE)
        assert len(ring.frames) == mark
    finally:
        close(app)


# --- brightness, the end of the app, a failing ring ----------------------------------------------

def _local(hour: int) -> float:
    return time.mktime((2026, 11, 25, hour, 0, 0, 0, 0, -1))


@pytest.mark.parametrize("hour, level", [(23, 0.05), (12, 0.25)])
def test_night_brightness_during_the_night_hours(tmp_path, hour, level):
    clock = FakeClock(_local(hour))
    ring = RecordingRing(COUNT, clock=clock)
    cfg = {"lights": {"night": "22:00-07:00", "brightness": 0.25, "night_brightness": 0.05}}
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring, config=cfg)
    try:
        press(app, Button.NEXT)
        assert ring.frames[-1][2] == level
    finally:
        close(app)


def test_the_night_begins_with_nothing_pressed(tmp_path):
    clock = FakeClock(_local(21) + 59 * 60)  # 21:59
    ring = RecordingRing(COUNT, clock=clock)
    cfg = {"lights": {"night": "22:00-07:00", "brightness": 0.25, "night_brightness": 0.05}}
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring, config=cfg)
    try:
        assert ring.frames[-1][2] == 0.25
        run_for(app, clock, 2 * lights.NIGHT_CHECK)
        assert ring.frames[-1][2] == 0.05
        assert ring.frames[-1][1] == ring.frames[0][1]  # the same picture, dimmer
        shown = len(ring.frames)
        run_for(app, clock, 10 * lights.NIGHT_CHECK)  # nothing changes: nothing is shown
        assert len(ring.frames) == shown
        clock.t = _local(7) + 24 * 3600 + 30  # morning: bright again with nothing pressed
        run_for(app, clock, 2 * lights.NIGHT_CHECK)
        assert ring.frames[-1][2] == 0.25 and len(ring.frames) == shown + 1
    finally:
        close(app)


def test_the_ring_goes_dark_when_the_app_closes(tmp_path):
    clock = FakeClock()
    ring = RecordingRing(COUNT, clock=clock)
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring)
    close(app)
    assert ring.closed and ring.last == (R.DARK,) * COUNT


def test_no_game_is_a_dark_ring(tmp_path):
    clock = FakeClock()
    ring = RecordingRing(COUNT, clock=clock)
    app = make_app(tmp_path, clock=clock, ring=ring)  # the start menu
    try:
        assert ring.frames and ring.last == (R.DARK,) * COUNT
    finally:
        close(app)


class BrokenRing(RecordingRing):
    def show(self, pixels) -> None:
        raise OSError(5, "Input/output error")


def test_a_failing_ring_is_one_log_line_and_the_game_goes_on(tmp_path, caplog):
    clock = FakeClock()
    ring = BrokenRing(COUNT, clock=clock)
    with caplog.at_level(logging.ERROR, logger="companion.app.lights"):
        app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring)
        try:
            press(app, Button.NEXT)
            run_for(app, clock, 2.0)
            press(app, Button.NEXT)
            assert app.journal.state.table.current == 2
        finally:
            close(app)
    assert len([r for r in caplog.records if "seat lights failed" in r.message]) == 1


def test_without_a_ring_nothing_is_scheduled(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        press(app, Button.NEXT)
        assert app.lights.snapshot() is None
        assert not app.lights.plan
    finally:
        close(app)


def test_the_snapshot_has_the_frame_at_rest_and_a_word_for_each_seat(table):
    app, ring, clock = table
    press(app, Button.NEXT)
    snap = app.lights.snapshot()
    assert snap["seats"] == [0, 4, 8, 12]
    assert snap["marks"] == ["", "turn", "", ""]
    assert snap["pixels"][4] == "#ffffff" and snap["pixels"][0] == "#181818"
    assert len(snap["pixels"]) == COUNT
    assert snap["words"] == "Lights: Ben's turn"


def test_the_rings_words():
    assert R.words(("Ann", "Ben", "Cy"), ["won", "", "out"]) == "Lights: Ann wins · out: Cy"
    assert R.words(("Ann", "Ben"), ["", "time"]) == "Lights: Ben: time is up"
    assert R.words(("Ann", "Ben"), ["won", "won"]) == "Lights: Ann, Ben win"
    assert R.words((), []) == "Lights: off"
    assert R.words(("Ann", "Ben"), ["turn", "skip"]) == "Lights: Ann's turn · Ben is skipped"


def test_leds_stand_round_the_panel_from_the_top_middle_clockwise():
    assert R.around(0, 12) == (0.5, 0.0)
    assert R.around(3, 12) == (1.0, 0.5)  # a quarter of the way round: the right side
    assert R.around(6, 12) == (0.5, 1.0)
    assert R.around(9, 12) == (0.0, 0.5)


def test_the_rings_ticks_draw_no_panel_frame():
    from companion.inputs import Tick
    assert lights.quiet(Tick("lights", {"gen": 1, "i": 1}))
    assert not lights.quiet(Tick("clock"))


# --- the emulator ------------------------------------------------------------------------------

def test_the_emulator_draws_the_ring_round_the_panel():
    import io

    from PIL import Image

    from companion.drivers.terminal import border_cells, terminal
    out = io.StringIO()
    term = terminal(out=out, columns=140, rows=40)
    ring = term.ring(16)
    term.display(Image.new("1", (128, 64)))
    out.truncate(0)
    ring.show([(255, 0, 0)] + [(0, 0, 0)] * 14 + [(24, 24, 24)])
    text = out.getvalue()
    assert text.count("\x1b[38;2;255;0;0m●") == 1 and text.count("○") == 14
    assert text.count("\x1b[38;2;88;88;88m●") == 1  # the dim one, as it looks
    top = next(line for line in text.split("\r\n") if "┌" in line)
    assert top.index("●") > top.index("┌") and "─" * 20 in top
    left, right = top.split("\x1b[38;2;255;0;0m")  # LED 0 in the middle of the top edge
    assert abs(left.count("─") - right.count("─")) <= 2
    assert border_cells(4, 3)[:3] == [(0, 2), (0, 3), (1, 3)]  # clockwise from the top middle
    out.truncate(0)
    ring.close()
    assert out.getvalue().count("○") == 16  # dark at the end


# --- the app's timers: one thread, not one a tick -----------------------------------------------

def test_the_apps_timers_post_in_the_order_they_fall_due_from_one_thread():
    import queue
    import threading

    from companion.app.timers import Timers
    from companion.inputs import Tick

    now = [0.0]
    posted: queue.SimpleQueue = queue.SimpleQueue()
    timers = Timers(posted.put, clock=lambda: now[0])
    before = threading.active_count()
    timers.after(5.0, Tick("a"))
    timers.after(1.0, Tick("b"))
    assert threading.active_count() == before + 1  # the one timer thread
    for i in range(50):
        timers.after(1000.0 + i, Tick("later"))
    assert threading.active_count() == before + 1  # and no more for more ticks
    now[0] = 10.0
    timers.after(100.0, Tick("wake"))  # a new tick wakes the thread: a and b are due
    assert posted.get(timeout=10).token == "b"
    assert posted.get(timeout=10).token == "a"
    timers.close()
    now[0] = 10_000.0
    timers.after(0.0, Tick("closed"))
    assert posted.empty()


def test_a_tick_that_cannot_be_posted_loses_that_tick_only(caplog):
    """From a review: the one timer thread ended on an exception in `post`, and every
    timer after it (toasts, the clock, rolls, the lights) was silently lost."""
    import queue

    from companion.app.timers import Timers
    from companion.inputs import Tick

    posted: queue.SimpleQueue = queue.SimpleQueue()

    def post(tick) -> None:
        if tick.token == "bad":
            raise RuntimeError("the queue is gone")
        posted.put(tick)

    timers = Timers(post)
    try:
        timers.after(0.0, Tick("bad"))
        timers.after(0.01, Tick("good"))
        assert posted.get(timeout=10).token == "good"
    finally:
        timers.close()
    assert "posting" in caplog.text and "the queue is gone" in caplog.text


class CountingDisplay:
    def __init__(self) -> None:
        self.shown = 0

    def show(self, image) -> None:
        self.shown += 1


class OneAtATime:
    """The app's queue handing over one item at a time, as if each came alone (the queue is
    empty after each, so the app would draw after each); Quit once the script is done."""

    def __init__(self, items) -> None:
        self.items = list(items)

    def put(self, item) -> None:
        self.items.append(item)

    def get(self):
        from companion.inputs import Quit
        return self.items.pop(0) if self.items else Quit()

    def empty(self) -> bool:
        return True


@pytest.mark.parametrize("ticks", [0, 5])
def test_the_rings_ticks_draw_no_panel_frame_in_the_apps_loop(tmp_path, ticks):
    from companion.inputs import Tick
    display = CountingDisplay()
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, display=display,
                   ring=RecordingRing(COUNT, clock=clock))
    try:
        app.queue = OneAtATime(Tick("lights", {"gen": -1, "i": 1}) for _ in range(ticks))
        app.run()
        # The first frame, and the one its Tick("redraw") asks for: none for the ring's ticks.
        assert display.shown == 2
    finally:
        close(app)


def test_in_the_apps_loop_a_press_is_drawn_before_the_ring_is_worked_out(tmp_path):
    """"Animations ... never delay a press": the ring's work for a press (its animation
    worked out, its first frame sent) waits until the panel shows the press."""
    from companion.inputs import Button, ButtonInput, Gesture

    order: list[str] = []

    class Panel(CountingDisplay):
        def show(self, image) -> None:
            order.append("panel")

    class Ring(RecordingRing):
        def show(self, pixels) -> None:
            order.append("ring")
            super().show(pixels)

    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, display=Panel(),
                   ring=Ring(COUNT, clock=clock))
    try:
        app.queue = OneAtATime([ButtonInput(Button.NEXT, Gesture.PRESS)])
        del order[:]  # the ring at rest, shown when the app was made
        app.run()
        assert app.journal.state.table.current == 1
        # The first frame; NEXT: the panel first, then the chase's first frame (then the
        # first frame's Tick("redraw") queued behind NEXT).
        assert order[:3] == ["panel", "panel", "ring"], order
        assert app.lights.plan and app.lights.look.current == 1
    finally:
        close(app)


def test_a_press_that_ends_the_clocks_warning_publishes_one_snapshot(tmp_path):
    """From a review: with the ring following the panel, a press out of the clock's warning
    published the same snapshot twice (the ring's alarm change marked one due after the
    press's own had carried it), and a tap sent on the first was refused as behind."""
    from companion.inputs import Button, ButtonInput, Gesture

    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock,
                   ring=RecordingRing(COUNT, clock=clock), rules={"turn_limit": 30})
    try:
        published: list[list[str]] = []
        app.bridge.snapshots.publish = lambda snap: published.append(snap["ring"]["marks"])
        clock.advance(23.0)  # 7 s left: the warning
        drain(app)
        app.lights.sync()
        app.snapshot_due = True
        app.flush_snapshot()
        assert published == [["warn", "", "", ""]]
        app.queue = OneAtATime([ButtonInput(Button.NEXT, Gesture.PRESS)])
        app.run()
        assert published[1:] == [["", "turn", "", ""]]  # one, with the new turn's ring
    finally:
        close(app)


# --- the first-pixel trick: a hidden LED 0 inside the box (`[lights] first`) ---------------------

HIDDEN = {"count": 17, "first": 1}  # LED 0 re-sends the signal at 5 V; the seats' LEDs are 1-16


def test_the_hidden_led_stays_dark_through_every_animation(tmp_path):
    clock = FakeClock()
    ring = RecordingRing(17, clock=clock)
    app = make_app(tmp_path / "a", kind="table", setup=False, clock=clock, ring=ring,
                   rules={"turn_limit": 30}, config={"lights": HIDDEN})
    try:
        app.render()  # the clock's tick is set by a frame
        assert lit(ring.last) == [1, 2, 16]  # Ann's seat: LED 1 and its neighbours, not 0
        run_for(app, clock, 30 - WARN_BEFORE + 0.5)  # the warning, then time
        assert lit(ring.last, R.WARN) == [1, 2, 16]
        run_for(app, clock, WARN_BEFORE)
        assert lit(ring.last, R.TIME) == [1, 2, 16]
        press(app, Button.NEXT)  # a turn: the chase
        run_for(app, clock, 2.0)
        assert lit(ring.last) == [4, 5, 6]
        app.emit({"type": "reverse"})  # a sweep once round
        app.handle(object())
        run_for(app, clock, 3.0)
        for dice in ({"colors": "green"}, {"colors": "logo"}, {"d8": 5}):  # colour, five, sweep
            app.emit({"type": "roll", "player": 1, "dice": dice})
            app.handle(object())
            run_for(app, clock, 3.0)
        assert any(f[1:] == (R.DIE["green"],) * 16 for _, f, _ in ring.frames)
        # Two sweeps round the 16 LEDs, a chase, the rolls and the alarms were all shown.
        assert len(ring.frames) > 2 * 16 + 10 and all(len(f) == 17 for _, f, _ in ring.frames)
        assert [f[0] for _, f, _ in ring.frames if f[0] != R.DARK] == []
    finally:
        close(app)
    clock = FakeClock()
    ring = RecordingRing(17, clock=clock)
    app = make_app(tmp_path / "b", kind="flower-power", setup=False, clock=clock, ring=ring,
                   config={"lights": HIDDEN})
    try:
        app.emit({"type": "petals", "color": "red", "count": 5})  # Ann scores a flower
        app.emit({"type": "end"})
        app.handle(object())
        before = len(ring.frames)
        run_for(app, clock, 2 * R.PULSE)  # Ann's seat (LEDs 16, 1, 2) pulses gold
        glows = {f[1] for _, f, _ in ring.frames[before:]}
        assert len(glows) > 3 and R.WIN in glows
        assert [f[0] for _, f, _ in ring.frames if f[0] != R.DARK] == []
    finally:
        close(app)
    assert ring.closed and ring.last == (R.DARK,) * 17


@pytest.mark.parametrize("players, seats, centres", [
    (4, [], [1, 5, 9, 13]),  # spread evenly round LEDs 1-16: seat 0 faces LED 1
    (5, [], [1, 4, 7, 11, 14]),
    (4, [1, 5, 9, 13], [1, 5, 9, 13]),  # the builder's own count of the strip, LED 0 hidden
    (3, [2, 7, 12, 16], [2, 7, 12]),
    (5, [1, 5, 9, 13], [1, 4, 7, 11, 14]),  # more players than listed: spread from LED 1
])
def test_seats_face_the_leds_after_the_hidden_one(tmp_path, players, seats, centres):
    clock = FakeClock()
    ring = RecordingRing(17, clock=clock)
    names = ("Ann", "Ben", "Cy", "Dee", "Eve")[:players]
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, ring=ring, players=names,
                   config={"lights": {**HIDDEN, "seats": seats}})
    try:
        assert lit(ring.last, R.SEAT) == centres[1:]
        assert ring.last[centres[0]] == R.TURN and ring.last[0] == R.DARK
        snap = app.lights.snapshot()  # the pages draw the ring the players see: LEDs 1-16
        assert len(snap["pixels"]) == 16 and snap["seats"] == [c - 1 for c in centres]
    finally:
        close(app)


def test_the_emulator_draws_only_the_ring_the_players_see(tmp_path):
    import io

    from companion import config as configmod
    from companion.cli import run as runmod
    from companion.drivers.terminal import terminal
    term = terminal(out=io.StringIO(), columns=140, rows=40)
    cfg = configmod.Config(configmod.check({"lights": HIDDEN}))
    drawn = runmod._emulator_ring(term, cfg)
    assert drawn.count == 16
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock, config={"lights": HIDDEN})
    try:
        app.lights.attach(drawn, visible=True)
        assert drawn.pixels[0] == R.TURN and drawn.pixels[4] == R.SEAT  # Ann at the top
    finally:
        close(app)


def test_the_ring_pictures_draw_the_visible_ring_under_a_first_pixel_config(tmp_path,
                                                                             monkeypatch):
    # `companion screens` takes the user's config: with the hidden LED the pictures still
    # show 16 dots with each seat's name beside its own lit LED.
    from companion import config as configmod
    from companion.gallery import ring as gallery
    drawn = []
    monkeypatch.setattr(gallery, "picture", lambda panel, frame, players, seats, marks:
                        drawn.append((frame, seats)))
    cfg = configmod.Config(configmod.check({"lights": {**HIDDEN, "seats": [1, 5, 9, 13]}}))
    shot = gallery._Shot(tmp_path, cfg, "table", ("Ann", "Ben", "Cy", "Dee"))
    try:
        shot.take()
    finally:
        shot.close()
    frame, seats = drawn[0]
    assert len(frame) == gallery.COUNT and seats == [0, 4, 8, 12]
    assert lit(frame) == [0, 1, 15] and lit(frame, R.SEAT) == [4, 8, 12]
