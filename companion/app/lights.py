"""The seat light ring on the app thread (docs/lights.md): after each input the app handled,
what the ring shows is worked out again from the game (companion/ui/ring.py); a change starts
its short animation, whose frames are stepped by the app's own timers (`Tick("lights")`), so
no press ever waits for the ring. A change during an animation cuts it short: the new one
starts from where the game is now, and the old one's ticks are ignored (`gen`).

Without a ring (`ring=None`: `[lights]` off, or no device) all of this does nothing at all.
A ring that fails to show (an SPI error) is logged once; the game goes on.

`Lights` owns the ring, its look and its animation. It is given the ring and a `LightsHost`,
what it uses of the app (declared below): the config, the journal, the store's clock, the turn
clock's reading, the timers, the toast, and the pages' snapshot (due, or published now).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.app.timers import Scheduler
from companion.config import hours
from companion.inputs import Tick
from companion.ui import ring as R

if TYPE_CHECKING:
    from companion.session.clock import Reading
    from companion.session.journal import Journal

log = logging.getLogger(__name__)

TOKEN = "lights"
NIGHT_CHECK = 60.0  # seconds between looks at the clock for the night's brightness


class ClockReading(Protocol):
    """The turn clock as the ring reads it (app/clock.py's TurnClock)."""

    def reading(self) -> Reading | None: ...


class LightsHost(Protocol):
    """What the seat lights use of the app (App satisfies it)."""

    config: Any
    store: Any
    journal: Journal | None
    timers: Scheduler
    snapshot_due: bool
    strict: bool  # a bug raises (the tests), instead of being logged

    @property
    def turn_clock(self) -> ClockReading: ...

    def show_toast(self, text: str, seconds: float = 2.0) -> None: ...

    def flush_snapshot(self) -> None: ...


def quiet(item: object) -> bool:
    """Whether `item` is the ring's own tick: it changes nothing on the panel, so the app
    does not draw a frame for it (App.run)."""
    return isinstance(item, Tick) and item.token == TOKEN


def local_minute(wall: float) -> int:
    """The minute of the local day at the wall time `wall` (seconds since the epoch)."""
    t = time.localtime(wall)
    return t.tm_hour * 60 + t.tm_min


class Visible:
    """The ring the players see: a device's LEDs from `first` on, the ones before it kept
    dark (`[lights] first`: the first-pixel trick's spare LED inside the box re-sends the
    data at 5 V and must never light). The same surface as the device (`count`,
    `brightness`, `show`, `close`), with `count` the visible LEDs: everything else (the
    layout, the animations, the snapshot, /tv) works on the visible ring alone."""

    def __init__(self, device: Any, first: int) -> None:
        self.device = device
        self.first = first
        self.count = int(device.count) - first

    @property
    def brightness(self) -> float:
        return float(self.device.brightness)

    @brightness.setter
    def brightness(self, level: float) -> None:
        self.device.brightness = level

    def show(self, pixels: R.Frame) -> None:
        self.device.show((R.DARK,) * self.first + tuple(pixels))

    def close(self) -> None:
        self.device.close()


class Lights:
    """The app's ring: `sync()` after each input, `committed()` from App.committed (how the
    change came: a move animates, an undo does not), `on_tick` for its frames, `close()`."""

    def __init__(self, app: LightsHost, ring: Any = None, *,
                 minute: Callable[[], int] | None = None) -> None:
        self.app = app
        cfg = app.config["lights"]
        # `seats` are LED numbers on the strip as the builder counts them (the hidden ones
        # too); the app works on the visible ring, numbered from `first`.
        self.first = int(cfg["first"])
        self.configured: tuple[int, ...] = tuple(led - self.first for led in cfg["seats"])
        self.ring = self._visible(ring)
        self.day = float(cfg["brightness"])
        self.night_level = float(cfg["night_brightness"])
        self.night = hours(cfg["night"]) if cfg["night"] else None
        # The local minute of the day, from the store's wall clock (a fake one in tests).
        self.minute = minute or (lambda: local_minute(float(app.store.clock())))
        self.look: R.Look | None = None
        self.layout: R.Layout | None = None
        self.gen = 0  # the animation running; a tick of an older one is ignored
        self.plan: R.Plan = []
        self.shown: R.Frame | None = None
        self._how: tuple[str, Any] | None = None  # the last commit since the last sync
        self._night_due = False
        self._failed = False
        self.deferred = False  # App.run: sync after the panel's frame (`after`, `flush`)
        # The clock's alarm in the ring of the last snapshot published (`snapshot`): a change
        # the pages have not seen yet makes one due, one the snapshot already carried does not.
        self._published_alarm: str | None = None
        self._due = False
        self._told: Any = None  # the journal whose ring the panel last spoke of (`_tell`)

    def _visible(self, ring: Any) -> Any:
        return Visible(ring, self.first) if ring is not None and self.first else ring

    def attach(self, ring: Any, *, visible: bool = False) -> None:
        """Use `ring` from now on (the emulator's, made with the terminal after the app).
        `visible`: `ring` is only the LEDs the players see (the emulator draws no hidden
        one); else it is the whole strip, and its first `[lights] first` LEDs stay dark."""
        self.ring = ring if visible else self._visible(ring)
        self.look = None
        self.shown = None
        self.sync()

    # --- what to show -------------------------------------------------------------------------

    def committed(self, what: str, event: Any) -> None:
        self._how = (what, event)

    def current_look(self) -> R.Look | None:
        j = self.app.journal
        if j is None:
            return None
        reading = self.app.turn_clock.reading()
        # A paused clock (or a break) stands still: no amber or red for a time nobody is using.
        still = reading is None or reading.paused or reading.on_break
        return R.Look.of(j.state, "" if reading is None or still else reading.alarm)

    def _layout(self, look: R.Look | None) -> R.Layout | None:
        """The ring's layout for `look`'s seats; None (the ring dark) without a game, or when
        the ring cannot tell every seat's light from the others' (R.Layout.distinct)."""
        if self.ring is None or look is None:
            return None
        if self.layout is None or len(self.layout.centres) != look.seats:
            self.layout = R.Layout.of(self.ring.count, look.seats, self.configured)
        return self.layout if self.layout.distinct else None

    def _tell(self) -> None:
        """When a game comes on (new, resumed, reopened) with more seats than the ring has
        LEDs, the panel says how the ring shows them, or that it stays dark (issue 35.6)."""
        j = self.app.journal
        if j is self._told or self.ring is None:
            return
        self._told = j
        if j is not None:
            words = R.fold_words(R.Layout.of(self.ring.count, len(j.header.players),
                                             self.configured))
            if words:
                self.app.show_toast(words, 4.0)

    def after(self, item: object) -> None:
        """After the app handled `item`: `sync`, unless it was the ring's own tick (it
        changed nothing of the game). A bug here is logged and the game goes on (see
        App.strict), as with the screens. While `deferred` (App.run sets it) the sync waits
        for `flush`, which App.run calls once the panel's frame is drawn: a press's frame
        never waits for the ring's work (its animation worked out, its first frame sent)."""
        if self.ring is None or quiet(item):
            return
        self._tell()  # before the panel's frame, which shows it
        if self.deferred:
            self._due = True
            return
        self._sync_logged()

    def flush(self) -> None:
        """The sync `after` left for after the panel's frame (App.run), if any."""
        if self._due:
            self._due = False
            self._sync_logged()
            self.app.flush_snapshot()  # a ring turned amber or red: the pages' too

    def _sync_logged(self) -> None:
        try:
            self.sync()
        except Exception:
            if self.app.strict:
                raise
            log.exception("error showing the seat lights")

    def sync(self) -> None:
        """After each input: what the ring shows, again. A change of it starts its frames
        (a move: its animation; an undo, a redo, another game on: at once)."""
        if self.ring is None:
            return
        self._tell()
        how, self._how = self._how, None
        what, event = how if how is not None else ("", None)
        roll = event.get("dice") if what == "append" and isinstance(event, dict) else None
        look = self.current_look()
        if look == self.look and self.shown is not None and not isinstance(roll, dict):
            return
        before, self.look = self.look, look
        if look is not None and look.alarm != self._published_alarm:
            self.app.snapshot_due = True  # the pages' ring turns amber or red too
        layout = self._layout(look)
        if layout is None:
            self._start([(0.0, (R.DARK,) * self.ring.count)])
            return
        plan = R.change(layout, before, look, roll=roll if isinstance(roll, dict) else None,
                        animate=what == "append")
        self._start(plan)

    def _start(self, plan: R.Plan) -> None:
        self.gen += 1
        self.plan = plan
        self._step(0)

    def _step(self, i: int) -> None:
        at, frame = self.plan[i]
        self._show(frame)
        if i + 1 < len(self.plan):
            self.app.timers.after(self.plan[i + 1][0] - at,
                                  Tick(TOKEN, {"gen": self.gen, "i": i + 1}))
        elif self.look is not None and self.look.over and self.look.winners \
                and self.layout is not None:
            # The end shown: the winners' seats pulse for as long as it is (a new plan each
            # time round, so a change still cuts it short), each step a step's time after
            # the last one shown.
            self.plan = R.pulse(self.layout, self.look)
            self.app.timers.after(R.PULSE / R.PULSE_STEPS,
                                  Tick(TOKEN, {"gen": self.gen, "i": 0}))

    def on_tick(self, tick: Tick) -> None:
        if self.ring is None:
            return
        if tick.data.get("night"):  # the night's hours begun or ended: the same frame again
            self._night_due = False
            if self.shown is not None and self.ring.brightness != self.brightness():
                self._show(self.shown)
            else:
                self._night_check()
            return
        if tick.data.get("gen") == self.gen and tick.data.get("i", 0) < len(self.plan):
            self._step(int(tick.data["i"]))

    def brightness(self) -> float:
        """The brightness of the hour: `night_brightness` during `[lights] night`."""
        return self.night_level if R.in_night(self.minute(), self.night) else self.day

    def _show(self, frame: R.Frame) -> None:
        assert self.ring is not None
        self.shown = frame
        try:
            level = self.brightness()
            if self.ring.brightness != level:
                self.ring.brightness = level
            self.ring.show(frame)
        except Exception as e:  # the ring is an extra: the game goes on without it
            if self.app.strict and not isinstance(e, OSError):
                raise
            if not self._failed:
                log.error("the seat lights failed: %s", e)
            self._failed = True
        self._night_check()

    def _night_check(self) -> None:
        """While `[lights] night` is set: a look at the clock a minute from now."""
        if self.night is not None and not self._night_due and self.ring is not None:
            self._night_due = True
            self.app.timers.after(NIGHT_CHECK, Tick(TOKEN, {"night": True}))

    # --- the web and the end ------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any] | None:
        """The ring for the web's snapshot (docs/web.md): the frame at rest ("#rrggbb" per
        LED: the animations are the box's), the LED facing each seat and what each seat's
        light says in a word ("turn", "warn", "time", "won", "out" or "") and the whole in
        words ("Lights: Ben's turn"), so that a page need not rely on colour alone. None
        without a ring."""
        if self.ring is None:
            return None
        look = self.current_look()
        self._published_alarm = look.alarm if look is not None else None
        layout = self._layout(look)
        if layout is None or look is None:
            return {"pixels": R.hex_pixels((R.DARK,) * self.ring.count), "seats": [],
                    "marks": [], "words": R.words((), [])}
        marks = R.marks(look)
        players = self.app.journal.header.players if self.app.journal is not None else ()
        return {"pixels": R.hex_pixels(R.steady(layout, look)), "seats": list(layout.centres),
                "marks": marks, "words": R.words(players, marks)}

    def close(self) -> None:
        """The app closes (quit, power off): the ring goes dark and is let go."""
        if self.ring is None:
            return
        self.gen += 1
        try:
            self.ring.close()
        except Exception as e:
            log.error("the seat lights did not close: %s", e)
        self.ring = None
