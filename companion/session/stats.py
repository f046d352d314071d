"""History and statistics over the journal's games (no second database).

`GameRecord` is what one game contributes: its kind, players, winners, each seat's score and
the kind's extra figures, read from the final state of a replay, and its playing time and
each seat's turns (`TurnTimes`), folded by the turn clock's Ledger from the event times.
`compute` folds records into per-player figures, head-to-head counts and records; `History`
(session/tally.py) keeps the records of a store cached by what identifies each game's content
(its active event count and last row), so only games that changed since the last call are
replayed, and nothing is computed at start-up.

Names are compared ignoring case and surrounding spaces and shown as first written. Only
finished games count toward played and won; a shared win counts for each winner; a game the
group ended with no winner counts as played. Players are ranked by their skill rating
(session/ratings.py): established players first. docs/stats.md documents every field.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from companion.games import design_group, scoring as kind_scoring, title as kind_title
from companion.rules.game import Header, State
from companion.session.clock import Ledger
from companion.session.ratings import Ratings, Skill, key

log = logging.getLogger(__name__)


# --- what each kind scores (its GameKind.scoring) ------------------------------------------

def seat_scores(kind: str, state: State) -> tuple[int, ...] | None:
    """Each seat's score in this state (None for a kind that does not score)."""
    sc = kind_scoring(kind)
    if sc is None:
        return None
    v = sc.score(state)
    return None if v is None else tuple(v)


# --- one game's playing time and turns -----------------------------------------------------

@dataclass(frozen=True)
class TurnTimes:
    """One game's turn clock (companion/session/clock.py), per seat: the seconds played, the
    turns and the longest turn, folded from the game's event times by the same `Ledger` as
    the live clock (pauses, asides and breaks left out)."""

    seconds: tuple[float, ...]
    turns: tuple[int, ...]
    longest: tuple[float, ...]

    @classmethod
    def of(cls, ledger: Ledger) -> TurnTimes:
        """The ledger's figures so far (a turn still running when its game was left counts up
        to the game's last event; a turn of no second is no turn, as on the Time screen)."""
        return cls(*ledger.per_seat())

    def to_json(self) -> dict[str, list]:
        return {"seconds": list(self.seconds), "turns": list(self.turns),
                "longest": list(self.longest)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TurnTimes:
        return cls(tuple(float(v) for v in d["seconds"]), tuple(int(v) for v in d["turns"]),
                   tuple(float(v) for v in d["longest"]))


def playing_seconds(ledger: Ledger) -> float:
    """A game's playing time, in seconds: from its start (`games.created`) to its last event,
    less every span away from play (set aside: parked by another game, or left for the start
    menu; paused; companion/session/asides.py), each second once (`Ledger.playing_seconds`).
    A break (BREAK_AFTER seconds with no press) is nobody's turn but still playing time: a
    Pig Farm group that enters only each round's hands has a press every twenty minutes. The
    one definition of a game's length: /games, /stats and `companion stats` all show it,
    through `minutes`."""
    return ledger.playing_seconds()


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
    seconds: float | None  # playing time (`playing_seconds`); None when its times are unknown
    scores: tuple[int, ...] | None  # per seat, the kind's main score (None: does not score)
    extras: dict[str, tuple[int | None, ...]] = field(default_factory=dict)
    status: str = "closed"
    imported: bool = False
    clock: TurnTimes | None = None  # each seat's turns; None when its times are unknown

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
              imported: bool = False, clock: TurnTimes | None = None) -> GameRecord:
    """What one game contributes, from its header and final state."""
    sc = kind_scoring(header.game)
    scores = seat_scores(header.game, state)
    extras = {k: tuple(f(state)) for k, f in sc.extras.items()} if sc else {}
    return GameRecord(game_id, header.game, tuple(header.players), created, state.over,
                      tuple(state.winners), events, seconds, scores, extras, status, imported,
                      clock)


# --- the statistics ------------------------------------------------------------------------

def _rate(won: int, played: int) -> float | None:
    return round(won / played, 3) if played else None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass
