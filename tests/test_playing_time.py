"""A game's length is its playing time: the time it sat set aside (parked by another game,
or left for the start menu) is not counted, and /games, /stats and `companion stats` give one
figure with one rounding (issue 26, item 10)."""

from __future__ import annotations

import json

import pytest

from companion import cli
from companion.rules.game import Header
from companion.session import asides
from companion.session.clock import BREAK_AFTER, Ledger
from companion.session.stats import compute, minutes, playing_seconds
from companion.session.store import Store
from companion.session.tally import History
from companion.testing import close, make_app
from companion.ui import actions as A
from companion.web.history import length
from tests.web.test_history import PIG  # Ann 230, Ben 195, Cy 35: Ann wins

T0 = 1_763_830_800.0


class Wall:
    """The journal's clock (events' `at`), moved by hand."""

    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t


def one_event_game(away=()) -> float:
    """A game from 0 to its one event (at 100 s, ending it), less `away`."""
    ledger = Ledger(0.0, 0, 2)
    ledger.update([100.0], [-1], [1], away)
    return playing_seconds(ledger)


def test_playing_seconds_leaves_out_each_span_away_once():
    assert one_event_game() == 100
    assert one_event_game([(10, 30)]) == 80
    assert one_event_game([(10, 30), (20, 40), (90, 500)]) == 60  # overlaps once
    assert one_event_game([(-50, 5), (200, 300)]) == 95  # only within the game
    assert one_event_game([(0, 100)]) == 0
    assert minutes(210) == 3.5 and minutes(160) == 2.7


def test_a_break_is_nobody_s_turn_but_still_playing_time():
    """A stretch of 15 minutes with no press (BREAK_AFTER) counts for no seat, whole; the game
    was on the table all the same: a Pig Farm group that enters only each round's hands has a
    press every twenty minutes, and its game is not 0 minutes long (docs/stats.md)."""
    ledger = Ledger(0.0, 0, 2)
    ledger.update([100.0, 100.0 + BREAK_AFTER, 150.0 + BREAK_AFTER], [1, 0, -1], [1, 2, 3])
    assert playing_seconds(ledger) == 150 + BREAK_AFTER
    assert ledger.read(150.0 + BREAK_AFTER).played == 150  # the seats' seconds
    assert ledger.breaks == [(100.0, 100.0 + BREAK_AFTER)]
    # Rounds entered 20 minutes apart: every stretch a break, no turns, a 60-minute game.
    rounds = Ledger(0.0, 0, 3)
    rounds.update([1200.0, 2400.0, 3600.0], [0, 0, -1], [0, 0, 0])
    assert playing_seconds(rounds) == 3600 and rounds.read(3600.0).turns == (0, 0, 0)


def play_with_breaks(tmp_path) -> Wall:
    """Pig Farm (game 1): a sale at 1 min, parked for a Table game (game 2) at 1:40,
    resumed 1000 s later, a roll, left for the start menu, resumed 3000 s later, ended: 160 s
    of play in 4160 s from start to end."""
    wall = Wall()
    app = make_app(tmp_path)
    app.store.clock = wall
    try:
        assert app.perform(A.NewGame(Header("pig-farm", ("Ann", "Ben", "Cy"))))
        assert app.perform(A.Home())  # the rules read at once (the setup screens are a pause)
        wall.t += 60
        assert app.emit(PIG[0])
        wall.t += 40  # 100 s in: game 1 is parked
        assert app.perform(A.NewGame(Header("table", ("Dee", "Eve"))))
        wall.t += 900
        assert app.emit({"type": "next"})
        wall.t += 100  # 1100 s in: resumed
        assert app.perform(A.ResumeGame(1))
        wall.t += 30
        assert app.emit(PIG[1])
        wall.t += 20  # 1150 s in: left for the start menu
        assert app.perform(A.LeaveGame())
        wall.t += 3000  # 4150 s in: resumed
        assert app.perform(A.ResumeGame(1))
        wall.t += 10
        assert app.emit(PIG[2]) and app.emit(PIG[3])
        assert app.journal is not None and app.journal.state.over
    finally:
        close(app)
    return wall


