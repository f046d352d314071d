"""Sample journals: random but legal games of the scoring kinds, for the statistics benchmark
(bench/run.py) and the history pages' screenshots (companion/web/history_shots.py).

Every event is checked by the rules engine before it is kept; one that the rules refuse, or
that would end the game before its length, is drawn again.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from companion.errors import IllegalEvent
from companion.rules.game import Event, Header

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")
COLORS = ("red", "orange", "yellow", "green", "blue")


def _pig(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.75:
        return {"type": "next"}
    hands = [{"sets": [rng.choice((2, 2, 3, 4)) for _ in range(rng.randint(0, 3))],
              "unmatched": rng.randint(0, 2)} for _ in range(n)]
    hands[state.table.current] = {"sets": [rng.choice((2, 3, 3, 4, 5))
                                           for _ in range(rng.randint(3, 5))],
                                  "unmatched": rng.randint(0, 2)}
    return {"type": "sell", "hands": hands}


def _penny(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.3:
        return {"type": "pass"}
    me = state.table.current
    others = [s for s in range(n) if s != me and s not in state.table.eliminated]
    challengers = rng.sample(others, k=min(len(others), rng.choice((0, 0, 1, 2))))
    e: Event = {"type": "claim", "cards": rng.choice((1, 2, 2, 3, 3, 4, 5))}
    if challengers:
        e.update(challengers=challengers, truthful=rng.random() < 0.5)
    return e


def _chaos(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.85:
        return rng.choice(({"type": "next"}, {"type": "next"}, {"type": "reverse"},
                           {"type": "skip"}, {"type": "pick_color", "color": "blue"}))
    points = [rng.randint(0, 60) for _ in range(n)]
    points[rng.randrange(n)] = 0
    return {"type": "round_points", "points": points}


def _flowers(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.4:
        return {"type": "next"}
    return {"type": "petals", "color": rng.choice(COLORS), "count": rng.randint(1, 3)}


def _pairs(rng: random.Random, n: int, state) -> Event:
    if rng.random() < 0.6:
        return {"type": "next"}
    return {"type": "pair", "player": rng.randrange(n)}


def _table(rng: random.Random, n: int, state) -> Event:
    return rng.choice(({"type": "next"}, {"type": "next"}, {"type": "skip"},
                       {"type": "reverse"}, {"type": "roll", "dice": {"d8": rng.randint(1, 8)}}))


MAKERS: dict[str, Callable[[random.Random, int, Any], Event]] = {
    "pig-farm": _pig, "penny-badger": _penny, "chaos": _chaos, "flower-power": _flowers,
    "match-patch": _pairs, "table": _table,
}


def play(journal, rng: random.Random, *, events: int, finish: bool = True) -> None:
    """Append `events` legal events to `journal` (the last one `end` when `finish`, unless the
    rules ended the game on the way, which they may only at the last event)."""
    kind = journal.header.game
    n = len(journal.header.players)
    make = MAKERS[kind]
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
    players = rng.sample(names, k=rng.randint(3, min(6, len(names))))
    return Header(kind, tuple(players), 0, {})


def fill(store, rng: random.Random, *, games: int, events: int,
         kinds: tuple[str, ...] = tuple(MAKERS)) -> None:
    """`games` finished games of about `events` events each, kinds in turn."""
    for i in range(games):
        journal = store.new_game(header(rng, kinds[i % len(kinds)]))
        play(journal, rng, events=events)
