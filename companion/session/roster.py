"""The roster: player names kept for new games, typed on a paired phone (companion/web).

Kept in the journal database (table `roster`, created on first use) so it survives
restarts. Only the app thread calls these, like every other write to the store.
"""

from __future__ import annotations

import sqlite3

TABLE = "CREATE TABLE IF NOT EXISTS roster (pos INTEGER PRIMARY KEY, name TEXT NOT NULL)"


def load(store) -> list[str] | None:
    """The names in order: None when a phone never set them ([] when it emptied them)."""
    try:
        rows = store.db.execute("SELECT name FROM roster ORDER BY pos").fetchall()
    except sqlite3.OperationalError:  # no roster table yet
        return None
    return [n for n, in rows]


def save(store, names: list[str]) -> None:
    """Replace the roster (one transaction: all or nothing; JournalError if not saved)."""
    with store.transaction() as db:
        db.execute(TABLE)
        db.execute("DELETE FROM roster")
        db.executemany("INSERT INTO roster(pos, name) VALUES (?, ?)", enumerate(names))
