"""Games of any kind at any number of players, mid-game or over: what the TV must show whole
(tests/web/test_tv_fits.py, and the TV screenshots at a kind's most players in web_shots).

Built from what each kind declares, naming none: its demo game's events (a list with one
entry per seat of the demo is stretched or cut to the seats asked for), then its random legal
moves (`GameKind.sample`) or, for a kind without them, turns passed, until the history is
long. Every event is checked by the kind's rules; one they refuse, or one that would end the
game, is left out. Game over is the group ending the game (`end`), as on the box.
"""

from __future__ import annotations

import random
from typing import Any

from companion import games
from companion.errors import IllegalEvent
from companion.rules.game import Event, Header

# Sixteen players (the most a kind takes), a few of them with long names; the longest has
# sixteen letters and no space, the most a name may have.
NAMES = ("Ann", "Bartholomewsmith", "Cy", "Dee", "Elisabeth", "Finn", "Gus", "Hannah", "Ivo",
         "Jo", "Katharina", "Lou", "Maximilian", "Ned", "Olivia", "Pat")

LENGTH = 40  # events of a game in progress: a full history and several rounds scored


def counts(kind: str) -> list[int]:
    """The numbers of players the TV is checked at: 2, 6 and the kind's most (each within
    what the kind takes)."""
    g = games.game(kind)
    return sorted({min(max(n, g.min_players), g.max_players) for n in (2, 6, g.max_players)})


def _stretched(value: Any, seats: int, n: int) -> Any:
    """`value` with every list of `seats` entries (one per seat of the demo) made `n` long,
    repeating its entries."""
    if isinstance(value, list) and len(value) == seats and seats:
        return [_stretched(value[i % seats], seats, n) for i in range(n)]
    if isinstance(value, dict):
        return {k: _stretched(v, seats, n) for k, v in value.items()}
    return value


def game(kind: str, n: int, *, over: bool = False,
         seed: int = 7) -> tuple[list[str], dict[str, Any], list[Event]]:
    """(players, rules, events) of a game of `kind` with `n` players: in progress, with a long
    history, or (`over`) ended by the group after it."""
    k = games.get(kind)
    players = list(NAMES[:n])
    rules = dict(k.demo.rules) if k.demo else {}
    state = k.rules.initial(k.rules.check_header(Header(kind, tuple(players), 0, rules)))
    events: list[Event] = []

    def take(event: Event) -> None:
        nonlocal state
        try:
            after = k.rules.apply(state, event)
        except IllegalEvent:
            return
        if not after.over:
            state = after
            events.append(event)

    if k.demo is not None:
        for e in k.demo.events:
            take(_stretched(dict(e), len(k.demo.players), n))
    rng = random.Random(seed)
    tries = 0
    while len(events) < LENGTH and tries < LENGTH * 50:
        tries += 1
        take(k.sample(rng, n, state) if k.sample is not None else {"type": "next"})
    if over:
        events.append({"type": "end"})
    return players, rules, events