def test_time_set_aside_is_not_played(tmp_path, capsys):
    play_with_breaks(tmp_path)
    with Store(tmp_path / "journal.db", read_only=True) as s:
        assert asides.spans(s.db, 1) == [(T0 + 100, T0 + 1100), (T0 + 1150, T0 + 4150)]
        records = {r.id: r for r in History(s).records()}
    g = records[1]
    assert g.finished and g.seconds == pytest.approx(160)  # it was 4160 before
    st = compute(records.values())
    assert st.records["longest_minutes"]["game"] == 1
    assert st.records["longest_minutes"]["minutes"] == 2.7
    assert length(g) == "4 events, 2.7 min"  # /games: the same figure, the same rounding
    assert cli.main(["stats", "--json", "--journal", str(tmp_path / "journal.db")]) == 0
    assert json.loads(capsys.readouterr().out)["records"]["longest_minutes"]["minutes"] == 2.7


def test_an_aside_without_its_resume_ends_at_the_next_move(tmp_path):
    """Left for the start menu, the companion stopped, and the game resumed at start-up
    (nothing records that resume): the aside ends at the game's next move."""
    wall = Wall()
    path = tmp_path / "journal.db"
    with Store(path, clock=wall) as s:
        j = s.new_game(Header("table", ("Ann", "Ben")))
        wall.t += 50
        j.append({"type": "next"})
        wall.t += 10
        asides.set_aside(s, 1)
        asides.set_aside(s, 1)  # already aside: one span
        wall.t += 5000
        j.append({"type": "next"})
        wall.t += 20
        j.append({"type": "next"})
        assert asides.spans(s.db, 1) == [(T0 + 60, T0 + 5060)]
        asides.set_aside(s, 1)  # after the last move: adds nothing to its time
        record = History(s).records()[0]
    assert record.seconds == pytest.approx(80)


def test_a_journal_from_before_the_asides_leaves_out_the_other_games_played_meanwhile(
        tmp_path):
    """No asides recorded (a journal written before them): another game's rows between two
    moves of a game show it was set aside, from the first of them to the last."""
    wall = Wall()
    with Store(tmp_path / "journal.db", clock=wall) as s:
        j = s.new_game(Header("table", ("Ann", "Ben")))
        wall.t += 60
        j.append({"type": "next"})
        wall.t += 40  # 100 s in: another game (parks this one), played until 900 s in
        other = s.new_game(Header("table", ("Cy", "Dee")), park=True)
        wall.t += 100
        other.append({"type": "next"})
        wall.t += 700
        other.append({"type": "next"})
        other.undo()  # an undone move was made too
        wall.t += 100  # 1000 s in: resumed
        j = s.reopen(1, park=True)
        wall.t += 30
        j.append({"type": "next"})
        assert asides.spans(s.db, 1) == []  # no table
        records = History(s).records()
    assert records[0].seconds == pytest.approx(1030 - 800)
    assert records[1].seconds == pytest.approx(100)  # to its last active move; none aside


def test_two_games_played_while_one_sat_aside(tmp_path):
    """Game 1 parked at 20 s for game 2 (played to its end), then game 3 from 100 s, then game
    1 resumed: 130 s of other games inside its 210 s; games 2 and 3 lose nothing."""
    wall = Wall()
    with Store(tmp_path / "journal.db", clock=wall) as s:
        j = s.new_game(Header("table", ("Ann", "Ben")))
        wall.t = T0 + 10
        j.append({"type": "next"})
        wall.t = T0 + 20
        two = s.new_game(Header("table", ("Cy", "Dee")), park=True)
        wall.t = T0 + 30
        two.append({"type": "next"})
        wall.t = T0 + 100
        three = s.new_game(Header("table", ("Eve", "Fay")))
        wall.t = T0 + 150
        three.append({"type": "next"})
        wall.t = T0 + 200
        j = s.reopen(1)
        wall.t = T0 + 210
        j.append({"type": "next"})
        seconds = {r.id: r.seconds for r in History(s).records()}
    assert seconds == pytest.approx({1: 80, 2: 10, 3: 50})
