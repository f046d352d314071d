"""What `companion doctor` looks for in a journal's file beyond SQLite's integrity check and
the checksums (docs/journal.md, "What the doctor checks"): each function says what is wrong in
one sentence, or "" when nothing is. None of them writes or locks anything.

- an empty file (cut off to 0 bytes: every game gone, or a file touched and never started);
- a schema 3 journal without its unique index (`events_active_seq`, dropped by hand): two
  writers could record two events at one place until the next start makes it again;
- a write-ahead log whose journal is not beside it (`j.db-wal` with no `j.db`): the journal
  was moved (`mv`) or removed while a companion had it open. SQLite keeps its log by the name
  it opened, so the events of that log are not in the file under its new name;
- a running companion whose log is by another name than the journal's (the journal moved
  while it runs), read from the kernel's list of its open files (/proc/PID/fd, Linux).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.session.schema import SCHEMA_VERSION, unique_index

WAL = "-wal"


def empty(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError:
        return ""
    if size:
        return ""
    return (f"{path} is empty (0 bytes): it holds no games. If it held games, it was cut off "
            "and they are gone from it: restore a copy (a phone's /backup, companion export "
            "logs, then companion import); if it is new, companion run makes it a journal")


def missing_index(db: sqlite3.Connection, schema: int) -> str:
    """Whether the one-active-row-per-place index is gone or is not the one the schema
    makes (a plain index of the same name refuses nothing)."""
    if schema < SCHEMA_VERSION:
        return ""  # the upgrade makes it
    found = unique_index(db)
    if found == "ok":
        return ""
    what = "is missing" if found == "missing" else "is not the unique one the schema makes"
    return (f"its unique index events_active_seq {what} (changed by hand?): two writers could "
            "record two events at one place; the next companion run makes it again, setting "
            "aside any event recorded twice")


def stray_logs(path: Path) -> list[Path]:
    """The write-ahead logs with something in them in the journal's folder whose database is
    not there (the journal's own name included: a journal moved away)."""
    try:
        found = sorted(p for p in path.parent.iterdir() if p.name.endswith(WAL))
    except OSError:
        return []
    out = []
    for wal in found:
        base = wal.with_name(wal.name[:-len(WAL)])
        try:
            if wal.stat().st_size > 0 and not base.exists():
                out.append(wal)
        except OSError:
            continue
    return out


def stray_text(logs: list[Path]) -> str:
    if not logs:
        return ""
    names = ", ".join(str(p) for p in logs)
    return (f"{names} {'is a write-ahead log' if len(logs) == 1 else 'are write-ahead logs'} "
            "with no journal beside it: a journal moved (mv) or removed while a companion had "
            "it open, and the events saved since are in that log, not in the moved file. To "
            "keep them, stop the companion, move the journal back to that name, and start it "
            "there once (or open it there with sqlite3) before moving it again")


def moved_while_running(path: Path, pid: int, *, proc: Path = Path("/proc")) -> str:
    """Whether the companion `pid`, which holds the journal at `path`, keeps its write-ahead
    log under another name than `path`'s: the journal was moved while it ran. "" when not,
    or when its open files cannot be read (another user's process, not Linux)."""
    try:
        journal = os.stat(path)
        fds = list((proc / str(pid) / "fd").iterdir())
    except OSError:
        return ""
    holds, logs = False, []
    for fd in fds:
        try:
            target = os.readlink(fd)
            st = fd.stat()  # the open file itself, whatever its name now
        except OSError:
            continue
        if os.path.samestat(st, journal):
            holds = True
        elif target.endswith(WAL):
            logs.append(target)
    if not holds:
        return ""
    ours = str(path.resolve()) + WAL
    elsewhere = [t for t in logs if t != ours]
    if not elsewhere or ours in logs:
        return ""
    return (f"the companion running on it (pid {pid}) writes its events to {elsewhere[0]}, "
            "not beside this name: the journal was moved (mv) while it ran. Stop it cleanly "
            "(it then writes them into this file); a power cut or a kill before that leaves "
            "them in that log only (doctor then names it)")
