"""The /stats page's standings in words: each player's rating row, their nemesis and favourite
victim, and the seasons (which one the page shows, each finished season's champion).

Pure: it reads the figures of companion/session/stats.py `compute` (the ratings are
session/ratings.py's, docs/stats.md) and the seasons of the config (session/seasons.py), and
returns plain data for templates/history_stats.html. companion/web/history.py serves it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.session.ratings import PROVISIONAL_GAMES
from companion.session.seasons import Season


def rating_text(rating: float) -> str:
    """A rating as the page writes it: one place ("18.4", "-3.1")."""
    return f"{rating:.1f}".replace("-", "−")


def new_words(figures: dict[str, Any]) -> str:
    """Why a provisional player is ranked below the others: "new: 3 of 5 games" (the games
    with a winner the rating rests on, of the PROVISIONAL_GAMES it needs); "" otherwise."""
    if not figures.get("provisional"):
        return ""
    return f"new: {figures.get('rated_games', 0)} of {PROVISIONAL_GAMES} games"


def rival_words(figures: dict[str, Any]) -> list[str]:
    """The player's nemesis and favourite victim in words: "loses most to Ben (4 of 6)",
    "beats Cy most (5 of 7)" (games lost or won against them, of the games together)."""
    out = []
    nemesis, victim = figures.get("nemesis"), figures.get("victim")
    if nemesis:
        out.append(f"loses most to {nemesis['name']} ({nemesis['lost']} of {nemesis['games']})")
    if victim:
        out.append(f"beats {victim['name']} most ({victim['won']} of {victim['games']})")
    return out


def rows(players: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The players' table, in the figures' order (established players by rating, then the
    provisional ones: stats.compute ranks them), each row ready to write; only the
    established players have a rank number."""
    out = []
    rank = 0
    for name, p in players.items():
        rank += not p["provisional"]
        out.append({"name": name, "rank": None if p["provisional"] else rank,
                    "rating": rating_text(p["rating"]),
                    "new": new_words(p), "played": p["played"], "won": p["won"],
                    "win_rate": p["win_rate"], "rivals": rival_words(p)})
    return out


def champion(players: dict[str, dict[str, Any]]) -> str | None:
    """The top established player of a season's figures (ranked as `rows`); None when
    nobody there is established."""
    return next((name for name, p in players.items() if not p["provisional"]), None)


@dataclass(frozen=True)
class Champion:
    season: Season
    name: str | None  # None: nobody played enough games in it
    rating: str = ""

    def words(self) -> str:
        if self.name is None:
            return (f"no champion: nobody played {PROVISIONAL_GAMES} games with a winner "
                    "in it")
        return f"{self.name} ({self.rating})"


def champions(seasons: Sequence[Season], today: dt.date,
              figures: Callable[[Season], dict[str, dict[str, Any]]]) -> list[Champion]:
    """The champion of each finished season, the latest first; `figures(season)`: that
    season's players (stats.compute over its games)."""
    out = []
    for s in sorted((s for s in seasons if s.finished(today)), key=lambda s: s.start,
                    reverse=True):
        players = figures(s)
        name = champion(players)
        out.append(Champion(s, name, rating_text(players[name]["rating"]) if name else ""))
    return out


class UnknownSeason(LookupError):
    """A ?season= that names no season of the config."""

    def __init__(self, name: str, seasons: Sequence[Season]) -> None:
        self.name = name
        known = ", ".join(s.name for s in seasons) or "none are set in the config"
        super().__init__(f"There is no season called {name!r} (the seasons: {known}).")


def chosen(seasons: Sequence[Season], name: str | None) -> Season | None:
    """The season `?season=NAME` asks for (None: all time); UnknownSeason for a name the
    config does not have."""
    if name is None or not name.strip():
        return None
    from companion.session.seasons import named
    s = named(seasons, name)
    if s is None:
        raise UnknownSeason(name.strip(), seasons)
    return s
