"""The table web's history pages: every game, one game, the statistics, and a backup.

`routes(web)` (mounted by companion/web/server.py) reads `web.source`, the journal's path.
The pages read it through their own read-only SQLite connection (`mode=ro`: this thread can
never write, and the app thread stays the one writer). The figures are companion/session/stats.py's, cached per
game by what identifies its content, so a page after a move replays only the game that moved.
Charts are pygal SVG drawn here, inline, with no JavaScript.

- GET /games               every game: kind, date, players, winner, length, link
- GET /games/{id}          its history in words, the per-round table, a chart of the scores
- GET /games/{id}.jsonl    the game as a log (`companion export --game ID`)
- GET /stats[?game=KIND][&season=NAME]   players ranked by rating, their ratings over time,
                           rivals, turns, win rates, head-to-head, records, charts; the
                           current season first and each finished season's champion
- GET /backup              a consistent copy of the journal (SQLite online backup API)
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.games import (
    color as kind_color,
    kinds as game_kinds,
    scoring as kind_scoring,
    title as kind_title,
)
from companion.session import seasons as seasons_of, when as stored_when
from companion.session.checksum import describe
from companion.session.clock import clock_text, whole
from companion.session.ratings import PROVISIONAL_GAMES, Ratings
from companion.session.rows import load_game
from companion.session.seasons import current
from companion.session.stats import (
    RIVAL_GAMES,
    GameRecord,
    LeftOut,
    compute,
    minutes,
    not_counted_lines,
    seat_scores,
)
from companion.session.store import Store, empty_journal
from companion.session.tally import History
from companion.web import guard, standings

HERE = Path(__file__).parent
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
# The pages have no script; the charts' SVG carries its own <style>.
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer",
           "Content-Security-Policy": "default-src 'none'; style-src 'self' 'unsafe-inline'; "
                                      "img-src 'self' data:; frame-ancestors 'none'; "
                                      "base-uri 'none'; form-action 'self'"}


# The games list of a paired browser runs static/games.js (the Resume buttons).
RESUME_HEADERS = {**HEADERS, "Content-Security-Policy": HEADERS["Content-Security-Policy"]
                  + "; script-src 'self'; connect-src 'self'"}


class Reader:
    """The journal, read-only, with the Store's reading methods (same SQL, same decoding)."""

    history_rows = Store.history_rows
    active_events = Store.active_events
    summaries = Store.summaries
    replay = Store.replay
    _load = staticmethod(load_game)
    verify = Store.verify

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise CompanionError(f"there is no journal at {self.path} yet")
        self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None,
                                  check_same_thread=False)
        if self.db.execute("SELECT 1 FROM sqlite_master").fetchone() is None:
            self.db.close()  # no tables yet (a file not written to yet): no games
            self.db = empty_journal()
        self.schema = self.db.execute("PRAGMA user_version").fetchone()[0]  # for verify

    def load(self, game_id: int):
        return self._load(self.db, game_id)

    def close(self) -> None:
        self.db.close()


