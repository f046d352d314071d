"""The journal's write transaction and the "Not saved" it raises when a change cannot be
committed (a full disk, a lock held by another program, a read-only file).

The bottom of the journal's modules: it knows a connection and nothing of the Store, the rows
or the schema. The Store (companion/session/store.py) hands out one `Transaction` per change
(`Store.transaction`); every other part writes through that.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from companion.errors import JournalError


class DiskFull(JournalError):
    """SQLite says "database or disk is full" (SQLITE_FULL), or the OS "no space left"."""


def is_full(e: BaseException, path: Path | None = None) -> bool:
    """SQLite's "database or disk is full", the OS's "no space left on device", or an I/O
    error of SQLite's on a file system with no room left (a full disk met while growing the
    WAL index reads SQLITE_IOERR_..., not SQLITE_FULL)."""
    name = getattr(e, "sqlite_errorname", "") or ""
    if name == "SQLITE_FULL" or getattr(e, "errno", None) == errno.ENOSPC or \
            "disk is full" in str(e):
        return True
    return name.startswith("SQLITE_IOERR") and path is not None and _no_room(path)


def _no_room(path: Path) -> bool:
    """Less than a megabyte free where `path` is (for this user: root's reserve aside)."""
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 1 << 20


class NotSaved(JournalError):
    """A change that could not be committed. `short` is what fits a toast on the panel
    (two lines of 20 letters), whole: "Not saved: disk full"."""

    def __init__(self, message: str, *, short: str = "") -> None:
        super().__init__(message)
        self.short = short or "Not saved"


def short_reason(why: object) -> str:
    """The panel's words for why a change was not saved."""
    text = str(why).lower()
    if is_full(why) if isinstance(why, BaseException) else "full" in text:
        return "Not saved: disk full"
    if "locked" in text or "busy" in text:
        return "Not saved: journal busy"
    if "readonly" in text or "read-only" in text:
        return "Not saved: read-only"
    if "checksum" in text:
        return "Not saved: row altered"
    if "moved on" in text:
        return "Not saved: game moved on"
    return "Not saved: journal error"


def _not_saved(e: sqlite3.Error) -> NotSaved:
    return NotSaved(f"not saved: {e}", short=short_reason(e))


class Transaction:
    """`with Transaction(db) as db:` one committed change (BEGIN IMMEDIATE ... COMMIT), rolled
    back on an error; an SQLite error on the way in, inside or at the commit is NotSaved."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise _not_saved(e) from None
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self.db.execute("COMMIT")
            elif self.db.in_transaction:  # SQLite ends it itself on some errors (SQLITE_FULL)
                self.db.execute("ROLLBACK")
        except sqlite3.Error as e:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise _not_saved(e) from None
        if isinstance(exc, sqlite3.Error):
            raise _not_saved(exc) from None
