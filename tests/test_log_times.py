"""Logs keep the time (issue 28, item 6): an exported log carries each event's time and the
game's start and spans away; the rules never see them, a replay is the same without them,
`companion import` keeps them, and a log with and without them is one game
(docs/log-format.md)."""

from __future__ import annotations

import json
import math
import random
import sqlite3
from pathlib import Path

import pytest

from companion import cli, games
from companion.gallery import sample
from companion.rules.game import Header
from companion.session import asides, log as logmod
from companion.session.clock import Limits, ledger_of
from companion.session.store import Store
from companion.session.tally import History
from companion.testing import FakeClock, choose

T0 = 1_764_100_000.0  # 2025-11-25, a time with room for milliseconds in a float


def strip(lines: list[str]) -> list[str]:
    """A log without its times: as an older companion wrote it."""
    out = []
    for i, line in enumerate(lines):
        obj = json.loads(line)
        for k in (("started", "away") if i == 0 else ("at",)):
            obj.pop(k, None)
        out.append(json.dumps(obj))
    return out


def write(path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def export(tmp_path, db, game: int = 1, name: str = "out.jsonl") -> list[str]:
    out = tmp_path / name
    assert cli.main(["export", "--journal", str(db), "--game", str(game), "-o", str(out)]) == 0
    return out.read_text().splitlines()


def play_with_time_away(path, clock: FakeClock) -> None:
    """A table game: 5 turns of different lengths, set aside once (another game played
    meanwhile) and paused once; left unfinished."""
    with Store(path, clock=clock) as s:
        j = s.new_game(Header("table", ("Ann", "Ben", "Cy")))
        for dt in (12.25, 30.5, 7.125):
            clock.advance(dt)
            j.append({"type": "next"})
        clock.advance(3)
        asides.set_aside(s, 1)  # parked by another game, resumed 600 s later
        clock.advance(600)
        asides.taken_back(s, 1)
        clock.advance(4.5)
        asides.set_aside(s, 1, table="pauses")
        clock.advance(90)
        asides.taken_back(s, 1, table="pauses")
        clock.advance(20.75)
        j.append({"type": "roll", "dice": {"d6": 3}})
        clock.advance(1.5)
        j.append({"type": "next"})


def test_no_kind_has_an_event_field_named_at():
    """"at" is the log's, beside every event: a kind whose event had a field of that name
    would lose it to the reader."""
    for kind in games.kinds():
        for name, move in games.game(kind).moves.items():
            assert logmod.AT not in move.fields, f"{kind}'s {name} event has a field 'at'"
    assert {logmod.STARTED, logmod.AWAY}.isdisjoint(Header("table", ("A",)).to_json())


def test_export_carries_each_events_time_and_the_games_start_and_spans_away(tmp_path):
    clock = FakeClock(T0)
    play_with_time_away(tmp_path / "j.db", clock)
    lines = export(tmp_path, tmp_path / "j.db")
    header = json.loads(lines[0])
    assert header["started"] == T0
    # The aside and the pause, each as it was recorded (to the event after it at the latest).
    assert header["away"] == [[T0 + 52.875, T0 + 652.875], [T0 + 657.375, T0 + 747.375]]
    events = [json.loads(line) for line in lines[1:]]
    assert [e["at"] for e in events] == [T0 + 12.25, T0 + 42.75, T0 + 49.875, T0 + 768.125,
                                         T0 + 769.625]
    assert events[3] == {"type": "roll", "dice": {"d6": 3}, "at": T0 + 768.125}


def test_times_are_written_in_seconds_with_milliseconds():
    j = logmod.read(['{"game": "table", "players": ["A", "B"]}', '{"type": "next"}'])
    j.times[0] = T0 + 1 / 3
    lines = list(logmod.dump(j, logmod.LogTimes(T0 + 0.0004, ((T0 + 0.1, T0 + 0.2),))))
    assert json.loads(lines[0])["started"] == T0
    assert '"at": 1764100000.333}' in lines[1]


def test_the_reader_takes_the_times_off_before_the_rules_and_gives_them_to_the_journal():
    log = logmod.read_log([
        '{"game": "table", "players": ["A", "B"], "started": 100.5, "away": [[110, 120]]}',
        '{"type": "next", "at": 105}',
        '{"type": "skip"}',  # a line added by hand, without a time
        '{"at": 130.25, "type": "next"}'])
    j = log.journal
    assert j.events == [{"type": "next"}, {"type": "skip"}, {"type": "next"}]
    assert j.times[0] == 105 and math.isnan(j.times[1]) and j.times[2] == 130.25
    assert log.times == logmod.LogTimes(100.5, ((110.0, 120.0),))
    # The header the rules see has no times; a log without any has None beside it.
    assert j.header.to_json() == {"game": "table", "players": ["A", "B"], "first": 0,
                                  "rules": {}}
    plain = logmod.read_log(['{"game": "table", "players": ["A", "B"]}', '{"type": "next"}'])
    assert plain.times is None and math.isnan(plain.journal.times[0])
    only_events = logmod.read_log(['{"game": "table", "players": ["A", "B"]}',
                                   '{"type": "next", "at": 5}'])
    assert only_events.times == logmod.LogTimes()


@pytest.mark.parametrize("line, number, words", [
    ('{"type": "next", "at": "x"}', 2, '"at" must be a time in seconds, not "x"'),
    ('{"type": "next", "at": NaN}', 2, '"at" must be a time in seconds, not NaN'),
    ('{"type": "next", "at": Infinity}', 2, '"at" must be a time in seconds, not Infinity'),
    ('{"type": "next", "at": -1}', 2, '"at" must be a time in seconds from 1970 to 9999, not -1'),
    ('{"type": "next", "at": true}', 2, '"at" must be a time in seconds, not true'),
    ('{"type": "next", "at": null}', 2, '"at" must be a time in seconds, not null'),
    ('{"type": "next", "at": [1]}', 2, '"at" must be a time in seconds, not [1]'),
    # Review: a whole number too big for a float was an OverflowError's traceback.
    ('{"type": "next", "at": 1' + "0" * 400 + '}', 2,
     '"at" must be a time in seconds from 1970 to 9999, not 1' + "0" * 38 + "…"),
])
def test_a_time_that_is_not_a_time_is_a_bad_line(tmp_path, capsys, line, number, words):
    log = write(tmp_path / "g.jsonl", ['{"game": "table", "players": ["A", "B"]}', line,
                                       '{"type": "next"}'])
    for command in (["replay", log, "--json"], ["import", log, "--journal",
                                                 str(tmp_path / "j.db")]):
        assert cli.main(command) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == f"companion: {log}: line {number}: {words}\n"
    assert not (tmp_path / "j.db").exists()  # nothing written


@pytest.mark.parametrize("header, words", [
    ({"started": "today"}, '"started" must be a time in seconds, not "today"'),
    ({"started": None}, '"started" must be a time in seconds, not null'),
    ({"away": 5}, '"away" must be a list of [from, to] times, not 5'),
    ({"away": [[1, 2, 3]]}, 'each span of "away" must be [from, to], not [1, 2, 3]'),
    ({"away": [[1, "b"]]}, '"away" must be a time in seconds, not "b"'),
    ({"away": [[5, 1]]}, 'a span of "away" ends before it begins: [5, 1]'),
])
def test_bad_times_in_the_header_are_a_bad_first_line(tmp_path, capsys, header, words):
    log = write(tmp_path / "g.jsonl", [json.dumps({"game": "table", "players": ["A", "B"],
                                                   **header})])
    assert cli.main(["replay", log]) == 1
    assert capsys.readouterr().err == f"companion: {log}: line 1: {words}\n"


def kind_games(kind: str) -> list[tuple[Header, list[dict]]]:
    """Games of `kind` to replay: its demo game, and a longer sample game where it has a
    sample move (finished)."""
    k = games.kinds()[kind]
    out = []
    if k.demo is not None:
        out.append((Header(kind, tuple(k.demo.players), 0, dict(k.demo.rules)),
                    [dict(e) for e in k.demo.events]))
    if k.sample is not None:
        rng = random.Random(28)
        j = logmod.read([json.dumps(sample.header(rng, kind).to_json())])
        sample.play(j, rng, events=60)
        out.append((j.header, list(j.events)))
    return out


@pytest.mark.parametrize("kind", list(games.kinds()))
def test_replay_is_the_same_with_or_without_the_times(tmp_path, capsys, kind):
    made = kind_games(kind)
    assert made, f"{kind} has neither a demo nor a sample game"
    for n, (header, events) in enumerate(made):
        clock = FakeClock(T0)
        db = tmp_path / f"{n}.db"
        with Store(db, clock=clock) as s:
            j = s.new_game(header)
            for e in events:
                clock.advance(7.5)
                j.append(e)
            expected = j.summary()
            text = j.game.text(j.state, j.header)
        timed = export(tmp_path, db)
        assert all("at" in json.loads(line) for line in timed[1:]) and len(timed) > 1
        plain = strip(timed)
        assert plain != timed
        outputs = []
        for name, lines in (("timed", timed), ("plain", plain)):
            log = write(tmp_path / f"{n}-{name}.jsonl", lines)
            assert cli.main(["replay", log, "--json"]) == 0
            outputs.append(capsys.readouterr().out)
            assert cli.main(["replay", log]) == 0
            assert text.split("\n")[0] in capsys.readouterr().out
        assert outputs[0] == outputs[1]  # byte for byte
        assert json.loads(outputs[0]) == expected


def figures(path, game: int):
    """A game's times as the journal holds them: its start, its rows' times, its playing
    time (the statistics) and each seat's seconds (the turn clock), read at its last event."""
    with Store(path, read_only=True) as s:
        created, = s.db.execute("SELECT created FROM games WHERE id=?", (game,)).fetchone()
        ats = [at for at, in s.db.execute("SELECT at FROM events WHERE game_id=? AND "
                                          "status='active' ORDER BY seq", (game,))]
        seconds = {r.id: r.seconds for r in History(s).records()}[game]
        j = s.load(game)
        reading = ledger_of(j, created, asides.away(s.db, game)).read(ats[-1], Limits())
    return created, ats, seconds, reading.totals, reading.turns


def test_import_keeps_the_times_so_playing_time_and_the_clock_survive(tmp_path, capsys):
    clock = FakeClock(T0)
    play_with_time_away(tmp_path / "a.db", clock)
    lines = export(tmp_path, tmp_path / "a.db")
    b = tmp_path / "b.db"
    with Store(b, clock=FakeClock(T0 + 86_400)) as s:  # a day later, another box
        s.new_game(Header("table", ("Dee", "Eve")))  # a game of its own first
    assert cli.main(["import", write(tmp_path / "g.jsonl", lines), "--journal", str(b)]) == 0
    assert "imported game 2: Table, 3 players, 5 events, unfinished" in capsys.readouterr().out
    before = figures(tmp_path / "a.db", 1)
    after = figures(b, 2)
    # The start, every row's time, and each seat's seconds and turns on the turn clock.
    assert after[:2] == before[:2] and after[3:] == before[3:]
    assert after[3] == (12.25 + 3 + 4.5 + 20.75 + 1.5, 30.5, 7.125)  # Ann: less 690 s away
    # The playing time leaves out the time set aside and paused (issue 28, item 5: the
    # statistics of the game played here leave out its pauses once they count them).
    assert after[2] == pytest.approx(769.625 - 600 - 90)
    with Store(b, read_only=True) as s:
        # The spans away, as asides (they count for nobody, as the pause did).
        assert asides.spans(s.db, 2) == [(T0 + 52.875, T0 + 652.875),
                                         (T0 + 657.375, T0 + 747.375)]
        assert s.db.execute("SELECT timed FROM imports WHERE game_id=2").fetchone() == (1,)
    # And exported again, the same log.
    assert export(tmp_path, b, 2, "again.jsonl") == lines


def test_a_log_without_times_imports_as_before(tmp_path, capsys):
    clock = FakeClock(T0)
    play_with_time_away(tmp_path / "a.db", clock)
    plain = strip(export(tmp_path, tmp_path / "a.db"))
    b = tmp_path / "b.db"
    now = T0 + 86_400
    assert cli.main(["import", write(tmp_path / "g.jsonl", plain), "--journal", str(b)]) == 0
    with Store(b, read_only=True) as s:
        assert s.db.execute("SELECT timed FROM imports").fetchall() == [(0,)]
        assert asides.recorded(s.db) == set()  # no spans away
        created, = s.db.execute("SELECT created FROM games").fetchone()
        ats = [at for at, in s.db.execute("SELECT at FROM events")]
        assert created > now and all(at >= created for at in ats)  # the import's time
        assert History(s).records()[0].seconds is None  # no length: its times are not its own
    # Exported again, it has no times either: the import's would be a length it never had.
    assert export(tmp_path, b, 1, "again.jsonl") == plain


def test_a_line_without_a_time_in_a_timed_log_takes_the_time_before_it(tmp_path, capsys):
    lines = ['{"game": "table", "players": ["A", "B"]}', '{"type": "next"}',
             '{"type": "next", "at": 1000.5}', '{"type": "skip"}', '{"type": "next", "at": 1010}']
    b = tmp_path / "b.db"
    assert cli.main(["import", write(tmp_path / "g.jsonl", lines), "--journal", str(b)]) == 0
    with Store(b, read_only=True) as s:
        # No "started": the game started at its first time.
        assert s.db.execute("SELECT created FROM games").fetchone() == (1000.5,)
        assert [at for at, in s.db.execute("SELECT at FROM events ORDER BY seq")] == \
            [1000.5, 1000.5, 1000.5, 1010.0]
        assert History(s).records()[0].seconds == pytest.approx(9.5)


def test_a_log_with_and_without_times_is_one_game(tmp_path, capsys):
    clock = FakeClock(T0)
    play_with_time_away(tmp_path / "a.db", clock)
    timed = export(tmp_path, tmp_path / "a.db")
    plain = strip(timed)
    assert plain != timed
    for first, second in ((timed, plain), (plain, timed)):
        db = tmp_path / f"{len(first[0])}.db"
        assert cli.main(["import", write(tmp_path / "1.jsonl", first), "--journal",
                         str(db)]) == 0
        capsys.readouterr()
        assert cli.main(["import", write(tmp_path / "2.jsonl", second), "--journal",
                         str(db)]) == 0
        assert "already in the journal as game 1; nothing added" in capsys.readouterr().out
    # A game played here and exported with its times is recognised too (never imported).
    for lines in (timed, plain):
        assert cli.main(["import", write(tmp_path / "3.jsonl", lines), "--journal",
                         str(tmp_path / "a.db")]) == 0
        assert "already in the journal as game 1; nothing added" in capsys.readouterr().out


def test_an_imported_game_is_not_this_boxs_time_line(tmp_path, capsys):
    """A game from another box played at the same time as one here: neither loses time to
    the other (only games played here set each other aside)."""
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    play_with_time_away(a, FakeClock(T0))
    clock = FakeClock(T0 + 5)
    with Store(b, clock=clock) as s:
        j = s.new_game(Header("table", ("Dee", "Eve")))
        for _ in range(4):
            clock.advance(100)
            j.append({"type": "next"})
        j.append({"type": "end"})
        s.close_game(j)
    own = figures(b, 1)[2]
    assert own == pytest.approx(400)
    assert cli.main(["import", write(tmp_path / "g.jsonl", export(tmp_path, a)),
                     "--journal", str(b)]) == 0
    assert figures(b, 1)[2] == own
    assert figures(b, 2)[3] == figures(a, 1)[3]


def test_an_imports_table_from_before_the_times_gets_its_column(tmp_path, capsys):
    """A journal whose imports were made before logs had times: they read as untimed (they
    were), and the next import adds the column."""
    b = tmp_path / "b.db"
    play_with_time_away(tmp_path / "a.db", FakeClock(T0))
    timed = export(tmp_path, tmp_path / "a.db")
    other = ['{"game": "table", "players": ["X", "Y"]}', '{"type": "next"}']
    assert cli.main(["import", write(tmp_path / "o.jsonl", other), "--journal", str(b)]) == 0
    db = sqlite3.connect(b)
    db.execute("ALTER TABLE imports DROP COLUMN timed")  # as an older companion made it
    db.commit()
    db.close()
    with Store(b, read_only=True) as s:
        row, = s.history_rows()
        assert row.imported and not row.timed
    assert cli.main(["import", write(tmp_path / "g.jsonl", timed), "--journal", str(b)]) == 0
    with Store(b, read_only=True) as s:
        assert s.db.execute("SELECT game_id, timed FROM imports ORDER BY 1").fetchall() == \
            [(1, 0), (2, 1)]
        assert [(r.imported, r.timed) for r in s.history_rows()] == [(True, False), (True, True)]


def test_the_documented_example_reads_and_imports_as_documented(tmp_path, capsys):
    doc = (Path(__file__).parent.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
    section = doc.split("## Times (optional)", 1)[1].split("\n## ", 1)[0]
    example = section.split("```\n", 1)[1].split("```", 1)[0].splitlines()
    log = logmod.read_log(example)
    header = json.loads(example[0])
    assert log.times == logmod.LogTimes(header["started"], tuple(map(tuple, header["away"])))
    assert list(log.journal.times) == [json.loads(line)["at"] for line in example[1:]]
    outputs = []
    for name, lines in (("timed", example), ("plain", strip(example))):
        assert cli.main(["replay", write(tmp_path / f"{name}.jsonl", lines), "--json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    db = tmp_path / "j.db"
    assert cli.main(["import", str(tmp_path / "timed.jsonl"), "--journal", str(db)]) == 0
    assert export(tmp_path, db) == example


def test_a_journal_from_before_the_asides_exports_the_other_games_played_meanwhile(
        tmp_path, capsys):
    """No asides recorded: the spans in which other games were played between two moves of
    a game are its time away in the statistics, and go into its log's `away`, so that its
    playing time is the same after an import."""
    clock = FakeClock(T0)
    a = tmp_path / "a.db"
    with Store(a, clock=clock) as s:
        j = s.new_game(Header("table", ("Ann", "Ben")))
        clock.advance(60)
        j.append({"type": "next"})
        clock.advance(40)
        other = s.new_game(Header("table", ("Cy", "Dee")), park=True)
        clock.advance(100)
        other.append({"type": "next"})
        clock.advance(700)
        other.append({"type": "next"})
        clock.advance(100)
        j = s.reopen(1, park=True)
        clock.advance(30)
        j.append({"type": "next"})
        j.append({"type": "end"})
        s.close_game(j)
        assert asides.recorded(s.db) == set()
    lines = export(tmp_path, a)
    assert json.loads(lines[0])["away"] == [[T0 + 100, T0 + 900]]
    b = tmp_path / "b.db"
    assert cli.main(["import", write(tmp_path / "g.jsonl", lines), "--journal", str(b)]) == 0
    assert figures(b, 1)[2] == figures(a, 1)[2] == pytest.approx(1030 - 800)


def test_a_resumed_imported_game_has_its_clock(tmp_path, make_app, capsys):
    """Imported with its times and resumed on the box: the turn clock gives each seat the
    seconds it had where the game was played."""
    play_with_time_away(tmp_path / "a.db", FakeClock(T0))
    lines = export(tmp_path, tmp_path / "a.db")
    db = tmp_path / "journal.db"
    assert cli.main(["import", write(tmp_path / "g.jsonl", lines), "--journal", str(db)]) == 0
    app = make_app(path=db)
    app.clock.t = T0 + 769.625 + 20  # resumed 20 s after its last move (Ben's turn)
    choose(app, "Resume Table", prefix=True)
    reading = app.turn_clock.reading()
    assert reading is not None and reading.seat == 1
    assert reading.totals == (12.25 + 3 + 4.5 + 20.75 + 1.5, 30.5 + 20, 7.125)
    assert reading.elapsed == 20
