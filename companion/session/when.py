"""The times a journal keeps: the one range it accepts, and the one way to show one.

A time is Unix seconds from 1970 (0) to the last second of 9999 (`LATEST`): every date in that
range has a four-digit year, and the C library turns it into a local date on every system
the companion runs on. Far beyond it (about 6.8e16 s and up, the year 2**31) `time.localtime`
raises (OSError errno 75, OverflowError), so a time outside the range is refused where a
journal takes one in (a log's `at`, `started` and `away`: companion/session/log.py), and a
journal that holds one already (imported before the bound, or edited by hand) still starts:
every place that turns a stored time into text goes through `text` here, which says
`UNKNOWN` for it instead of raising (docs/log-format.md, "Times").
"""

from __future__ import annotations

import math
import time

EARLIEST = 0.0  # 1970-01-01 00:00:00 UTC
LATEST = 253_402_300_799.0  # 9999-12-31 23:59:59 UTC
UNKNOWN = "unknown"  # a time out of that range, as every renderer shows it


def sane(t: object) -> bool:
    """Whether `t` is a time a journal keeps: a number from 1970 to the end of 9999."""
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        return False
    try:
        seconds = float(t)
    except OverflowError:  # a whole number too big for a float
        return False
    return math.isfinite(seconds) and EARLIEST <= seconds <= LATEST


def local(t: float) -> time.struct_time | None:
    """`t` as a local date and time, or None for a time out of range."""
    if not sane(t):
        return None
    try:
        return time.localtime(t)
    except (OverflowError, OSError, ValueError):  # a platform narrower than the range
        return None


def text(t: float, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """`t` as local time in strftime's `fmt`; `UNKNOWN` for a time out of range."""
    lt = local(t)
    if lt is None:
        return UNKNOWN
    try:
        return time.strftime(fmt, lt)
    except (OverflowError, ValueError):
        return UNKNOWN
