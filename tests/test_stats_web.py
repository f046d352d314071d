"""/stats ranked by rating, with seasons (issue 38, parts 1 and 3): a regular above a newcomer,
each player's rating over time, rivals in words, a season picker, the current season's table
first and each finished season's champion. Served by the history routes, no browser."""

from __future__ import annotations

import datetime as dt
import html
import re
import time
from pathlib import Path

import pytest

from companion import config
from companion.rules.game import Header
from companion.session.ratings import PROVISIONAL_GAMES
from companion.session.store import Store
from companion.testing import FakeClock
from companion.web import standings

TODAY = dt.date.today()


def noon(day: dt.date) -> float:
    return time.mktime((day.year, day.month, day.day, 12, 0, 0, 0, 0, -1))


def won(store: Store, clock: FakeClock, players: tuple[str, ...], winner: int) -> None:
    """A finished Match Patch game that seat `winner` won (the one pair)."""
    j = store.new_game(Header("match-patch", players))
    clock.advance(30)
    j.append({"type": "pair", "player": winner})
    clock.advance(30)
    j.append({"type": "end"})
    clock.advance(60)


def regulars_and_a_newcomer(path: Path, day: dt.date) -> None:
    """30 games of Reg, Ann and Ben on `day` (Reg wins 12, Ann 10, Ben 8), then Neo's one
    game, won, against Ann."""
    clock = FakeClock(noon(day))
    with Store(path, clock=clock) as s:
        for w in [0, 1, 2] * 8 + [0, 1, 0, 1, 0, 0]:
            won(s, clock, ("Reg", "Ann", "Ben"), w)
        won(s, clock, ("Neo", "Ann"), 0)


def cfg(seasons: list[dict] | None = None) -> config.Config:
    return config.Config(config.check({"stats": {"seasons": seasons or []}}))


def get(path: Path, query: str = "", *, conf: config.Config | None = None) -> tuple[int, str]:
    """/stats?QUERY as the history routes answer it."""
    from starlette.requests import Request

    from companion.web import history

    class Web:
        source = path
        allowed_hosts: frozenset[str] = frozenset()
        config = conf if conf is not None else cfg()

    route = {r.path: r.endpoint for r in history.routes(Web())}["/stats"]
    scope = {"type": "http", "method": "GET", "path": "/stats", "headers": [],
             "query_string": query.encode(), "path_params": {}}
    response = route(Request(scope))
    return response.status_code, html.unescape(response.body.decode())


def table_names(page: str, section: str) -> list[str]:
    """The players' names of a ratings table, top to bottom."""
    part = page[page.index(f'id="{section}"'):]
    part = part[:part.index("</table>")]
    return re.findall(r'<td class="what">(?:<span class="rank">\d+\.</span> )?([^<]+)', part)


def test_a_regular_ranks_above_a_newcomer(tmp_path):
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, TODAY)
    status, page = get(path)
    assert status == 200
    names = table_names(page, "players-table")
    assert names.index("Reg") < names.index("Neo") and names[-1] == "Neo"
    # Reg: 12 wins in 30; Neo 1 in 1 (100%), still below, said in words.
    neo = page[page.index('<td class="what">Neo'):]
    neo = neo[:neo.index("</tr>")]
    assert f"new: 1 of {PROVISIONAL_GAMES} games" in neo and "100%" in neo
    reg = page[page.index('</span> Reg</td>'):]
    assert "new:" not in reg[:reg.index("</tr>")]
    # The rank numbers are the established players'; the rating is written to one place.
    assert re.search(r'<td class="what"><span class="rank">1\.</span> Reg</td>'
                     r'<td class="rating">\d+\.\d</td>'
                     r'<td class="won">12 of 30<span class="rate">40%</span></td>', page)
    assert '<td class="what">Neo<span class="new-words">' in page


def test_the_rating_chart_has_a_line_per_player(tmp_path):
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, TODAY)
    page = get(path)[1]
    chart = page[page.index('id="ratings-chart"'):]
    chart = chart[:chart.index("</section>")]
    assert "Rating over the games" in chart
    assert chart.count('class="line reactive nofill"') == 3  # Reg, Ann, Ben: 30 games each
    assert chart.count('class="dot reactive') == 1  # Neo's one game: a dot
    assert re.findall(r'</span>(\w+)</li>', chart) == table_names(page, "players-table")


def test_rivals_in_words(tmp_path):
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, TODAY)
    page = get(path)[1]
    rivals = page[page.index('id="rivals"'):]
    # Ben lost 12 of his 30 games with Reg to him and 10 to Ann; he beat each 8 times (a tie:
    # the same share, then the name).
    assert "<span class=\"rec-l\">Ben</span> loses most to Reg (12 of 30); " \
           "beats Ann most (8 of 30)" in rivals


