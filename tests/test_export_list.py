"""`companion export --list` says each game's status (issue 26, item 11): finished,
unfinished, set aside, broken, altered, or why it cannot be read."""

from __future__ import annotations

import sqlite3

from companion import cli, games
from companion.errors import IllegalEvent
from companion.rules.game import Header
from companion.session.rows import set_game_status
from companion.session.store import Store

PIG_TO_THE_END = [
    {"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 0}, {"sets": [2, 2]}]},
    {"type": "end"}]


def listed(path, capsys) -> dict[int, list[str]]:
    capsys.readouterr()
    assert cli.main(["export", "--journal", str(path), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    return {int(line.split("\t")[0]): line.split("\t")[1:] for line in lines}


def test_each_game_says_its_status(tmp_path, capsys):
    path = tmp_path / "j.db"
    with Store(path) as s:
        j = s.new_game(Header("pig-farm", ("Ann", "Ben")))                    # 1: finished
        for e in PIG_TO_THE_END:
            j.append(e)
        s.new_game(Header("table", ("Ann", "Ben"))).append({"type": "next"})  # 2: set aside
        s.new_game(Header("table", ("Cy", "Dee")), park=True)               # 3: altered
        s.new_game(Header("table", ("Cy", "Eve")), park=True)               # 4: broken
        s.new_game(Header("table", ("Eve", "Fay")), park=True).append({"type": "skip"})  # 5
        with s.transaction() as db:  # as the start-up check marks a game that no longer replays
            set_game_status(db, 4, "broken")
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET header=replace(header, 'Dee', 'Dan') WHERE id=3")
    db.commit()
    db.close()
    rows = listed(path, capsys)
    assert rows[1] == ["pig-farm", "2 players", "2 events", "finished"]
    assert rows[2] == ["table", "2 players", "1 events", "set aside"]
    assert rows[3][-1] == "altered (checksum does not match)"
    assert rows[4] == ["table", "2 players", "0 events", "broken"]
    assert rows[5] == ["table", "2 players", "1 events", "unfinished"]
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET status='broken' WHERE id=5")  # by hand: not a real verdict
    db.commit()
    db.close()
    assert listed(path, capsys)[5][-1] == "altered (checksum does not match)"


def test_a_game_the_start_up_check_broke_and_one_of_a_kind_not_installed(tmp_path, capsys,
                                                                        monkeypatch):
    path = tmp_path / "j.db"
    with Store(path) as s:
        s.new_game(Header("table", ("Ann", "Ben"))).append({"type": "next"})
        s.new_game(Header("chaos", ("Ann", "Ben", "Cy")), park=True)
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body='{\"type\": \"fly\"}' WHERE game_id=1")
    db.commit()
    db.close()
    assert listed(path, capsys)[1][-1] == "altered (checksum does not match)"
    Store(path).close()  # the start-up check marks it broken (its row no longer replays)
    assert listed(path, capsys)[1][-1].startswith("altered")
    real = games.get

    def without_chaos(kind: str):
        if kind == "chaos":
            raise IllegalEvent("unknown game 'chaos'")
        return real(kind)

    monkeypatch.setattr(games, "get", without_chaos)
    assert listed(path, capsys)[2] == ["chaos", "3 players", "0 events", "kind not installed"]
