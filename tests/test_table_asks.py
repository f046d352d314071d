"""A question to the whole table is nobody's turn (docs/clock.md, a table rule; issue
34 items 4 and 5): who deals the next round, who goes first, a roll-off. The rules state
says the table is being asked (`State.asks_table`, declared by each kind from its own
state); the journal notes it for the turn clock (ASKED), so the clock's seconds, the turn
statistics, the snapshot's clock, the lights' warning and "Time!" all leave it out. Checked
across every registered kind; then the two cases of the issue end to end."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from companion import cli, games
from companion.errors import IllegalEvent
from companion.gallery.sample import header
from companion.inputs import Button
from companion.rules.game import Header
from companion.session.clock import ASKED, Ledger, Limits
from companion.session.journal import Journal, turn_mark
from companion.testing import FakeClock, RecordingSpeaker, close, drain, make_app, press
from companion.ui import actions as A
from tests.conftest import every_kind

# The example designs are kinds too (issue 37): New game offers them in these tests.
pytestmark = pytest.mark.usefixtures("designs_offered")

KINDS = sorted(every_kind())
COMMON = ({"type": "next"}, {"type": "skip"}, {"type": "reverse"})


def random_move(rng: random.Random, kind: str, j: Journal) -> dict:
    """A move of the kind's own sample games, or a common one, or the table's pick of who
    goes first (every kind has `first`)."""
    n = len(j.header.players)
    sample = games.get(kind).sample
    roll = rng.random()
    if roll < 0.1:
        return {"type": "first", "player": rng.randrange(n)}
    if sample is None or roll < 0.3:
        return dict(rng.choice(COMMON))
    return sample(rng, n, j.state)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32))
def test_while_the_table_is_asked_nobody_s_clock_runs_in_every_kind(kind, seed):
    """Random legal games of every registered kind, an event every 7 s with a 10 s turn
    limit: whenever the game asks the table a question (Game.question: what the panel and the
    phones ask), the state says the table is asked; then the journal notes nobody's turn, and
    a minute later no seat has gained a second, nothing is left of any limit, and there is no
    alarm (so no warning on the lights and no "Time!")."""
    rng = random.Random(seed)
    j = Journal(header(rng, kind))
    limits = Limits.of({"turn_limit": 10})
    asked = 0
    for k in range(80):
        if j.state.over:
            break
        e = random_move(rng, kind, j)
        try:
            j.append(e)
        except IllegalEvent:
            continue
        j.times[-1] = 7.0 * (k + 1)
        s = j.state
        if j.game.question(s, e) is not None:
            assert s.asks_table, f"{kind}: asks {j.game.question(s, e)} on somebody's turn"
        assert (j.seats[-1] == ASKED) == (s.asks_table and not s.over) == (
            turn_mark(s)[0] == ASKED)
        if s.over or not s.asks_table:
            continue
        asked += 1
        ledger = Ledger(0.0, j.first_seat, len(j.header.players))
        ledger.update(j.times, j.seats, j.turn_numbers)
        at_question, later = ledger.read(j.times[-1], limits), ledger.read(j.times[-1] + 60, limits)
        assert later.seat is None and later.asking and later.alarm == "" and later.left is None
        assert later.totals == at_question.totals and later.turns == at_question.turns


@pytest.mark.parametrize("kind", KINDS)
def test_the_table_s_pick_of_who_goes_first_gives_nobody_a_turn(kind):
    """The stretch that ends with the table's pick of who plays (`first`, which every kind
    takes, before anyone has played) is the table choosing: the seat that stood first gets no
    turn (issue 34.5: a roll-off gave the first-listed player a turn she never played)."""
    j = Journal(Header(kind, ("Ann", "Ben", "Cy", "Dee")))
    if j.state.asks_table:
        pytest.skip("this kind's game starts by asking the table")
    try:
        j.append({"type": "first", "player": 2})
    except IllegalEvent as e:
        pytest.skip(f"{kind} takes no first here: {e}")
    j.times[-1] = 40.0
    j.append({"type": "next"})
    j.times[-1] = 52.0
    ledger = Ledger(0.0, j.first_seat, 4)
    ledger.update(j.times, j.seats, j.turn_numbers)
    r = ledger.read(52.0)
    assert r.turns[0] == 0 and r.totals[0] == 0
    assert r.turns[2] == 1 and r.totals[2] == 12
    assert ledger.playing_seconds() == 52  # the table's 40 s are still the game's time


def test_a_dice_factor_roll_off_gives_the_first_listed_player_no_turn(tmp_path, capsys):
    """docs/rules.md "Dice Factor": 8, 8, 6, 3: the 6 goes first (Cy). The 30 s of the
    roll-off are nobody's: Ann has no turn of 0:00 halving her average, on the clock, in the
    game's record and in `companion stats` (issue 34.5). A tie (every roll shared) asks the
    table to roll again: nobody's turn until they do."""
    clock = FakeClock()
    app = make_app(tmp_path, kind="dice-factor", setup=False, clock=clock)
    try:
        app.render()
        clock.advance(20)
        drain(app)
        app.perform(A.Emit({"type": "roll_off", "rolls": [5, 5, 2, 2]}))  # every roll shared
        assert app.journal.state.asks_table
        clock.advance(10)
        drain(app)
        r = app.turn_clock.reading()
        assert r.seat is None and r.asking and r.totals[0] == 0
        app.perform(A.Emit({"type": "roll_off", "rolls": [8, 8, 6, 3]}))
        r = app.turn_clock.reading()
        assert r.seat == 2 and r.turns[0] == 0 and r.totals[0] == 0
        for _ in range(4):  # four turns of 10 s each: Cy, Dee, Ann, Ben
            clock.advance(10)
            drain(app)
            press(app, Button.NEXT)
        r = app.turn_clock.reading()
        assert r.turns[:4] == (1, 1, 1, 1) and r.average(0) == pytest.approx(10)
        app.perform(A.Emit({"type": "roll", "dice": {"colors": "red", "shapes": "star"}}))
        app.perform(A.Emit({"type": "win", "player": 2}))
    finally:
        close(app)
    assert cli.main(["stats", "--json", "--journal", str(tmp_path / "journal.db")]) == 0
    ann = json.loads(capsys.readouterr().out)["players"]["Ann"]
    assert (ann["turns"], ann["average_turn"]) == (1, 10.0)


