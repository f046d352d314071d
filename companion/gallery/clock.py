"""The turn clock on the panel, for docs/screens (`companion screens`): every kind's home screen
with its corner clock, the clock's states (a countdown, the warning, "Time!", paused, a break)
and the Time screen. The readings are made up (companion/session/clock.py computes real ones
from a journal's times): a picture needs a moment, not a game played in real time."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from PIL import Image

from companion import games
from companion.rules.game import Game
from companion.session.clock import Reading
from companion.ui.clock import TimeScreen
from companion.ui.screen import Context, Screen


def reading(seats: int, *, seat: int = 0, elapsed: float = 83.0, left: float | None = None,
            alarm: str = "", paused: bool = False, on_break: bool = False) -> Reading:
    """A game some minutes in: seat `seat` `elapsed` seconds into its turn, and each seat's
    figures differing (so that the Time screen's order shows)."""
    totals = tuple(float(95 + 37 * ((s * 5) % seats) + (elapsed if s == seat else 0))
                   for s in range(seats))
    turns = tuple(3 + (s % 3) for s in range(seats))
    longest = tuple(float(40 + 11 * ((s * 3) % seats)) for s in range(seats))
    return Reading(seat=seat, elapsed=elapsed, paused=paused, on_break=on_break, left=left,
                   alarm=alarm, totals=totals, turns=turns, longest=longest, banks=None,
                   played=sum(totals))


# The corner's states, by name: what each is drawn with (a Reading's changes).
STATES: dict[str, dict] = {
    "running": {},
    "countdown": {"left": 42.3},
    "warn": {"left": 7.4, "alarm": "warn"},
    "time": {"left": -3.0, "alarm": "time"},
    "paused": {"paused": True},
    "break": {"on_break": True},
    "hour": {"elapsed": 3723.0},
}


def homes(config) -> Iterator[tuple[str, Context, Screen]]:
    """(kind, its context, its home screen) of each kind with a gallery: its gallery's shot
    called "home" or "main" if it has one, else the first with the home screen on top (a
    game under way)."""
    for kind in games.kinds().values():
        if kind.gallery is None:
            continue
        mode = games.mode_for(kind.kind)
        found: list[tuple[bool, Context, Screen]] = []
        try:
            for name, journal, stack in kind.gallery(config):
                ctx = Context(config=config, journal=journal)
                if journal.state.over or not isinstance(stack[-1], type(mode.home(ctx))):
                    continue
                found.append((name not in ("home", "main"), ctx, stack[-1]))
        except Exception:  # a house game's gallery: gallery/screens.py says so already
            if games.builtin(kind):
                raise
        if found:
            _, ctx, home = min(found, key=lambda f: f[0])
            yield kind.kind, ctx, home


def shots(config) -> Iterator[tuple[str, Image.Image]]:
    """(name, image) of each picture, drawn when asked for."""
    for kind, ctx, home in homes(config):
        prefix = "" if kind == Game.kind else f"{kind}-"
        seats = len(ctx.playing.header.players)
        seat = ctx.state.table.current
        for state in ("running", "warn") if kind != Game.kind else tuple(STATES):
            r = reading(seats, seat=seat, **STATES[state])
            yield f"{prefix}clock-{state}", home.render(replace(ctx, clock=r))
    from companion.ui.start import default_names
    names = default_names(config.names, 16)
    for n in (4, 12):
        journal = _journal(names[:n])
        ctx = Context(config=config, journal=journal, clock=reading(n, seat=1))
        yield f"clock-time-{n}", TimeScreen().render(ctx)
    empty = Context(config=config, journal=_journal(names[:4]), clock=replace(
        reading(4), totals=(0.0,) * 4, turns=(1, 0, 0, 0), longest=(0.0,) * 4, played=0.0,
        elapsed=0.0))
    yield "clock-time-none", TimeScreen().render(empty)


def _journal(players: tuple[str, ...]):
    from companion.rules.game import Header
    from companion.session.journal import Journal
    return Journal(Header(Game.kind, tuple(players)))
