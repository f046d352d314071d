"""Paired phones' sessions, kept in the journal database so a restart un-pairs nobody.

Table `phones` (created on first use, like `roster`): the SHA-256 of each session token (never
the token) and its creation time (wall clock, seconds since the epoch). A session lasts 30 days
(companion/web/pairing.py checks that); expired rows go at the next save. Only the app thread
writes (App.on_phone_paired, "Forget all phones"), like every other write to the store.
"""

from __future__ import annotations

import sqlite3

TABLE = "CREATE TABLE IF NOT EXISTS phones (hash TEXT PRIMARY KEY, created REAL NOT NULL)"


def load(store) -> list[tuple[str, float]]:
    """(hash, created) of every kept session, oldest first; [] when none was ever kept."""
    try:
        return [(h, float(c)) for h, c in
                store.db.execute("SELECT hash, created FROM phones ORDER BY created")]
    except sqlite3.OperationalError:  # no phones table yet
        return []


def add(store, digest: str, created: float, *, now: float, ttl: float, keep: int) -> None:
    """Keep one session; drop the expired ones and all but the `keep` newest (JournalError if
    not saved)."""
    with store.transaction() as db:
        db.execute(TABLE)
        db.execute("INSERT OR REPLACE INTO phones(hash, created) VALUES (?, ?)",
                   (digest, created))
        db.execute("DELETE FROM phones WHERE created <= ?", (now - ttl,))
        db.execute("DELETE FROM phones WHERE hash NOT IN (SELECT hash FROM phones "
                   "ORDER BY created DESC LIMIT ?)", (keep,))


def clear(store) -> None:
    """Forget every phone (JournalError if not saved)."""
    with store.transaction() as db:
        db.execute(TABLE)
        db.execute("DELETE FROM phones")
