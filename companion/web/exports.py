"""The table web's play downloads: finished games as CSV and in BG Stats' play format
(companion/session/exports.py; docs/stats.md, "Export to a spreadsheet or BG Stats").

`routes(web)` (mounted by companion/web/server.py) reads the journal like the history pages,
through its own read-only connection and statistics cache (history.Source): a journal of
5,000 games is read once, and each download after that is made from the cached records.
Like a game's log (/games/{id}.jsonl), a download goes only to a page naming the box's own
address (`guard.check_host`: a DNS-rebinding page cannot take the group's plays).

- GET /games/{id}.csv                   one finished game, one row per player
- GET /games/{id}.bgstats.json          the same as a BG Stats play
- GET /plays.csv[?season=this|NAME]     every finished game (or a season's)
- GET /plays.bgstats.json[?season=...]  the same as a JSON array of BG Stats plays
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from companion.session import exports
from companion.session.checksum import describe
from companion.session.seasons import THIS, Season, current, named
from companion.web import guard
from companion.web.history import HEADERS, Source


def _seasons(web) -> tuple[Season, ...]:
    config = getattr(web, "config", None)
    return config.seasons() if config is not None else ()


def season_wanted(asked: str | None, known: Sequence[Season],
                  today: dt.date) -> tuple[Season | None, str]:
    """The season a download asks for (None: every game) and, when it cannot be found, why
    in words (else "")."""
    if asked is None or not asked.strip():
        return None, ""
    if asked.strip().casefold() == THIS:
        found = current(known, today)
        if found is None:
            return None, (f"No season holds today ({today.isoformat()}). "
                          + _known(known) + " Every game: /plays.csv")
        return found, ""
    found = named(known, asked)
    if found is None:
        return None, f"There is no season called {asked.strip()!r}. " + _known(known)
    return found, ""


def _known(known: Sequence[Season]) -> str:
    if not known:
        return "The config names no seasons ([[stats.seasons]], docs/stats.md)."
    return "The seasons: " + ", ".join(f"{s.name} ({s.span()})" for s in known) + "."


def routes(web) -> list:
    """Routes for the server; `web.source` is the journal database path (None: no journal)."""
    from starlette.responses import PlainTextResponse, Response, StreamingResponse
    from starlette.routing import Route

    src = Source(web.source) if web.source is not None else None

    def refused(request):
        try:
            guard.check_host(request.headers, web.allowed_hosts)
        except guard.Refused as e:
            return PlainTextResponse(e.reason, status_code=e.status)
        return None

    def download(text: str, fmt: str, name: str) -> Response:
        return Response(text, media_type=_media(fmt), headers={
            **HEADERS, "Content-Disposition": f'attachment; filename="{name}"'})

    def one(request, fmt: str):
        no = refused(request)
        if no is not None:
            return no
        gid = request.path_params["game_id"]
        if src is None or not src.path.is_file() or not 0 <= gid < 2**63:
            return PlainTextResponse(f"There is no game {gid}.", status_code=404)
        with src.lock:
            records = src.records()
            record = next((r for r in records if r.id == gid), None)
            why = next((x.why for x in src.left_out() if x.game == gid), None)
            altered = src.reader().verify(gid) if record is not None else []  # type: ignore[misc]
        if record is None:
            if why is not None:
                return PlainTextResponse(f"Game {gid} cannot be exported: {why}.",
                                         status_code=404)
            return PlainTextResponse(f"There is no game {gid}.", status_code=404)
        if not record.finished:
            return PlainTextResponse(f"Game {gid} is not finished: only a finished game is a "
                                     "play.", status_code=409)
        if altered:  # as its log: not handed out as if it were the game played
            return PlainTextResponse(f"{describe(altered)}: the game was altered after it was "
                                     "recorded.", status_code=409)
        play = exports.play_of(record, exports.first_names(records), _seasons(web))
        name = exports.file_name(f"game-{gid}", fmt)
        if fmt == "csv":
            return download(exports.csv_text([play]), fmt, name)
        return download(exports.bgstats_text([play], many=False), fmt, name)

    def many(request, fmt: str):
        no = refused(request)
        if no is not None:
            return no
        known = _seasons(web)
        season, problem = season_wanted(request.query_params.get("season"), known,
                                        dt.date.today())
        if problem:
            return PlainTextResponse(problem, status_code=404)
        records = []
        if src is not None and src.path.is_file():
            with src.lock:
                records = src.records()
        chosen, _ = exports.plays(records, known, season)
        name = exports.file_name("plays-" + (season.name if season else "all"), fmt)
        headers = {**HEADERS, "Content-Disposition": f'attachment; filename="{name}"'}
        if fmt == "csv":  # a line per game: a long history is sent as it is written
            return StreamingResponse(exports.csv_lines(chosen), media_type=_media(fmt),
                                     headers=headers)
        return Response(exports.bgstats_text(chosen, many=True), media_type=_media(fmt),
                        headers=headers)

    return [
        Route("/games/{game_id:int}.csv", lambda r: one(r, "csv")),
        Route("/games/{game_id:int}.bgstats.json", lambda r: one(r, "bgstats")),
        Route("/plays.csv", lambda r: many(r, "csv")),
        Route("/plays.bgstats.json", lambda r: many(r, "bgstats")),
    ]


def _media(fmt: str) -> str:
    return "text/csv; charset=utf-8" if fmt == "csv" else "application/json"
