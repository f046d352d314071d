"""One companion per journal: an exclusive lock held for the life of `companion run`.

SQLite's own locks last one transaction, so two companions on one journal would both write
(each with its own idea of the game). `companion run` therefore holds `flock(LOCK_EX)` on a
file beside the journal, `<journal>.lock`, from before the journal is opened until it exits.
The kernel drops the lock when the process ends in any way (a SIGKILL, a power cut), so a lock
is never stale. The file holds the holder's pid, for the message a second companion prints; a
clean exit removes it (one left by a SIGKILL means nothing: nobody holds it). Since the file
can be removed, a lock is only good when the locked file is still the one at the path. Readers (`export`, `stats`, `doctor`,
the web's reader) never take it.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from companion.errors import JournalError


class JournalInUse(JournalError):
    """Another companion holds the journal."""

    def __init__(self, journal: Path, pid: int | None) -> None:
        self.journal = journal
        self.pid = pid
        holder = f"pid {pid}" if pid is not None else "pid unknown"
        super().__init__(f"journal: {journal} is in use by another companion ({holder})")


def lock_path(journal: Path | str) -> Path:
    """Beside the journal's real file: a symlink or a relative path to the same journal
    names the same lock (the message still names the path as given)."""
    journal = Path(journal).resolve()
    return journal.with_name(journal.name + ".lock")


class JournalLock:
    """`with JournalLock(path):` holds the journal at `path` or raises JournalInUse."""

    def __init__(self, journal: Path | str) -> None:
        self.journal = Path(journal)
        self.path = lock_path(self.journal)
        self.fd: int | None = None

    def __enter__(self) -> JournalLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        for _ in range(100):
            fd = self._lock_once()
            if fd is not None:
                break
        else:  # removed under us a hundred times in a row: someone else's doing
            raise JournalError(f"journal: cannot lock {self.path}: it keeps being replaced")
        self.fd = fd
        try:  # best effort: on a full disk the lock holds all the same, without its pid
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass

    def _lock_once(self) -> int | None:
        """The locked descriptor, or None when the file was removed or replaced meanwhile
        (its holder ended between our open and our flock: try again)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as e:
            raise JournalError(f"journal: cannot make the lock file {self.path}: "
                               f"{e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _holder(fd)
            os.close(fd)
            raise JournalInUse(self.journal, pid) from None
        except OSError as e:
            os.close(fd)
            raise JournalError(f"journal: cannot lock {self.path}: {e.strerror or e}") from None
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(self.path))
        except FileNotFoundError:
            same = False
        if not same:
            os.close(fd)
            return None
        return fd

    def release(self) -> None:
        if self.fd is not None:
            try:  # removed while still held: no one can lock the old file in the meantime
                self.path.unlink()
            except OSError:
                pass
            os.close(self.fd)  # closing the last descriptor drops the flock
            self.fd = None


def running_pid(journal: Path | str) -> int | None:
    """The pid of the companion holding `journal`, read from its lock file without touching
    the lock (a reader such as `companion doctor` must never make a starting companion think
    the journal is taken); None when none runs (no file, or a pid that is gone: a SIGKILL)."""
    try:
        text = lock_path(journal).read_text("ascii", "replace").strip()
    except OSError:
        return None
    if not text.isdigit():
        return None
    try:
        os.kill(int(text), 0)
    except ProcessLookupError:
        return None
    except OSError:  # PermissionError: it exists, run by another user
        pass
    return int(text)


def _holder(fd: int, *, wait: float = 0.5) -> int | None:
    """The pid the holder wrote (it writes it just after taking the lock: wait a moment)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            text = ""
        if text.isdigit():
            return int(text)
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)
