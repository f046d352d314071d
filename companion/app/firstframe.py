"""The next start's first frame (companion/session/startframe.py): the app keeps the frame a
start would draw now, a second after the journal last changed and at exit, so that the next
`companion run` can show it before it imports the app.

Every function here runs on the app thread, on the App it is given.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games
from companion.inputs import Tick
from companion.session import startframe
from companion.ui.screen import Context

if TYPE_CHECKING:
    from companion.app.core import App
    from companion.session.journal import Journal

log = logging.getLogger(__name__)

# Kept this long after the journal last changed: once the table pauses, not between two
# quick presses (each keep draws a frame and writes a file).
KEEP_AFTER = 1.0


def state(app: App) -> object:
    """What the next start's first frame depends on that the app changes: the journal (every
    commit), which game is open or left, the roster."""
    return (app.commits, id(app.journal), id(app.left), app.roster)


def due(app: App) -> None:
    """After a change, once the queue is empty (App.run): keep the frame a second later."""
    if app.start_frame is None or app.frame_timer or app.frame_token == state(app):
        return
    app.frame_timer = True
    app.timers.after(KEEP_AFTER, Tick("startframe"))


def at_exit(app: App) -> None:
    """At exit (the service stopped, `q`, Quit): now, not a second later."""
    if app.start_frame is not None and (app.frame_timer or app.frame_token != state(app)):
        keep(app)


def keep(app: App) -> None:
    """Keep the frame a start would draw now (none when no game is open), unless the file
    already holds it. A failure is logged: it is a cache, and the game is not in it."""
    app.frame_timer = False
    app.frame_token = state(app)
    path = app.start_frame
    if path is None or app.store.read_only or app.store.unwritable:
        return
    journal = app.journal if app.journal is not None else app.left
    try:
        if journal is None or getattr(journal.sink, "game_id", None) \
                != startframe.open_game(app.store.db):
            startframe.forget(path)
            return
        key = startframe.key(app.store.db, app.config.data, code_dirs(journal.header.game))
        if key is None:
            startframe.forget(path)
        elif key != startframe.kept_key(path):
            startframe.write(path, key, image(app, journal).tobytes())
    except Exception:  # never the game's problem: the next start draws its own frame
        if app.strict:
            raise
        log.exception("start frame not kept")


def code_dirs(kind: str) -> list[str]:
    """The folders whose modules draw a game of `kind`: the companion's, and a house game's
    own package (a built-in kind's is inside the companion's)."""
    dirs = [startframe.companion_dir()]
    package = sys.modules.get(games.get(kind).panel.__module__)
    where = getattr(package, "__file__", None)
    if where:
        folder = str(Path(where).resolve().parent)
        if not (folder + "/").startswith(dirs[0] + "/"):
            dirs.append(folder)
    return dirs


def image(app: App, journal: Journal) -> Any:
    """The first frame a start that resumes `journal` draws: its home screen (its end screen
    when over) in the context of a start (no statistics yet, no web, no dice note, no toast),
    as App.__init__ and its first render make it."""
    ctx = Context(config=app.config, journal=journal, now=app.clock(), roster=app.roster)
    mode = games.mode_for(journal.header.game)
    screen = mode.end_screen(ctx) if journal.state.over else mode.home(ctx)
    return screen.render(ctx)
