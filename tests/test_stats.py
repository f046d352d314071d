"""Statistics over the journal: hand-computed figures, properties, the CLI, the device screens."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion import cli
from companion.rules.game import Header
from companion.session import stats as statsmod, tally
from companion.session.store import Store
from companion.testing import FakeClock, choose, press


def play(store: Store, clock: FakeClock, header: Header, events: list[dict], *,
         minutes: float = 1.0) -> int:
    j = store.new_game(header)
    step = minutes * 60 / max(1, len(events))
    for e in events:
        clock.advance(step)
        j.append(e)
    clock.advance(60)
    return j.sink.game_id


@pytest.fixture
def journal(tmp_path):
    """Five games, figures worked out by hand in the comments of the tests below."""
    clock = FakeClock(1_700_000_000.0)
    path = tmp_path / "journal.db"
    with Store(path, clock=clock) as s:
        # G1 Pig Farm. Round 1, Ann sells 3 sets (3,3,2), none unmatched: 30 + 2x50 + 100 =
        # 230; Ben 2 sets 15; Cy 1 set 5. Round 2, Ben sells (4,2,2) +1 unmatched: 30 + 150 =
        # 180; Ann 0 sets 0; Cy 3 sets 30. Totals 230 / 195 / 35: Ann wins by 35.
        play(s, clock, Header("pig-farm", ("Ann", "Ben", "Cy")), [
            {"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 0}, {"sets": [2, 2]},
                                       {"sets": [2]}]},
            {"type": "sell", "hands": [{"sets": []}, {"sets": [4, 2, 2], "unmatched": 1},
                                       {"sets": [2, 2, 2]}]},
            {"type": "end"}], minutes=20)
        # G2 Match Patch, " ann " is Ann: pairs 1 / 1 / 0, a shared win by 1.
        play(s, clock, Header("match-patch", (" ann ", "Ben", "Dee")), [
            {"type": "pair", "player": 0}, {"type": "pair", "player": 1}, {"type": "end"}],
             minutes=5)
        # G3 Chaos: 0+50, 300+250, 100+0 = 50 / 550 / 100: Ben (fewest) wins by 50.
        play(s, clock, Header("chaos", ("Ben", "Cy", "Dee")), [
            {"type": "round_points", "points": [0, 300, 100]},
            {"type": "round_points", "points": [50, 250, 0]}], minutes=45)
        # G4 Table, ended by the group: played, nobody won.
        play(s, clock, Header("table", ("ANN", "Dee")), [{"type": "end"}], minutes=2)
        # G5 Penny Badger, unfinished: not counted.
        play(s, clock, Header("penny-badger", ("Ann", "Ben")), [{"type": "claim", "cards": 3}])
    return path


def figures(path, **kw):
    with Store(path, read_only=True) as s:
        return tally.History(s).stats(**kw)


def test_hand_computed_players(journal):
    st_ = figures(journal)
    assert st_.totals == {"finished": 4, "unfinished": 1,
                          "by_game": {"pig-farm": 1, "match-patch": 1, "chaos": 1, "table": 1},
                          "not_counted": []}  # every game replays
    p = st_.players
    # By rating (all four provisional after three games): Ben's Chaos win beat Dee and Cy,
    # two players rated at the start; Ann's Pig Farm win beat Ben and Cy, also new then.
    assert list(p) == ["Ben", "Ann", "Dee", "Cy"]
    ann = p["Ann"]  # shown as first written; " ann " and "ANN" are her
    assert (ann["played"], ann["won"], ann["win_rate"]) == (3, 2, 0.667)
    # (the rating fields are tests/test_ratings.py's)
    assert {k: v for k, v in ann["by_game"]["pig-farm"].items()
            if k not in ("rating", "provisional", "mu", "sigma", "rated_games")} == {
        "played": 1, "won": 1, "win_rate": 1.0, "score": "total", "lowest_wins": False,
        "scored": 1, "average": 230.0, "best": 230, "best_round": 230,
        # G1's three events 400 s apart: each a turn (Ann's, Ben's, Cy's) of 400 s.
        "timed_games": 1, "turns": 1, "turn_seconds": 400.0, "average_turn": 400.0,
        "slowest_turn": 400.0, "slowest_turn_game": 1, "time_share": 0.333}
    assert ann["by_game"]["match-patch"]["best"] == 1
    assert {k: ann["by_game"]["table"][k] for k in ("played", "won", "win_rate")} == {
        "played": 1, "won": 0, "win_rate": 0.0}
    assert "score" not in ann["by_game"]["table"]
    # Turns: G1 400 s, G2 (Ann's one turn: both pairs were in it) 300 s, G4 120 s, of the
    # table's 1200 + 300 + 120 s.
    assert (ann["turns"], ann["turn_seconds"], ann["average_turn"]) == (3, 820.0, 273.3)
    assert (ann["slowest_turn"], ann["slowest_turn_game"]) == (400.0, 1)
    assert ann["time_share"] == round(820 / 1620, 3)
    ben = p["Ben"]
    assert (ben["played"], ben["won"]) == (3, 2)
    assert ben["by_game"]["pig-farm"]["best_round"] == 180
    assert ben["by_game"]["pig-farm"]["average"] == 195.0
    assert ben["by_game"]["chaos"]["best"] == 50 and ben["by_game"]["chaos"]["lowest_wins"]
    assert p["Cy"]["by_game"]["chaos"]["average"] == 550.0
    assert (p["Dee"]["played"], p["Dee"]["won"], p["Cy"]["played"]) == (3, 0, 2)
    # Ann and Ben shared G1 (Ann won) and G2 (both won: neither beat the other).
    assert ann["head_to_head"]["Ben"] == {"games": 2, "won": 1, "lost": 0}
    assert ben["head_to_head"]["Ann"] == {"games": 2, "won": 0, "lost": 1}
    assert ben["head_to_head"]["Dee"] == {"games": 2, "won": 2, "lost": 0}


def test_hand_computed_records(journal):
    r = figures(journal).records
    assert r["biggest_margin"] == {"game": 3, "kind": "chaos", "players": ["Ben", "Cy", "Dee"],
                                   "winners": ["Ben"], "margin": 50, "score": "total"}
    assert (r["closest_game"]["game"], r["closest_game"]["margin"]) == (2, 1)
    assert (r["longest_events"]["game"], r["longest_events"]["events"]) == (1, 3)  # G2 ties
    assert r["longest_minutes"]["game"] == 3
    # Created -> last event; its two gaps of 22.5 min are breaks (no press for 15 min): no
    # one's turn, but playing time all the same (docs/stats.md).
    assert r["longest_minutes"]["minutes"] == 45.0
    # G3's two gaps are breaks, so its one turn has no second and is no turn: the slowest is
    # G1's first, Ann's 400 s (its three turns tie; the first wins).
    assert r["slowest_turn"] == {"game": 1, "kind": "pig-farm", "players": ["Ann", "Ben", "Cy"],
                                 "winners": ["Ann"], "player": "Ann", "seconds": 400.0}


def test_filters(journal):
    only = figures(journal, kind="chaos")
    assert set(only.players) == {"Ben", "Cy", "Dee"} and only.totals["finished"] == 1
    one = figures(journal, player="  BEN ")
    assert list(one.players) == ["Ben"]


def test_history_line(journal):
    st_ = figures(journal)
    g1, g2, g3, g4 = st_.games[:4]
    assert st_.history_line(g1) == "Ann's 1st Pig Farm win in 1 game"
    assert st_.history_line(g3, short=True) == "1st win in 1 game"
    # G2 wrote " ann ", but Ann is shown as her first game wrote her.
    assert st_.history_line(g2) == "Ann's 1st & Ben's 1st Match Patch win"
    assert st_.history_line(g4) == "No winner, the 1st Table game on this box"
    assert st_.history_line(g4, short=True) == ""  # the end screen's own "Game over"
    assert st_.history_line(st_.games[4]) == ""  # unfinished


def test_history_line_counts_up_to_its_own_game(journal):
    """A game's line is what it was when it ended: later games do not change it."""
    clock = FakeClock(1_800_000_000.0)
    with Store(journal, clock=clock) as s:
        for pairs in ([1, 0, 0], [0, 0, 1], [1, 0, 0]):  # Ann wins, Dee wins, Ann wins
            play(s, clock, Header("match-patch", ("Ann", "Ben", "Dee")),
                 [{"type": "pair", "player": seat} for seat, n in enumerate(pairs) if n]
                 + [{"type": "end"}])
    st_ = figures(journal)
    by_id = {g.id: g for g in st_.games}
    assert st_.history_line(by_id[2]) == "Ann's 1st & Ben's 1st Match Patch win"
    assert st_.history_line(by_id[6]) == "Ann's 2nd Match Patch win in 2 games"
    assert st_.history_line(by_id[7], short=True) == "1st win in 3 games"  # Dee
    assert st_.history_line(by_id[8]) == "Ann's 3rd Match Patch win in 4 games"
    assert st_.history_line(by_id[4]) == "No winner, the 1st Table game on this box"


