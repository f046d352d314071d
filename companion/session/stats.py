"""History and statistics over the journal's games (no second database).

`GameRecord` is what one game contributes: its kind, players, winners, each seat's score and
the kind's extra figures, read from the final state of a replay. `compute` folds records into
per-player figures, head-to-head counts and records; `History` keeps the records of a store
cached by what identifies each game's content (its active event count and last row), so only
games that changed since the last call are replayed, and nothing is computed at start-up.
The app thread also saves each finished game's record in the journal (table `game_stats`), so
that a restart does not replay them all.

Names are compared ignoring case and surrounding spaces and shown as first written. Only
finished games count toward played and won; a shared win counts for each winner; a game the
group ended with no winner counts as played. docs/stats.md documents every field.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Iterable, overload

from companion.errors import JournalError
from companion.games import find as kind_find, scoring as kind_scoring, title as kind_title
from companion.rules.game import Header, State
from companion.session import asides

log = logging.getLogger(__name__)


# --- what each kind scores (its GameKind.scoring) ------------------------------------------

def seat_scores(kind: str, state: State) -> tuple[int, ...] | None:
    """Each seat's score in this state (None for a kind that does not score)."""
    sc = kind_scoring(kind)
    if sc is None:
        return None
    v = sc.score(state)
    return None if v is None else tuple(v)


# --- one game's playing time ---------------------------------------------------------------

def playing_seconds(start: float, end: float,
                    away: Iterable[tuple[float, float]] = ()) -> float:
    """A game's playing time, in seconds: from its start (`games.created`) to its last event
    (`end`), less every span in `away` during which it was not played. Today `away` is the
    spans it sat set aside (parked by another game, or left for the start menu:
    companion/session/asides.py); a later pause or long break is one more span. Spans may
    overlap each other and run past the game: only the part within start..end counts, once.
    The one definition of a game's length: /games, /stats and `companion stats` all show it,
    through `minutes`."""
    total = max(0.0, end - start)
    covered = 0.0
    reach = start  # how far the spans so far cover (each second is taken off once)
    for a, b in sorted(away):
        a, b = max(a, reach), min(b, end)
        if b > a:
            covered += b - a
            reach = b
    return max(0.0, total - covered)


def minutes(seconds: float) -> float:
    """A playing time in minutes, the one rounding every page and command shows (one place:
    "3.5 min", never "4 min" on one page and "3.5" on another)."""
    return round(seconds / 60, 1)


# --- one game ----------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRecord:
    id: int
    kind: str
    players: tuple[str, ...]
    created: float  # when the game was started (epoch seconds)
    finished: bool  # the final state is over
    winners: tuple[int, ...]
    events: int
    seconds: float | None  # playing time (`playing_seconds`); None when imported (no times)
    scores: tuple[int, ...] | None  # per seat, the kind's main score (None: does not score)
    extras: dict[str, tuple[int | None, ...]] = field(default_factory=dict)
    status: str = "closed"
    imported: bool = False

    @property
    def title(self) -> str:
        return kind_title(self.kind)

    def margin(self) -> int | None:
        """How far the winners were ahead of the best other seat on the kind's score (None
        without a score, a winner or a loser, and None when a winner was behind on the
        score: Drop Rainbow's seven colours win at once, whatever the cards)."""
        sc = kind_scoring(self.kind)
        if sc is None or self.scores is None or not self.winners \
                or len(self.winners) == len(self.players):
            return None
        lowest = sc.lowest
        wins = [self.scores[w] for w in self.winners]
        win = max(wins) if lowest else min(wins)  # the winner nearest the others
        others = [v for s, v in enumerate(self.scores) if s not in self.winners]
        runner = min(others) if lowest else max(others)
        m = runner - win if lowest else win - runner
        return m if m >= 0 else None


def record_of(game_id: int, header: Header, state: State, *, events: int, created: float,
              seconds: float | None = None, status: str = "closed",
              imported: bool = False) -> GameRecord:
    """What one game contributes, from its header and final state."""
    sc = kind_scoring(header.game)
    scores = seat_scores(header.game, state)
    extras = {k: tuple(f(state)) for k, f in sc.extras.items()} if sc else {}
    return GameRecord(game_id, header.game, tuple(header.players), created, state.over,
                      tuple(state.winners), events, seconds, scores, extras, status, imported)


# --- the statistics ------------------------------------------------------------------------

def key(name: str) -> str:
    """Names are the same player when equal ignoring case and surrounding spaces."""
    return name.strip().casefold()


