"""The JSON Lines game log: export a journal, read one back (docs/log-format.md).

First line the header, then one event per line. Reading stops at the first bad line with a
`LogFormatError` naming it; nothing after it is applied.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Iterable

from companion.errors import CompanionError, IllegalEvent, LogFormatError
from companion.rules.game import Event
from companion.session.journal import Journal
from companion.session.rows import header_from_json


def dump(journal: Journal) -> Iterable[str]:
    yield json.dumps(journal.header.to_json())
    for e in journal.events:
        yield json.dumps(e)


def write(journal: Journal, out: IO[str]) -> None:
    for line in dump(journal):
        out.write(line + "\n")


def read(lines: Iterable[str | bytes]) -> Journal:
    """Fold a log into a journal; a bad line raises LogFormatError with its number."""
    journal: Journal | None = None
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
                journal = Journal(header_from_json(obj))
            else:
                journal.append(_event(obj))
        except IllegalEvent as e:
            raise LogFormatError(number, str(e)) from None
    if journal is None:
        raise LogFormatError(1, "the log is empty: the first line must be the header")
    return journal


def _event(obj: object) -> Event:
    if not isinstance(obj, dict):
        raise IllegalEvent(f"an event must be a JSON object, not {json.dumps(obj)}")
    return obj


def read_file(path: Path | str) -> Journal:
    p = Path(path)
    try:
        with p.open("rb") as f:
            return read(f)
    except OSError as e:
        raise CompanionError(f"cannot read {p}: {e.strerror or e}") from None