def test_names_are_shown_as_first_written_whatever_the_filter(journal):
    """Ann is "Ann" in G1 and " ann " in G2: a filter to Match Patch keeps "Ann", in the
    players and in the records (docs/stats.md)."""
    only = figures(journal, kind="match-patch")
    assert set(only.players) == {"Ann", "Ben", "Dee"}
    assert only.records["closest_game"]["players"] == ["Ann", "Ben", "Dee"]
    assert only.records["closest_game"]["winners"] == ["Ann", "Ben"]


def test_a_winner_behind_on_the_score_has_no_margin():
    """Drop Rainbow: seven colours win at once, with fewer cards than another seat
    (docs/rules.md): no negative "closest game"."""
    rainbow = statsmod.GameRecord(1, "drop-rainbow", ("Ann", "Ben"), 0.0, True, (1,), 20, 60.0,
                                  (13, 9))
    cards = statsmod.GameRecord(2, "drop-rainbow", ("Ann", "Ben"), 0.0, True, (0,), 20, 60.0,
                                (10, 9))
    assert rainbow.margin() is None and cards.margin() == 1
    r = statsmod.compute([rainbow, cards]).records
    assert (r["closest_game"]["game"], r["closest_game"]["margin"]) == (2, 1)
    assert r["biggest_margin"]["game"] == 2