def _rate(won: int, played: int) -> float | None:
    return round(won / played, 3) if played else None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass
class _Kind:
    played: int = 0
    won: int = 0
    scores: list[int] = field(default_factory=list)
    extras: dict[str, int] = field(default_factory=dict)


@dataclass
class _Player:
    name: str
    played: int = 0
    won: int = 0
    by_game: dict[str, _Kind] = field(default_factory=dict)
    h2h: dict[str, list[int]] = field(default_factory=dict)  # other key -> [games, won, lost]


@dataclass(frozen=True)
class LeftOut:
    """A game the statistics cannot count: its kind is not installed here (a house game
    uninstalled before its record was saved) or it no longer replays."""

    game: int
    kind: str
    why: str


@dataclass(frozen=True)
class Stats:
    """The figures of `compute`, JSON-ready with `to_json` (docs/stats.md)."""

    games: list[GameRecord]
    players: dict[str, dict[str, Any]]  # display name -> figures
    records: dict[str, Any]
    totals: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)  # key(name) -> as first written

    def shown(self, name: str) -> str:
        """A name as the player's first game wrote it (the same with or without a filter)."""
        return self.names.get(key(name), name.strip())

    def to_json(self) -> dict[str, Any]:
        return {"games": self.totals, "players": self.players, "records": self.records}

    def history_line(self, record: GameRecord, *, short: bool = False) -> str:
        """One line about a finished game: "Dee's 3rd Pig Farm win in 5 games". `short` is
        for the 128-pixel panel, where the winner and the kind are already on the screen:
        "3rd win in 5 games"."""
        if not record.finished:
            return ""
        kind = "" if short else f"{record.title} "
        if not record.winners:
            n = sum(1 for g in self.games if g.finished and g.kind == record.kind
                    and g.id <= record.id)
            return f"{_ordinal(n)} {kind}game here"
        # Counted up to this game: a later game does not change what this one was.
        upto = [g for g in self.games
                if g.finished and g.kind == record.kind and g.id <= record.id]
        parts = []
        for seat in record.winners:
            k = key(record.players[seat])
            played = [g for g in upto if k in {key(n) for n in g.players}]
            won = sum(1 for g in played if k in {key(g.players[w]) for w in g.winners})
            parts.append((self.shown(record.players[seat]), won, len(played)))
        if len(parts) == 1:
            name, won, count = parts[0]
            who = "" if short else f"{name}'s "
            return f"{who}{_ordinal(won)} {kind}win in {count} game{'s' * (count != 1)}"
        if short:
            return ", ".join(f"{n} {_ordinal(w)}" for n, w, _ in parts) + " win"
        return " & ".join(f"{n}'s {_ordinal(w)}" for n, w, _ in parts) + f" {kind}win"


