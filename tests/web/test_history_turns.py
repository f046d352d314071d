"""The turn clock on the history pages (issue 28, item 5): /games and /stats give one playing
time without pauses and breaks; /stats tables and charts each player's turns, readable on a
phone; a game's page lists its turns."""

from __future__ import annotations

import urllib.request

import pytest

from tests.test_stats_turns import play_with_a_pause_and_a_break
from tests.web.helpers import expect

pytestmark = pytest.mark.slow


def get(c, path: str) -> str:
    with urllib.request.urlopen(c.url + path, timeout=10) as r:
        return r.read().decode()


def test_games_and_stats_give_one_length_without_pauses(tmp_path, companion):
    play_with_a_pause_and_a_break(tmp_path)  # 1082 s of playing time in 1583 s (a break in it)
    c = companion()
    assert "6 events, 18 min" in get(c, "/games")
    assert "6 events, 18 min" in get(c, "/games/1")
    stats = get(c, "/stats")
    assert "18 minutes" in stats and "26.4 minutes" not in stats


def test_stats_page_tables_and_charts_the_turns(page, tmp_path, companion):
    play_with_a_pause_and_a_break(tmp_path)
    c = companion()
    page.goto(c.url + "/stats")
    rows = page.locator("#turns-table tbody tr")
    expect(rows).to_have_count(4)
    # Ann: 42 s in 2 turns, slowest 30 s, 42 of the table's 132 s.
    expect(rows.filter(has_text="Ann").locator("td")).to_have_text(
        ["Ann", "0:21", "0:30", "32%"])
    expect(rows.filter(has_text="Dee").locator("td")).to_have_text(
        ["Dee", "0:40", "0:40", "30%"])
    page.click("#turns-table tbody tr >> nth=0 >> a")
    expect(page).to_have_url(c.url + "/games/1")
    # The game's own page: each seat's average turn, longest turn and total (2 turns).
    expect(page.locator("#turns tbody tr").first.locator("td")).to_have_text(
        ["Ann", "0:21", "0:30", "0:42"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("document.querySelector('#turns .scroll').scrollWidth") <= \
        page.evaluate("document.querySelector('#turns .scroll').clientWidth")
    page.goto(c.url + "/stats")
    chart = page.locator("#turns-chart svg")
    expect(chart).to_have_count(1)
    # Names whole down the side, whole seconds on the axis.
    assert chart.locator(".axis.y text").all_text_contents() == ["Ann", "Ben", "Cy", "Dee"]
    ticks = chart.locator(".axis.x text").all_text_contents()
    assert ticks and all(t.isdigit() for t in ticks)
    expect(page.locator("#records")).to_contain_text("Slowest turn 0:40 by Dee")
    # Readable on a phone: nothing wider than the screen, the table without a sideways scroll.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("document.querySelector('#turns-table .scroll').scrollWidth") <= \
        page.evaluate("document.querySelector('#turns-table .scroll').clientWidth")
    page.goto(c.url + "/stats?game=table")
    expect(page.locator("#turns-table tbody tr")).to_have_count(4)
    expect(page.locator("#turns-chart svg")).to_have_count(1)


def test_no_turns_table_without_times(tmp_path, companion):
    """Only games without times (a log imported without them): no turns table, no chart,
    never a row of zeros."""
    import json

    from companion import cli
    log = tmp_path / "old.jsonl"
    log.write_text("\n".join(json.dumps(o) for o in [
        {"game": "table", "players": ["Ann", "Eve"], "first": 0},
        {"type": "next"}, {"type": "end"}]) + "\n")
    assert cli.main(["import", str(log), "--journal", str(tmp_path / "journal.db")]) == 0
    c = companion()
    stats = get(c, "/stats")
    assert "1 finished game" in stats
    assert 'id="turns-table"' not in stats and 'id="turns-chart"' not in stats
    assert 'id="turns"' not in get(c, "/games/1")
