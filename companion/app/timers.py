"""The app's timers: one-shot timers that post a `Tick` to the app's queue after some seconds.

`Timers` is given only the queue's `post` (and a clock); its own thread only posts, so what a
tick does is always done on the app thread (App.handle). The parts that need a tick later (the
rolls, the turn clock, the seat lights, the kept first frame) are given the `Scheduler`.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from typing import Callable, Protocol

from companion.inputs import Tick

log = logging.getLogger(__name__)


class Scheduler(Protocol):
    """What the app asks of its timers (`App.timers`): a tick posted after some seconds, and
    all of them stopped at close. `Timers` runs them on threads; the test driver's on a fake
    clock (companion/testing.py)."""

    def after(self, seconds: float, tick: Tick) -> None: ...

    def close(self) -> None: ...


class Timers:
    """One-shot timers that post a `Tick` to the queue, all on one thread of their own (made
    with the first): `after` only files the tick and wakes it. A thread a timer, as before,
    cost a thread start on the app thread for each tick (milliseconds on a busy Pi, and the
    seat lights' animations ask for 25 ticks a second). Cancelled together on close."""

    def __init__(self, post: Callable[[object], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.post = post
        self.clock = clock
        self._due: list[tuple[float, int, Tick]] = []  # a heap: (when, order, tick)
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def after(self, seconds: float, tick: Tick) -> None:
        with self._wake:
            if self._closed:
                return
            heapq.heappush(self._due, (self.clock() + max(0.0, seconds), next(self._order),
                                       tick))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="timers", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed and (not self._due or self._due[0][0] > self.clock()):
                    self._wake.wait(None if not self._due else self._due[0][0] - self.clock())
                if self._closed:
                    return
                _, _, tick = heapq.heappop(self._due)
            try:
                self.post(tick)
            except Exception:  # one tick lost, not every timer after it (the only thread)
                log.exception("timers: posting %r failed", tick)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._due.clear()
            self._wake.notify()