def compute(games: Iterable[GameRecord], *, kind: str | None = None,
            player: str | None = None, left_out: Iterable[LeftOut] = ()) -> Stats:
    """Per-player figures, head-to-head and records over `games` (optionally one kind; with
    `player`, only that player's figures are listed, the records stay the group's).
    `left_out`: the games that could not be counted (`History.left_out`), said in the
    totals so that a game never drops out of the figures unsaid."""
    games = sorted(games, key=lambda g: g.id)
    names: dict[str, str] = {}  # over every game, so a filter does not change a name
    for g in games:
        for n in g.players:
            names.setdefault(key(n), n.strip())
    games = [g for g in games if kind is None or g.kind == kind]
    people: dict[str, _Player] = {}
    finished = [g for g in games if g.finished]
    for g in finished:
        keys = [key(n) for n in g.players]
        for seat in range(len(g.players)):
            p = people.setdefault(keys[seat], _Player(names[keys[seat]]))
            won = seat in g.winners
            p.played += 1
            p.won += won
            k = p.by_game.setdefault(g.kind, _Kind())
            k.played += 1
            k.won += won
            if g.scores is not None:
                k.scores.append(g.scores[seat])
            for extra, values in g.extras.items():
                v = values[seat]
                if v is not None and (extra not in k.extras or v > k.extras[extra]):
                    k.extras[extra] = v
            for other, okey in enumerate(keys):
                if okey == keys[seat]:
                    continue
                h = p.h2h.setdefault(okey, [0, 0, 0])
                h[0] += 1
                if won and other not in g.winners:
                    h[1] += 1
                elif other in g.winners and not won:
                    h[2] += 1
    wanted = None if player is None else key(player)
    players: dict[str, dict[str, Any]] = {}
    for pk, p in sorted(people.items(), key=lambda kv: (-kv[1].won, -kv[1].won / kv[1].played,
                                                        -kv[1].played, kv[0])):
        if wanted is not None and pk != wanted:
            continue
        by_game = {}
        for kd, k in p.by_game.items():
            out: dict[str, Any] = {"played": k.played, "won": k.won,
                                   "win_rate": _rate(k.won, k.played)}
            sc = kind_scoring(kd)
            if sc is not None:
                out["score"] = sc.name
                out["lowest_wins"] = sc.lowest
                out["scored"] = len(k.scores)
                out["average"] = round(sum(k.scores) / len(k.scores), 2) if k.scores else None
                out["best"] = (min(k.scores) if sc.lowest else max(k.scores)) \
                    if k.scores else None
                for extra in sc.extras:
                    out[extra] = k.extras.get(extra)
            by_game[kd] = out
        players[p.name] = {
            "played": p.played, "won": p.won, "win_rate": _rate(p.won, p.played),
            "by_game": by_game,
            "head_to_head": {people[o].name: {"games": h[0], "won": h[1], "lost": h[2]}
                             for o, h in sorted(p.h2h.items(),
                                                key=lambda kv: people[kv[0]].name.casefold())},
        }
    by_kind: dict[str, int] = {}
    for g in finished:
        by_kind[g.kind] = by_kind.get(g.kind, 0) + 1
    totals = {"finished": len(finished), "unfinished": len(games) - len(finished),
              "by_game": by_kind,
              "not_counted": [{"game": x.game, "kind": x.kind, "why": x.why} for x in left_out
                              if kind is None or x.kind == kind]}
    return Stats(games, players, _records(finished, names), totals, names)


def _records(finished: list[GameRecord], names: dict[str, str]) -> dict[str, Any]:
    def _game_ref(g: GameRecord) -> dict[str, Any]:
        return {"game": g.id, "kind": g.kind, "players": [names[key(n)] for n in g.players],
                "winners": [names[key(g.players[w])] for w in g.winners]}

    margins = [(m, g) for g in finished if (m := g.margin()) is not None]
    out: dict[str, Any] = {"biggest_margin": None, "closest_game": None,
                           "longest_events": None, "longest_minutes": None}
    if margins:
        m, g = max(margins, key=lambda mg: (mg[0], -mg[1].id))
        out["biggest_margin"] = {**_game_ref(g), "margin": m, "score": _score_name(g.kind)}
        m, g = min(margins, key=lambda mg: (mg[0], mg[1].id))
        out["closest_game"] = {**_game_ref(g), "margin": m, "score": _score_name(g.kind)}
    if finished:
        g = max(finished, key=lambda g: (g.events, -g.id))
        out["longest_events"] = {**_game_ref(g), "events": g.events}
    timed = [g for g in finished if g.seconds is not None]
    if timed:
        g = max(timed, key=lambda g: (g.seconds, -g.id))
        assert g.seconds is not None
        out["longest_minutes"] = {**_game_ref(g), "minutes": minutes(g.seconds)}
    return out


# --- from the journal, cached ----------------------------------------------------------------

# Of the saved records: a change in what a record holds bumps it (2: `seconds` is the playing
# time, without the spans set aside).
SUMMARY_VERSION = 2


def summary_key(row) -> str:
    """What identifies a game's content for a saved record: its active events (count and last
    row: an append adds a row, an undo lowers the count, a redo restores both), its header
    and whether it was imported; the status (open, closed) does not change the record."""
    digest = hashlib.sha1(bytes(row.header)).hexdigest()[:16]
    return f"{SUMMARY_VERSION}:{row.events}:{row.last_row}:{digest}:{int(row.imported)}"


def record_to_json(r: GameRecord) -> dict[str, Any]:
    return {"kind": r.kind, "players": list(r.players), "created": r.created,
            "finished": r.finished, "winners": list(r.winners), "events": r.events,
            "seconds": r.seconds, "scores": None if r.scores is None else list(r.scores),
            "extras": {k: list(v) for k, v in r.extras.items()}, "imported": r.imported}


def record_from_json(game_id: int, status: str, d: dict[str, Any]) -> GameRecord:
    return GameRecord(game_id, d["kind"], tuple(d["players"]), d["created"], d["finished"],
                      tuple(d["winners"]), d["events"], d["seconds"],
                      None if d["scores"] is None else tuple(d["scores"]),
                      {k: tuple(v) for k, v in d["extras"].items()}, status, d["imported"])