def test_cache_replays_only_what_changed(journal, monkeypatch):
    with Store(journal) as s:
        h = tally.History(s)
        first = h.stats()
        calls = []
        real = h._replay
        monkeypatch.setattr(h, "_replay", lambda row: calls.append(row.id) or real(row))
        assert h.stats().players == first.players and calls == []
        j = s.resume()  # G5, the open game: one more claim, then undo it
        j.append({"type": "pass"})
        h.stats()
        assert calls == [5]
        j.undo()
        h.stats()
        assert calls == [5, 5]


def test_saved_records_spare_a_restart_the_replays(journal, monkeypatch):
    with Store(journal, read_only=True) as s:  # a read-only History never saves
        tally.History(s).records()
        assert s.summaries() == {}
    with Store(journal) as s:
        first = tally.History(s, save=True).stats()
        assert sorted(s.summaries()) == [1, 2, 3, 4]  # the finished games only
    with Store(journal) as s:
        again = tally.History(s)
        monkeypatch.setattr(again, "_replay", lambda row: pytest.fail(f"replayed {row.id}")
                            if row.id != 5 else tally.History._replay(again, row))
        assert again.stats().to_json() == first.to_json()
        # A finished game taken back (undo of its end) no longer matches its saved record.
        s.db.execute("UPDATE games SET status='open' WHERE id=4")
        s.db.execute("UPDATE games SET status='closed' WHERE id=5")
        j = s.resume()
        j.undo()
        replayed = []
        monkeypatch.setattr(again, "_replay", lambda row: replayed.append(row.id) or
                            tally.History._replay(again, row))
        # 4 changed; 5 changed status and, unfinished, has no saved record.
        assert again.stats().totals["finished"] == 3 and replayed == [4, 5]


