"""The turn clock in the statistics (issue 28, item 5): each game's turns folded by the clock's
own Ledger, playing time less asides and pauses (one figure on /games, /stats and
`companion stats`), per-player average turn, slowest turn and share of the table's time, and
no turn figures from games whose times are not known."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings, strategies as st

from companion import cli
from companion.cli.stats import text as stats_text
from companion.inputs import Button
from companion.session import tally
from companion.session.stats import GameRecord, TurnTimes, compute
from companion.session.store import Store
from companion.testing import FakeClock, close, make_app, press
from companion.ui import actions as A
from companion.web.history import length

T0 = 1000.0  # a FakeClock's start


def play_with_a_pause_and_a_break(tmp_path) -> None:
    """A Table game of Ann, Ben, Cy and Dee (game 1), 1583 s from start to end, of which
    501 s are paused and 950 s a break: 1082 s of playing time, 132 s of them turns:

    - Ann 30 s, NEXT;
    - Ben 10 s, Pause for 500 s, 15 s more, NEXT (25 s);
    - Cy 20 s, NEXT; Dee 40 s, NEXT;
    - Ann: nobody presses for 950 s (a break), Pause and on again 1 s later, 12 s, NEXT;
    - Ben 5 s, and the game ends.
    """
    clock = FakeClock(T0)
    app = make_app(tmp_path, kind="table", setup=False, clock=clock)
    try:
        clock.advance(30)
        press(app, Button.NEXT)
        clock.advance(10)
        assert app.perform(A.PauseClock(True))
        clock.advance(500)
        assert app.perform(A.PauseClock(False))
        clock.advance(15)
        press(app, Button.NEXT)
        clock.advance(20)
        press(app, Button.NEXT)
        clock.advance(40)
        press(app, Button.NEXT)
        clock.advance(950)
        assert app.perform(A.PauseClock(True))
        clock.advance(1)
        assert app.perform(A.PauseClock(False))
        clock.advance(12)
        press(app, Button.NEXT)
        clock.advance(5)
        assert app.emit({"type": "end"})
        assert app.journal is not None and app.journal.state.over
        assert clock.t == T0 + 1583
    finally:
        close(app)


def test_a_game_s_record_has_each_seat_s_turns_from_the_clock(tmp_path):
    play_with_a_pause_and_a_break(tmp_path)
    with Store(tmp_path / "journal.db", read_only=True) as s:
        g, = tally.History(s).records()
    assert g.finished
    assert g.clock == TurnTimes(seconds=(42.0, 30.0, 20.0, 40.0), turns=(2, 2, 1, 1),
                                longest=(30.0, 25.0, 20.0, 40.0))
    # Without the pauses (501 s): 1082 s, of which the break (950 s) is nobody's turn.
    assert g.seconds == pytest.approx(1082)
    assert g.seconds == pytest.approx(sum(g.clock.seconds) + 950)


def test_a_pause_and_a_break_give_one_length_on_games_and_in_stats_json(tmp_path, capsys):
    play_with_a_pause_and_a_break(tmp_path)
    path = tmp_path / "journal.db"
    with Store(path, read_only=True) as s:
        g, = tally.History(s).records()
    assert length(g) == "6 events, 18 min"  # /games and the game's page
    assert cli.main(["stats", "--json", "--journal", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["records"]["longest_minutes"]["minutes"] == 18.0
    ann = out["players"]["Ann"]
    assert (ann["turns"], ann["turn_seconds"], ann["average_turn"]) == (2, 42.0, 21.0)
    assert (ann["slowest_turn"], ann["slowest_turn_game"]) == (30.0, 1)
    assert ann["time_share"] == round(42 / 132, 3)
    assert out["players"]["Dee"]["average_turn"] == 40.0
    assert out["players"]["Ann"]["by_game"]["table"]["average_turn"] == 21.0
    assert out["records"]["slowest_turn"] == {
        "game": 1, "kind": "table", "players": ["Ann", "Ben", "Cy", "Dee"], "winners": [],
        "player": "Dee", "seconds": 40.0}
    assert cli.main(["stats", "--journal", str(path)]) == 0
    text = capsys.readouterr().out
    assert "avg turn" in text and "0:21" in text  # Ann's average in the players' table
    assert "Slowest turn: 0:40 by Dee, game 1" in text


def test_a_saved_record_of_the_old_version_is_folded_again(tmp_path, monkeypatch):
    """Records saved before the turn clock have no turns and counted pauses and breaks as
    played: the version in their key makes every History replay them."""
    play_with_a_pause_and_a_break(tmp_path)
    path = tmp_path / "journal.db"
    with Store(path) as s:
        tally.History(s, save=True).records()
        (key, _), = s.summaries().values()
        assert key.startswith(f"{tally.SUMMARY_VERSION}:") and tally.SUMMARY_VERSION == 5
        old = {"kind": "table", "players": ["Ann", "Ben", "Cy", "Dee"], "created": T0,
               "finished": True, "winners": [], "events": 6, "seconds": 1082.0,
               "scores": None, "extras": {}, "imported": False}
        s.save_summaries([(1, "2" + key[1:], json.dumps(old))])
    with Store(path, read_only=True) as s:
        h = tally.History(s)
        replayed: list[int] = []
        real = h._replay
        monkeypatch.setattr(h, "_replay", lambda row: replayed.append(row.id) or real(row))
        g, = h.records()
    assert replayed == [1] and g.seconds == pytest.approx(1082) and g.clock is not None


def test_imported_games_without_times_give_no_turn_figures(tmp_path, capsys):
    """A log without times imported: its rows carry the moment of the import, so it has no
    length and no turns; a player's averages come from the timed games only, never a 0."""
    play_with_a_pause_and_a_break(tmp_path)
    path = tmp_path / "journal.db"
    log = tmp_path / "old.jsonl"
    log.write_text("\n".join(json.dumps(o) for o in [
        {"game": "table", "players": ["Ann", "Eve"], "first": 0},
        {"type": "next"}, {"type": "next"}, {"type": "next"}, {"type": "end"}]) + "\n")
    assert cli.main(["import", str(log), "--journal", str(path)]) == 0
    capsys.readouterr()
    with Store(path, read_only=True) as s:
        records = {r.id: r for r in tally.History(s).records()}
    assert records[2].imported and records[2].clock is None and records[2].seconds is None
    st = compute(records.values())
    ann, eve = st.players["Ann"], st.players["Eve"]
    assert (ann["played"], ann["timed_games"], ann["turns"], ann["average_turn"]) == (
        2, 1, 2, 21.0)
    assert ann["time_share"] == round(42 / 132, 3)
    assert (eve["played"], eve["timed_games"], eve["turns"]) == (1, 0, 0)
    assert eve["average_turn"] is None and eve["slowest_turn"] is None
    assert eve["time_share"] is None
    assert "Eve" in stats_text(st)  # her row says "-" where a timed player has figures


