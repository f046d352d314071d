"""A test driver for the companion: the app on luma's dummy display, driven by button presses
on a fake clock, the way gpiozero ships its mock pins for the tests of whoever uses it.

The companion's own tests use it, and so can a house game's (docs/testing.md)::

    from companion.inputs import Button
    from companion.testing import make_app, press, close

    def test_next_passes_the_turn(tmp_path):
        app = make_app(tmp_path, kind="your-kind", setup=False)
        try:
            press(app, Button.NEXT)
            assert app.journal.state.table.current == 1
        finally:
            close(app)

- `make_app` builds an `App` on the dummy display with a journal in a directory, seeded dice
  that roll at once and a `FakeClock`; `close` closes it and its journal.
- `press` hands the app button presses (or holds) the way its thread gets them, `drain`
  handles whatever is queued, `choose` picks a menu item by its label.
- `FakeClock` is a clock that moves only when told; the app's timers (toasts, the dice
  tumbling, a screen's countdown) run on it.
- `RecordingRing` is a seat light ring (docs/lights.md) that keeps every frame it is shown,
  with the fake clock's time, for tests to assert on.
- `RecordingSerial` is a luma serial interface that records the bytes a display driver writes
  (defined beside the OLED drivers, companion/drivers/oled.py, and used by the benchmark).

Nothing here needs pytest. The app, the journal and the display are imported when an app is
made, not when this module is.
"""

from __future__ import annotations

import heapq
import itertools
import queue
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from companion.inputs import Button, ButtonInput, Gesture

if TYPE_CHECKING:
    from companion.app.core import App
    from companion.config import Config
    from companion.drivers.oled import RecordingSerial

__all__ = ["FakeClock", "PLAYERS", "RecordingRing", "RecordingSerial", "choose", "close", "drain", "make_app",
           "press"]

PLAYERS = ("Ann", "Ben", "Cy", "Dee")


def __getattr__(name: str) -> Any:
    # RecordingSerial lives with the OLED drivers (it counts their bytes on the I2C wire); it
    # is imported on first use so that importing this module does not import luma.
    if name == "RecordingSerial":
        from companion.drivers.oled import RecordingSerial
        return RecordingSerial
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- time ------------------------------------------------------------------------------------

class FakeClock:
    """A monotonic clock (seconds, a float) that stands still until moved: `advance(dt)`, or
    `t` set to a later time. Pass it where the companion takes a clock (`App`, `ButtonPanel`,
    `Pairing`, ...); calling it returns `t`.

    Callbacks given to `call_later` run, in the order they fall due, as the clock passes
    them. An app made by `make_app` on a FakeClock has its timers there: a toast's end, the
    dice tumbling, a screen's own countdown post their tick to the app's queue when the clock
    reaches them, and the next `drain` (or `press`) handles it, as on the box.

    One thread moves it and schedules on it (the test's): it has no lock.
    """

    def __init__(self, t: float = 1000.0) -> None:
        self._t = float(t)
        self._due: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self._t

    @property
    def t(self) -> float:
        """The time now. Setting it moves the clock there (never back)."""
        return self._t

    @t.setter
    def t(self, value: float) -> None:
        self.advance(value - self._t)

    def advance(self, seconds: float) -> None:
        """Move the clock on by `seconds`, running each callback that falls due on the way at
        its own time (the clock reads that time while it runs)."""
        if seconds < 0:
            raise ValueError(f"a monotonic clock does not go back ({seconds} s)")
        end = self._t + seconds
        while self._due and self._due[0][0] <= end:
            when, _, call = heapq.heappop(self._due)
            self._t = max(self._t, when)
            if call.live:
                call.live = False
                call.fn()
        self._t = end

    def call_later(self, seconds: float, fn: Callable[[], None]) -> "_Call":
        """Run `fn()` once the clock has moved `seconds` on (at once on the next move for 0).
        Returns a handle whose `cancel()` stops it."""
        call = _Call(fn)
        heapq.heappush(self._due, (self._t + max(0.0, seconds), next(self._order), call))
        return call

    @property
    def pending(self) -> list[float]:
        """When the callbacks still to run fall due, soonest first."""
        return sorted(when for when, _, call in self._due if call.live)


class _Call:
    __slots__ = ("fn", "live")

    def __init__(self, fn: Callable[[], None]) -> None:
        self.fn = fn
        self.live = True  # neither run nor cancelled yet

    def cancel(self) -> None:
        self.live = False


class _ClockTimers:
    """The app's timers (`App.timers`: `after(seconds, tick)`, `close()`) on a FakeClock
    instead of threads: the tick is posted to the app's queue when the clock passes it."""

    def __init__(self, post: Callable[[object], None], clock: FakeClock) -> None:
        self.post = post
        self.clock = clock
        self._calls: list[_Call] = []

    def after(self, seconds: float, tick: object) -> None:
        self._calls = [c for c in self._calls if c.live]
        self._calls.append(self.clock.call_later(seconds, lambda: self.post(tick)))

    def close(self) -> None:
        for c in self._calls:
            c.cancel()
        self._calls.clear()