class Source:
    """What the routes share: one read-only connection and one statistics cache, used by one
    request at a time (Starlette runs these plain functions in its thread pool)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()
        self._reader: Reader | None = None
        self._history: History | None = None
        self._seasons: dict[seasons_of.Season, Ratings] = {}  # a season's ratings (`ratings`)

    def reader(self) -> Reader:
        if self._reader is None:
            self._reader = Reader(self.path)
            self._history = History(self._reader)
        return self._reader

    def records(self) -> list[GameRecord]:
        self.reader()
        assert self._history is not None
        return self._history.records()

    def ratings(self, records: list[GameRecord], season: seasons_of.Season | None = None
                ) -> Ratings:
        """The skill ratings over `records` (all time), or over a season's games of them:
        each kept between requests, so only the games finished since are folded in."""
        if season is None:
            assert self._history is not None
            return self._history.ratings(records)
        kept = self._seasons.setdefault(season, Ratings())
        return kept.update(seasons_of.within(records, season))

    def left_out(self) -> list[LeftOut]:
        """The games the last `records` could not count (History.left_out)."""
        return self._history.left_out if self._history is not None else []

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None


# --- words and numbers for the pages --------------------------------------------------------------

def title(kind: str) -> str:
    return kind_title(kind)


def _score_name(kind: str) -> str:
    sc = kind_scoring(kind)
    return sc.name if sc else ""


def when(epoch: float) -> str:
    """A stored time as the pages show it; "unknown" out of range (companion/session/when.py)."""
    return stored_when.text(epoch, "%Y-%m-%d %H:%M")


def length(g: GameRecord) -> str:
    events = f"{g.events} event{'s' * (g.events != 1)}"
    if g.seconds is None:
        return events
    return f"{events}, {minutes(g.seconds):g} min"


def winners(g: GameRecord, on_table: int | None = None) -> str:
    """Who won, or an unfinished game's state: "playing" only for the game on the table now
    (`on_table`, the live snapshot's game); one the journal keeps open or parked but that is
    not on the table (left for the start menu, or set aside by another game, or closed
    unfinished by an older companion: Resume offers each) is "set aside"; "unfinished"
    otherwise (a broken one)."""
    if not g.finished:
        if g.status == "open" and g.id == on_table:
            return "playing"
        return "set aside" if g.status in ("open", "parked", "closed") else "unfinished"
    return " & ".join(g.players[w] for w in g.winners) or "no winner"


def pct(rate: float | None) -> str:
    return "–" if rate is None else f"{round(rate * 100)}%"


def timeline(journal) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every event in words, and the score rows: the start, then after each event that
    changed a score (event number, words, each seat's score). No rows for a kind that does
    not score."""
    kind = journal.header.game
    words = [{"n": i + 1, "text": journal.describe(i)} for i in range(len(journal.events))]
    if kind_scoring(kind) is None:
        return words, []
    last = _scores_any(kind, journal.state_at(0))
    rows: list[dict[str, Any]] = [{"n": 0, "text": "Start", "scores": list(last or ())}]
    for i in range(len(journal.events)):
        now = _scores_any(kind, journal.state_at(i + 1))
        if now is not None and now != last:
            rows.append({"n": i + 1, "text": words[i]["text"], "scores": list(now)})
            last = now
    return words, rows


def _scores_any(kind: str, state) -> tuple[int, ...] | None:
    """The running score, also before the first round (Pig Farm, Chaos: all zero)."""
    v = seat_scores(kind, state)
    if v is None and hasattr(state, "scores"):
        return tuple(state.scores)
    return v


# --- charts ---------------------------------------------------------------------------------------

COLORS = ("#ffd400", "#3ddc84", "#7fd4ff", "#ff5a5a", "#d98cff", "#ff8a00", "#f4f4f4",
          "#1f6fff", "#ff6fb5", "#a0e000", "#00c2b8", "#c9a36b", "#9aa0a6", "#e02424",
          "#4b3cc9", "#ffe01a")


def legend(names) -> list[dict[str, str]]:
    """The charts' legend, drawn by the page in big text (pygal's own, at these font sizes,
    is cut off below its first row)."""
    return [{"name": n, "color": COLORS[i % len(COLORS)]} for i, n in enumerate(names)]


def kinds_legend(kinds) -> list[dict[str, str]]:
    """The wins-by-game chart's legend: each kind in its own colour (`games.color`)."""
    return [{"name": title(k), "color": kind_color(k)} for k in kinds]


def _style(colors: tuple[str, ...] = COLORS):
    from pygal.style import Style
    return Style(background="#111417", plot_background="#111417", foreground="#f4f4f4",
                 foreground_strong="#f4f4f4", foreground_subtle="#3a4048",
                 font_family="DejaVu Sans, sans-serif", label_font_size=26,
                 major_label_font_size=26, legend_font_size=28, title_font_size=30,
                 value_font_size=26, tooltip_font_size=24,
                 # Opaque: a kind's bars are its colour exactly, as in the legend's swatches.
                 opacity="1", opacity_hover="1",
                 colors=colors)


def _config(**more: Any) -> dict[str, Any]:
    # Drawn 480 wide and scaled to the phone's ~330 pixels: the 26-30 px fonts read as 18-20.
    return {"style": _style(), "js": [], "disable_xml_declaration": True, "width": 480,
            "height": 420, "show_legend": False, "margin": 12, "spacing": 10, **more}


def score_chart(kind: str, players: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """Each player's running score (or savings) through the game, as inline SVG."""
    import pygal
    sc = kind_scoring(kind)
    name = sc.name if sc else ""
    values = [v for r in rows for v in r["scores"]]
    labels = [str(r["n"]) for r in rows]
    chart = pygal.Line(**_config(title=f"{name.capitalize()} through the game",
                                 x_title="event", show_minor_x_labels=False,
                                 x_labels_major=x_labels_shown(labels), truncate_label=-1,
                                 dots_size=4, show_dots=len(rows) <= 12,
                                 y_labels=ticks(min(values), max(values))))
    chart.x_labels = labels
    for seat, player in enumerate(players):
        chart.add(player, [r["scores"][seat] for r in rows])
    return _svg(chart)


PLOT_WIDTH = 380  # of the 480 a chart is drawn: the rest is the margins and the y labels
LABEL_PX = 16  # one digit at the labels' 26 px, with the 10 px between two labels below


def x_labels_shown(labels: list[str]) -> list[str]:
    """The x labels the per-game chart writes (the points are the start and each change of
    a score, evenly spaced): every one when they fit side by side, else every k-th, always
    the first (the start) and the last (the final score), so no two overlap."""
    if len(labels) <= 2:
        return list(labels)
    width = LABEL_PX * max(len(t) for t in labels) + 10
    room = max(2, PLOT_WIDTH // width + 1)  # labels that fit, evenly spaced
    if len(labels) <= room:
        return list(labels)
    step = -(-(len(labels) - 1) // (room - 1))
    keep = list(range(0, len(labels), step))
    if len(labels) - 1 - keep[-1] < step and keep[-1] != 0:
        keep[-1] = len(labels) - 1  # the last point instead of one too close to it
    else:
        keep.append(len(labels) - 1)
    return [labels[i] for i in sorted(set(keep))]


def _svg(chart) -> str:
    """The chart as inline SVG without pygal's config <script> (always added, even with no
    JavaScript to read it): the pages run no script."""
    return SCRIPT.sub("", chart.render(is_unicode=True))


def ticks(lo: float, hi: float, *, count: int = 5) -> list[int]:
    """About `count` round numbers from `lo` to `hi` (a phone has room for few labels)."""
    lo, hi = min(0, lo), max(hi, lo + 1)
    raw = (hi - lo) / (count - 1)
    step = next(s * 10 ** e for e in range(0, 9) for s in (1, 2, 5) if s * 10 ** e >= raw)
    first = int(lo // step) * step
    return list(range(first, int(hi) + step, step))


CHART_PLAYERS = 16  # a chart has room for this many; the tables list everyone


def _top(title: str, players: dict[str, dict[str, Any]]) -> str:
    """A chart's title, saying so when it leaves players out (they are in most-wins order)."""
    if len(players) > CHART_PLAYERS:
        return f"{title}, the {CHART_PLAYERS} with most wins"
    return title


def _bar_height(players: dict[str, dict[str, Any]]) -> int:
    return max(220, 80 + 46 * min(CHART_PLAYERS, len(players)))


# A name down the side of a bar chart keeps this many characters (the rest is "…"; the table
# above the chart has it whole): a 16-letter name left the bars a third of a phone's width
# and ran off its left edge.
NAME_CHARS = 11


def _side_name(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def win_rate_chart(players: dict[str, dict[str, Any]]) -> str:
    import pygal
    chart = pygal.HorizontalBar(**_config(title=_top("Win rate (%)", players),
                                          range=(0, 100), print_values=True,
                                          y_labels=[0, 25, 50, 75, 100], margin_right=30,
                                          truncate_label=-1,
                                          height=_bar_height(players)))
    names = list(players)[:CHART_PLAYERS]
    chart.x_labels = [_side_name(n) for n in names]
    rates = [round((players[n]["win_rate"] or 0) * 100) for n in names]
    # A 0 has no bar to write it in (pygal would draw it dark on the dark background): the
    # axis says it.
    chart.add("win rate", [{"value": r, "formatter": (lambda v: "") if r == 0 else str}
                           for r in rates])
    return _svg(chart)


def chart_kinds(players: dict[str, dict[str, Any]]) -> list[str]:
    """The kinds the wins-by-game chart shows (those the charted players played), in New
    game order: its series and its legend."""
    names = list(players)[:CHART_PLAYERS]
    return [k for k in game_kinds() if any(k in players[n]["by_game"] for n in names)]


def wins_by_kind_chart(players: dict[str, dict[str, Any]]) -> str:
    """Each player's wins, stacked by game kind. Bars across, names down the side (as the
    win rate chart: a long name keeps its first letters, `_side_name`), and whole numbers on
    the wins axis."""
    import pygal
    names = list(players)[:CHART_PLAYERS]
    kinds = chart_kinds(players)
    most = max((sum(players[n]["by_game"].get(k, {}).get("won", 0) for k in kinds)
                for n in names), default=0)
    # Each kind in its own colour, the same in every chart whatever other kinds are in it.
    chart = pygal.HorizontalStackedBar(**_config(title=_top("Wins by game", players),
                                                 y_labels=ticks(0, most), margin_right=30,
                                                 truncate_label=-1,
                                                 height=_bar_height(players),
                                                 style=_style(tuple(kind_color(k)
                                                                    for k in kinds) or COLORS)))
    chart.x_labels = [_side_name(n) for n in names]
    for k in kinds:
        chart.add(title(k), [players[n]["by_game"].get(k, {}).get("won", 0) for n in names])
    return _svg(chart)


def timed(players: dict[str, dict[str, Any]]) -> list[str]:
    """The players with turn figures (a turn in a game whose times are known), in the
    page's order: the turns table and chart leave out the others rather than show a 0."""
    return [n for n, p in players.items() if p["turns"]]


def turns_chart(players: dict[str, dict[str, Any]]) -> str:
    """Each timed player's average turn, in whole seconds as the clocks and the table show
    them (rounded down: 0:24 in the table is 24 here), bars across, names down the side as
    in the win rate chart."""
    import pygal
    names = timed(players)[:CHART_PLAYERS]
    values = [whole(players[n]["average_turn"]) for n in names]
    shown = {n: players[n] for n in names}
    chart = pygal.HorizontalBar(**_config(title=_top("Average turn (seconds)", players),
                                          print_values=True, margin_right=30,
                                          y_labels=ticks(0, max(values, default=1)),
                                          truncate_label=-1, height=_bar_height(shown)))
    chart.x_labels = [_side_name(n) for n in names]
    chart.add("average turn", [{"value": v, "formatter": (lambda v: "") if v == 0 else str}
                               for v in values])
    return _svg(chart)


RATING_POINTS = 60  # a player's line keeps this many points at most (the first and last)


def rating_chart(players: dict[str, dict[str, Any]], games: list[GameRecord]) -> str:
    """Each player's rating (`rating_history`: after each of their games with a winner) over
    the games in the order they were played, a line per player in the legend's colours. The
    x axis counts the games charted (1 is the first game any of them played)."""
    import pygal
    names = list(players)[:CHART_PLAYERS]
    started = {g.id: (g.created, g.id) for g in games}
    played = sorted({gid for n in names for gid, _ in players[n]["rating_history"]},
                    key=lambda gid: started.get(gid, (float("inf"), gid)))
    place = {gid: i + 1 for i, gid in enumerate(played)}
    values = [r for n in names for _, r in players[n]["rating_history"]] or [0.0]
    last = max(len(played), 1)  # the axis ends at the last game charted
    style = _style()
    style.stroke_width = 4  # pygal draws each line at the style's width (1 px: hard to see)
    chart = pygal.XY(**_config(title=_top("Rating over the games", players), x_title="games",
                               show_dots=False, style=style,
                               y_labels=ticks(min(values), max(values)),
                               xrange=(0, last), truncate_label=-1,
                               x_labels=[t for t in ticks(0, last) if t <= last]))
    for n in names:
        trail = players[n]["rating_history"]
        keep = _thin(len(trail), RATING_POINTS)
        # One game: a dot, as a line of one point draws nothing.
        chart.add(n, [(place[trail[i][0]], trail[i][1]) for i in keep],
                  show_dots=len(keep) == 1, dots_size=7)
    return _svg(chart)


def _thin(count: int, most: int) -> list[int]:
    """At most `most` indices of `count`, evenly spread, always the first and the last."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(i * step) for i in range(most)})


def turn_text(seconds: float | None) -> str:
    """A turn's seconds as the clocks show them (`0:42`, `2:05`); "–" for none."""
    return "–" if seconds is None else clock_text(seconds)


def game_turns(g: GameRecord) -> list[dict[str, Any]]:
    """A game's turns per seat, for its page: empty when its times are not known."""
    c = g.clock
    if c is None or not any(c.turns):
        return []
    total = sum(c.seconds)
    return [{"name": name, "seconds": c.seconds[s], "turns": c.turns[s],
             "average": c.seconds[s] / c.turns[s] if c.turns[s] else None,
             "longest": c.longest[s] if c.turns[s] else None,
             "share": c.seconds[s] / total if total > 0 else None}
            for s, name in enumerate(g.players)]


# --- the routes -----------------------------------------------------------------------------------

def routes(web) -> list:
    """Routes for the server; `web.source` is the journal database path (None: no journal)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from starlette.responses import HTMLResponse, PlainTextResponse, Response
    from starlette.routing import Route

    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]), auto_reload=False)
    env.filters["pct"] = pct
    env.filters["turn"] = turn_text
    def on_table() -> int | None:
        """The game on the table now (the live snapshot's), None on the start menu."""
        snapshot = web.initial_snapshot() if hasattr(web, "initial_snapshot") else {}
        return snapshot.get("game_id") if snapshot.get("game") else None

    env.globals.update(title=title, when=when, length=length,
                       winners=lambda g: winners(g, on_table()))
    src = Source(web.source) if web.source is not None else None

    def page(name: str, status: int = 200, *, headers: dict[str, str] = HEADERS,
             **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status,
                            headers=headers)

    def missing(what: str) -> HTMLResponse:
        return page("history_missing.html", status=404, what=what)

    def records() -> list[GameRecord] | None:
        if src is None or not src.path.is_file():
            return None
        with src.lock:
            return src.records()

    def games(request):
        recs = records()
        # A paired browser gets a Resume button per unfinished game, and the one script
        # (static/games.js) that sends it: the page's only script, so its only CSP change.
        from companion.web.api import COOKIE
        pairing = getattr(web, "pairing", None)
        paired = pairing is not None and pairing.valid(request.cookies.get(COOKIE))
        # "This season"'s plays are offered only while a season holds today (the config's).
        config = getattr(web, "config", None)
        season = current(config.seasons(), dt.date.today()) if config is not None else None
        return page("history_games.html", games=list(reversed(recs or [])),
                    no_journal=recs is None, paired=paired, season=season,
                    headers=RESUME_HEADERS if paired else HEADERS)

    def game(request):
        gid = request.path_params["game_id"]
        if src is None or not src.path.is_file():
            return missing(f"game {gid}")
        with src.lock:
            recs = {g.id: g for g in src.records()}
            g = recs.get(gid)
            if g is None:
                return missing(f"game {gid}")
            try:
                journal = src.reader().load(gid)
            except (CompanionError, ValueError, KeyError, TypeError):
                return missing(f"a readable game {gid}")
        words, rows = timeline(journal)
        kind = g.kind
        chart = score_chart(kind, g.players, rows) if len(rows) > 1 else ""
        stats = compute(recs.values())
        line = stats.history_line(g) if g.finished else ""
        return page("history_game.html", g=g, words=words, rows=rows, chart=chart,
                    legend=legend(g.players), turns=game_turns(g),
                    score=_score_name(kind), line=line)

    def whole_log_refused(request):
        """A download of a whole log (a game's, or the journal) goes only to a page of the
        box's own: a DNS-rebinding page, which names another host, is refused, like every
        POST."""
        try:
            guard.check_host(request.headers, web.allowed_hosts)
        except guard.Refused as e:
            return PlainTextResponse(e.reason, status_code=e.status)
        return None

    def game_log(request):
        from companion.session import log as logmod
        from companion.session.history import log_times
        refused = whole_log_refused(request)
        if refused is not None:
            return refused
        gid = request.path_params["game_id"]
        # SQLite's integers stop at 2**63 - 1: a bigger id is no game (not an OverflowError).
        if src is None or not src.path.is_file() or not 0 <= gid < 2**63:
            return PlainTextResponse("no such game", status_code=404)
        with src.lock:
            try:
                journal = src.reader().load(gid)
            except (CompanionError, ValueError, KeyError, TypeError):
                return PlainTextResponse(f"no readable game {gid}", status_code=404)
            altered = src.reader().verify(gid)  # type: ignore[misc]  # Reader borrows Store.verify
            times = log_times(src.reader(), gid)  # as export writes
        if altered:  # as `companion export`: not handed out as if it were the game played
            return PlainTextResponse(f"{describe(altered)}: the game was altered after it was "
                                     "recorded; companion export --force on the box writes it",
                                     status_code=409)
        body = "".join(line + "\n" for line in logmod.dump(journal, times))
        return Response(body, media_type="application/x-ndjson", headers={
            **HEADERS, "Content-Disposition":
                f'attachment; filename="{journal.header.game}-{gid}.jsonl"'})

    def stats_page(request):
        kind = request.query_params.get("game") or None
        if kind is not None and kind not in game_kinds():
            return missing(f"the game {kind!r}")
        seasons = web.config.seasons() if getattr(web, "config", None) is not None else ()
        try:
            season = standings.chosen(seasons, request.query_params.get("season"))
        except standings.UnknownSeason as e:
            return page("history_missing.html", status=404, what="such season", text=str(e))
        today = dt.date.today()
        # With no season asked for, the one going on now (if any) is shown first.
        now = seasons_of.current(seasons, today) if season is None else None
        if src is None or not src.path.is_file():
            recs, left = None, []
            whole = compute([])
            st = whole
            this, champions = None, []
        else:
            with src.lock:
                recs, left = src.records(), src.left_out()

                def figures(s: seasons_of.Season | None, kd: str | None = kind):
                    return compute(seasons_of.within(recs, s), kind=kd, left_out=left,
                                   ratings=src.ratings(recs, s))

                whole = figures(None, None)
                st = figures(season) if season is not None or kind is not None else whole
                this = figures(now) if now is not None else None
                champions = standings.champions(seasons, today,
                                                lambda s: figures(s, None).players) \
                    if kind is None else []
        charts: dict[str, Any] = {}
        if st.players:
            charts = {"rates": win_rate_chart(st.players)}
            if any(p["rating_history"] for p in st.players.values()):
                charts["ratings"] = rating_chart(st.players, st.games)
                charts["ratings_legend"] = legend(list(st.players)[:CHART_PLAYERS])
            if timed(st.players):
                charts["turns"] = turns_chart(st.players)
            if kind is None:
                charts["kinds"] = wins_by_kind_chart(st.players)
                charts["kinds_legend"] = kinds_legend(chart_kinds(st.players))
        kinds = [k for k in game_kinds() if k in whole.totals["by_game"]]
        return page("history_stats.html", st=st, kind=kind, kinds=kinds, charts=charts,
                    scoring=kind_scoring(kind) if kind else None, no_journal=recs is None,
                    record_rows=_record_rows(st), not_counted=not_counted_lines(st.totals),
                    timed=timed(st.players), rows=standings.rows(st.players),
                    seasons=seasons, season=season, now=now,
                    this=standings.rows(this.players) if this is not None else None,
                    champions=champions, provisional=PROVISIONAL_GAMES,
                    rival_games=RIVAL_GAMES)

    def backup(request):
        refused = whole_log_refused(request)
        if refused is not None:
            return refused
        if src is None or not src.path.is_file():
            return PlainTextResponse("no journal yet", status_code=404)
        path = consistent_copy(src.path)
        from starlette.background import BackgroundTask
        from starlette.responses import FileResponse
        stamp = time.strftime("%Y%m%d-%H%M%S")
        return FileResponse(path, media_type="application/vnd.sqlite3",
                            filename=f"chroma-journal-{stamp}.db", headers=HEADERS,
                            background=BackgroundTask(os.unlink, path))

    return [
        Route("/games", games),
        Route("/games/{game_id:int}.jsonl", game_log),
        Route("/games/{game_id:int}", game),
        Route("/stats", stats_page),
        Route("/backup", backup),
    ]


def _record_rows(st) -> list[dict[str, Any]]:
    out = []
    for label, key, unit in (("Biggest win", "biggest_margin", "margin"),
                             ("Closest game", "closest_game", "margin"),
                             ("Longest game", "longest_events", "events"),
                             ("Longest in time", "longest_minutes", "minutes"),
                             ("Slowest turn", "slowest_turn", "seconds")):
        r = st.records.get(key)
        if r is None:
            continue
        value = f"by {r['margin']} ({r['score']})" if unit == "margin" else \
            f"{turn_text(r[unit])} by {r['player']}" if unit == "seconds" else \
            f"{r[unit]:g} {unit}"
        out.append({"label": label, "value": value, **r})
    return out


def consistent_copy(path: Path) -> str:
    """A copy of the journal as of one moment, made with SQLite's online backup API through a
    read-only connection (never a raw copy of a live WAL database), as one plain file."""
    fd, tmp = tempfile.mkstemp(prefix="chroma-backup-", suffix=".db")
    os.close(fd)
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        # The paired phones' sessions stay on the box: a guest may download the backup, and a
        # restored copy must not pair again the phones forgotten since (secure_delete: the
        # rows' bytes are overwritten, not just unlinked).
        if dst.execute("SELECT 1 FROM sqlite_master WHERE name='phones'").fetchone():
            dst.execute("PRAGMA secure_delete=ON")
            dst.execute("DELETE FROM phones")
            dst.commit()
    except sqlite3.Error:
        dst.close()
        os.unlink(tmp)
        raise
    finally:
        src.close()
    dst.close()
    return tmp