def test_a_reader_sees_one_moment_while_the_box_moves(journal, monkeypatch):
    """The background replay (or the web) reads on its own connection while the app thread
    writes: a move landing between reading a game's key and its events gave a finished
    record saved under the unfinished game's key (an undo then made it match for good)."""
    with Store(journal) as writer, Store(journal, read_only=True) as reader:
        j = writer.resume()  # G5, open: one claim
        h = tally.History(reader)
        real = tally.History._replay

        def replay(self, row):
            if row.id == 5 and not j.state.over:
                j.append({"type": "end"})  # the last move, mid-read
            return real(self, row)

        monkeypatch.setattr(tally.History, "_replay", replay)
        g5 = next(r for r in h.records() if r.id == 5)
        assert j.state.over and not g5.finished and g5.events == 1
        assert all(u[0] != 5 for u in h.unsaved)  # unfinished: nothing to save for it
        g5 = next(r for r in h.records() if r.id == 5)  # the next read sees the move
        assert g5.finished and g5.events == 2


def test_a_damaged_saved_record_is_replayed(journal):
    with Store(journal) as s:
        tally.History(s, save=True).records()
        s.db.execute("UPDATE game_stats SET record='{oops' WHERE game_id=1")
        assert tally.History(s).stats().players["Ann"]["won"] == 2


def test_unreadable_game_is_left_out(journal):
    with Store(journal) as s:
        s.db.execute("UPDATE events SET body='{\"type\": \"nope\"}' WHERE game_id=3")
        h = tally.History(s)
        assert h.stats().totals["finished"] == 3 and h.unreadable == [3]


# --- properties ---------------------------------------------------------------------------------

NAMES = ["Ann", "ann ", " ANN", "Ben", "Cy", "cy", "Dee"]
KINDS = ["table", "pig-farm", "chaos", "match-patch"]


@st.composite
def records(draw):
    out = []
    for gid in range(1, draw(st.integers(0, 12)) + 1):
        players = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=5))
        n = len(players)
        winners = draw(st.sets(st.integers(0, n - 1), max_size=n))
        kind = draw(st.sampled_from(KINDS))
        scores = None if kind == "table" else tuple(draw(st.lists(
            st.integers(0, 600), min_size=n, max_size=n)))
        out.append(statsmod.GameRecord(gid, kind, tuple(players), 0.0, draw(st.booleans()),
                                       tuple(sorted(winners)), draw(st.integers(0, 300)),
                                       draw(st.none() | st.floats(0, 1e5)), scores))
    return out


@settings(max_examples=200, deadline=None)
@given(records())
def test_wins_and_seats_add_up(games):
    st_ = statsmod.compute(games)
    finished = [g for g in games if g.finished]
    assert sum(p["won"] for p in st_.players.values()) == sum(len(g.winners) for g in finished)
    assert sum(p["played"] for p in st_.players.values()) == sum(len(g.players)
                                                                for g in finished)
    for name, p in st_.players.items():
        assert p["played"] == sum(k["played"] for k in p["by_game"].values())
        assert 0 <= p["won"] <= p["played"]
        for other, h in p["head_to_head"].items():
            mirror = st_.players[other]["head_to_head"][name]
            assert (h["games"], h["won"], h["lost"]) == (mirror["games"], mirror["lost"],
                                                         mirror["won"])
    assert len(st_.players) == len({statsmod.key(n) for g in finished for n in g.players})
    for rec in ("biggest_margin", "closest_game"):
        assert st_.records[rec] is None or st_.records[rec]["margin"] >= 0


# --- the command --------------------------------------------------------------------------------

