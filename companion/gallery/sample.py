"""Sample journals: random but legal games of the scoring kinds, for the statistics benchmark
(bench/run.py) and the history pages' screenshots (companion/gallery/history_shots.py).

Every event is checked by the rules engine before it is kept; one that the rules refuse, or
that would end the game before its length, is drawn again.
"""

from __future__ import annotations

import random

from companion import games
from companion.errors import IllegalEvent
from companion.rules.game import Header

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


def sampled() -> tuple[str, ...]:
    """The kinds that declare a sample move (GameKind.sample), in New game order."""
    return tuple(k for k, v in games.kinds().items() if v.sample is not None)


def featured() -> list[str]:
    """The kinds whose statistics keep records of their own (`Scoring.extras`) and that play
    sample games, in New game order: the ones the screenshots of Records and of the history
    pages show one by one (chosen by what they declare, not by name)."""
    return [k.kind for k in games.kinds().values()
            if k.sample is not None and k.scoring is not None and k.scoring.extras]


def play(journal, rng: random.Random, *, events: int, finish: bool = True) -> None:
    """Append `events` legal events to `journal` (the last one `end` when `finish`, unless the
    rules ended the game on the way, which they may only at the last event)."""
    kind = journal.header.game
    n = len(journal.header.players)
    make = games.get(kind).sample
    if make is None:
        raise ValueError(f"game kind {kind} declares no sample move")
    stop = events - 1 if finish else events
    tries = 0
    while len(journal.events) < stop and tries < events * 50:
        tries += 1
        e = make(rng, n, journal.state)
        try:
            after = journal.check(e)
        except IllegalEvent:
            continue
        if after.over and len(journal.events) < stop - 1:
            continue
        journal.append(e)
        if after.over:
            return
    if finish and not journal.state.over:
        journal.append({"type": "end"})


def header(rng: random.Random, kind: str, *, names: tuple[str, ...] = NAMES) -> Header:
    """3 to 6 players (as many as the kind takes, within that)."""
    g = games.game(kind)
    low = min(max(3, g.min_players), g.max_players)
    players = rng.sample(names, k=rng.randint(low, min(6, len(names), g.max_players)))
    return Header(kind, tuple(players), 0, {})


def fill(store, rng: random.Random, *, games: int, events: int,
         kinds: tuple[str, ...] | None = None) -> None:
    """`games` finished games of about `events` events each, kinds in turn."""
    kinds = kinds or sampled()
    for i in range(games):
        journal = store.new_game(header(rng, kinds[i % len(kinds)]))
        play(journal, rng, events=events)
