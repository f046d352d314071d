"""Seasons: date ranges a group names in its config (`[[stats.seasons]]`, docs/stats.md), so
that ratings and tables can start afresh while the all-time figures stay beside them.

A season holds the games *started* on its days, by the box's local date, from `start` to
`end` inclusive (`end` None: a season still going). Seasons never overlap (the config refuses
it), so a game is in at most one. This module is data and dates only: it imports nothing of
the companion, so the config can check seasons with it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from companion.session import when

NAME_MOST = 24  # characters of a season's name (a /stats heading, a file name)
THIS = "this"  # ?season=this, --season this: the season holding today (never a season's name)


@dataclass(frozen=True)
class Season:
    name: str
    start: dt.date
    end: dt.date | None = None  # None: the season goes on

    def holds_date(self, day: dt.date) -> bool:
        return self.start <= day and (self.end is None or day <= self.end)

    def holds(self, created: float) -> bool:
        """Whether a game started at `created` (epoch seconds) is in the season (a time the
        journal cannot show as a date is in none)."""
        lt = when.local(created)
        if lt is None:
            return False
        return self.holds_date(dt.date(lt.tm_year, lt.tm_mon, lt.tm_mday))

    def finished(self, today: dt.date) -> bool:
        return self.end is not None and self.end < today

    def span(self) -> str:
        """Its days in words: "2026-09-01 to 2026-11-30", "from 2026-09-01"."""
        if self.end is None:
            return f"from {self.start.isoformat()}"
        return f"{self.start.isoformat()} to {self.end.isoformat()}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "from": self.start.isoformat(),
                "to": None if self.end is None else self.end.isoformat()}


class SeasonProblem(ValueError):
    """A season entry that cannot be used: `where` names the entry ("seasons[1].to"),
    the message says what is wrong."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")


def _day(where: str, value: object) -> dt.date:
    if isinstance(value, dt.datetime):  # TOML's 2026-09-01T00:00:00: its date
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise SeasonProblem(where, f"{value!r} is not a date like 2026-09-01")


def parse(entries: Sequence[object], *, where: str = "seasons") -> tuple[Season, ...]:
    """Seasons from config entries (`{"name": ..., "from": date, "to": date}`, "to" optional),
    in date order; SeasonProblem names the first entry that cannot be used."""
    out: list[Season] = []
    names: dict[str, int] = {}
    for i, e in enumerate(entries):
        at = f"{where}[{i}]"
        if not isinstance(e, dict):
            raise SeasonProblem(at, "must be a table: name = \"Autumn 2026\", "
                                    "from = 2026-09-01, to = 2026-11-30")
        unknown = sorted(set(e) - {"name", "from", "to"})
        if unknown:
            raise SeasonProblem(f"{at}.{unknown[0]}", "unknown key (known: name, from, to)")
        name = e.get("name")
        if not isinstance(name, str) or not name.strip():
            raise SeasonProblem(f"{at}.name", "a season needs a name, e.g. \"Autumn 2026\"")
        name = " ".join(name.split())
        if len(name) > NAME_MOST:
            raise SeasonProblem(f"{at}.name", f"{name[:NAME_MOST]}... is {len(name)} characters "
                                              f"(at most {NAME_MOST})")
        if not name.isprintable():
            raise SeasonProblem(f"{at}.name", f"{name!r} holds a character that is not text")
        if name.casefold() == THIS:
            raise SeasonProblem(f"{at}.name", f"{name!r} is the word the pages and exports use "
                                              "for the season holding today: choose another")
        if name.casefold() in names:
            raise SeasonProblem(f"{at}.name", f"{name!r} is already the name of "
                                              f"{where}[{names[name.casefold()]}]")
        names[name.casefold()] = i
        if "from" not in e:
            raise SeasonProblem(f"{at}.from", "a season needs its first day, e.g. "
                                              "from = 2026-09-01")
        start = _day(f"{at}.from", e["from"])
        end = None if e.get("to") in (None, "") else _day(f"{at}.to", e["to"])
        if end is not None and end < start:
            raise SeasonProblem(f"{at}.to", f"{end.isoformat()} is before its first day "
                                            f"{start.isoformat()}")
        out.append(Season(name, start, end))
    ordered = sorted(out, key=lambda s: s.start)
    for a, b in zip(ordered, ordered[1:]):
        if a.end is None or a.end >= b.start:
            raise SeasonProblem(where, f"{a.name!r} ({a.span()}) and {b.name!r} ({b.span()}) "
                                       "overlap: a game can be in one season only")
    return tuple(ordered)


def current(seasons: Iterable[Season], today: dt.date) -> Season | None:
    """The season holding `today`, if any."""
    return next((s for s in seasons if s.holds_date(today)), None)


def named(seasons: Iterable[Season], name: str) -> Season | None:
    """The season called `name` (ignoring case and spaces), if any."""
    want = " ".join(name.split()).casefold()
    return next((s for s in seasons if s.name.casefold() == want), None)


class _Started(Protocol):
    @property
    def created(self) -> float: ...


G = TypeVar("G", bound=_Started)


def within(games: Iterable[G], season: Season | None) -> list[G]:
    """The games started in `season` (None: every game, the all-time view)."""
    return [g for g in games if season is None or season.holds(g.created)]