class _Time:
    """A player's turn clock over games (of one kind, or all): only games whose times are
    known count, each once however many seats the player had in it."""

    games: int = 0
    turns: int = 0
    seconds: float = 0.0
    table: float = 0.0  # every seat's seconds in those games
    slowest: float | None = None
    slowest_game: int | None = None

    def add(self, game: int, seconds: float, turns: int, longest: float,
            table: float) -> None:
        self.games += 1
        self.turns += turns
        self.seconds += seconds
        self.table += table
        if turns and (self.slowest is None or longest > self.slowest):
            self.slowest, self.slowest_game = longest, game  # ties: the earliest game

    def to_json(self) -> dict[str, Any]:
        """The figures of docs/stats.md (null where no timed turn)."""
        return {"timed_games": self.games, "turns": self.turns,
                "turn_seconds": round(self.seconds, 1),
                "average_turn": round(self.seconds / self.turns, 1) if self.turns else None,
                "slowest_turn": None if self.slowest is None else round(self.slowest, 1),
                "slowest_turn_game": self.slowest_game,
                "time_share": round(self.seconds / self.table, 3) if self.table > 0 else None}


@dataclass
class _Kind:
    played: int = 0
    won: int = 0
    scores: list[int] = field(default_factory=list)
    extras: dict[str, int] = field(default_factory=dict)
    time: _Time = field(default_factory=_Time)


@dataclass
class _Player:
    name: str
    played: int = 0
    won: int = 0
    time: _Time = field(default_factory=_Time)
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
    # The skill ratings the figures were ranked by (all games, every scope): for `chances`
    # and `Ratings.before` (session/ratings.py). From a History, its kept Ratings, which its
    # next update brings up to date in place.
    ratings: Ratings = field(default_factory=Ratings)

    def shown(self, name: str) -> str:
        """A name as the player's first game wrote it (the same with or without a filter)."""
        return self.names.get(key(name), name.strip())

    def to_json(self) -> dict[str, Any]:
        return {"games": self.totals, "players": self.players, "records": self.records}

    def history_line(self, record: GameRecord, *, short: bool = False) -> str:
        """One line about a finished game: "Dee's 3rd Pig Farm win in 5 games", or with no
        winner "No winner, the 4th Table game on this box". `short` is for the 128-pixel
        panel, where the winner and the kind are already on the screen: "3rd win in 5 games"
        ("" with no winner: the end screen says so itself)."""
        if not record.finished:
            return ""
        kind = "" if short else f"{record.title} "
        if not record.winners:
            if short:
                return ""  # the panel's end screen keeps its own title ("Game over")
            n = sum(1 for g in self.games if g.finished and g.kind == design_group(record.kind)
                    and g.id <= record.id)
            return f"No winner, the {_ordinal(n)} {kind}game on this box"
        # Counted up to this game: a later game does not change what this one was.
        upto = [g for g in self.games
                if g.finished and g.kind == design_group(record.kind) and g.id <= record.id]
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
            player: str | None = None, left_out: Iterable[LeftOut] = (),
            ratings: Ratings | None = None) -> Stats:
    """Per-player figures, head-to-head and records over `games` (optionally one kind; with
    `player`, only that player's figures are listed, the records stay the group's).
    `left_out`: the games that could not be counted (`History.left_out`), said in the
    totals so that a game never drops out of the figures unsaid. `ratings`: the skill
    ratings already brought up to `games` (History keeps them, folding only new games);
    without it they are folded here from every game."""
    games = list(games)
    if ratings is None:
        ratings = Ratings.of(games)
    # A design's games count together by its title, every version (games.design_group).
    games = sorted((g if design_group(g.kind) == g.kind else replace(g, kind=design_group(g.kind))
                    for g in games), key=lambda g: g.id)
    kind = None if kind is None else design_group(kind)
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
        if g.clock is not None:
            _add_times(g, keys, people)
    wanted = None if player is None else key(player)
    players: dict[str, dict[str, Any]] = {}
    def rank(item: tuple[str, _Player]) -> tuple:
        """Established players by rating, then the provisional ones by rating (ties: most
        wins, most played, the name)."""
        pk, p = item
        s = ratings.skill(pk, kind)
        return (s.provisional, -s.ordinal, -p.won, -p.played, pk)

    for pk, p in sorted(people.items(), key=rank):
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
            out.update(k.time.to_json())
            out.update(ratings.skill(pk, kd).to_json())
            by_game[kd] = out
        skill: Skill = ratings.skill(pk, kind)
        players[p.name] = {
            "played": p.played, "won": p.won, "win_rate": _rate(p.won, p.played),
            **skill.to_json(),
            "rating_history": [[g, r] for g, r in ratings.trail(pk, kind)],
            **p.time.to_json(),
            "by_game": by_game,
            "head_to_head": {people[o].name: {"games": h[0], "won": h[1], "lost": h[2]}
                             for o, h in sorted(p.h2h.items(),
                                                key=lambda kv: people[kv[0]].name.casefold())},
            "nemesis": _rival(p, people, LOST),
            "victim": _rival(p, people, WON),
        }
    by_kind: dict[str, int] = {}
    for g in finished:
        by_kind[g.kind] = by_kind.get(g.kind, 0) + 1
    totals = {"finished": len(finished), "unfinished": len(games) - len(finished),
              "by_game": by_kind,
              "not_counted": [{"game": x.game, "kind": x.kind, "why": x.why} for x in left_out
                              if kind is None or x.kind == kind]}
    return Stats(games, players, _records(finished, names), totals, names, ratings)


