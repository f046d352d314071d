"""Seasons (docs/stats.md, "Seasons"): named date ranges from the config, checked in words,
holding the games started on their days."""

from __future__ import annotations

import datetime as dt
import time
import tomllib
from types import SimpleNamespace

import pytest

from companion import config
from companion.session import seasons
from companion.session.seasons import Season


def _check(text: str) -> dict:
    return config.check(tomllib.loads(text))


def _at(y: int, m: int, d: int, hour: int = 12) -> float:
    return time.mktime((y, m, d, hour, 0, 0, 0, 0, -1))


def test_seasons_from_the_config_in_date_order_kept_as_plain_data():
    data = _check('''
[[stats.seasons]]
name = "Winter"
from = 2026-12-01
[[stats.seasons]]
name = "  Autumn   2026 "
from = 2026-09-01
to = "2026-11-30"
''')
    assert data["stats"]["seasons"] == [
        {"name": "Autumn 2026", "from": "2026-09-01", "to": "2026-11-30"},
        {"name": "Winter", "from": "2026-12-01", "to": None}]
    cfg = config.Config(data)
    assert cfg.seasons() == (Season("Autumn 2026", dt.date(2026, 9, 1), dt.date(2026, 11, 30)),
                             Season("Winter", dt.date(2026, 12, 1)))
    assert config.Config(config.check({})).seasons() == ()


@pytest.mark.parametrize("text, message", [
    ('[[stats.seasons]]\nname = "A"\nfrom = 2026-09-01\nto = 2026-08-01',
     "stats.seasons[0].to: 2026-08-01 is before its first day 2026-09-01"),
    ('[[stats.seasons]]\nname = "A"\nfrom = 2026-09-01\n'
     '[[stats.seasons]]\nname = "B"\nfrom = 2026-10-01',
     "stats.seasons: 'A' (from 2026-09-01) and 'B' (from 2026-10-01) overlap"),
    ('[[stats.seasons]]\nname = "A"\nfrom = 2026-09-01\nto = 2026-10-01\n'
     '[[stats.seasons]]\nname = "B"\nfrom = 2026-10-01',
     "'A' (2026-09-01 to 2026-10-01) and 'B' (from 2026-10-01) overlap"),
    ('[[stats.seasons]]\nname = "A"\nfrom = 2026-01-01\n'
     '[[stats.seasons]]\nname = "a"\nfrom = 2027-01-01',
     "stats.seasons[1].name: 'a' is already the name of seasons[0]"),
    ('[stats]\nseasons = [1]', "stats.seasons[0]: must be a table"),
    ('[stats]\nseasons = "Autumn"', "stats.seasons: must be a list"),
    ('[stats]\nfavourite = "yes"', "stats.favourite: must be true/false"),
    ('[[stats.seasons]]\nname = "A"\nfrom = "sept"', "stats.seasons[0].from: 'sept' is not a date"),
    ('[[stats.seasons]]\nname = "A"', "stats.seasons[0].from: a season needs its first day"),
    ('[[stats.seasons]]\nfrom = 2026-01-01', "stats.seasons[0].name: a season needs a name"),
    ('[[stats.seasons]]\nname = "A"\nfrom = 2026-01-01\nwhen = 3',
     "stats.seasons[0].when: unknown key (known: name, from, to)"),
    ('[[stats.seasons]]\nname = "' + "x" * 30 + '"\nfrom = 2026-01-01',
     "is 30 characters (at most 24)"),
    ('[[stats.seasons]]\nname = "A\\u0007"\nfrom = 2026-01-01', "holds a character that is not text"),
    ('[[stats.seasons]]\nname = "This"\nfrom = 2026-01-01',
     "stats.seasons[0].name: 'This' is the word the pages and exports use for the season holding"),
])
def test_a_bad_season_is_refused_in_one_line_naming_it(text, message):
    with pytest.raises(config.ConfigError) as e:
        _check(text)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_a_season_holds_the_games_started_on_its_days_by_local_date():
    autumn = Season("Autumn", dt.date(2026, 9, 1), dt.date(2026, 11, 30))
    assert autumn.holds(_at(2026, 9, 1, 0)) and autumn.holds(_at(2026, 11, 30, 23))
    assert not autumn.holds(_at(2026, 8, 31, 23)) and not autumn.holds(_at(2026, 12, 1, 0))
    assert not autumn.holds(1e17)  # a time the journal cannot show as a date: in no season
    goes_on = Season("Winter", dt.date(2026, 12, 1))
    assert goes_on.holds(_at(2030, 1, 1)) and not goes_on.finished(dt.date(2030, 1, 1))
    assert autumn.finished(dt.date(2026, 12, 1)) and not autumn.finished(dt.date(2026, 11, 30))
    games = [SimpleNamespace(created=_at(2026, m, 15), id=m) for m in (8, 9, 10, 12)]
    assert [g.id for g in seasons.within(games, autumn)] == [9, 10]
    assert [g.id for g in seasons.within(games, None)] == [8, 9, 10, 12]
    both = (autumn, goes_on)
    assert seasons.current(both, dt.date(2026, 10, 2)) is autumn
    assert seasons.current(both, dt.date(2026, 8, 2)) is None
    assert seasons.named(both, " autumn ") is autumn and seasons.named(both, "Spring") is None
