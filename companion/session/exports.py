"""Finished games as plays for the apps groups log their games in (docs/stats.md, "Export to a
spreadsheet or BG Stats"): a CSV of one row per player per game, and BG Stats' play format.

Everything here is made from the statistics' records (`GameRecord`, companion/session/
stats.py): no replay, no journal, no clock. Only finished games are plays.

BG Stats' format is the play its "createPlay" link takes (the JSON of its `data` parameter),
published at https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
and described field by field in docs/stats.md; docs/bgstats.schema.json checks what is written
here against those fields. BG Stats takes one play at a time, so a file of many games is a JSON
array of plays.

A kind maps to a BoardGameGeek title where one exists (`BOARDGAMEGEEK`); every other kind, and
every design, is logged as the deck, "Chroma Cards", with the kind's own title as the note.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import scoring as kind_scoring, title as kind_title
from companion.session import when
from companion.session.seasons import Season
from companion.session.stats import GameRecord, key, minutes

SOURCE_NAME = "Chroma Table Companion"  # BG Stats remembers its matches under this name
DECK = "Chroma Cards"
# A kind's BoardGameGeek entry (title, id), where that very game has one. None of the nine
# built-in kinds has an entry of its own that could be verified (nor has the deck: no id is
# written rather than a guessed one), so they are all logged as the deck.
BOARDGAMEGEEK: dict[str, tuple[str, int]] = {}

CSV_FIELDS = ("game", "started", "minutes", "kind", "title", "logged_as", "season", "seat",
              "player", "score", "score_name", "winner", "rank")
# A spreadsheet takes a cell starting with one of these as a formula: a name typed on a
# phone must never run as one, so such a text is written after a quote ('=Ann).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Seat:
    seat: int  # 1 = the first seat of the header
    name: str  # as the player's first game wrote it
    score: int | None  # the kind's score (None: the kind does not score, or not this game)
    winner: bool
    rank: int | None  # 1 = won; None when the game does not say (below)


@dataclass(frozen=True)
class Play:
    """One finished game as the score apps want it."""

    game: int
    created: float  # when it was started (epoch seconds)
    seconds: float | None  # playing time (None: its times are not known)
    kind: str
    title: str  # the kind's title (a design's own)
    logged_as: str  # the BoardGameGeek title, else DECK
    bgg_id: int | None
    score_name: str  # "" for a kind without a score
    lowest_wins: bool
    season: str  # "" when no season holds the game
    seats: tuple[Seat, ...]

    @property
    def started(self) -> str:
        """The local date and time the game started, ISO ("2026-09-05T19:30:00"); "" for a
        time the journal cannot show as a date."""
        lt = when.local(self.created)
        return "" if lt is None else time.strftime("%Y-%m-%dT%H:%M:%S", lt)

    @property
    def minutes(self) -> float | None:
        return None if self.seconds is None else minutes(self.seconds)

    @property
    def note(self) -> str:
        """What says which game of the deck it was, when the play is logged as the deck."""
        return self.title if self.logged_as == DECK else ""


def first_names(records: Iterable[GameRecord]) -> dict[str, str]:
    """Each player's name as their earliest game wrote it (spaces trimmed), by `key`: the
    rule of `stats.compute`, so a play names a player as /stats does."""
    names: dict[str, str] = {}
    for g in sorted(records, key=lambda g: g.id):
        for n in g.players:
            names.setdefault(key(n), n.strip())
    return names


def ranks(record: GameRecord) -> tuple[int | None, ...]:
    """Each seat's place, where the game says it: the winners are 1st; the others follow by
    the kind's score (a shared score, a shared place: 1, 2, 2, 4). Without a winner, or
    with seats that lost and no score to order them, no place is given (None)."""
    n = len(record.players)
    if not record.winners:
        return (None,) * n
    out: list[int | None] = []
    sc = kind_scoring(record.kind)
    for s in range(n):
        if s in record.winners:
            out.append(1)
        elif record.scores is None or sc is None:
            out.append(None)
        else:
            mine = record.scores[s]
            better = sum(1 for o in range(n) if o not in record.winners and
                         (record.scores[o] < mine if sc.lowest else record.scores[o] > mine))
            out.append(len(record.winners) + 1 + better)
    return tuple(out)


def play_of(record: GameRecord, names: dict[str, str], seasons: Sequence[Season] = ()) -> Play:
    """The play of one finished game; `names`: `first_names` of every record."""
    sc = kind_scoring(record.kind)
    title = kind_title(record.kind)
    logged_as, bgg_id = BOARDGAMEGEEK.get(record.kind, (DECK, None))
    season = next((s.name for s in seasons if s.holds(record.created)), "")
    places = ranks(record)
    seats = tuple(
        Seat(s + 1, names.get(key(name), name.strip()),
             None if record.scores is None else record.scores[s], s in record.winners,
             places[s])
        for s, name in enumerate(record.players))
    return Play(record.id, record.created, record.seconds, record.kind, title, logged_as,
                bgg_id, sc.name if sc else "", bool(sc and sc.lowest), season, seats)


def plays(records: Sequence[GameRecord], seasons: Sequence[Season] = (),
          season: Season | None = None) -> tuple[list[Play], list[GameRecord]]:
    """The plays of the finished games of `records` (those `season` holds, if given), oldest
    first, and the games left out as unfinished."""
    names = first_names(records)
    chosen = [r for r in sorted(records, key=lambda r: r.id)
              if season is None or season.holds(r.created)]
    return ([play_of(r, names, seasons) for r in chosen if r.finished],
            [r for r in chosen if not r.finished])


# --- CSV ---------------------------------------------------------------------------------------

def cell(text: str) -> str:
    """A text as a spreadsheet shows it and never runs it (FORMULA_START)."""
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_rows(play: Play) -> Iterator[dict[str, str]]:
    """One row per seat, every value as text ("" for unknown)."""
    for s in play.seats:
        yield {"game": str(play.game), "started": play.started,
               "minutes": "" if play.minutes is None else f"{play.minutes:g}",
               "kind": cell(play.kind), "title": cell(play.title),
               "logged_as": cell(play.logged_as), "season": cell(play.season),
               "seat": str(s.seat), "player": cell(s.name),
               "score": "" if s.score is None else str(s.score),
               "score_name": play.score_name, "winner": "yes" if s.winner else "no",
               "rank": "" if s.rank is None else str(s.rank)}


def csv_lines(plays: Iterable[Play], *, per_chunk: int = 250) -> Iterator[str]:
    """The CSV in chunks of `per_chunk` games (the header first): a big journal is streamed,
    not built whole (a chunk per game made 5,000 games three times slower to send)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for n, p in enumerate(plays, 1):
        for row in csv_rows(p):
            writer.writerow(row)
        if n % per_chunk == 0:
            yield _take(out)
    yield _take(out)