# Rivals: a pair's head-to-head needs this many finished games together to name one.
RIVAL_GAMES = 3
WON, LOST = 1, 2  # in _Player.h2h: [games, won, lost]


def _rival(p: _Player, people: dict[str, _Player], which: int) -> dict[str, Any] | None:
    """The player `p` lost to most (`which` LOST: the nemesis) or beat most (WON: the
    victim), among those with RIVAL_GAMES finished games together, at least once; ties go to
    the larger share of those games, then the name. Both shapes are the same: the rival's
    name, the games together, the games `p` won and lost against them. None if nobody."""
    best = [(-h[which], -h[which] / h[0], people[o].name.casefold(), o, h)
            for o, h in p.h2h.items() if h[0] >= RIVAL_GAMES and h[which] > 0]
    if not best:
        return None
    *_, o, h = min(best)
    return {"name": people[o].name, "games": h[0], "won": h[WON], "lost": h[LOST]}


def _add_times(g: GameRecord, keys: list[str], people: dict[str, _Player]) -> None:
    """Game `g`'s turn clock into each of its players' figures (all games, and its kind):
    a name with two seats adds both seats' seconds and turns, and the table's once."""
    assert g.clock is not None
    c = g.clock
    table = sum(c.seconds)
    mine: dict[str, list] = {}  # key -> [seconds, turns, longest]
    for seat, k in enumerate(keys):
        m = mine.setdefault(k, [0.0, 0, 0.0])
        m[0] += c.seconds[seat]
        m[1] += c.turns[seat]
        m[2] = max(m[2], c.longest[seat])
    for k, (seconds, turns, longest) in mine.items():
        p = people[k]
        p.time.add(g.id, seconds, turns, longest, table)
        p.by_game[g.kind].time.add(g.id, seconds, turns, longest, table)


def _records(finished: list[GameRecord], names: dict[str, str]) -> dict[str, Any]:
    def _game_ref(g: GameRecord) -> dict[str, Any]:
        return {"game": g.id, "kind": g.kind, "players": [names[key(n)] for n in g.players],
                "winners": [names[key(g.players[w])] for w in g.winners]}

    margins = [(m, g) for g in finished if (m := g.margin()) is not None]
    out: dict[str, Any] = {"biggest_margin": None, "closest_game": None,
                           "longest_events": None, "longest_minutes": None,
                           "slowest_turn": None}
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
    slowest = [(c.longest[s], -g.id, -s, g) for g in finished if (c := g.clock) is not None
               for s in range(len(g.players)) if c.turns[s]]
    if slowest:
        seconds, _, neg_seat, g = max(slowest)
        out["slowest_turn"] = {**_game_ref(g), "player": names[key(g.players[-neg_seat])],
                               "seconds": round(seconds, 1)}
    return out


def not_counted_lines(totals: dict[str, Any]) -> list[str]:
    """What `totals["not_counted"]` says, a line per game ("Not counted: game 7 (house-dice:
    not installed here)")."""
    return [f"Not counted: game {x['game']} ({kind_title(x['kind'])}: {x['why']})"
            for x in totals.get("not_counted", ())]


def _score_name(kind: str) -> str:
    sc = kind_scoring(kind)
    return sc.name if sc else ""


def log_digest(journal) -> str:
    """The SHA-256 of a game's normalised log (the header with the rules' defaults filled in,
    then the events, each as JSON with sorted keys and no spaces), so the same game imported
    twice, whatever its spacing or key order, is recognised."""
    h = hashlib.sha256()
    for obj in (journal.header.to_json(), *journal.events):
        h.update(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    return h.hexdigest()
