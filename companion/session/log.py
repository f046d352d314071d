"""The JSON Lines game log: export a journal, read one back (docs/log-format.md).

First line the header, then one event per line. Reading stops at the first bad line with a
`LogFormatError` naming it; nothing after it is applied.

A log may carry the game's times (issue 28): each event's `"at"` (when it was recorded), and
in the header `"started"` (when the game began) and `"away"` (the spans it sat set aside or
paused). They are taken off before the header and the events reach the rules engine, which
never sees them: a replay gives the same state with or without them. The reader hands them
back beside the journal (`Log`), for `companion import` to keep.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterable, NamedTuple

from companion.errors import CompanionError, IllegalEvent, LogFormatError
from companion.rules.game import Event
from companion.session import when
from companion.session.journal import Journal
from companion.session.rows import header_from_json

AT = "at"  # an event's time; no game kind's event has a field of that name (tests check)
STARTED = "started"
AWAY = "away"


@dataclass(frozen=True)
class LogTimes:
    """A game's times as a log carries them (the events' own are the journal's `times`):
    `started` (Unix seconds; None: not given) and the spans `away` from play, (from, to)."""

    started: float | None = None
    away: tuple[tuple[float, float], ...] = ()


class Log(NamedTuple):
    """A log as read: the journal (its `times` NaN where an event had none) and the header's
    times (None when the log carries no time at all: an old log, or one written by hand)."""

    journal: Journal
    times: LogTimes | None


def stamp(t: float) -> float:
    """A time as a log writes it: Unix seconds, milliseconds kept."""
    return round(float(t), 3)


def dump(journal: Journal, times: LogTimes | None = None) -> Iterable[str]:
    """The log's lines. With `times` (an export of a game that has them), the header gets
    `started` and `away` and each event its `at` (from `journal.times`; none where unknown)."""
    header: dict[str, Any] = journal.header.to_json()
    # A stored time out of the range a log may carry (kept by an import from before the
    # bound, companion/session/when.py) is left out: the log reads back as a log with a time
    # missing there, never as a bad line.
    if times is not None and times.started is not None and when.sane(times.started):
        header[STARTED] = stamp(times.started)
    away = [] if times is None else [(a, b) for a, b in times.away
                                     if when.sane(a) and when.sane(b)]
    if away:
        header[AWAY] = [[stamp(a), stamp(b)] for a, b in away]
    yield json.dumps(header)
    for e, at in zip(journal.events, journal.times):
        yield json.dumps({**e, AT: stamp(at)} if times is not None and when.sane(at) else e)


def write(journal: Journal, out: IO[str], times: LogTimes | None = None) -> None:
    for line in dump(journal, times):
        out.write(line + "\n")


def read(lines: Iterable[str | bytes]) -> Journal:
    """Fold a log into a journal; a bad line raises LogFormatError with its number."""
    return read_log(lines).journal


def read_log(lines: Iterable[str | bytes]) -> Log:
    """Fold a log into a journal, its times beside it; a bad line raises LogFormatError with
    its number."""
    journal: Journal | None = None
    times: LogTimes | None = None
    timed = False  # any event with a time
    for number, line in enumerate(lines, start=1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise LogFormatError(number, "not UTF-8 text") from None
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise LogFormatError(number, f"not valid JSON ({e.msg} at column {e.colno})") from None
        except (ValueError, RecursionError) as e:  # a 5,000-digit number, nesting 100,000 deep
            raise LogFormatError(number, f"not valid JSON ({str(e) or type(e).__name__})") from None
        try:
            if journal is None:
                times = _header_times(obj)
                journal = Journal(header_from_json(obj))
            else:
                event = _event(obj)
                at = _time(event.pop(AT), AT) if AT in event else None
                journal.append(event)
                if at is not None:
                    journal.times[len(journal.times) - 1] = at
                    timed = True
        except IllegalEvent as e:
            raise LogFormatError(number, str(e)) from None
    if journal is None:
        raise LogFormatError(1, "the log is empty: the first line must be the header")
    if times is None and timed:
        times = LogTimes()
    return Log(journal, times)


def _time(value: object, name: str) -> float:
    """A time in seconds as a log gives it: a number from 1970 to the end of 9999, the range
    a journal keeps (companion/session/when.py: beyond it no date can be shown)."""
    if when.sane(value):
        # (+ 0.0: -0.0 is 0, and SQLite gives it back as 0.0, so its checksums would not match)
        return float(value) + 0.0  # type: ignore[arg-type]  # a number: when.sane says so
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not (
            isinstance(value, float) and not math.isfinite(value)):
        raise IllegalEvent(f"\"{name}\" must be a time in seconds from 1970 to 9999, "
                           f"not {_shown(value)}")
    raise IllegalEvent(f"\"{name}\" must be a time in seconds, not {_shown(value)}")


def _shown(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _header_times(obj: object) -> LogTimes | None:
    """Take `started` and `away` off a header object (checked; the rest is the rules')."""
    if not isinstance(obj, dict) or (STARTED not in obj and AWAY not in obj):
        return None
    started = _time(obj.pop(STARTED), STARTED) if STARTED in obj else None
    away: list[tuple[float, float]] = []
    spans = obj.pop(AWAY, [])
    if not isinstance(spans, list):
        raise IllegalEvent(f"\"away\" must be a list of [from, to] times, not {_shown(spans)}")
    for span in spans:
        if not isinstance(span, list) or len(span) != 2:
            raise IllegalEvent(f"each span of \"away\" must be [from, to], not {_shown(span)}")
        a, b = (_time(t, AWAY) for t in span)
        if b < a:
            raise IllegalEvent(f"a span of \"away\" ends before it begins: {_shown(span)}")
        away.append((a, b))
    return LogTimes(started, tuple(away))


def _event(obj: object) -> Event:
    if not isinstance(obj, dict):
        raise IllegalEvent(f"an event must be a JSON object, not {json.dumps(obj)}")
    return obj


def read_file(path: Path | str) -> Journal:
    return read_log_file(path).journal


def read_log_file(path: Path | str) -> Log:
    p = Path(path)
    try:
        with p.open("rb") as f:
            return read_log(f)
    except OSError as e:
        raise CompanionError(f"cannot read {p}: {e.strerror or e}") from None