class History:
    """The journal's game records, replayed only when a game changed since the last call.

    In memory each game is keyed by (status, `summary_key`). A finished game's record is also
    saved in the journal (`game_stats`, when `save`: the app thread and `companion import`
    only, never a read-only reader) and read back by every later History, so a thousand
    finished games are not replayed again after a restart. Games that no longer replay are
    counted in `unreadable` and left out."""

    def __init__(self, store, *, save: bool = False) -> None:
        self.store = store
        self.save = save
        self._cache: dict[int, tuple[tuple, GameRecord | None]] = {}
        self.unreadable: list[int] = []
        self.left_out: list[LeftOut] = []  # the same games, with their kind and why
        # Records replayed by the last call and not saved (save=False): (id, key, JSON).
        self.unsaved: list[tuple[int, str, str]] = []
        # The spans each game being replayed sat aside for another game (asides.interleaved).
        self._interleaved: dict[int, list[tuple[float, float]]] = {}
        self._aside: set[int] = set()  # the games with asides recorded (asides.recorded)

    @overload
    def records(self, *, budget: None = None) -> list[GameRecord]: ...
    @overload
    def records(self, *, budget: int | None) -> list[GameRecord] | None: ...

    def records(self, *, budget: int | None = None) -> list[GameRecord] | None:
        """Every game's record. With `budget`, None instead when more events than that would
        have to be replayed (nothing is replayed then): the app thread's guard against a
        journal of games from before the statistics.

        The reads are one read transaction: a reader on another thread (the background
        replay, the web) must not see a game's key before a move and its events after it,
        or a record would be saved under a key it does not belong to."""
        db = self.store.db
        own = not db.in_transaction
        if own:
            db.execute("BEGIN")
        try:
            result = self._read(budget)
        finally:
            if own:
                db.execute("COMMIT")
        if result is None:
            return None
        if self.unsaved and self.save:
            try:
                self.store.save_summaries(self.unsaved)
                self.unsaved = []
            except JournalError as e:  # only a cache: the figures are right without it
                log.warning("statistics records not saved: %s", e)
        return result

    def _read(self, budget: int | None) -> list[GameRecord] | None:
        rows = self.store.history_rows()
        saved: dict[int, tuple[str, bytes]] | None = None
        found: dict[int, tuple[tuple, GameRecord | None]] = {}
        todo = []
        for row in rows:
            k = (row.status, summary_key(row))
            cached = self._cache.get(row.id)
            if cached is not None and cached[0] == k:
                found[row.id] = cached
                continue
            if saved is None:
                saved = self.store.summaries()
            record = None
            if row.id in saved and saved[row.id][0] == k[1]:
                try:
                    record = record_from_json(row.id, row.status, json.loads(saved[row.id][1]))
                except (ValueError, KeyError, TypeError):
                    record = None  # a damaged saved record: replay the game instead
            if record is None:
                todo.append((row, k))
            else:
                found[row.id] = (k, record)
        if budget is not None and sum(row.events for row, _ in todo) > budget:
            return None
        fresh: list[tuple[int, str, str]] = []
        # Which of them were set aside: recorded, or while another game was played (read
        # once for all).
        timed = [row for row, _ in todo if not row.imported and row.last_at is not None]
        if timed:
            self._aside = asides.recorded(self.store.db)
            self._interleaved = asides.interleaved(self.store.db, rows, timed)
        for row, k in todo:
            record = self._replay(row)
            if record is not None and record.finished:
                fresh.append((row.id, k[1], json.dumps(record_to_json(record))))
            found[row.id] = (k, record)
        self._cache = found  # games deleted since are forgotten
        self.unreadable = [row.id for row in rows if found[row.id][1] is None]
        self.left_out = [_left_out(row) for row in rows if found[row.id][1] is None]
        self.unsaved = fresh
        return [r for row in rows if (r := found[row.id][1]) is not None]

    @overload
    def stats(self, *, kind: str | None = None, player: str | None = None,
              budget: None = None) -> Stats: ...
    @overload
    def stats(self, *, kind: str | None = None, player: str | None = None,
              budget: int | None) -> Stats | None: ...

    def stats(self, *, kind: str | None = None, player: str | None = None,
              budget: int | None = None) -> Stats | None:
        """The figures (None when `budget` is exceeded: see `records`)."""
        records = self.records(budget=budget)
        return None if records is None else compute(records, kind=kind, player=player,
                                                    left_out=self.left_out)

    def _replay(self, row) -> GameRecord | None:
        replayed = self.store.replay(row)
        if replayed is None:
            return None
        header, events, state = replayed
        seconds = None
        if not row.imported and row.last_at is not None:
            away = self._interleaved.get(row.id, [])
            if row.id in self._aside:
                away = away + asides.spans(self.store.db, row.id)
            seconds = playing_seconds(row.created, row.last_at, away)
        return record_of(row.id, header, state, events=row.events, created=row.created,
                         seconds=seconds, status=row.status, imported=row.imported)