def test_cli_json_and_text(journal, capsys):
    assert cli.main(["stats", "--json", "--journal", str(journal)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"games", "players", "records"}
    assert out["players"]["Ann"]["won"] == 2
    assert out["players"]["Ann"]["by_game"]["pig-farm"]["won"] == 1
    assert cli.main(["stats", "--journal", str(journal), "--game", "pig-farm"]) == 0
    text = capsys.readouterr().out
    assert "Ann" in text and "Pig Farm: won 1 of 1 (100%); total average 230" in text
    assert "Dee" not in text


def test_cli_refuses_unknown_kind_and_player(journal, capsys):
    assert cli.main(["stats", "--journal", str(journal), "--game", "poker"]) == 2
    assert "unknown game 'poker'" in capsys.readouterr().err
    assert cli.main(["stats", "--journal", str(journal), "--player", "Zed"]) == 1
    assert "no finished games with a player called 'Zed'" in capsys.readouterr().err


def test_cli_without_journal(tmp_path, capsys):
    assert cli.main(["stats", "--journal", str(tmp_path / "none.db")]) == 0
    assert "No finished games yet." in capsys.readouterr().out
    assert not (tmp_path / "none.db").exists()


# --- on the device --------------------------------------------------------------------------------

def test_records_screen_and_end_line(make_app, tmp_path):
    from companion.inputs import Button
    from companion.ui.records import RecordsScreen

    app = make_app()
    press(app, Button.OK)  # New game
    choose(app, "Match Patch")
    press(app, Button.OK)  # 4 players
    while app.journal.state.over is False and len(app.stack) > 1:
        press(app, Button.OK)  # house rules, first player
    app.emit({"type": "pair", "player": 2})
    app.emit({"type": "end"})
    app.render()
    assert app.journal.state.winners == (2,)
    assert app.top.render(app.ctx()) is not None
    from companion.ui.records import end_line
    assert end_line(app.ctx()) == "1st win in 1 game"
    press(app, Button.OK)  # the end screen's menu: play again or leave
    choose(app, "Start menu")
    choose(app, "Records")
    assert isinstance(app.top, RecordsScreen) and app.top.kind == "match-patch"
    rows = app.top.rows(app.ctx())
    # (name, rating, provisional, won, played): after one game everyone is new, the winner
    # highest (docs/stats.md, "Ratings")
    assert rows[0][0] == "Cy" and rows[0][2:] == (True, 1, 1) and len(rows) == 4
    assert rows[0][1] > max(r[1] for r in rows[1:])
    press(app, Button.OK)  # next kind: all games
    assert app.top.kind == ""
    press(app, Button.BACK)
    assert app.top.title == "Chroma Companion"


def test_stats_are_computed_on_demand_and_kept(make_app, monkeypatch):
    import companion.session.tally as S  # History computes through the name it imported
    calls = []
    real = S.compute
    monkeypatch.setattr(S, "compute", lambda *a, **k: calls.append(1) or real(*a, **k))
    app = make_app()
    app.render()
    assert calls == []  # not at start-up
    app.ctx().stats()
    app.ctx().stats()
    assert calls == [1]


def test_a_game_over_at_start_up_gets_its_line_after_the_first_frame(make_app, tmp_path,
                                                                      monkeypatch):
    import companion.session.tally as S  # History computes through the name it imported
    with Store(tmp_path / "journal.db") as s:
        j = s.new_game(Header("match-patch", ("Ann", "Ben")))
        j.append({"type": "pair", "player": 1})
        j.append({"type": "end"})
    calls = []
    real = S.compute
    monkeypatch.setattr(S, "compute", lambda *a, **k: calls.append(1) or real(*a, **k))
    app = make_app()
    assert app.ctx().stats is None  # the end screen's first frame: no statistics yet
    app.render()
    assert calls == []
    from companion.ui.records import end_line
    assert end_line(app.ctx()) == "1st win in 1 game" and calls == [1]


def test_bench_journal_is_all_finished_and_saved(tmp_path):
    """bench/stats.py's journal (its plumbing, not its speed)."""
    from bench.stats import build
    build(tmp_path / "b.db", games=14, events=40)
    with Store(tmp_path / "b.db") as s:
        assert [g.events for g in s.games()] == [40] * 14
        st_ = tally.History(s, save=True).stats()
        assert st_.totals["finished"] == 14 and len(s.summaries()) == 14
        assert s.verify(1) == []  # written with checksums, like play


def test_a_journal_of_old_games_is_counted_off_the_app_thread(journal, make_app,
                                                                monkeypatch):
    """Games with no saved record past the budget (a journal from before the statistics) are
    replayed by a thread of its own; the app thread only saves what it posts back, and the
    screens say "Counting" meanwhile, never frozen (issue 13: "must not slow" the box)."""
    import threading

    from companion.app import statscache as appmod
    from companion.inputs import StatsFilled
    from companion.ui.records import RecordsScreen, end_line
    monkeypatch.setattr(appmod, "STATS_BUDGET", 3)  # the fixture's 4 finished games: 8 events
    app = make_app(path=journal)
    app.render()  # the first frame: no statistics in it
    replayed_on: list[str] = []
    real = tally.History._replay
    monkeypatch.setattr(tally.History, "_replay", lambda self, row: replayed_on.append(
        threading.current_thread().name) or real(self, row))
    assert app.stats() is None and app.stats() is None  # asked twice, one background replay
    ctx = app.ctx()
    assert RecordsScreen(ctx).rows(ctx) == [] and end_line(ctx) == ""
    item = app.queue.get(timeout=30)
    assert isinstance(item, StatsFilled) and len(item.records) == 4
    assert replayed_on and set(replayed_on) == {"stats"}  # none on the app thread
    assert app.store.summaries() == {}  # the background thread wrote nothing
    app.handle(item)
    assert sorted(app.store.summaries()) == [1, 2, 3, 4]  # saved by the app thread
    replayed_on.clear()
    st_ = app.stats()
    assert st_.totals["finished"] == 4 and st_.players["Ann"]["won"] == 2
    # None replayed here: the thread's records taken over, the open game's too (unfinished:
    # never saved, but unchanged since the thread read it).
    assert replayed_on == []


def test_a_small_backlog_is_counted_at_once_on_the_app_thread(journal, make_app):
    app = make_app(path=journal)
    app.render()
    assert app.stats().totals["finished"] == 4 and app.queue.empty()


def test_records_screen_pages_sixteen_players(config):
    from companion.inputs import Button
    from companion.ui.records import RecordsScreen
    from companion.ui.screen import Context
    names = [f"P{i:02d}" for i in range(16)]
    games = [statsmod.GameRecord(i + 1, "match-patch", tuple(names), 0.0, True, (i,), 10,
                                 None, None) for i in range(16)]
    games.append(statsmod.GameRecord(17, "match-patch", tuple(names), 0.0, True, (3,), 10,
                                     None, None))
    stats = statsmod.compute(games)
    ctx = Context(config=config, stats=lambda: stats)
    screen = RecordsScreen(ctx)
    assert screen.kind == "match-patch" and screen.pages(ctx) == 4
    first = screen.rows(ctx)[0]  # the best rated: P03 won twice (established after 5 games)
    assert first[0] == "P03" and first[2:] == (False, 2, 17)
    seen = []
    for _ in range(5):  # DOWN stops at the last page
        screen.render(ctx)
        seen.append(screen.page)
        screen.on_press(Button.DOWN, ctx)
    assert seen == [0, 1, 2, 3, 3]
    screen.on_press(Button.UP, ctx)
    assert screen.page == 2
    screen.on_press(Button.OK, ctx)  # the next choice: all games, first page
    assert (screen.kind, screen.page) == ("", 0)


# --- games the statistics cannot count ------------------------------------------------------------

def _gone_kind(path, game_id: int, kind: str = "gone-kind") -> None:
    """Game `game_id`'s header renamed to a kind nobody installed: a house game uninstalled
    since (its record not saved), as the statistics meet it."""
    import sqlite3
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET header=replace(header, '\"pig-farm\"', ?) WHERE id=?",
               (f'"{kind}"', game_id))
    db.commit()
    db.close()


