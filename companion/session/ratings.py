"""Skill ratings across game nights (issue 38; docs/stats.md, "Ratings").

openskill's PlackettLuce model rates each finished game with a winner as a free-for-all: each
player a team of one, ranked by the result (the winners first, sharing the place; behind them
the others, by the kind's score where it has one, else all sharing the next place). A player
has a rating overall and one per kind (a design's versions count together, as in the
statistics); each is a `Skill`: openskill's mean and uncertainty (mu, sigma) and the games it
rests on. The one number shown and ranked by is openskill's ordinal, mu - 3 sigma: a
conservative estimate that grows with certainty. A player with fewer than PROVISIONAL_GAMES
rated games in a scope is provisional there, never ranked above an established player.

`Ratings` folds games in their order (started, then id), so that a game imported later but
played earlier counts where it was played. It is kept by the History (session/tally.py): when
the only change is new games that sort after the last one folded it folds just those; a
change further back (an undone end, an older game imported) takes back the games from there
and folds them again, which for an older game is every game after it.

Names are one player when equal ignoring case and surrounding spaces (`key`, which the
statistics share: stats.py imports it from here, so that this module needs nothing of it).
"""

from __future__ import annotations

import bisect
import math
import threading
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol, Sequence

from companion.games import design_group, scoring as kind_scoring

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

# A player is provisional in a scope (overall, or one kind) until this many rated games there:
# about two game nights. Sigma falls slowly (8.3 at the start, about 7.5 after five games of
# three or four seats with mixed results, 5.5 after 25), so no sigma is the threshold; mu -
# 3 sigma keeps a newcomer's number low anyway, and the flag keeps a newcomer who won their
# first games below every regular, whatever the numbers.
PROVISIONAL_GAMES = 5

# How many of the latest rated games keep their players' skills from before them (for
# `Ratings.before` and to take a game back): a change further back folds every game again.
KEEP_BEFORE = 500

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): its manual advises keeping
# them unless one is a statistics expert. tests/test_private_fields.py checks MU and SIGMA.
MU = 25.0
SIGMA = MU / 3
_MODEL: list[PlackettLuce] = []  # made on first use: importing openskill costs ~3 MB, 40 ms


_MODEL_LOCK = threading.Lock()  # the app thread and the background fold both ask


def plackett_luce() -> PlackettLuce:
    """openskill's PlackettLuce model with its defaults (imported on the first rating)."""
    if not _MODEL:
        with _MODEL_LOCK:
            if not _MODEL:
                from openskill.models import PlackettLuce
                _MODEL.append(PlackettLuce())
    return _MODEL[0]


def key(name: str) -> str:
    """Names are the same player when equal ignoring case and surrounding spaces."""
    return name.strip().casefold()