def test_times_known():
    """Played here, or imported from a log with its times (`imports.timed`): known, unless a
    time is not a number."""
    class Row:
        created = 100.0
        timed = True

    class Untimed(Row):
        timed = False  # imported from a log without times: the import's own stamps

    assert tally.times_known(Row(), [110.0, 150.0])
    assert not tally.times_known(Row(), [110.0, math.nan])
    assert not tally.times_known(Untimed(), [100.1, 100.2])


def record(gid: int, players, seconds, turns, longest, kind="table") -> GameRecord:
    return GameRecord(gid, kind, tuple(players), 0.0, True, (), 10, float(sum(seconds)),
                      None, clock=TurnTimes(tuple(map(float, seconds)), tuple(turns),
                                            tuple(map(float, longest))))


def test_turn_figures_over_games_by_hand():
    games = [
        # Ann 60 s in 3 turns (longest 30), Ben 40 s in 2 (longest 25): 100 s at the table.
        record(1, ("Ann", "Ben"), (60, 40), (3, 2), (30, 25)),
        # Ann sits twice (seats 0 and 2): 50 + 30 s of this game's 100, the table once.
        record(2, ("ann", "Cy", "ANN"), (50, 20, 30), (2, 1, 1), (40, 20, 30)),
        # A game without times: nothing from it (not 0 s, not a turn).
        GameRecord(3, "table", ("Ann", "Ben"), 0.0, True, (), 10, None, None),
        # Unfinished: left out like its wins.
        GameRecord(4, "table", ("Ann", "Ben"), 0.0, False, (), 10, 500.0, None,
                   clock=TurnTimes((400.0, 100.0), (1, 1), (400.0, 100.0))),
        # Another kind: in the all-games figures, not in Table's.
        record(5, ("Ben", "Ann"), (90, 10), (1, 1), (90, 10), kind="match-patch"),
    ]
    st = compute(games)
    ann, ben, cy = st.players["Ann"], st.players["Ben"], st.players["Cy"]
    assert (ann["timed_games"], ann["turns"], ann["turn_seconds"]) == (3, 7, 150.0)
    assert ann["average_turn"] == round(150 / 7, 1)
    assert (ann["slowest_turn"], ann["slowest_turn_game"]) == (40.0, 2)
    assert ann["time_share"] == round(150 / 300, 3)
    assert ann["by_game"]["table"]["time_share"] == round(140 / 200, 3)
    assert ann["by_game"]["table"]["average_turn"] == round(140 / 6, 1)
    assert (ben["turns"], ben["average_turn"], ben["slowest_turn_game"]) == (3, 43.3, 5)
    assert ben["by_game"]["match-patch"]["time_share"] == 0.9
    assert (cy["average_turn"], cy["time_share"]) == (20.0, 0.2)
    assert st.records["slowest_turn"]["player"] == "Ben"
    assert st.records["slowest_turn"]["seconds"] == 90.0
    only = compute(games, kind="table")
    assert only.players["Ben"]["slowest_turn"] == 25.0
    assert only.records["slowest_turn"]["game"] == 2


