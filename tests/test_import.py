"""`companion import`: checked by replay, all or nothing, once only, unfinished games parked."""

from __future__ import annotations

import sqlite3

from companion import cli
from companion.inputs import Button
from companion.rules.game import Header
from companion.session import log as logmod
from companion.session.history import log_times
from companion.session.store import Store
from companion.testing import choose, press

PENNY = [{"type": "claim", "cards": 3}, {"type": "claim", "cards": 2, "challengers": [0],
                                          "truthful": False}, {"type": "pass"}]


def dump_db(path) -> list:
    """Every row of every table: what "nothing written" compares."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [t for t, in db.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                          "ORDER BY name")]
        return [(t, db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()) for t in tables]
    finally:
        db.close()


def export_lines(path, game_id: int) -> list[str]:
    """Game `game_id` as `companion export` writes it (its times too)."""
    with Store(path, read_only=True) as s:
        return list(logmod.dump(s.load(game_id), log_times(s, game_id)))


def make_log(tmp_path, events, *, name="game.jsonl", header=None) -> str:
    header = header or {"game": "penny-badger", "players": ["Ann", "Ben", "Cy"]}
    p = tmp_path / name
    p.write_text("\n".join(__import__("json").dumps(o) for o in [header, *events]) + "\n")
    return str(p)


def test_round_trip_export_import_export(tmp_path, capsys):
    a = tmp_path / "a.db"
    with Store(a) as s:
        j = s.new_game(Header("penny-badger", ("Ann", "Ben", "Cy")))
        for e in [*PENNY, {"type": "end"}]:
            j.append(e)
    exported = tmp_path / "game.jsonl"
    assert cli.main(["export", "--journal", str(a), "-o", str(exported)]) == 0
    b = tmp_path / "b.db"
    assert cli.main(["import", str(exported), "--journal", str(b)]) == 0
    assert "imported game 1: Penny Badger, 3 players, 4 events, finished (Ann)" in \
        capsys.readouterr().out
    assert export_lines(b, 1) == export_lines(a, 1) == exported.read_text().splitlines()
    with Store(b) as s:
        assert s.resume() is None and s.unfinished() == []  # finished: stored closed


def test_importing_twice_adds_nothing(tmp_path, capsys):
    db = tmp_path / "j.db"
    log = make_log(tmp_path, PENNY)
    assert cli.main(["import", log, "--journal", str(db)]) == 0
    before = dump_db(db)
    # The same game written differently (key order, spacing, the rules' defaults spelled out).
    same = tmp_path / "same.jsonl"
    same.write_text('{"players": ["Ann", "Ben", "Cy"], "rules": {"bank": 100}, '
                    '"game": "penny-badger"}\n' + "\n".join([
                        '{"cards":3,"type":"claim"}',
                        '{"type": "claim", "truthful": false, "challengers": [0], "cards": 2}',
                        '{"type": "pass"}']) + "\n")
    capsys.readouterr()
    for again in (log, str(same)):
        assert cli.main(["import", again, "--journal", str(db)]) == 0
        assert "already in the journal as game 1; nothing added" in capsys.readouterr().out
    assert dump_db(db) == before


def test_a_game_played_here_and_exported_is_not_imported_again(tmp_path, capsys):
    """Restoring history from exports: a game the box played itself is recognised by its
    header and events, though it was never imported."""
    db = tmp_path / "j.db"
    with Store(db) as s:
        j = s.new_game(Header("penny-badger", ("Ann", "Ben", "Cy")))
        for e in [*PENNY, {"type": "end"}]:
            j.append(e)
        j.undo()  # an undone event is not part of the game
        j.append({"type": "end"})
    exported = tmp_path / "game.jsonl"
    assert cli.main(["export", "--journal", str(db), "-o", str(exported)]) == 0
    before = dump_db(db)
    capsys.readouterr()
    assert cli.main(["import", str(exported), "--journal", str(db)]) == 0
    assert "already in the journal as game 1; nothing added" in capsys.readouterr().out
    assert dump_db(db) == before
    # One event fewer is another game.
    shorter = make_log(tmp_path, PENNY)
    assert cli.main(["import", shorter, "--journal", str(db)]) == 0
    assert "imported game 2" in capsys.readouterr().out


def test_import_onto_a_damaged_journal_says_it_was_set_aside(tmp_path, capsys):
    db = tmp_path / "j.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    assert cli.main(["import", make_log(tmp_path, PENNY), "--journal", str(db)]) == 0
    captured = capsys.readouterr()
    assert "was damaged" in captured.err and "a new one started" in captured.err
    assert "imported game 1" in captured.out
    assert list(tmp_path.glob("j.db.damaged-*"))


def test_an_illegal_line_is_refused_and_nothing_is_written(tmp_path, capsys):
    db = tmp_path / "j.db"
    with Store(db) as s:
        j = s.new_game(Header("table", ("Ann", "Ben")))
        j.append({"type": "next"})
    before = dump_db(db)
    bad = make_log(tmp_path, [*PENNY[:2], {"type": "claim", "cards": 9}, {"type": "pass"}])
    assert cli.main(["import", bad, "--journal", str(db)]) == 1
    err = capsys.readouterr().err
    assert "line 4: claim: cards must be a number 1-8, not 9" in err and "Traceback" not in err
    assert dump_db(db) == before
    not_json = make_log(tmp_path, PENNY, name="x.jsonl")
    with open(not_json, "a") as f:
        f.write("{oops\n")
    assert cli.main(["import", not_json, "--journal", str(db)]) == 1
    assert "line 5: not valid JSON" in capsys.readouterr().err
    assert dump_db(db) == before
    # No journal yet: none is created for a refused log.
    fresh = tmp_path / "fresh.db"
    assert cli.main(["import", bad, "--journal", str(fresh)]) == 1
    assert not fresh.exists()


def test_missing_file_is_one_line(tmp_path, capsys):
    assert cli.main(["import", str(tmp_path / "nope.jsonl"), "--journal",
                     str(tmp_path / "j.db")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: cannot read") and err.count("\n") == 1


def test_unfinished_import_is_offered_from_the_start_menu(tmp_path, make_app, capsys):
    db = tmp_path / "journal.db"
    with Store(db) as s:  # a finished game on this box first
        j = s.new_game(Header("table", ("Ann", "Ben")))
        j.append({"type": "end"})
    log = make_log(tmp_path, PENNY)
    assert cli.main(["import", log, "--journal", str(db)]) == 0
    assert "unfinished: the start menu offers to resume it" in capsys.readouterr().out
    app = make_app(path=db)
    # The table game is over but still the open game: it comes back on its end screen.
    assert app.journal is not None and app.journal.header.game == "table"
    press(app, Button.OK)  # the end screen's menu: play again or leave
    choose(app, "Start menu")  # leave the finished game: the imported one is offered instead
    choose(app, "Resume Penny Badger", prefix=True)
    assert app.journal.events == PENNY
    press(app, Button.OK, hold=True)
    choose(app, "Leave to start")
    press(app, Button.OK)  # "Leave this game?" yes
    app.close()
    app.store.close()
    with Store(db) as s:  # resumed once: it is the open game; start with none open instead
        assert s.resume().header.game == "penny-badger"
        from companion.session.rows import set_game_status
        with s.transaction() as tx:  # the store's own way (a hand edit is caught by the checksums)
            set_game_status(tx, s.open_id(), "parked")
    app = make_app(path=db)
    assert app.journal is None
    choose(app, "Resume Penny Badger", prefix=True)
    assert app.journal.events == PENNY and app.journal.header.players == ("Ann", "Ben", "Cy")
    app.emit({"type": "pass"})
    app.close()
    app.store.close()
    with Store(db) as s:  # resumed: it is the open game now, with its new event
        j = s.resume()
        assert j is not None and j.events == [*PENNY, {"type": "pass"}]
        assert [u.status for u in s.unfinished()] == ["open"]  # no longer parked