class RecordingTimers:
    """The app's timers (app/timers.py's `Scheduler`) that keep every tick asked for
    (`ticks`: (seconds, Tick), in order) instead of posting it: for a part built alone,
    without an App, whose test then hands the part the ticks it wants."""

    def __init__(self) -> None:
        self.ticks: list[tuple[float, Any]] = []

    def after(self, seconds: float, tick: Any) -> None:
        self.ticks.append((seconds, tick))

    def close(self) -> None:
        pass


# --- the seat light ring ----------------------------------------------------------------------

class RecordingSpeaker:
    """A speaker that keeps every call it is handed (`said`, in order) instead of speaking:
    the surface of the box's speaker (`say(calls)`, never blocking; `close()`)."""

    def __init__(self) -> None:
        self.said: list[Any] = []
        self.closed = False

    def say(self, calls: Sequence[Any]) -> None:
        self.said.extend(calls)

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.said]

    def close(self) -> None:
        self.closed = True


RGB = tuple[int, int, int]


class RecordingRing:
    """A seat light ring that records instead of lighting: the same surface as the SPI ring
    (companion/drivers/lights.py): `count`, `brightness` (0-1, settable), `show(pixels)` with
    one (r, g, b) of 0-255 per LED, and `close()` (dark, then released).

    `frames` keeps every frame shown as (time, pixels as given, brightness), the time read
    from `clock` (a FakeClock, or anything that returns seconds); `last` is the newest
    pixels, all dark before the first."""

    def __init__(self, count: int = 16, *, clock: Callable[[], float] | None = None,
                 brightness: float = 1.0) -> None:
        self.count = count
        self.brightness = brightness
        self.clock = clock if clock is not None else (lambda: 0.0)
        self.frames: list[tuple[float, tuple[RGB, ...], float]] = []
        self.closed = False

    def show(self, pixels: Sequence[RGB]) -> None:
        if self.closed:
            raise RuntimeError("the ring is closed")
        if len(pixels) != self.count:
            raise ValueError(f"{len(pixels)} pixels for a ring of {self.count}")
        frame = tuple((int(r), int(g), int(b)) for r, g, b in pixels)
        for rgb in frame:
            if not all(0 <= v <= 255 for v in rgb):
                raise ValueError(f"{rgb} is not a colour of 0-255 each")
        self.frames.append((self.clock(), frame, self.brightness))

    @property
    def last(self) -> tuple[RGB, ...]:
        return self.frames[-1][1] if self.frames else ((0, 0, 0),) * self.count

    def close(self) -> None:
        if not self.closed:
            self.frames.append((self.clock(), ((0, 0, 0),) * self.count, self.brightness))
        self.closed = True

    def __enter__(self) -> RecordingRing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- the app ---------------------------------------------------------------------------------

