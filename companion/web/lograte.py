"""At most one log line per cause per minute from the web, with a count of the rest.

A flood of bad requests (or of anything else a guest can cause) must not flood the box's log:
the first line of a cause is written at once; the same cause again within `window` seconds is
only counted; the first one after the window is written with the count of those left out,
and `flush()` (when the web stops) writes the counts still held back. A cause is the logger,
the message's template (before its arguments) and the exception's type, if any.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

WINDOW = 60.0  # seconds
MAX_CAUSES = 256  # causes remembered before those that are over are forgotten (a message
#                   whose text varies, asyncio's with an object's address, is a cause each time)
# uvicorn's protocol and server ("Invalid HTTP request received.", "Exception in ASGI
# application"), asyncio's accept loop (out of file descriptors) and our own.
LOGGERS = ("uvicorn.error", "asyncio", "companion.web.server", "companion.web.gate")


class RateLimit(logging.Filter):
    def __init__(self, *, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window = window
        self.clock = clock
        self.last: dict[tuple, float] = {}  # cause -> when its last line was written
        # cause -> (lines held back, its logger, level, the last one held back)
        self.held: dict[tuple, tuple[int, logging.Logger, int, str]] = {}

    @staticmethod
    def cause(record: logging.LogRecord) -> tuple:
        exc = record.exc_info[0] if record.exc_info else None
        return (record.name, str(record.msg), exc)

    def filter(self, record: logging.LogRecord) -> bool:
        key = self.cause(record)
        now = self.clock()
        last = self.last.get(key)
        if last is not None and now - last < self.window:
            n = self.held[key][0] if key in self.held else 0
            text = record.getMessage().splitlines()[0] if record.getMessage() else ""
            self.held[key] = (n + 1, logging.getLogger(record.name), record.levelno, text)
            return False
        if len(self.last) > MAX_CAUSES:  # causes whose window is over and hold nothing go
            self.last = {k: t for k, t in self.last.items()
                         if now - t < self.window or k in self.held}
        self.last[key] = now
        held = self.held.pop(key, None)
        if held is not None:
            record.msg = f"{record.getMessage()} ({held[0]} more like this in the last " \
                         f"{self.window:g} s)"
            record.args = ()
        return True

    def flush(self) -> None:
        """Write the counts still held back (one line per cause)."""
        held, self.held = self.held, {}
        for key, (n, logger, level, text) in held.items():
            self.last.pop(key, None)
            logger.log(level, "%d lines like this not written in the last %g s; the last: %s",
                       n, self.window, text)


def install(limit: RateLimit, names: tuple[str, ...] = LOGGERS) -> None:
    for name in names:
        logging.getLogger(name).addFilter(limit)


def remove(limit: RateLimit, names: tuple[str, ...] = LOGGERS) -> None:
    """Take the filter off, then write what it held back (unfiltered, so it is written)."""
    for name in names:
        logging.getLogger(name).removeFilter(limit)
    limit.flush()