def _take(buf: io.StringIO) -> str:
    text = buf.getvalue()
    buf.seek(0)
    buf.truncate()
    return text


def csv_text(plays: Iterable[Play]) -> str:
    return "".join(csv_lines(plays))


# --- BG Stats ----------------------------------------------------------------------------------

def _utc(epoch: float) -> str:
    """BG Stats' playDate: UTC, "yyyy-MM-dd HH:mm:ss"."""
    if not when.sane(epoch):
        epoch = 0.0
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(epoch))


def source_play_id(play: Play) -> str:
    """The same game always has the same id (BG Stats recognises a play sent twice), and
    games of two journals, both numbered from 1, have different ones (their starts differ)."""
    return f"chroma-{play.game}-{int(play.created) if when.sane(play.created) else 0}"


def bgstats_play(play: Play) -> dict[str, Any]:
    """The play in BG Stats' createPlay fields (docs/stats.md, docs/bgstats.schema.json).
    The players are in seat order; BG Stats is told no start player (the record keeps no
    first seat): `startPlayer` is false for each, the field being required by its app."""
    end = play.created + (play.seconds or 0.0)
    game: dict[str, Any] = {"name": play.logged_as,
                            "sourceGameId": "chroma-cards" if play.bgg_id is None
                            else str(play.bgg_id),
                            "highestWins": not play.lowest_wins,
                            "noPoints": all(s.score is None for s in play.seats)}
    if play.bgg_id is not None:
        game["bggId"] = play.bgg_id
    players = []
    for s in play.seats:
        p: dict[str, Any] = {"name": s.name, "sourcePlayerId": key(s.name),
                             "winner": s.winner, "startPlayer": False}
        if s.score is not None:
            p["score"] = s.score
        if s.rank is not None:
            p["rank"] = s.rank
        players.append(p)
    out: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": source_play_id(play),
                           "playDate": _utc(end), "game": game, "players": players,
                           "comments": comments(play)}
    if play.seconds is not None:
        out["durationMin"] = round(play.seconds / 60)  # whole minutes
    return out


def comments(play: Play) -> str:
    """The play's note: which game of the deck, its season, where it came from."""
    parts = [play.note] if play.note else []
    if play.season:
        parts.append(f"season {play.season}")
    parts.append(f"game {play.game} on the {SOURCE_NAME}")
    return ", ".join(parts)


def bgstats_text(plays: Sequence[Play], *, many: bool) -> str:
    """One play as a JSON object, or (`many`) a JSON array of plays."""
    if many:
        return json.dumps([bgstats_play(p) for p in plays], ensure_ascii=False, indent=1) + "\n"
    return json.dumps(bgstats_play(plays[0]), ensure_ascii=False, indent=1) + "\n"


def file_name(what: str, fmt: str) -> str:
    """A download's name: "chroma-game-12.csv", "chroma-plays-autumn-2026.bgstats.json"."""
    stem = "".join(c if c.isascii() and c.isalnum() else "-" for c in what.casefold())
    stem = "-".join(part for part in stem.split("-") if part) or "plays"
    return f"chroma-{stem}.{'csv' if fmt == 'csv' else 'bgstats.json'}"