def test_rival_words():
    p = {"nemesis": {"name": "Ben", "games": 6, "won": 1, "lost": 4},
         "victim": {"name": "Cy", "games": 7, "won": 5, "lost": 2}}
    assert standings.rival_words(p) == ["loses most to Ben (4 of 6)", "beats Cy most (5 of 7)"]
    assert standings.rival_words({"nemesis": None, "victim": None}) == []


def test_a_kind_ranks_by_its_own_ratings(tmp_path):
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, TODAY)
    clock = FakeClock(noon(TODAY) + 86_400)
    with Store(path, clock=clock) as s:  # Neo's Pig Farm wins do not count in Match Patch
        for _ in range(6):
            j = s.new_game(Header("pig-farm", ("Neo", "Ann")))
            j.append({"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 0}, {"sets": [2]}]})
            j.append({"type": "end"})
    assert table_names(get(path)[1], "players-table")[0] == "Neo"  # 7 wins in 7
    page = get(path, "game=match-patch")[1]
    assert table_names(page, "players-table")[-1] == "Neo"  # 1 in 1 there: new
    assert "<h1>Match Patch</h1>" in page


SEASONS = [{"name": "Spring", "from": (TODAY - dt.timedelta(days=120)).isoformat(),
            "to": (TODAY - dt.timedelta(days=61)).isoformat()},
           {"name": "Summer", "from": (TODAY - dt.timedelta(days=60)).isoformat(),
            "to": (TODAY - dt.timedelta(days=31)).isoformat()},
           {"name": "Autumn", "from": (TODAY - dt.timedelta(days=30)).isoformat()}]


@pytest.fixture
def seasons_played(tmp_path) -> Path:
    """Spring: the 30 games and Neo's; Summer: two games (nobody established); Autumn (now):
    Ann beats Ben six times."""
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, TODAY - dt.timedelta(days=100))
    clock = FakeClock(noon(TODAY - dt.timedelta(days=45)))
    with Store(path, clock=clock) as s:
        won(s, clock, ("Reg", "Ben"), 1)
        won(s, clock, ("Reg", "Ben"), 1)
        clock.advance(noon(TODAY - dt.timedelta(days=2)) - clock())
        for _ in range(6):
            won(s, clock, ("Ann", "Ben"), 0)
    return path


def test_the_current_season_comes_first_and_the_champions_are_named(seasons_played):
    status, page = get(seasons_played, conf=cfg(SEASONS))
    assert status == 200
    assert page.index('id="season-table"') < page.index('id="champions"') \
        < page.index('id="players-table"')
    assert "This season: Autumn" in page
    assert table_names(page, "season-table") == ["Ann", "Ben"]
    assert table_names(page, "players-table")[-1] == "Neo"  # all time below: everyone
    champions = page[page.index('id="champions"'):page.index('id="players-table"')]
    # The latest finished season first; Autumn goes on, so it has no champion yet.
    assert champions.index("Summer") < champions.index("Spring") and "Autumn" not in champions
    assert re.search(r'Spring, <span class="days">[-\d]+ to [-\d]+</span></span> '
                     r'<strong>Reg \(\d+\.\d\)</strong>', champions)
    assert f"Summer, <span class=\"days\">{SEASONS[1]['from']} to {SEASONS[1]['to']}</span>" \
           "</span> no champion: nobody " \
           f"played {PROVISIONAL_GAMES} games with a winner in it" in champions


def test_a_season_picked_shows_its_own_games_and_ratings(seasons_played):
    status, page = get(seasons_played, "season=summer", conf=cfg(SEASONS))
    assert status == 200
    assert "<h1>All games: Summer</h1>" in page
    assert "2 finished games" in page
    assert table_names(page, "players-table") == ["Ben", "Reg"]  # both new: Ben won both
    assert 'aria-current="page">Summer</a>' in page
    assert 'id="season-table"' not in page  # the season asked for is the page
    picker = page[page.index('aria-label="Seasons"'):]
    assert re.findall(r'>([\w ]+)</a>', picker[:picker.index("</nav>")]) == \
        ["All time", "Spring", "Summer", "Autumn"]
    # A kind within the season keeps the season.
    assert 'href="/stats?season=Summer&game=match-patch"' in page


def test_an_unknown_season_is_a_404_in_words(seasons_played):
    status, page = get(seasons_played, "season=Winter", conf=cfg(SEASONS))
    assert status == 404
    assert "There is no season called 'Winter' (the seasons: Spring, Summer, Autumn)." in page
    status, page = get(seasons_played, "season=Winter")
    assert status == 404 and "none are set in the config" in page


def test_no_seasons_no_picker(tmp_path):
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, TODAY)
    page = get(path)[1]
    assert 'aria-label="Seasons"' not in page and 'id="champions"' not in page
    assert 'id="season-table"' not in page