def make_app(directory: Path | str, *, journal: Path | str = "journal.db",
             config: Config | Mapping[str, Any] | None = None, kind: str | None = None,
             players: Sequence[str] = PLAYERS, rules: Mapping[str, Any] | None = None,
             first: int = 0, setup: bool = True, clock: Callable[[], float] | None = None,
             display: Any = None, dice: Any = None, seed: int = 1,
             animation: float | None = 0.0, strict: bool = True,
             on_commit: Callable[[str, int, Any], None] | None = None, buzzer: Any = None,
             power_runner: Any = None, speaker: Any = None, ring: Any = None) -> App:
    """An `App` ready to be pressed. Its journal is `app.store` (closed by `close(app)`), the
    game in play `app.journal`, the screen on top `app.top`.

    - `directory`: where the journal is kept, as `journal` (a file name, or a whole path).
      A journal that holds an unfinished game resumes it, as at start-up.
    - `config`: a `Config` (copied, not changed), or a dict of config keys as in
      config.toml (`{"power": {"command": "true"}}`) over the defaults; None: the defaults
      (never the user's config file).
    - `kind`: start a game of that kind with `players`, house `rules` and `first` (the
      seat that goes first). With `setup` it is started as the start menu's New game does:
      the kind's setup screens are on top (house rules, then who goes first). With
      `setup=False` it is in the journal before the app starts, so the app opens it on the
      game's home screen, as after a restart. None: the start menu (or the resumed game).
    - `clock`: what the app reads the time from; a new `FakeClock` when None. On a
      `FakeClock` the app's timers run on it (see `FakeClock`); on a real clock
      (`time.monotonic`) they are threads, as on the box.
    - `display`: luma's dummy 128x64 device when None; any `Display`-like object with
      `show(image)`.
    - `dice`: seeded software dice that roll at once when None; else a dice driver (an
      object with `roll(seq, names, *, note="")` and `close()`), or what makes one from the
      app's `post`: a class whose constructor takes it, `lambda post: MyDice(post=post)`.
    - `seed`: the seed of the app's and the software dice's random numbers.
    - `animation`: seconds the dice tumble before the result shows (0: at once; None: the
      config's).
    - `strict`: a bug in a screen raises (the test fails) instead of becoming the toast it
      is at the table (`App.strict`; set on the app only where it differs from App's).
    - `on_commit`, `buzzer`, `power_runner`, `speaker`: passed to `App` as they are (a
      speaker: an object with `say(calls)` and `close()`, e.g. `RecordingSpeaker`).
    - `ring`: the seat light ring (a `RecordingRing`, say), passed to `App`; on a FakeClock
      its animations run on that clock like the other timers.
    """
    import copy
    import random

    from companion.app.core import App
    from companion.config import Config
    from companion.drivers.display import dummy
    from companion.games import check_config as check
    from companion.rules.game import Header
    from companion.session.store import Store

    if config is None:
        cfg = Config(check({}))
    elif isinstance(config, Config):
        cfg = Config(copy.deepcopy(config.data), config.path)
    else:
        cfg = Config(check(dict(config)))
    if animation is not None:
        cfg.data["dice"]["animation"] = animation
    if clock is None:
        clock = FakeClock()
    header = None if kind is None else Header(kind, tuple(players), first, dict(rules or {}))
    # On a FakeClock the journal's times (`events.at`, when a game started, a pause) are
    # that clock's too, so the turn clock (docs/clock.md) runs on it.
    store = Store(Path(directory) / journal, clock=clock) if isinstance(clock, FakeClock) \
        else Store(Path(directory) / journal)
    try:
        if header is not None and not setup:
            store.new_game(header)
        factory = dice is not None and (isinstance(dice, type) or not hasattr(dice, "roll"))
        app = App(config=cfg, store=store, display=display if display is not None else dummy(),
                  dice=None if factory else dice, clock=clock, rng=random.Random(seed),
                  on_commit=on_commit, buzzer=buzzer, power_runner=power_runner,
                  speaker=speaker, ring=ring)
    except BaseException:
        store.close()
        raise
    if strict != App.strict:  # only where it differs: App.strict stays the switch for both
        app.strict = strict
    if isinstance(clock, FakeClock):
        app.timers = _ClockTimers(app.post, clock)
    if dice is None:
        from companion.drivers.dice import SoftwareDice
        app.dice = SoftwareDice(post=app.post, rng=random.Random(seed))
    elif factory:
        app.dice = dice(app.post)
    if header is not None and setup:
        from companion.ui.actions import NewGame
        if not app.perform(NewGame(header)):
            why = app.toast[0] if app.toast else "not saved"
            close(app)
            raise RuntimeError(f"make_app: the {kind} game did not start: {why}")
    app.lights.sync()  # the ring's first frame, as App.run shows it
    return app


def close(app: App) -> None:
    """Stop the app's timers and close its journal (the store `make_app` opened)."""
    app.close()
    app.store.close()


# --- input -----------------------------------------------------------------------------------

def drain(app: App) -> None:
    """Handle everything queued (roll results, timer ticks, notices) the way the app thread
    would, including what handling it queues in turn. Draws nothing."""
    _handle_queued(app)


def _handle_queued(app: App) -> None:
    while True:
        try:
            item = app.queue.get_nowait()
        except queue.Empty:
            return
        app.handle(item)


def press(app: App, *buttons: Button | str, hold: bool = False, drain: bool = True,
          render: bool = True, threaded: bool = False) -> None:
    """Press `buttons` (`Button`s, or their names: "NEXT") one after the other, as the button
    panel posts them: each is posted to the app's queue, the queue is handled as the app
    thread would (the press, then what it set off: a software roll's result, ...), then the
    frame is drawn, so that a screen that fails to draw fails the test. `hold`: each one is
    held (hold BACK: undo, hold OK: the game's menu) instead of pressed.

    - `drain=False`: each press is handled on its own, ahead of anything queued, and what it
      queues is left there (for a test that hands over a dice roller's answers itself).
    - `render=False`: no frame is drawn.
    - `threaded=True`: the app runs its own thread (`App.run`, as `companion run` and
      `companion.gallery.web_shots.Companion` do); the presses are only posted to its queue,
      and that thread handles and draws them. Returns at once.
    """
    gesture = Gesture.HOLD if hold else Gesture.PRESS
    for b in buttons:
        item = ButtonInput(Button(b), gesture)
        if threaded:
            app.post(item)
            continue
        if drain:
            app.post(item)
            _handle_queued(app)
        else:
            app.handle(item)
        if render:
            app.render()


def choose(app: App, label: str, *, prefix: bool = False) -> None:
    """On the menu on top, press DOWN until the item called `label` (with `prefix`: whose
    label starts with it) is under the cursor, then OK. AssertionError when the screen on
    top is no menu or has no such item."""
    menu: Any = app.top  # a Menu, or any screen with items and a cursor
    items = getattr(menu, "items", None)
    assert items is not None, f"not a menu: {menu!r}"
    ctx = app.ctx()
    labels = [item.text(ctx) for item in items]
    found = [i for i, t in enumerate(labels) if (t.startswith(label) if prefix else t == label)]
    assert found, f"{label!r} not in {labels}"
    # The first such item at the cursor or below it (the menu wraps round).
    target = min(found, key=lambda i: (i - menu.cursor) % len(labels))
    while menu.cursor != target:
        press(app, Button.DOWN)
    press(app, Button.OK)