def test_a_game_of_a_kind_not_installed_is_said_not_counted(journal, capsys):
    """It used to drop out of the figures unsaid (0 finished games, nothing about why), while
    the same game counted on a box that had saved its record: now it is named, with why."""
    with Store(journal) as s:
        pig = next(g.id for g in s.games() if g.header.game == "pig-farm")
        before = tally.History(s).stats().totals["finished"]
    _gone_kind(journal, pig)
    with Store(journal) as s:
        history = tally.History(s)
        st_ = history.stats()
        assert st_.totals["finished"] == before - 1
        assert st_.totals["not_counted"] == [
            {"game": pig, "kind": "gone-kind", "why": "not installed here"}]
        assert history.unreadable == [pig]
        # A filter on another kind does not mention it.
        assert statsmod.compute(history.records(), kind="chaos",
                                left_out=history.left_out).totals["not_counted"] == []
    assert cli.main(["stats", "--journal", str(journal)]) == 0
    assert f"Not counted: game {pig} (gone-kind: not installed here)" in capsys.readouterr().out
    assert cli.main(["stats", "--json", "--journal", str(journal)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"]["not_counted"][0]["why"] == "not installed here"


def test_a_game_that_no_longer_replays_is_said_not_counted(journal):
    import sqlite3
    with Store(journal) as s:
        pig = next(g.id for g in s.games() if g.header.game == "pig-farm")
    db = sqlite3.connect(journal)  # an illegal event in place of a legal one
    db.execute("UPDATE events SET body='{\"type\": \"fly\"}' WHERE game_id=? AND seq=0", (pig,))
    db.commit()
    db.close()
    with Store(journal) as s:
        st_ = tally.History(s).stats()
    [left] = st_.totals["not_counted"]
    assert left["game"] == pig and left["kind"] == "pig-farm"
    assert "no longer replays" in left["why"] and "companion doctor" in left["why"]
    assert statsmod.not_counted_lines(st_.totals) == [
        f"Not counted: game {pig} (Pig Farm: {left['why']})"]


def test_records_screen_ranks_a_regular_above_a_newcomer_who_won_once():
    """Issue 38: 12 wins in 30 games over 1 win in 1 game; the screen shows "new" for a
    provisional rating and never overlaps its columns (a 1234/1234 takes room from names)."""
    from types import SimpleNamespace

    from PIL import Image, ImageDraw

    from companion.ui.records import RecordsScreen
    def skill(rating: float, provisional: bool, won: int, played: int) -> dict:
        return {"rating": round(rating, 1), "provisional": provisional, "won": won,
                "played": played, "mu": rating + 3 * 8.0, "sigma": 8.0}

    kind = {"Ben": skill(12.34, False, 2, 9), "Ann": skill(12.31, False, 3, 9)}
    players = {  # in the statistics' order (stats.compute ranks by the exact rating)
        "Regular": {**skill(2.4, False, 12, 30), "by_game": {"pig-farm": kind["Ben"]}},
        "Marathon": {**skill(-12.3, False, 1234, 1234), "by_game": {"pig-farm": kind["Ann"]}},
        "Newcomer": {**skill(3.1, True, 1, 1), "by_game": {}},
    }
    stats = SimpleNamespace(players=players, games=[], totals={"by_game": {"pig-farm": 1}})
    ctx = SimpleNamespace(stats=lambda: stats)
    screen = RecordsScreen(ctx)  # type: ignore[arg-type]
    screen.kind = ""
    assert [r[0] for r in screen.rows(ctx)] == ["Regular", "Marathon", "Newcomer"]
    # One kind: by its exact rating, though both show 12.3 and the second has more wins.
    screen.kind = "pig-farm"
    assert [r[0] for r in screen.rows(ctx)] == ["Regular", "Marathon"]
    screen.kind = ""
    img = Image.new("1", (128, 64))
    screen.draw_on(ImageDraw.Draw(img), ctx)  # type: ignore[arg-type]
    assert img.getbbox() is not None
