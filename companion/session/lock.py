"""One companion per journal: exclusive locks held for the life of `companion run`.

SQLite's own locks last one transaction, so two companions on one journal would both write
(each with its own idea of the game). Worse, SQLite keeps its write-ahead log by the name the
journal was opened by (`<name>-wal`): a second companion reaching the same file by another name
(a hard link) writes a log of its own, and the events it acknowledged are lost. So the lock
belongs to the file, not to one of its names. `companion run` holds, from before the journal is
opened until it exits:

- `flock(LOCK_EX)` on a file beside the journal's real path, `<journal>.lock` (symlinks and
  `..` resolved, so every path to the same name meets there). It holds the holder's pid, for the
  message a second companion prints, and covers a journal that does not exist yet;
- once the journal exists (at once, or after the store has made it), `flock(LOCK_EX)` on the
  journal file itself, on Linux: a lock of the file (its device and inode) that every name of it
  meets, a hard link in any directory or a bind mount included. On Linux flock and SQLite's own
  locks (POSIX `fcntl` byte ranges) never interact. On other systems they may (BSD and macOS
  implement both on one lock list), so there the name's lock is the only one; `companion doctor`
  fails its journal check for a journal with more than one name, on every system. The pid of
  the holder of a file lock is read from /proc/locks (the kernel's table of locks). The file's
  descriptor is never closed while SQLite has the journal open (`hold_file`): closing any
  descriptor of a file drops every POSIX lock the process holds on it, SQLite's included.

The kernel drops both when the process ends in any way (a SIGKILL, a power cut), so a lock is
never stale. A clean exit removes the lock file (one left by a SIGKILL means nothing: nobody
holds it). Since the file can be removed, a lock is only good when the locked file is still the
one at the path. Every other command that writes a journal (`companion import`: cli's
`open_writer`) takes both exactly as `run` does, and is refused while a companion holds them.
Readers (`export`, `stats`, `doctor`, the web's reader) never take either.
"""

from __future__ import annotations

import fcntl
import os
import stat
import sys
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


# Where flock and SQLite's POSIX locks are separate (flock(2): "no interaction" since Linux 2.0,
# on local file systems), so the journal file itself can be locked while SQLite uses it.
FILE_LOCKS = sys.platform.startswith("linux")
LOCKS = Path("/proc/locks")  # the kernel's table of file locks (Linux)


class JournalLock:
    """`with JournalLock(path):` holds the journal at `path` or raises JournalInUse."""

    def __init__(self, journal: Path | str) -> None:
        self.journal = Path(journal)
        self.path = lock_path(self.journal)
        self.fd: int | None = None
        self.file_fd: int | None = None  # the lock on the journal file itself (hold_file)

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
        try:
            self.hold_file()
        except BaseException:
            self.release()
            raise

    def hold_file(self) -> None:
        """Lock the journal file itself (every name of it), once it exists: at `acquire`, and
        again after the store has opened it (it may have made it, or set a damaged one aside
        and made a new one). JournalInUse when another companion holds it by any name."""
        if not FILE_LOCKS:
            return
        # Never open (and so close) a second descriptor of a file already held: once SQLite
        # has the journal open, closing any descriptor of it in this process drops every POSIX
        # lock the process holds on it, SQLite's own included, and another process could then
        # checkpoint and delete the -wal the store is still writing to (acked events lost).
        if self.file_fd is not None:
            try:
                if os.path.samestat(os.stat(self.journal), os.fstat(self.file_fd)):
                    return
            except OSError:
                pass  # gone or unreadable: the open below says what
        try:  # (O_NONBLOCK: a FIFO at the path must not hang the start; the store refuses it)
            fd = os.open(self.journal, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        except FileNotFoundError:
            return  # not made yet: the name's lock covers it until then
        except OSError as e:
            raise JournalError(f"journal: cannot open {self.journal}: {e.strerror or e}"
                               ) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)  # not a file: the store says so, in its words
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = flock_holder(os.fstat(fd))
            os.close(fd)
            raise JournalInUse(self.journal, pid) from None
        except OSError as e:
            os.close(fd)
            raise JournalError(f"journal: cannot lock {self.journal}: {e.strerror or e}"
                               ) from None
        if self.file_fd is not None:
            os.close(self.file_fd)  # a file that is no longer the journal (set aside)
        self.file_fd = fd

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
        if self.file_fd is not None:
            # After the store has closed the journal (companion run's ExitStack closes it
            # first): while SQLite has the file open, this close would drop its POSIX locks.
            os.close(self.file_fd)
            self.file_fd = None
        if self.fd is not None:
            try:  # removed while still held: no one can lock the old file in the meantime
                self.path.unlink()
            except OSError:
                pass
            os.close(self.fd)  # closing the last descriptor drops the flock
            self.fd = None


def running_pid(journal: Path | str) -> int | None:
    """The pid of the companion holding `journal` by any name, read from the kernel's table
    of locks (Linux) or else its lock file, without touching a lock (a reader such as
    `companion doctor` must never make a starting companion think the journal is taken);
    None when none runs (no file, a pid that is gone, or a lock file left by a companion that
    was killed, whose pid now names another process)."""
    if FILE_LOCKS and LOCKS.is_file():
        # The kernel's table says who holds the lock file or the journal (by any name). The
        # pid written in the lock file is not enough: one a killed companion left there may
        # belong to another process since (after a power cut and a reboot).
        for path in (lock_path(journal), Path(journal)):
            try:
                held = flock_holder(os.stat(path))
            except OSError:
                continue
            if held is not None:
                return held
        return None
    try:
        text = lock_path(journal).read_text("ascii", "replace").strip()
    except OSError:
        text = ""
    return int(text) if text.isdigit() and _alive(int(text)) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, run by another user
        pass
    return True


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


def flock_holder(st: os.stat_result, *, table: Path = LOCKS) -> int | None:
    """The pid holding an flock on the file `st` describes, from the kernel's table of locks
    (a line such as `3: FLOCK  ADVISORY  WRITE 812 b3:02:1311 0 EOF`); None when it cannot be
    told. Matched by inode, and by device too when one line of several has it."""
    try:
        lines = table.read_text("ascii", "replace").splitlines()
    except OSError:
        return None
    found: list[tuple[bool, int]] = []
    for line in lines:
        fields = line.split()
        if len(fields) < 6 or fields[1] != "FLOCK":
            continue  # not an flock, or a process waiting for one
        dev_ino = fields[5].split(":")
        try:
            major, minor, ino = int(dev_ino[0], 16), int(dev_ino[1], 16), int(dev_ino[2])
            pid = int(fields[4])
        except (ValueError, IndexError):
            continue
        if ino == st.st_ino and pid > 0:
            found.append(((major, minor) == (os.major(st.st_dev), os.minor(st.st_dev)), pid))
    same_dev = [pid for same, pid in found if same]
    pids = same_dev or [pid for _, pid in found]
    return pids[0] if len(set(pids)) == 1 else None