def test_chaos_who_deals_is_nobody_s_turn_on_every_output(tmp_path):
    """Issue 34.4: after "Score the round" the table is asked who deals. With a 10 s limit,
    a minute of dealing says no "Time!", the lights show no warning, the snapshot's clock
    runs for nobody, and Cy (on turn when the round was scored) is not charged the wait; the
    pick of who goes first after the dealer starts Dee's clock from 0."""
    from companion.app.clock import snapshot
    from companion.testing import RecordingRing
    clock, speaker, ring = FakeClock(), RecordingSpeaker(), RecordingRing()
    app = make_app(tmp_path, kind="chaos", setup=False, clock=clock, speaker=speaker,
                   ring=ring, rules={"turn_limit": 10})
    try:
        app.render()
        for _ in range(2):  # Ann 5 s, NEXT; Ben 5 s, and he goes out
            clock.advance(5)
            drain(app)
            press(app, Button.NEXT)
        app.perform(A.Emit({"type": "round_points", "points": [12, 0, 30, 4]}))
        assert app.journal.game.question(app.journal.state, app.journal.events[-1])
        for _ in range(60):
            clock.advance(1)
            drain(app)
            app.render()
        r = app.turn_clock.reading()
        assert r.seat is None and r.asking and r.alarm == "" and r.totals[:3] == (5, 5, 0)
        assert "Time!" not in speaker.texts
        assert app.lights.current_look().alarm == ""
        assert not {"warn", "time"} & set(app.lights.snapshot()["marks"])
        clock_json = snapshot(r, app.turn_clock.limits, at=clock.t)
        assert clock_json["seat"] is None and not clock_json["running"] and clock_json["asking"]
        app.perform(A.Emit({"type": "first", "player": 3}))
        r = app.turn_clock.reading()
        assert r.seat == 3 and r.elapsed == 0 and r.totals[:3] == (5, 5, 0)
    finally:
        close(app)