def test_records_round_trip_with_their_turns():
    g = record(1, ("Ann", "Ben"), (60.5, 40), (3, 2), (30, 25))
    assert tally.record_from_json(1, "closed", json.loads(json.dumps(
        tally.record_to_json(g)))) == g
    bare = GameRecord(2, "table", ("Ann",), 0.0, True, (), 1, None, None)
    assert tally.record_from_json(2, "closed", tally.record_to_json(bare)) == bare


@st.composite
def timed_games(draw) -> list[GameRecord]:
    names = ["Ann", "ann", "Ben", "Cy", "Dee"]
    out = []
    for gid in range(1, draw(st.integers(1, 6)) + 1):
        players = draw(st.lists(st.sampled_from(names), min_size=2, max_size=4))
        n = len(players)
        turns = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
        longest = [draw(st.floats(0, 600)) if t else 0.0 for t in turns]
        seconds = [lo * t for lo, t in zip(longest, turns)]  # each turn at most the longest
        clock = draw(st.sampled_from([None, TurnTimes(tuple(seconds), tuple(turns),
                                                      tuple(longest))]))
        out.append(GameRecord(gid, draw(st.sampled_from(["table", "match-patch"])),
                              tuple(players), 0.0, draw(st.booleans()), (), 5,
                              None if clock is None else sum(seconds), None, clock=clock))
    return out


@settings(max_examples=150, deadline=None)
@given(timed_games())
def test_turn_figures_properties(games):
    st_ = compute(games)
    counted = [g for g in games if g.finished and g.clock is not None]
    total = sum(sum(g.clock.seconds) for g in counted if g.clock is not None)
    assert sum(p["turn_seconds"] for p in st_.players.values()) == pytest.approx(total, abs=0.5)
    for p in st_.players.values():
        for f in (p, *p["by_game"].values()):
            if f["time_share"] is not None:
                assert 0 <= f["time_share"] <= 1
            if f["turns"]:
                assert f["average_turn"] <= f["slowest_turn"] + 0.1
            else:  # no timed turn: no figure, never a 0
                assert f["average_turn"] is None and f["slowest_turn"] is None
            assert f["timed_games"] <= f["played"]


def test_a_turn_that_was_all_break_is_no_turn_live_and_in_the_record(tmp_path):
    """The record's turns are the live clock's: Ben's turn, 16 minutes with no press, is a
    break and no turn on the Time screen, and so in the statistics (docs/stats.md)."""
    clock = FakeClock(T0)
    app = make_app(tmp_path, kind="table", setup=False, players=("Ann", "Ben", "Cy"),
                   clock=clock)
    try:
        clock.advance(10)
        press(app, Button.NEXT)
        clock.advance(16 * 60)
        press(app, Button.NEXT)
        clock.advance(5)
        press(app, Button.NEXT)
        live = app.turn_clock.reading()
        assert app.emit({"type": "end"})
    finally:
        close(app)
    with Store(tmp_path / "journal.db", read_only=True) as s:
        g, = tally.History(s).records()
    assert live.turns == (1, 0, 1) and g.clock is not None
    assert (g.clock.seconds, g.clock.turns) == (live.totals, live.turns)
