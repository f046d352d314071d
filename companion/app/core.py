"""The App: its state, the input queue and the loop that handles it (companion/app/__init__.py
says what the other modules of the package do)."""

from __future__ import annotations

import logging
import queue
import random
import time
from typing import TYPE_CHECKING, Any, Callable

from companion import games
from companion.app import firstframe, handlers, lights, rolls
from companion.app.bridge import WebBridge
from companion.app.calls import Caller
from companion.app.statscache import StatsCache
from companion.errors import IllegalEvent, JournalError
from companion.inputs import (
    Button,
    ButtonInput,
    Gesture,
    Notice,
    PhonePaired,
    Quit,
    RollerPress,
    RollResult,
    ShutdownRequest,
    StatsFilled,
    Tick,
    WebRequest,
)
from companion.session.journal import Journal
from companion.ui import actions as A, power
from companion.ui.clock import STARTING
from companion.ui.dice import roller_press
from companion.ui.screen import Context, Screen, TextScreen
from companion.ui.start import ResumeEntry
from companion.ui.toast import draw_toast, error_frame

if TYPE_CHECKING:
    from pathlib import Path

    from companion.session.stats import Stats
    from companion.web.server import Web

log = logging.getLogger(__name__)


class App:
    """The companion's state and the one thread that changes it: `run` takes the inputs off
    the queue one at a time (`handle`), and only it changes the journal, the screens and the
    frames; other threads only `post`. rolls.py and handlers.py are functions of the App, by
    job, run on that same thread; the web bridge (bridge.py) and the statistics cache
    (statscache.py) are parts it builds, given what they use."""

    # Off at the table: a bug in a screen is logged with its traceback and shown as a toast,
    # and the game goes on (it is safe in the journal). The test suite turns it on
    # (tests/conftest.py) so that such a bug fails the test instead.
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
        # SimpleQueue: its put() may be called from a signal handler (SIGTERM posts Quit),
        # which queue.Queue's non-reentrant lock does not allow.
        # `inbox`: a queue made before the app, that inputs already post to (companion run,
        # when the kept start frame is up before the app is).
        self.queue: queue.SimpleQueue = inbox if inbox is not None else queue.SimpleQueue()
        self.timers: rolls.Scheduler = rolls.Timers(self.post)
        if hasattr(display, "schedule"):  # a failed panel write asks for a redraw later;
            # any Tick wakes run(), which draws the current frame once the queue is empty.
            display.schedule = lambda seconds: self.timers.after(seconds, Tick("redraw"))
        if dice is None:
            from companion.drivers.dice import SoftwareDice
            dice = SoftwareDice(post=self.post)
        self.dice = dice
        self.buzzer = buzzer
        self.power_runner = power_runner  # runs the power-off command; None = subprocess.run
        self.on_commit = on_commit
        self.speaker = speaker  # the box's voice: say(calls), never blocks (None: silent)
        self.caller = Caller(self)  # the spoken calls (app/calls.py, docs/speech.md)
        self.animation = config["dice"]["animation"]
        # A roll with no result by then is rolled in software: the roller driver falls back
        # after its own timeout, so this only guards against a result lost on the way.
        self.roll_deadline = self.animation + config["roller"]["timeout"] + 1.0
        self.toast: tuple[str, float] | None = None
        # What the last failed save said ("Not saved: disk full"), for the web's answer to
        # the request that met it (WebBridge.on_web clears it first). "" = none.
        self.save_failed = ""
        self.roll_seq = 0
        self.pending: rolls.PendingRoll | None = None
        self.dice_note = ""
        self.journal: Journal | None = store.resume()
        if self.journal is not None:
            handlers.taken_back_at_start(self)
        from companion.app.clock import TurnClock
        self.turn_clock = TurnClock(self)  # the open game's turn clock (docs/clock.md)
        self.lights = lights.Lights(self, ring)  # the seat lights (docs/lights.md)
        # The game left for the start menu (still the open game in the journal: resumed at
        # start); the unfinished games the start menu's Resume offers, newest move first.
        self.left: Journal | None = None
        self.unfinished: tuple[ResumeEntry, ...] = ()
        self.commits = 0  # appends, undos and redos so far
        from companion.session import roster
        names = roster.load(store)  # the names a phone keeps for new games (None: never set)
        self.roster: tuple[str, ...] | None = None if names is None else tuple(names)
        self.statscache = StatsCache(store, self.post)  # the history figures (stats())
        self.stack: list[Screen] = []
        # The table web's bridge (bridge.py): a phone's requests, the snapshots and their
        # seqs, the double taps; the web itself once attached (attach_web).
        self.bridge = WebBridge(self, self.snapshot_parts)
        self.panel_frame: Any = None  # the image the panel itself shows now
        # The next start's first frame, kept at `start_frame` (firstframe.py; None: not kept).
        self.keeper = firstframe.Keeper(start_frame) if start_frame is not None else None
        notice = store.notice
        problem = games.panel_problem(self.journal.header.game) if self.journal else ""
        if problem:  # kept open in the journal, as it is: the start menu instead
            self.journal = None
            notice = " ".join(filter(None, [notice, f"Not resumed: {problem}. It is kept."]))
        if self.journal is not None:
            self.enter_game()
        else:
            handlers.start_menu(self)
        if notice:
            log.warning("%s", notice)
            self.stack.append(TextScreen("Saved games", [notice, "OK to go on."]))

    # --- plumbing -----------------------------------------------------------------------------

    def post(self, item: object) -> None:
        """Called from any thread."""
        self.queue.put(item)

    def ctx(self) -> Context:
        unfinished = self.unfinished if self.journal is None else ()
        return Context(config=self.config, journal=self.journal, now=self.clock(),
                       dice_note=self.dice_note, unfinished=unfinished,
                       # No statistics in the first frame: never computed at start-up.
                       stats=self.stats if self.last_frame is not None else None,
                       extra={"web": self.web} if self.web is not None else {},
                       roster=self.roster,
                       # No clock in the first frame either: it is the kept one (firstframe).
                       clock=self.turn_clock.reading() if self.last_frame is not None
                       else STARTING)

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def run(self) -> None:
        """Handle inputs until Quit. Blocks on the queue: no polling while idle."""
        self.render()
        self.lights.sync()  # the ring's first frame
        self.lights.deferred = True  # from now on after each frame (Lights.after)
        if self.journal is not None:
            # Now the end screen's line of history, or the turn clock in its corner (blank in
            # the first frame, and a paused clock or a break has no tick to draw it).
            self.post(Tick("redraw"))
        firstframe.due(self)  # a start that found no kept frame (or an old one) keeps it
        drawn = True  # the frame shows every input handled so far
        while True:
            item = self.queue.get()
            if isinstance(item, Quit):
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

    # --- inputs -------------------------------------------------------------------------------

    def on_roller_press(self, press: RollerPress) -> None:
        """The roller's own button: roll now, without the dice menu (ui/dice.py)."""
        if rolls.tumbling(self):
            return  # a roll is tumbling: like every button, it waits for the result
        self.perform(roller_press(self.top, self.ctx()))

    def on_button(self, b: ButtonInput) -> None:
        if rolls.tumbling(self):
            return  # a roll is tumbling: buttons wait for the result
        if b.gesture is Gesture.HOLD and self.journal is not None:
            if b.button is Button.BACK:
                self.perform(A.Undo())
                return
            if b.button is Button.OK and not self.journal.state.over:
                from companion.ui.modes import menu_hold
                self.perform(menu_hold(self.stack, self.mode, self.ctx()))
                return
        self.perform(self.top.handle(b, self.ctx()))

    # --- actions (handlers.py) and the journal ------------------------------------------------

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
        handler = handlers.HANDLERS.get(type(action))
        if handler is None:
            raise TypeError(f"unknown action {action!r}")
        done = handler(self, action)
        self.turn_clock.settle()  # a new game's setup screens gone: its clock starts now
        return done

    def emit(self, event: dict) -> bool:
        """Append `event` to the journal, committed before anything shows it (A.Emit, a
        roll's result): a refused move or a failed save is a toast, and False."""
        assert self.journal is not None
        try:
            self.journal.append(event)
        except IllegalEvent as e:
            self.show_toast(str(e), 3.0)
            return False
        except JournalError as e:
            self.not_saved(e)
            return False
        self.committed("append", event)
        self.check_over()
        return True

    def new_game(self, header) -> bool:
        """Start a game of `header` (what A.NewGame does: handlers.start_game)."""
        return handlers.start_game(self, header)

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

    def enter_game(self) -> None:
        """The journal's game on screen: its home screen, or its end screen when over."""
        assert self.journal is not None
        ctx = self.ctx()
        if self.journal.state.over:
            self.stack = [self.mode.end_screen(ctx)]
            self.at_end = True
        else:
            self.stack = [self.mode.home(ctx)]
            self.at_end = False

    def check_over(self) -> None:
        """Switch to the end screen when the game ends, and back when undo reopens it. The
        end screen is shown clear: a toast still up (a "Redone: ..." of the last move, a
        hint) would cover the winners, so it goes."""
        assert self.journal is not None
        over = self.journal.state.over
        if over != self.at_end:
            self.enter_game()
            if over:
                self.toast = None

    def show_toast(self, text: str, seconds: float = 2.0) -> None:
        self.toast = (text, self.clock() + seconds)
        self.timers.after(seconds, Tick("toast"))

    def not_saved(self, e: JournalError) -> None:
        """Not saved (disk full, locked, I/O error): the journal in memory is unchanged, since
        it writes to the store first; say so, and keep the table going."""
        log.error("%s", e)
        short = getattr(e, "short", "")  # what fits the panel whole: "Not saved: disk full"
        self.save_failed = short or str(e)[:1].upper() + str(e)[1:]
        self.show_toast(self.save_failed, 4.0)

    # --- the history figures (Records, the end screens) ---------------------------------------

    def stats(self) -> Stats | None:
        """The history figures for Records and the end screens (statscache.py): None while
        games with no saved record are counted off the app thread."""
        return self.statscache.stats()

    # --- the table web (bridge.py) ------------------------------------------------------------

    @property
    def web(self) -> Web | None:
        """The table web (companion/web), once attached: the Web the device menu switches."""
        return self.bridge.web

    @property
    def last_frame(self) -> tuple[int, Any] | None:
        """(frame number, PIL image) the web may show (PublicFrame); None before the first
        frame."""
        return self.bridge.public.last

    @property
    def snapshot_due(self) -> bool:
        """A change is not published to the web yet (flush_snapshot)."""
        return self.bridge.snapshots.due

    @snapshot_due.setter
    def snapshot_due(self, due: bool) -> None:
        self.bridge.snapshots.due = due

    def snapshot_parts(self) -> dict[str, Any]:
        """The web snapshot's pieces other parts own: the turn clock, the calls and how they
        are said, the ring."""
        from companion.app.calls import speech
        from companion.app.clock import snapshot
        tc = self.turn_clock
        return {"clock": snapshot(tc.reading(), tc.limits, at=tc.now()),
                "calls": self.caller.snapshot(), "speech": speech(self.config, self.caller.run),
                "ring": self.lights.snapshot()}

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


def on_notice(app: App, notice: Notice) -> None:
    app.show_toast(notice.text, 3.0)


def on_shutdown_request(app: App, request: ShutdownRequest) -> None:
    app.perform(power.ask(app.top))


def on_web(app: App, request: WebRequest) -> None:
    app.bridge.on_web(request)


def on_stats_filled(app: App, item: StatsFilled) -> None:
    app.statscache.on_filled(item)


def on_phone_paired(app: App, item: PhonePaired) -> None:
    app.bridge.on_phone_paired(item)


# What the app thread does with each input from the queue (companion/inputs.py), by its exact
# type (App.handle); Quit ends App.run before it gets here.
INPUTS: dict[type, Callable[[App, Any], object]] = {
    ButtonInput: App.on_button,
    RollerPress: App.on_roller_press,
    RollResult: rolls.on_roll_result,
    Tick: rolls.on_tick,
    Notice: on_notice,
    ShutdownRequest: on_shutdown_request,
    WebRequest: on_web,
    PhonePaired: on_phone_paired,
    StatsFilled: on_stats_filled,
}


def run_safely(app: App) -> None:
    try:
        app.run()
    finally:
        app.close()
