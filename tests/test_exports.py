"""Finished games as plays (issue 38, item 4): `companion export --format csv|bgstats` writes
what the statistics' records hold, and reads back into the same facts (a CSV with the csv
module, field by field; a BG Stats file against docs/bgstats.schema.json)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sqlite3
import time
from pathlib import Path

import fastjsonschema
import pytest

from companion import cli
from companion.rules.game import Header
from companion.session import exports
from companion.session.seasons import Season
from companion.session.stats import GameRecord, key, minutes
from companion.session.store import Store
from companion.session.tally import History

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = fastjsonschema.compile(json.loads((ROOT / "docs" / "bgstats.schema.json").read_text()))

PIG = [  # Ann 230, Ben 15, Cy 5; then Ben 180, Cy 30: totals 230 / 195 / 35, Ann wins
    {"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 0}, {"sets": [2, 2]},
                               {"sets": [2]}]},
    {"type": "roll", "dice": {"d8": 3}},
    {"type": "sell", "hands": [{"sets": []}, {"sets": [4, 2, 2], "unmatched": 1},
                               {"sets": [2, 2, 2]}]},
    {"type": "end"}]
CHAOS = [{"type": "round_points", "points": [0, 300, 100]},  # lowest wins: ben (0)
         {"type": "round_points", "points": [50, 250, 0]}]


@pytest.fixture
def journal(tmp_path) -> Path:
    """A finished Pig Farm, a finished Chaos (lowest wins; "ben " is Ben as first written),
    a Table game ended (no winner: Table names none), an unfinished Table game, a Table game ended with no winner."""
    path = tmp_path / "j.db"
    with Store(path) as s:
        j = s.new_game(Header("pig-farm", ("Ann", "Ben", "=Cy")))
        for e in PIG:
            j.append(e)
        j = s.new_game(Header("chaos", ("ben ", "Cy", "Dee")))
        for e in CHAOS:
            j.append(e)
        j = s.new_game(Header("table", ("Ann", "Dee")))
        j.append({"type": "next"})
        j.append({"type": "end"})
        s.new_game(Header("table", ("Ann", "Cy"))).append({"type": "next"})
        s.new_game(Header("table", ("Eve", "Fay")), park=True).append({"type": "end"})
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(["export", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def records_of(path: Path) -> list[GameRecord]:
    with Store(path) as s:
        return History(s).records()


def test_csv_reads_back_as_the_records_field_by_field(journal, capsys, tmp_path):
    out = tmp_path / "plays.csv"
    code, _, err = run(capsys, "--journal", str(journal), "--format", "csv", "--all",
                       "-o", str(out))
    assert code == 0
    assert err == "1 unfinished game left out (only a finished game is a play)\n"
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == exports.CSV_FIELDS
    records = [r for r in records_of(journal) if r.finished]
    assert [int(r["game"]) for r in rows] == [g.id for g in records for _ in g.players]
    first = {}  # the names as their earliest game wrote them
    for g in sorted(records_of(journal), key=lambda g: g.id):
        for n in g.players:
            first.setdefault(key(n), n.strip())
    it = iter(rows)
    for g in records:
        for seat, name in enumerate(g.players):
            row = next(it)
            lt = time.localtime(g.created)
            assert dt.datetime.fromisoformat(row["started"]) == \
                dt.datetime(*lt[:6])
            assert row["minutes"] == ("" if g.seconds is None else f"{minutes(g.seconds):g}")
            assert row["kind"] == g.kind and row["title"] == g.title
            assert row["logged_as"] == "Chroma Cards" and row["season"] == ""
            assert int(row["seat"]) == seat + 1
            shown = first[key(name)]
            assert row["player"] == ("'" + shown if shown.startswith("=") else shown)
            assert row["score"] == ("" if g.scores is None else str(g.scores[seat]))
            assert row["winner"] == ("yes" if seat in g.winners else "no")
            assert row["rank"] == ("" if exports.ranks(g)[seat] is None
                                   else str(exports.ranks(g)[seat]))
    # The facts themselves, not only their agreement with the records:
    pig = [r for r in rows if r["game"] == "1"]
    assert [(r["player"], r["score"], r["winner"], r["rank"]) for r in pig] == [
        ("Ann", "230", "yes", "1"), ("Ben", "195", "no", "2"), ("'=Cy", "35", "no", "3")]
    assert {r["score_name"] for r in pig} == {"total"}
    chaos = [r for r in rows if r["game"] == "2"]
    assert [(r["player"], r["score"], r["winner"], r["rank"]) for r in chaos] == [
        ("Ben", "50", "yes", "1"), ("Cy", "550", "no", "3"), ("Dee", "100", "no", "2")]
    table = [r for r in rows if r["game"] == "3"]
    assert [(r["player"], r["score"], r["winner"], r["rank"]) for r in table] == [
        ("Ann", "", "no", ""), ("Dee", "", "no", "")]
    no_winner = [r for r in rows if r["game"] == "5"]
    assert [(r["winner"], r["rank"]) for r in no_winner] == [("no", ""), ("no", "")]
    assert "4" not in {r["game"] for r in rows}  # unfinished: no play


def test_bgstats_file_meets_the_schema_and_reads_back(journal, capsys):
    code, out, _ = run(capsys, "--journal", str(journal), "--format", "bgstats", "--all")
    assert code == 0
    plays = json.loads(out)
    SCHEMA(plays)  # raises on any field BG Stats does not document, or one of a wrong type
    records = {g.id: g for g in records_of(journal) if g.finished}
    assert len(plays) == len(records) == 4
    for p in plays:
        g = records[int(p["sourcePlayId"].split("-")[1])]
        assert p["sourceName"] == "Chroma Table Companion"
        assert [x["name"] for x in p["players"]] == [n.strip() if key(n) != "ben" else "Ben"
                                                     for n in g.players]
        assert [i for i, x in enumerate(p["players"]) if x["winner"]] == list(g.winners)
        assert [x.get("score") for x in p["players"]] == \
            (list(g.scores) if g.scores is not None else [None] * len(g.players))
        end = g.created + (g.seconds or 0)
        assert dt.datetime.strptime(p["playDate"], "%Y-%m-%d %H:%M:%S") == \
            dt.datetime.fromtimestamp(int(end), dt.timezone.utc).replace(tzinfo=None)
        assert p.get("durationMin") == (None if g.seconds is None else round(g.seconds / 60))
        assert p["game"]["name"] == "Chroma Cards" and "bggId" not in p["game"]
        assert p["comments"].startswith(g.title + ", ")
        assert p["game"]["noPoints"] == (g.scores is None)
        assert p["game"]["highestWins"] == (g.kind != "chaos")


def test_one_game_is_one_play_object(journal, capsys):
    code, out, _ = run(capsys, "--journal", str(journal), "--format", "bgstats", "--game", "2")
    assert code == 0
    play = json.loads(out)
    SCHEMA(play)
    assert isinstance(play, dict) and play["sourcePlayId"].startswith("chroma-2-")
    assert [x["name"] for x in play["players"]] == ["Ben", "Cy", "Dee"]
    # Without --game: the latest finished game (5), not the unfinished open one (4).
    code, out, _ = run(capsys, "--journal", str(journal), "--format", "csv")
    assert code == 0 and {r["game"] for r in csv.DictReader(io.StringIO(out))} == {"5"}


def test_an_unfinished_game_is_refused_in_words(journal, capsys):
    code, out, err = run(capsys, "--journal", str(journal), "--format", "csv", "--game", "4")
    assert code == 1 and out == ""
    assert err == ("companion: game 4 is not finished: only a finished game is a play "
                   "(companion export --game 4 writes its log)\n")
    code, _, err = run(capsys, "--journal", str(journal), "--format", "csv", "--game", "9")
    assert code == 1 and "no game 9 in the journal" in err


def test_a_game_that_no_longer_replays_says_why(journal, capsys):
    db = sqlite3.connect(journal)
    db.execute("UPDATE events SET body='{\"type\": \"fly\"}' WHERE game_id=3 AND seq=1")
    db.commit()
    db.close()
    code, _, err = run(capsys, "--journal", str(journal), "--format", "bgstats", "--game", "3")
    assert code == 1
    assert err.startswith("companion: game 3 cannot be exported: it no longer replays")
    code, out, err = run(capsys, "--journal", str(journal), "--format", "csv", "--all")
    assert code == 0 and "game 3 left out (table): it no longer replays" in err
    assert "3" not in {r["game"] for r in csv.DictReader(io.StringIO(out))}


def test_seasons_choose_the_games_and_name_them(journal, capsys, tmp_path):
    today = dt.date.today()
    config = tmp_path / "config.toml"
    config.write_text(
        "[[stats.seasons]]\nname = \"Long ago\"\nfrom = 2001-01-01\nto = 2001-12-31\n\n"
        f"[[stats.seasons]]\nname = \"This one\"\nfrom = {today.isoformat()}\n",
        encoding="utf-8")
    base = ("--config", str(config), "--journal", str(journal), "--format", "csv")
    code, out, _ = run(capsys, *base, "--season", "this ONE")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["season"] for r in rows} == {"This one"} and len({r["game"] for r in rows}) == 4
    code, out, _ = run(capsys, *base, "--season", "Long ago")
    assert code == 0 and list(csv.DictReader(io.StringIO(out))) == []
    code, out, err = run(capsys, *base, "--season", "Spring")
    assert code == 2 and out == ""
    assert err == ("companion: export: --season: no season called 'Spring' (known: Long ago, "
                   "This one)\n")


def test_many_games_need_a_play_format(journal, capsys):
    code, _, err = run(capsys, "--journal", str(journal), "--all")
    assert code == 2 and "--format csv or --format bgstats" in err
    with pytest.raises(SystemExit):  # one of --game, --all, --season, --list
        cli.main(["export", "--journal", str(journal), "--all", "--game", "1"])


def record(kind: str, players, winners, scores, created=1_790_000_000.0, gid=1) -> GameRecord:
    return GameRecord(gid, kind, tuple(players), created, True, tuple(winners), 3, 600.0,
                      None if scores is None else tuple(scores))


def test_places_follow_the_winners_then_the_score():
    # Shared second place; a shared win is 1st for each; lowest wins in Chaos.
    assert exports.ranks(record("pig-farm", "ABCD", [0], [90, 40, 40, 10])) == (1, 2, 2, 4)
    assert exports.ranks(record("pig-farm", "ABC", [0, 1], [50, 50, 10])) == (1, 1, 3)
    assert exports.ranks(record("chaos", "ABC", [2], [60, 90, 0])) == (2, 3, 1)
    # A Drop Rainbow won by seven colours with fewer cards: the winner is still 1st.
    assert exports.ranks(record("drop-rainbow", "ABC", [1], [9, 2, 5])) == (2, 1, 3)
    # No score to order the losers, or no winner at all: no places.
    assert exports.ranks(record("table", "ABC", [1], None)) == (None, 1, None)
    assert exports.ranks(record("table", "AB", [], None)) == (None, None)


def test_a_kind_with_its_own_boardgamegeek_entry_is_logged_as_it(monkeypatch):
    monkeypatch.setitem(exports.BOARDGAMEGEEK, "pig-farm", ("Pig Farm (the real one)", 4242))
    play = exports.play_of(record("pig-farm", ["Ann", "Ben"], [0], [10, 5]), {})
    bg = exports.bgstats_play(play)
    SCHEMA(bg)
    assert bg["game"] == {"name": "Pig Farm (the real one)", "sourceGameId": "4242",
                          "bggId": 4242, "highestWins": True, "noPoints": False}
    assert play.note == "" and not bg["comments"].startswith("Pig Farm")
    other = exports.play_of(record("chaos", ["Ann", "Ben"], [0], [10, 5]), {})
    assert exports.bgstats_play(other)["game"]["name"] == "Chroma Cards"


def test_plays_of_a_season_only():
    autumn = Season("Autumn", dt.date(2026, 9, 1), dt.date(2026, 11, 30))
    winter = Season("Winter", dt.date(2026, 12, 1))
    noon = lambda d: time.mktime(dt.datetime(d.year, d.month, d.day, 12).timetuple())  # noqa: E731
    recs = [record("table", ["Ann", "Ben"], [0], None, noon(dt.date(2026, 8, 31)), 1),
            record("table", ["ann", "Ben"], [1], None, noon(dt.date(2026, 9, 1)), 2),
            record("table", ["Ann", "Ben"], [1], None, noon(dt.date(2026, 12, 1)), 3)]
    chosen, left = exports.plays(recs, (autumn, winter), autumn)
    assert [p.game for p in chosen] == [2] and left == []
    assert chosen[0].season == "Autumn" and chosen[0].seats[0].name == "Ann"
    chosen, _ = exports.plays(recs, (autumn, winter))
    assert [p.season for p in chosen] == ["", "Autumn", "Winter"]


def test_file_names_are_plain():
    assert exports.file_name("plays-Été 2026!", "csv") == "chroma-plays-t-2026.csv"
    assert exports.file_name("game-12", "bgstats") == "chroma-game-12.bgstats.json"


def test_an_altered_game_is_refused_as_its_log_is(journal, capsys):
    db = sqlite3.connect(journal)
    db.execute("UPDATE events SET body='{\"type\": \"roll\", \"dice\": {\"d8\": 8}}' "
               "WHERE game_id=1 AND seq=1")  # still a legal game, not the one played
    db.commit()
    db.close()
    code, out, err = run(capsys, "--journal", str(journal), "--format", "csv", "--game", "1")
    assert code == 1 and out == ""
    assert "the game was altered after it was recorded; companion export --force" in err
    code, out, err = run(capsys, "--journal", str(journal), "--format", "csv", "--game", "1",
                         "--force")
    assert code == 0 and [r["game"] for r in csv.DictReader(io.StringIO(out))] == ["1"] * 3
    assert err.startswith("altered: ") and \
        err.endswith("written anyway (--force): game 1 is not as it was recorded\n")


def test_no_journal_yet(tmp_path, capsys):
    path = str(tmp_path / "none.db")
    code, out, _ = run(capsys, "--journal", path, "--format", "csv", "--all")
    assert code == 0 and out == ",".join(exports.CSV_FIELDS) + "\r\n"
    code, out, _ = run(capsys, "--journal", path, "--format", "bgstats", "--all")
    assert code == 0 and json.loads(out) == []
    code, out, err = run(capsys, "--journal", path, "--format", "bgstats")
    assert code == 1 and out == "" and err.startswith("companion: no games yet: there is no")
    assert not (tmp_path / "none.db").exists()  # nothing made