@pytest.mark.parametrize("kind", KINDS)
def test_a_rule_vote_on_the_panel_is_nobody_s_turn(tmp_path, kind):
    """A rule vote (every kind's menu) is a question to the whole table: while its screens
    are up, with a 10 s limit, nobody's clock runs, no "Time!" is said and the snapshot's
    clock says the table is asked; leaving it, the player on turn's clock goes on from where
    it stood."""
    from companion.app.clock import snapshot
    from companion.testing import choose
    clock, speaker = FakeClock(), RecordingSpeaker()
    app = make_app(tmp_path, kind=kind, setup=False, clock=clock, speaker=speaker,
                   rules={"turn_limit": 10})
    try:
        if app.journal.state.asks_table:  # a game that starts by asking the table (a
            app.perform(A.Emit({"type": "first", "player": 0}))  # roll-off): the group picks
        app.render()
        clock.advance(3)
        drain(app)
        seat = app.turn_clock.reading().seat
        assert seat is not None
        press(app, Button.OK, hold=True)
        choose(app, "Rule vote")
        for _ in range(30):
            clock.advance(1)
            drain(app)
            app.render()
        r = app.turn_clock.reading()
        assert r.seat is None and r.asking and r.alarm == "" and r.totals[seat] == 3
        assert "Time!" not in speaker.texts
        clock_json = snapshot(r, app.turn_clock.limits, at=clock.t)
        assert clock_json["asking"] and not clock_json["running"] and not clock_json["paused"]
        press(app, Button.BACK)  # no vote after all: back to the game
        while app.top is not app.stack[0]:
            press(app, Button.BACK)
        clock.advance(2)
        drain(app)
        r = app.turn_clock.reading()
        assert r.seat == seat and r.elapsed == 5 and not r.paused
    finally:
        close(app)


@pytest.mark.parametrize("kind", KINDS)
def test_the_table_picking_the_seat_that_stood_first_gives_it_no_turn_for_the_choosing(kind):
    """The pick is the table's even when it lands on the seat that stood first (Ann, seat
    0): her first turn starts at the pick, not at the game's start. (Before, only a pick that
    handed the turn to another seat was the table's: one roll-off in N, the winner being the
    first-listed, charged her the whole roll-off.)"""
    j = Journal(Header(kind, ("Ann", "Ben", "Cy", "Dee")))
    if j.state.asks_table:
        pytest.skip("this kind's game starts by asking the table")
    try:
        j.append({"type": "first", "player": 0})
    except IllegalEvent as e:
        pytest.skip(f"{kind} takes no first here: {e}")
    j.times[-1] = 40.0
    j.append({"type": "next"})
    j.times[-1] = 52.0
    ledger = Ledger(0.0, j.first_seat, 4)
    ledger.update(j.times, j.seats, j.turn_numbers)
    r = ledger.read(52.0)
    assert r.turns[0] == 1 and r.totals[0] == 12
    assert ledger.playing_seconds() == 52


def test_a_dice_factor_roll_off_won_by_the_first_listed_player_is_not_her_turn():
    """8, 5, 3, 2: Ann, first-listed, wins the roll-off (a phone's roll-off form: no panel
    screen holds the clock). Its 30 s are the table's; her first turn is the 10 s after."""
    j = Journal(Header("dice-factor", ("Ann", "Ben", "Cy", "Dee")))
    j.append({"type": "roll_off", "rolls": [8, 5, 3, 2]})
    j.times[-1] = 30.0
    j.append({"type": "next"})
    j.times[-1] = 40.0
    ledger = Ledger(0.0, j.first_seat, 4)
    ledger.update(j.times, j.seats, j.turn_numbers)
    r = ledger.read(40.0)
    assert r.turns == (1, 0, 0, 0) and r.totals == (10.0, 0.0, 0.0, 0.0)


def test_a_pause_asked_for_while_the_table_is_asked_holds_after_the_question(tmp_path):
    """A phone's Pause while the panel's rule vote holds the clock (its Pause button reads
    "Pause": nobody's clock runs, none is paused) is answered "paused"; the clock must still
    stand when the vote is left, not run on as if nobody had asked for the pause."""
    from companion.testing import choose
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        app.render()
        clock.advance(3)
        drain(app)
        press(app, Button.OK, hold=True)
        choose(app, "Rule vote")
        drain(app)
        app.render()
        assert app.turn_clock.reading().asking
        assert app.perform(A.PauseClock(True))  # what bridge.pause does for a phone
        assert app.turn_clock.paused
        while app.top is not app.stack[0]:
            press(app, Button.BACK)
        clock.advance(5)
        drain(app)
        app.render()
        r = app.turn_clock.reading()
        assert r.paused and r.elapsed == 3
    finally:
        close(app)