def _left_out(row) -> LeftOut:
    """Why the game of `row` did not replay, in a user's words."""
    try:
        kind = str(json.loads(row.header)["game"])
    except (ValueError, KeyError, TypeError):
        return LeftOut(row.id, "?", "its header is unreadable")
    if kind_find(kind) is None:
        return LeftOut(row.id, kind, "not installed here")
    return LeftOut(row.id, kind, "it no longer replays; companion doctor says more")


# --- the terminal table ------------------------------------------------------------------------

def text(stats: Stats) -> str:
    """`companion stats` without --json: a table per player, then the records."""
    t = stats.totals
    lines = [f"{t['finished']} finished game{'s' * (t['finished'] != 1)}"
             + (f", {t['unfinished']} unfinished" if t["unfinished"] else "")]
    lines += not_counted_lines(t)
    if not stats.players:
        lines.append("No finished games yet.")
        return "\n".join(lines)
    width = max(6, *(len(n) for n in stats.players))
    lines.append("")
    lines.append(f"{'player':<{width}}  played  won  win rate")
    for name, p in stats.players.items():
        lines.append(f"{name:<{width}}  {p['played']:>6}  {p['won']:>3}  {_pct(p['win_rate']):>8}")
    for name, p in stats.players.items():
        lines.append("")
        lines.append(f"{name}:")
        for kind, k in p["by_game"].items():
            title = kind_title(kind)
            line = f"  {title}: won {k['won']} of {k['played']} ({_pct(k['win_rate'])})"
            if k.get("scored"):
                line += f"; {k['score']} average {k['average']:g}, best {k['best']}"
                for extra in _extras(kind):
                    if k.get(extra) is not None:
                        line += f", {extra.replace('_', ' ')} {k[extra]}"
            lines.append(line)
        rivals = [f"{o} {h['won']}-{h['lost']}" for o, h in p["head_to_head"].items()]
        if rivals:
            lines.append("  head to head (won-lost): " + ", ".join(rivals))
    r = stats.records
    lines.append("")
    lines.append("Records:")
    for label, k, unit in (("Biggest win", "biggest_margin", "margin"),
                           ("Closest game", "closest_game", "margin"),
                           ("Longest game", "longest_events", "events"),
                           ("Longest in time", "longest_minutes", "minutes")):
        rec = r.get(k)
        if rec is None:
            continue
        kind = kind_title(rec["kind"])
        who = " & ".join(rec["winners"]) or "no winner"
        what = f"by {rec[unit]} ({rec['score']})" if unit == "margin" else f"{rec[unit]} {unit}"
        lines.append(f"  {label}: {what}, game {rec['game']}, {kind}, won by {who}")
    return "\n".join(lines)


def not_counted_lines(totals: dict[str, Any]) -> list[str]:
    """What `totals["not_counted"]` says, a line per game ("Not counted: game 7 (house-dice:
    not installed here)")."""
    return [f"Not counted: game {x['game']} ({kind_title(x['kind'])}: {x['why']})"
            for x in totals.get("not_counted", ())]


def _score_name(kind: str) -> str:
    sc = kind_scoring(kind)
    return sc.name if sc else ""


def _extras(kind: str) -> tuple[str, ...]:
    sc = kind_scoring(kind)
    return tuple(sc.extras) if sc else ()


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{round(rate * 100)}%"


def log_digest(journal) -> str:
    """The SHA-256 of a game's normalised log (the header with the rules' defaults filled in,
    then the events, each as JSON with sorted keys and no spaces), so the same game imported
    twice, whatever its spacing or key order, is recognised."""
    h = hashlib.sha256()
    for obj in (journal.header.to_json(), *journal.events):
        h.update(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    return h.hexdigest()
