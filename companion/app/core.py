"""The App: the input queue and the loop that handles it (`post`, `run`, `handle`), the screen
stack, `perform` (an action to its handler in handlers.py) and drawing. Every other job is a
part the App builds and hands what it needs (companion/app/__init__.py lists them)."""

from __future__ import annotations

import logging
import queue
import random
import time
from typing import TYPE_CHECKING, Any, Callable

from companion import games, inputs as I
from companion.app import firstframe, lights, presses, ticks
from companion.app.bridge import WebBridge
from companion.app.calls import Caller
from companion.app.clock import TurnClock
from companion.app.handlers import HANDLERS, Actions
from companion.app.rolls import Rolls
from companion.app.statscache import StatsCache
from companion.app.timers import Scheduler, Timers
from companion.app.webparts import Pieces, warm
from companion.errors import IllegalEvent, JournalError
from companion.session.journal import Journal
from companion.ui import power
from companion.ui.clock import STARTING
from companion.ui.screen import Context, Screen
from companion.ui.start import ResumeEntry
from companion.ui.toast import draw_toast, error_frame

if TYPE_CHECKING:
    from pathlib import Path

    from companion.session.stats import Stats
    from companion.web.server import Web

log = logging.getLogger(__name__)


class App:
    """The one thread that changes the companion's state: `run` takes the inputs off the
    queue one at a time (`handle`); other threads only `post`. The parts it builds run on
    this thread, each given the narrow host its own module declares, or only callables."""

    # Off at the table: a bug in a screen is logged and shown as a toast, and the game goes on
    # (it is safe in the journal). The tests turn it on (tests/conftest.py): a bug fails.
    strict = False

    def __init__(self, *, config, store, display, dice=None, clock=time.monotonic,
                 rng: random.Random | None = None, on_commit: Callable[[str, int, Any], None]
                 | None = None, buzzer=None, power_runner: power.Runner | None = None,
                 start_frame: Path | None = None, inbox: queue.SimpleQueue | None = None,
                 speaker=None, ring: Any = None) -> None:
        self.config = config
        self.store = store
        self.display = display
        self.clock = clock
        self.rng = rng or random.Random()
        # SimpleQueue: SIGTERM's handler may put() (Quit). `inbox`: one inputs already post
        # to (companion run, when the kept start frame is up before the app is).
        self.queue: queue.SimpleQueue = inbox if inbox is not None else queue.SimpleQueue()
        self.timers: Scheduler = Timers(self.post)
        if hasattr(display, "schedule"):  # a failed panel write: a Tick redraws it later
            display.schedule = lambda seconds: self.timers.after(seconds, I.Tick("redraw"))
        if dice is None:
            from companion.drivers.dice import SoftwareDice
            dice = SoftwareDice(post=self.post)
        self.dice = dice
        self.buzzer = buzzer
        self.power_runner = power_runner  # runs the power-off command; None = subprocess.run
        self.on_commit = on_commit
        self.caller = Caller(lambda: self.journal, speaker, self.changed)  # the spoken calls
        animation = config["dice"]["animation"]
        self.rolls = Rolls(self, animation=animation,
                           deadline=animation + config["roller"]["timeout"] + 1.0)
        self.actions = Actions(self)  # what the screens' actions do (handlers.py)
        self.toast: tuple[str, float] | None = None
        self.save_failed = ""  # the last failed save's words, for the web's answer ("": none)
        self.journal: Journal | None = store.resume()
        self.actions.taken_back_at_start()
        self.turn_clock = TurnClock(self)  # the open game's turn clock (docs/clock.md)
        self.lights = lights.Lights(self, ring)  # the seat lights (docs/lights.md)
        self.left: Journal | None = None  # the game left for the start menu (still open)
        self.unfinished: tuple[ResumeEntry, ...] = ()  # what the start menu's Resume offers
        self.commits = 0  # appends, undos and redos so far
        from companion.session import designs, roster
        designs.offer(store)  # the group's own designs in New game (docs/designing-a-game.md)
        names = roster.load(store)  # the names a phone keeps for new games (None: never set)
        self.roster: tuple[str, ...] | None = None if names is None else tuple(names)
        self.pieces: Pieces = Pieces(self)  # the snapshot's clock, calls, ring, favourite
        self.statscache: StatsCache = StatsCache(store, self.post, self.pieces.landing(self.changed))
        self.stack: list[Screen] = []
        self.bridge: WebBridge = WebBridge(self, self.pieces)  # a phone's requests, snapshots
        self.panel_frame: Any = None  # the image the panel itself shows now
        # The next start's first frame, kept at `start_frame` (None: not kept).
        self.keeper = firstframe.Keeper(start_frame) if start_frame is not None else None
        self.actions.first_screens()

    def post(self, item: object) -> None:
        """Called from any thread."""
        self.queue.put(item)

    def ctx(self) -> Context:
        # The first frame (the kept one: firstframe.py) computes no statistics, shows no clock.
        drawn = self.last_frame is not None
        return Context(config=self.config, journal=self.journal, now=self.clock(),
                       dice_note=self.rolls.dice_note,
                       unfinished=self.unfinished if self.journal is None else (),
                       stats=self.stats if drawn else None,
                       extra={"web": self.web} if self.web is not None else {},
                       roster=self.roster, clock=self.turn_clock.reading() if drawn else STARTING)

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def run(self) -> None:
        """Handle inputs until Quit. Blocks on the queue: no polling while idle."""
        self.render()
        warm(self)  # the favourite's ratings, folded off this thread from the first frame on
        self.lights.sync()  # the ring's first frame
        self.lights.deferred = True  # from now on after each frame (Lights.after)
        if self.journal is not None:
            # The end screen's history line or the clock's corner (blank in the first frame).
            self.post(I.Tick("redraw"))
        firstframe.due(self)  # a start that found no kept frame (or an old one) keeps it
        drawn = True  # the frame shows every input handled so far
        while True:
            item = self.queue.get()
            if isinstance(item, I.Quit):
                break
            self.handle(item)
            drawn = drawn and lights.quiet(item)  # the ring's frames are not the panel's
            # Draw once the burst is handled: inputs that queued meanwhile are taken first.
            if self.queue.empty() and not drawn:
                drawn = True
                self.render()
                self.flush_snapshot()
                firstframe.due(self)
            if self.queue.empty():
                self.lights.flush()  # the ring after the panel: a press never waits for it

    def close(self) -> None:
        self.timers.close()
        self.lights.close()  # dark
        firstframe.at_exit(self)

    def handle(self, item: object) -> None:
        """One input from the queue, done by what INPUTS has for its type (an unknown item is
        dropped); an illegal move or a failed save is a toast, as is a bug (see `strict`)."""
        try:
            step = INPUTS.get(type(item))
            if step is not None:
                step(self, item)
        except IllegalEvent as e:
            self.show_toast(str(e), 3.0)
        except JournalError as e:
            self.not_saved(e)
        except Exception as e:  # the last resort: see `strict`
            if self.strict:
                raise
            log.exception("error handling %r", item)
            self.show_toast(f"Internal error ({type(e).__name__}); the game is saved", 4.0)
        self.lights.after(item)  # the seat lights follow what the input changed

    def on_button(self, b: I.ButtonInput) -> None:
        """A button, to what it asks for (presses.on_button): a phone's presses come here."""
        presses.on_button(self, b)

    @property
    def mode(self):
        assert self.journal is not None
        return games.mode_for(self.journal.header.game)

    def perform(self, action: Any) -> bool:
        """Carry out an action (or a list, stopping at the first that fails)."""
        if action is None:
            return True
        if isinstance(action, (list, tuple)):
            return all(self.perform(a) for a in action)
        self.bridge.check_stale(action)  # a phone's press on a stale snapshot commits nothing
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise TypeError(f"unknown action {action!r}")
        done = handler(self.actions, action)
        self.turn_clock.settle()  # a new game's setup screens gone: its clock starts now
        return done

    def emit(self, event: dict) -> bool:
        """Append `event` to the journal (Actions.append: a refused move is False)."""
        return self.actions.append(event)

    def committed(self, what: str, event: Any) -> None:
        """After each append, undo or redo: the figures are old, a snapshot is due."""
        self.commits += 1
        self.statscache.changed()
        self.snapshot_due = True
        self.turn_clock.committed(what)
        self.caller.committed(what, event)
        self.lights.committed(what, event)
        if self.on_commit is not None:
            assert self.journal is not None
            self.on_commit(what, len(self.journal.events), event)

    def changed(self) -> None:
        """A change the pages have not seen: a snapshot is due (flush_snapshot)."""
        self.snapshot_due = True

    def show_toast(self, text: str, seconds: float = 2.0) -> None:
        self.toast = (text, self.clock() + seconds)
        self.timers.after(seconds, I.Tick("toast"))

    def not_saved(self, e: JournalError) -> None:
        """Not saved (disk full, locked, I/O error): the journal in memory is unchanged, since
        it writes to the store first; say so, and keep the table going."""
        log.error("%s", e)
        short = getattr(e, "short", "")  # what fits the panel whole: "Not saved: disk full"
        self.save_failed = short or str(e)[:1].upper() + str(e)[1:]
        self.show_toast(self.save_failed, 4.0)

    def stats(self) -> Stats | None:
        """The history figures for Records and the end screens (StatsCache.stats)."""
        return self.statscache.stats()

    # --- the table web (bridge.py) ------------------------------------------------------------

    @property
    def web(self) -> Web | None:
        """The table web (companion/web), once attached: the Web the device menu switches."""
        return self.bridge.web

    @property
    def last_frame(self) -> tuple[int, Any] | None:
        """(frame number, PIL image) the web may show (PublicFrame); None before any."""
        return self.bridge.public.last

    @property
    def snapshot_due(self) -> bool:
        """A change is not published to the web yet (flush_snapshot)."""
        return self.bridge.snapshots.due

    @snapshot_due.setter
    def snapshot_due(self, due: bool) -> None:
        self.bridge.snapshots.due = due

    def attach_web(self, web: Web) -> None:
        """Give the app its table web (WebBridge.attach)."""
        self.bridge.attach(web)

    def web_request(self, kind: str, p: dict) -> dict:
        """Do a paired browser's request and answer it (WebBridge.web_request)."""
        return self.bridge.web_request(kind, p)

    def flush_snapshot(self) -> None:
        """Publish the snapshot a change made due (Snapshots.flush)."""
        self.bridge.snapshots.flush()

    # --- drawing ------------------------------------------------------------------------------

    def frame(self):
        img = self.top.render(self.ctx())
        if self.toast is not None:
            draw_toast(img, self.toast[0],  # the players' names are shortened first
                       self.journal.header.players if self.journal is not None else ())
        return img

    def render(self) -> None:
        try:
            frame = self.frame()
        except Exception:  # the last resort: see `strict`
            if self.strict:
                raise
            log.exception("error drawing %r", self.top)
            frame = error_frame()
        self.panel_frame = frame
        self.display.show(frame)
        self.turn_clock.schedule()  # while a turn runs, the next frame is due on its next second
        self.bridge.drawn(frame, self.stack)  # what the web may show: never a secret screen


# What the app thread does with each input from the queue (companion/inputs.py), by its exact
# type (App.handle); Quit ends App.run before it gets here.
INPUTS: dict[type, Callable[[App, Any], object]] = {
    I.ButtonInput: presses.on_button,
    I.RollerPress: presses.on_roller_press,
    I.RollResult: lambda app, result: app.rolls.on_result(result),
    I.Tick: ticks.on_tick,
    I.Notice: lambda app, notice: app.show_toast(notice.text, 3.0),
    I.ShutdownRequest: presses.on_shutdown_request,
    I.WebRequest: lambda app, request: app.bridge.on_web(request),
    I.PhonePaired: lambda app, item: app.bridge.on_phone_paired(item),
    I.StatsFilled: lambda app, item: app.statscache.on_filled(item),
}


def run_safely(app: App) -> None:
    try:
        app.run()
    finally:
        app.close()
