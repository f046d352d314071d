"""The next start's first frame (companion/session/startframe.py): the app keeps the frame a
start would draw now, once the journal has not changed for a second, and at exit, so that the
next `companion run` can show it before it imports the app.

`Keeper` holds where the frame is kept and what was kept last; the functions here are given a
`FrameHost`, what they use of the app (declared below): the keeper, the journal and the game
left, the store and the config, the roster, the count of commits, the clock and the timers.
They run on the app thread.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion import games
from companion.app.timers import Scheduler
from companion.inputs import Tick
from companion.session import startframe
from companion.ui.clock import STARTING
from companion.ui.screen import Context

if TYPE_CHECKING:
    from companion.session.journal import Journal

log = logging.getLogger(__name__)

# Kept once nothing has changed for this long: when the table pauses, not between two quick
# presses (each keep draws a frame and writes a file).
KEEP_AFTER = 1.0


class Keeper:
    """Where the frame is kept, and what the app's state was when last kept and last seen."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # `state` when the frame was last kept (None at start: the first keep checks the
        # file, and writes only when it does not hold the frame already)
        self.kept: object = None
        self.seen: object = None  # `state` when last looked at
        self.changed_at = 0.0  # when `seen` last changed (the app's clock)
        self.pending = False  # a keep is scheduled


class FrameHost(Protocol):
    """What keeping the first frame uses of the app (App satisfies it)."""

    keeper: Keeper | None
    journal: Journal | None
    left: Journal | None  # the game left for the start menu: still the open game
    roster: tuple[str, ...] | None
    commits: int
    store: Any
    config: Any
    clock: Callable[[], float]
    timers: Scheduler
    strict: bool  # a failure raises (the tests), instead of being logged


def state(app: FrameHost) -> object:
    """What the next start's first frame depends on that the app changes: the journal (every
    commit), which game is open or left, the roster."""
    return (app.commits, id(app.journal), id(app.left), app.roster)


def due(app: FrameHost) -> None:
    """Once the queue is empty (App.run): after a change, keep the frame when nothing has
    changed for KEEP_AFTER."""
    k = app.keeper
    if k is None:
        return
    now = state(app)
    if now != k.seen:
        k.seen, k.changed_at = now, app.clock()
    if now != k.kept and not k.pending:
        k.pending = True
        app.timers.after(KEEP_AFTER, Tick("startframe"))


def on_tick(app: FrameHost) -> None:
    """The scheduled keep: now if nothing changed for KEEP_AFTER, else once the last change
    is that old."""
    k = app.keeper
    if k is None:
        return
    k.pending = False
    now = state(app)
    if now != k.seen:  # changed by an input handled in this same burst
        k.seen, k.changed_at = now, app.clock()
    wait = k.changed_at + KEEP_AFTER - app.clock()
    if wait > 0.01:
        k.pending = True
        app.timers.after(wait, Tick("startframe"))
    else:
        keep(app)


def at_exit(app: FrameHost) -> None:
    """At exit (the service stopped, `q`, Quit): now, not a second later."""
    k = app.keeper
    if k is not None and (k.pending or k.kept != state(app)):
        keep(app)


def keep(app: FrameHost) -> None:
    """Keep the frame a start would draw now, unless the file already holds it; none when no
    game is open, or when this start raised a notice (the next start may well raise it again,
    and then draws the notice, not the game). A failure is logged: it is a cache, and the game
    is not in it."""
    k = app.keeper
    if k is None:
        return
    k.pending = False
    k.kept = state(app)
    store = app.store
    if store.read_only or store.unwritable:
        return
    journal = app.journal if app.journal is not None else app.left
    try:
        if journal is None or store.notice or getattr(journal.sink, "game_id", None) \
                != startframe.open_game(store.db):
            startframe.forget(k.path)
            return
        dirs = code_dirs(journal.header.game)
        key = None if dirs is None else startframe.key(store.db, app.config.data, dirs)
        if key is None:
            startframe.forget(k.path)
        elif key != startframe.kept_key(k.path):
            startframe.write(k.path, key, image(app, journal).tobytes())
    except Exception:  # never the game's problem: the next start draws its own frame
        if app.strict:
            raise
        log.exception("start frame not kept")


def code_dirs(kind: str) -> list[str] | None:
    """The code that draws a game of `kind`: the companion's folder, and for a house game the
    folder of its top-level package (or its one module) as declared by its entry point. None
    when that cannot be told (then nothing is kept for it)."""
    home = startframe.companion_dir()
    module = games.source(kind)
    if module is None:
        return None
    top = module.partition(".")[0]
    if top == "companion":
        return [home]
    where = getattr(sys.modules.get(top), "__file__", None)
    if not where:  # not imported, or a namespace package: no one folder holds its code
        return None
    path = Path(where).resolve()
    return [home, str(path.parent if path.name == "__init__.py" else path)]


def image(app: FrameHost, journal: Journal) -> Any:
    """The first frame a start that resumes `journal` draws: its home screen (its end screen
    when over) in the context of a start (no statistics yet, no web, no dice note, no toast),
    as App.__init__ and its first render make it."""
    ctx = Context(config=app.config, journal=journal, now=app.clock(), roster=app.roster,
                  clock=STARTING)  # the turn clock's corner: kept, blank
    mode = games.mode_for(journal.header.game)
    screen = mode.end_screen(ctx) if journal.state.over else mode.home(ctx)
    return screen.render(ctx)
