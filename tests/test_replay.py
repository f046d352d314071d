"""`companion export` and `companion replay` against the log-format contract
(docs/log-format.md)."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.rules.game import Header
from companion.session.store import Store
from companion.testing import FakeClock


def write_log(path, header, *events):
    lines = [json.dumps(header)] + [json.dumps(e) if not isinstance(e, str) else e
                                    for e in events]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_replay_json_has_the_contract_fields(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", {"game": "table", "players": ["A", "B", "C", "D"]},
                    {"type": "skip"}, {"type": "next"}, {"type": "reverse"},
                    {"type": "roll", "dice": {"colors": "red", "shapes": "star", "d8": 5}})
    assert main(["replay", log, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["current"] == 2 and out["direction"] == -1
    assert out["over"] is False and out["winners"] == []
    assert out["last_roll"] == {"colors": "red", "shapes": "star", "d8": 5}


def test_replay_honours_first_and_defaults(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", {"game": "table", "players": ["A", "B", "C"],
                                          "first": 2, "rules": {}}, {"type": "next"})
    main(["replay", log, "--json"])
    assert json.loads(capsys.readouterr().out)["current"] == 0


def test_replay_text(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", {"game": "table", "players": ["Ann", "Ben"]},
                    {"type": "next"})
    assert main(["replay", log]) == 0
    out = capsys.readouterr().out
    assert "Current player: Ben" in out and "Next: Ann" in out and "clockwise" in out


@pytest.mark.parametrize("lines, line_no, words", [
    (['{"type": "next"}', "{not json"], 3, "not valid JSON"),
    (['{"type": "teleport"}'], 2, "unknown event type 'teleport'"),
    (['{"type": "next"}', '{"type": "skip_to", "player": 11}'], 3, "seat number"),
    (['{"type": "end"}', '{"type": "next"}'], 3, "the game is over"),
    (['[1, 2]'], 2, "must be a JSON object"),
])
def test_replay_names_the_bad_line_and_prints_no_result(tmp_path, capsys, lines, line_no,
                                                        words):
    log = write_log(tmp_path / "g.jsonl", {"game": "table", "players": ["A", "B", "C"]}, *lines)
    assert main(["replay", log, "--json"]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"line {line_no}:" in captured.err and words in captured.err


@pytest.mark.parametrize("header, words", [
    ({"game": "poker", "players": ["A", "B"]}, "unknown game 'poker'"),
    ({"players": ["A", "B"]}, "needs \"game\""),
    ({"game": "table", "players": []}, "needs \"players\""),
    ({"game": "table", "players": ["A", "B"], "first": 5}, "first must be a seat"),
    ({"game": "table", "players": ["A", "B"], "colour": 1}, "unknown header field"),
])
def test_bad_headers(tmp_path, capsys, header, words):
    log = write_log(tmp_path / "g.jsonl", header)
    assert main(["replay", log]) == 1
    err = capsys.readouterr().err
    assert "line 1:" in err and words in err


def test_replay_of_missing_or_empty_or_binary_files(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "empty.jsonl").write_text("")
    assert main(["replay", str(tmp_path / "empty.jsonl")]) == 1
    assert "empty" in capsys.readouterr().err
    (tmp_path / "bin.jsonl").write_bytes(b'{"game": "table", "players": ["A","B"]}\n\xff\xfe\n')
    assert main(["replay", str(tmp_path / "bin.jsonl")]) == 1
    assert "line 2" in capsys.readouterr().err


def test_export_then_replay_round_trip(tmp_path, capsys):
    db = tmp_path / "j.db"
    clock = FakeClock(1_764_100_000.0)
    with Store(db, clock=clock) as s:
        j = s.new_game(Header("table", ("Ann", "Ben", "Cy")))
        for e in ({"type": "first", "player": 1}, {"type": "skip"}, {"type": "next"},
                  {"type": "roll", "dice": {"d6": 4}}, {"type": "reverse"}):
            clock.advance(2.5)
            j.append(e)
        j.undo()
        expected = j.summary()
    out = tmp_path / "out.jsonl"
    assert main(["export", "--journal", str(db), "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert json.loads(lines[0]) == {"game": "table", "players": ["Ann", "Ben", "Cy"],
                                    "first": 0, "rules": {}, "started": 1_764_100_000.0}
    assert len(lines) == 5  # header + 4 events (the undone reverse is not exported)
    assert json.loads(lines[3]) == {"type": "next", "at": 1_764_100_007.5}
    capsys.readouterr()
    assert main(["replay", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    assert main(["export", "--journal", str(db), "--list"]) == 0
    assert "table\t3 players\t4 events" in capsys.readouterr().out


@pytest.mark.parametrize("line, words", [
    ('{"type": "roll", "dice": {"d8": ' + "1" * 5000 + "}}", "not valid JSON"),
    ("[" * 100000 + "]" * 100000, "not valid JSON"),
])
def test_json_the_parser_gives_up_on_is_a_bad_line_not_a_traceback(tmp_path, capsys, line,
                                                                   words):
    log = write_log(tmp_path / "g.jsonl", {"game": "table", "players": ["A", "B"]}, line)
    assert main(["replay", log, "--json"]) == 1
    err = capsys.readouterr().err
    assert "line 2:" in err and words in err and "Traceback" not in err


def test_a_byte_order_mark_on_the_first_line_is_accepted(tmp_path, capsys):
    p = tmp_path / "bom.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"game": "table", "players": ["A", "B"]}\n{"type": "next"}\n')
    assert main(["replay", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["current"] == 1


def test_export_and_screens_mistakes_are_one_line(tmp_path, capsys):
    db = tmp_path / "j.db"
    assert main(["export", "--journal", str(db)]) == 1
    assert "no games yet" in capsys.readouterr().err and not db.exists()  # nothing created
    assert main(["export", "--list", "--journal", str(db)]) == 0 and not db.exists()
    with Store(db) as s:
        s.new_game(Header("table", ("A", "B")))
    assert main(["export", "--journal", str(db), "-o", str(tmp_path / "no" / "x.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as e:
        main(["screens", str(tmp_path / "s"), "--scale", "0"])
    assert e.value.code == 2 and "from 1 to 16" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["screens", str(tmp_path / "file" / "sub")]) == 1
    assert "cannot write the screens" in capsys.readouterr().err
