"""What the `companion` commands share: the config as the command line names it, the journal
opened for reading or writing, and the exit status of a usage mistake. The parser
(companion/cli/__init__.py) and each command import it; it imports neither.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Iterator

from companion import config as configmod
from companion.errors import JournalError

EXIT_USAGE = 2


def load_config(args) -> configmod.Config:
    cfg = configmod.load(args.config, required=args.config is not None,
                         house_rules=house_rules)
    if getattr(args, "journal", None):
        cfg.data["storage"]["path"] = args.journal
    return cfg


def house_rules(tables: dict[str, Any]) -> dict[str, Any]:
    """The config's house rules checked by their kinds (companion.games.house_rules): the
    game kinds are read only for a config that has some, so `companion run` draws its
    first frame before it imports them."""
    from companion import games
    return games.house_rules(tables)


@contextlib.contextmanager
def open_writer(cfg: configmod.Config, what: str) -> Iterator[Any]:
    """The journal opened for writing by a command other than `companion run` (`what`: the
    command's verb, for the message), under the same lock as `run`, which belongs to the
    file and not to one of its names (companion/session/lock.py): while a companion holds it,
    by this path, a hard link or any other name, the command stops with one line naming it
    and writes nothing. SQLite's own locks do not serialise such a write: SQLite keeps its
    write-ahead log by name, so a write through a second name is lost (issue 35, item 2)."""
    from companion.session.lock import JournalInUse, JournalLock
    lock = JournalLock(cfg.journal_path())
    try:
        lock.acquire()
    except JournalInUse as e:
        raise JournalError(f"{e}: stop it, then {what} again; nothing was written") from None
    try:
        with open_store(cfg) as store:
            lock.hold_file()  # the file the store opened (made now, or new after a damaged one)
            yield store
    finally:
        lock.release()  # after the store is closed: closing the file's lock before would
        # drop SQLite's own locks with it


def open_store(cfg: configmod.Config, *, read_only: bool = False, full_ok: bool = False):
    """The journal; JournalError (a CompanionError: one line, exit 1) when it cannot be used.
    `full_ok` (companion run): on a full disk, the journal opened read-only instead, so the
    game is shown and every press says it cannot be saved."""
    from companion.session.store import DiskFull, Store
    try:
        return Store(cfg.journal_path(), read_only=read_only)
    except DiskFull as e:
        path = cfg.journal_path()
        if read_only or not full_ok or not path.exists():
            raise
        try:
            store = Store(path, read_only=True)
        except JournalError:
            # No room for SQLite's shared-memory index: read the file as it is, which is
            # exact when no write-ahead log is pending (a clean stop leaves none).
            wal = path.with_name(path.name + "-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise e from None
            store = Store(path, immutable=True)
        store.unwritable = "the disk is full"
        store.notice = " ".join(filter(None, [
            "Disk full: nothing can be saved. The game is shown as it was last saved; free "
            "some space, then restart the companion.", store.notice]))
        logging.getLogger("companion").error("%s", e)
        return store