class Played(Protocol):
    """What a rating needs of a game (stats.GameRecord has it)."""

    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def created(self) -> float: ...
    @property
    def finished(self) -> bool: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[int, ...] | None: ...


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating in one scope: openskill's mean and uncertainty, and the rated games
    it rests on."""

    mu: float
    sigma: float
    games: int = 0
    # openskill's own object for the same mu and sigma, handed to its next game as it is:
    # each one made costs a random id (os.urandom), a third of the fold's time otherwise.
    model: PlackettLuceRating | None = field(default=None, compare=False, repr=False)

    def rated(self) -> PlackettLuceRating:
        if self.model is not None:
            return self.model
        return plackett_luce().rating(mu=self.mu, sigma=self.sigma)

    def bare(self) -> Skill:
        """The same skill without openskill's object: what a game keeps of its players'
        skills before it (one of those objects is about 300 bytes; the current ones are
        enough to rate the next game)."""
        return self if self.model is None else Skill(self.mu, self.sigma, self.games)

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: the skill the player is very likely above (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    @property
    def rating(self) -> float:
        """The number shown: the ordinal to one place."""
        return round(self.ordinal, 1)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def to_json(self) -> dict[str, float | int | bool]:
        return {"rating": self.rating, "provisional": self.provisional,
                "mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "rated_games": self.games}


NEW = Skill(MU, SIGMA, 0)  # a player with no rated game in a scope


def order(g: Played) -> tuple[float, int]:
    """Games are rated in the order they were started (ties: the lower id first)."""
    return (g.created, g.id)


def rated(g: Played) -> bool:
    """Whether a game counts toward the ratings: finished, with a winner, between at least two
    players. A game the group ended with no winner says nothing of who played better (rated
    as all tied it would only shrink everyone's uncertainty), so it is not rated."""
    return g.finished and bool(g.winners) and len({key(n) for n in g.players}) >= 2


def places(g: Played) -> dict[str, int]:
    """Each player's place in a rated game (0 best): the winners 0; the others by the kind's
    score where the game has one (the lowest first where fewer is better; equal scores share
    a place), else all 1. A name with two seats takes its better seat's place."""
    sc = kind_scoring(g.kind)
    loser: dict[int, int] = {}
    if sc is not None and g.scores is not None:
        others = sorted({g.scores[s] for s in range(len(g.players)) if s not in g.winners},
                        reverse=not sc.lowest)
        loser = {v: 1 + i for i, v in enumerate(others)}
    out: dict[str, int] = {}
    for seat, name in enumerate(g.players):
        if seat in g.winners:
            place = 0
        elif g.scores is not None and loser:
            place = loser[g.scores[seat]]
        else:
            place = 1
        k = key(name)
        out[k] = min(place, out.get(k, place))
    return out


def _signature(g: Played) -> tuple:
    """What a game's ratings depend on: a folded game whose signature changed is refolded."""
    return (g.created, design_group(g.kind), g.players, g.winners, g.scores)


class Trail:
    """A player's rating after each of their rated games in one scope: the games' ids and
    the ratings, side by side in two arrays (16 bytes a game, not a tuple's 90)."""

    __slots__ = ("games", "ratings")

    def __init__(self) -> None:
        self.games = array("q")
        self.ratings = array("d")

    def add(self, game: int, rating: float) -> None:
        self.games.append(game)
        self.ratings.append(rating)

    def pop(self) -> None:
        self.games.pop()
        self.ratings.pop()

    def __len__(self) -> int:
        return len(self.games)

    def steps(self) -> list[tuple[int, float]]:
        return list(zip(self.games, self.ratings))


class Ratings:
    """Every player's skill, overall and per kind, folded game by game in `order`.

    `update(records)` brings it to a list of records. The latest KEEP_BEFORE games keep their
    players' skills as they stood before them (`before`: also for "went as predicted" at a
    game's end), so those games can be taken back exactly: an update takes back the games
    from the first one that changed (its result, or no longer finished) or that a new game
    sorts before, and folds from there. New games that sort after every folded one are just
    folded in; an undone end of the latest game takes back that one; a change further back
    than the kept games, or at the first game, folds every game again. `folds` and `unfolds`
    count the games folded and taken back so far."""

    def __init__(self) -> None:
        self.overall: dict[str, Skill] = {}
        self.by_kind: dict[str, dict[str, Skill]] = {}
        self._trail: dict[str, Trail] = {}  # by key
        self._kind_trail: dict[str, dict[str, Trail]] = {}
        # The latest games' players' skills before them, oldest first: (kind, overall, kind's).
        self._before: dict[int, tuple[str, dict[str, Skill], dict[str, Skill]]] = {}
        self._folded: dict[int, tuple[Played, tuple]] = {}  # id -> (record, signature)
        self._order: list[int] = []  # the folded games' ids, in `order`
        self._keys: list[tuple[float, int]] = []  # their `order`, for bisect
        self.folds = 0
        self.unfolds = 0

    @classmethod
    def of(cls, records: Iterable[Played]) -> Ratings:
        return cls().update(records)

    def update(self, records: Iterable[Played]) -> Ratings:
        """Brought up to `records` (every game; the unrated are skipped). Returns itself."""
        self._bring(*self._plan(records))
        return self

    def within(self, records: Iterable[Played], budget: int) -> bool:
        """Brought up to `records` as `update` does when that folds at most `budget` games
        (a game's end, an undone one: a few); else left as it was, and False (nothing folded
        yet, a change far back: every game, for a thread of its own)."""
        now, cut = self._plan(records)
        if len(now) - cut > budget:
            return False
        self._bring(now, cut)
        return True

    def _plan(self, records: Iterable[Played]) -> tuple[dict[int, Played], int]:
        """The rated games of `records` by id, and how many of the folded games stay: the
        ones before the first that changed or that a new game sorts before (0: all again)."""
        now: dict[int, Played] = {}
        for g in records:
            folded = self._folded.get(g.id)
            if (folded is not None and folded[0] is g) or rated(g):  # the same record: rated
                now[g.id] = g
        cut = len(self._order)  # games from here on are taken back and folded again
        for i, gid in enumerate(self._order):
            old, sig = self._folded[gid]
            same = now.get(gid)
            if same is None or (same is not old and _signature(same) != sig):
                cut = i
                break
            if same is not old:  # the same result in a record read again
                self._folded[gid] = (same, sig)
        new = [g for gid, g in now.items() if gid not in self._folded]
        if new:
            cut = min(cut, bisect.bisect_left(self._keys, min(order(g) for g in new)))
        if cut < len(self._order) - len(self._before):
            cut = 0  # back past the kept games: all again
        return now, cut

    def _bring(self, now: dict[int, Played], cut: int) -> None:
        if cut == 0:
            self._start_afresh()
        while len(self._order) > cut:
            self._unfold()
        for g in sorted((g for gid, g in now.items() if gid not in self._folded), key=order):
            self._fold(g)

    def _start_afresh(self) -> None:
        self.unfolds += len(self._order)
        self.overall, self.by_kind = {}, {}
        self._trail, self._kind_trail, self._before, self._folded = {}, {}, {}, {}
        self._order, self._keys = [], []

    def _fold(self, g: Played) -> None:
        kind = design_group(g.kind)
        ranks = places(g)
        names = list(ranks)
        kinds = self.by_kind.setdefault(kind, {})
        self._before[g.id] = (kind, {k: self.overall.get(k, NEW).bare() for k in names},
                              {k: kinds.get(k, NEW).bare() for k in names})
        if len(self._before) > KEEP_BEFORE:
            del self._before[next(iter(self._before))]  # the oldest kept
        for table, trails in ((self.overall, self._trail),
                              (kinds, self._kind_trail.setdefault(kind, {}))):
            was = [table.get(k, NEW) for k in names]
            out = plackett_luce().rate([[s.rated()] for s in was],
                                       ranks=[float(ranks[k]) for k in names])
            for k, s, team in zip(names, was, out):
                now = Skill(team[0].mu, team[0].sigma, s.games + 1, team[0])
                table[k] = now
                trail = trails.get(k)
                if trail is None:
                    trail = trails[k] = Trail()
                trail.add(g.id, now.rating)
        self._folded[g.id] = (g, _signature(g))
        self._order.append(g.id)
        self._keys.append(order(g))
        self.folds += 1

    def _unfold(self) -> None:
        """Take back the latest folded game (one of the kept): its players' skills as they
        were before it (a player it was the first game of is no longer rated), its step off
        their trails."""
        gid = self._order.pop()
        self._keys.pop()
        del self._folded[gid]
        kind, overall, in_kind = self._before.pop(gid)
        for table, trails, was in ((self.overall, self._trail, overall),
                                   (self.by_kind[kind], self._kind_trail[kind], in_kind)):
            for k, s in was.items():
                if s.games:
                    table[k] = s
                else:
                    del table[k]
                trails[k].pop()
                if not trails[k]:
                    del trails[k]
        if not self.by_kind[kind]:
            del self.by_kind[kind], self._kind_trail[kind]
        self.unfolds += 1

    # --- reading ------------------------------------------------------------------------------

    def scope(self, kind: str | None = None) -> Mapping[str, Skill]:
        """Every player's skill overall, or in one kind (by `key`)."""
        return self.overall if kind is None else self.by_kind.get(design_group(kind), {})

    def skill(self, name: str, kind: str | None = None) -> Skill:
        return self.scope(kind).get(key(name), NEW)

    def trail(self, name: str, kind: str | None = None) -> list[tuple[int, float]]:
        """The player's rating after each of their rated games, in game order: (game, rating)."""
        trails = self._trail if kind is None else \
            self._kind_trail.get(design_group(kind), {})
        t = trails.get(key(name))
        return [] if t is None else t.steps()

    def before(self, game_id: int, kind: str | None = None) -> dict[str, Skill] | None:
        """The skills of a rated game's players as they stood before it (overall, or in its
        kind when `kind` is given), by `key`; None for a game not rated, or rated longer ago
        than the latest KEEP_BEFORE (the module's `before` works from the records)."""
        b = self._before.get(game_id)
        if b is None:
            return None
        return dict(b[1] if kind is None else b[2])


def before(records: Iterable[Played], game_id: int,
           kind: str | None = None) -> dict[str, Skill]:
    """Everyone's skills as they stood before game `game_id` (overall, or in `kind`): every
    rated game that sorts before it folded, whether or not that game is itself finished (a
    game just started: the ratings now). An id not among `records`: all of them."""
    records = list(records)
    game = next((g for g in records if g.id == game_id), None)
    upto = records if game is None else [g for g in records if order(g) < order(game)]
    return dict(Ratings.of(upto).scope(kind))


# --- who is favourite ------------------------------------------------------------------------

def chances(ratings: Ratings | Mapping[str, Skill],
            players: Sequence[str]) -> list[float] | None:
    """Each seat's chance to win (0-1, adding up to 1), from openskill's predict_win over the
    seats as teams of one; a name with two seats has one rating at both. `ratings`: one
    scope's skills by `key` (`Ratings.scope(kind)`, `Ratings.before(game)`, `before(...)`),
    or a Ratings for its overall ones. None when most players (more than half of the
    distinct names) are provisional there, or with fewer than two seats: no prediction is
    better than one made of guesses."""
    if isinstance(ratings, Ratings):
        ratings = ratings.overall
    if len(players) < 2:
        return None
    skills = [ratings.get(key(n), NEW) for n in players]
    distinct = {key(n): s for n, s in zip(players, skills)}
    if 2 * sum(s.provisional for s in distinct.values()) > len(distinct):
        return None
    return [float(p) for p in plackett_luce().predict_win([[s.rated()] for s in skills])]


def favourites(chances: Sequence[float]) -> set[int]:
    """The seats with the highest chance (several on a tie)."""
    if not chances:
        return set()
    top = max(chances)
    return {i for i, c in enumerate(chances) if math.isclose(c, top, rel_tol=1e-9)}


def upset(chances: Sequence[float], winners: Iterable[int]) -> bool:
    """Whether a game's result was an upset: its winners did not include a seat with the
    highest chance (`favourites`). A game with no winner is no upset."""
    won = set(winners)
    return bool(won) and not (won & favourites(chances))
