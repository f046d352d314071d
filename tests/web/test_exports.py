"""The play downloads of the table web (issue 38, item 4): /games links each finished game's
CSV and BG Stats play, and this season's and every game's; the files are what `companion
export --format csv|bgstats` writes, refused in words where they cannot be made."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import urllib.error
import urllib.request
from pathlib import Path

import fastjsonschema
import pytest

from companion import cli
from companion.gallery.web_shots import Companion
from companion.games import load_config
from companion.rules.game import Header
from companion.session.store import Store
from tests.web.helpers import WAIT_S, expect

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PIG = [{"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 0}, {"sets": [2, 2]}]},
       {"type": "roll", "dice": {"d8": 3}}, {"type": "end"}]


@pytest.fixture
def served(tmp_path):
    """A finished Pig Farm (Ann 230, Ben 15) and an unfinished Table game, the companion
    with a season that holds today."""
    with Store(tmp_path / "journal.db") as s:
        j = s.new_game(Header("pig-farm", ("Ann", "Ben")))
        for e in PIG:
            j.append(e)
        s.new_game(Header("table", ("Ann", "Cy"))).append({"type": "next"})
    cfg = load_config(None)
    cfg.data["stats"]["seasons"] = [{"name": "Autumn 2026", "from": dt.date.today()}]
    c = Companion(tmp_path / "journal.db", config=cfg).start()
    yield c
    c.close()


def get(c, path: str, host: str | None = None) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(c.url + path, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(req, timeout=WAIT_S) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def test_a_games_files_are_the_exports(served, tmp_path):
    status, headers, body = get(served, "/games/1.csv")
    assert status == 200 and headers["content-type"].startswith("text/csv")
    assert headers["content-disposition"] == 'attachment; filename="chroma-game-1.csv"'
    out = tmp_path / "one.csv"
    assert cli.main(["export", "--journal", str(tmp_path / "journal.db"), "--format", "csv",
                     "--game", "1", "-o", str(out)]) == 0
    # The command has no config here, so no season; the page's config names one.
    page_rows = list(csv.DictReader(io.StringIO(body)))
    cli_rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [r["season"] for r in page_rows] == ["Autumn 2026"] * 2
    assert [{**r, "season": ""} for r in page_rows] == cli_rows
    status, headers, body = get(served, "/games/1.bgstats.json")
    assert status == 200 and headers["content-type"] == "application/json"
    play = json.loads(body)
    fastjsonschema.compile(json.loads((ROOT / "docs" / "bgstats.schema.json").read_text()))(play)
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
        ("Ann", 230, True), ("Ben", 15, False)]


def test_what_cannot_be_a_play_is_said_in_words(served):
    assert get(served, "/games/2.csv")[::2] == (
        409, "Game 2 is not finished: only a finished game is a play.")
    assert get(served, "/games/9.bgstats.json")[::2] == (404, "There is no game 9.")
    assert get(served, "/plays.csv?season=Spring")[::2] == (
        404, "There is no season called 'Spring'. The seasons: Autumn 2026 (from "
             f"{dt.date.today().isoformat()}).")
    # Like a game's log: only to a page that names the box.
    status, _, body = get(served, "/plays.csv", host="evil.example")
    assert status == 403 and "is not this box" in body


def test_this_season_and_every_game(served):
    status, headers, body = get(served, "/plays.bgstats.json?season=this")
    assert status == 200
    assert headers["content-disposition"] == \
        'attachment; filename="chroma-plays-autumn-2026.bgstats.json"'
    plays = json.loads(body)
    assert [p["sourcePlayId"].split("-")[1] for p in plays] == ["1"]  # not the unfinished 2
    assert "season Autumn 2026" in plays[0]["comments"]
    status, headers, body = get(served, "/plays.csv")
    assert status == 200 and 'filename="chroma-plays-all.csv"' in headers["content-disposition"]
    assert [r["player"] for r in csv.DictReader(io.StringIO(body))] == ["Ann", "Ben"]


def test_games_page_links_and_a_download(page, served):
    page.goto(served.url + "/games")
    finished = page.locator(".game-item").filter(has_text="#1 ")
    expect(finished.get_by_role("link", name="CSV")).to_have_attribute("href", "/games/1.csv")
    expect(finished.get_by_role("link", name="BG Stats")).to_have_attribute(
        "href", "/games/1.bgstats.json")
    unfinished = page.locator(".game-item").filter(has_text="#2 ")
    expect(unfinished.get_by_role("link", name="CSV")).to_have_count(0)
    expect(page.locator(".plays")).to_contain_text("Autumn 2026 (CSV / BG Stats)")
    with page.expect_download(timeout=WAIT_S * 1000) as caught:
        page.locator(".plays").get_by_role("link", name="CSV").first.click()
    download = caught.value
    assert download.suggested_filename == "chroma-plays-autumn-2026.csv"
    rows = list(csv.DictReader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    assert [(r["player"], r["score"], r["winner"], r["rank"]) for r in rows] == [
        ("Ann", "230", "yes", "1"), ("Ben", "15", "no", "2")]


def test_an_altered_game_is_refused_like_its_log(served, tmp_path):
    import sqlite3
    db = sqlite3.connect(tmp_path / "journal.db")
    db.execute("UPDATE events SET body='{\"type\": \"roll\", \"dice\": {\"d8\": 8}}' "
               "WHERE game_id=1 AND seq=1")  # still a legal game, not the one played
    db.commit()
    db.close()
    status, _, body = get(served, "/games/1.bgstats.json")
    assert status == 409 and body.endswith("the game was altered after it was recorded.")
    assert get(served, "/games/1.jsonl")[0] == 409  # as its log


def test_without_a_season_holding_today_games_offers_only_every_game(page, tmp_path):
    with Store(tmp_path / "journal.db") as s:
        j = s.new_game(Header("pig-farm", ("Ann", "Ben")))
        for e in PIG:
            j.append(e)
    cfg = load_config(None)  # no seasons; then one that ended
    for seasons in ([], [{"name": "Spring", "from": "2001-03-01", "to": "2001-05-31"}]):
        cfg.data["stats"]["seasons"] = seasons
        c = Companion(tmp_path / "journal.db", config=cfg).start()
        try:
            page.goto(c.url + "/games")
            expect(page.locator(".plays")).to_have_text(
                "Plays for a spreadsheet or BG Stats: all games (CSV / BG Stats)")
            expect(page.locator(".plays a[href*='season']")).to_have_count(0)
        finally:
            c.close()
