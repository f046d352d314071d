"""The start frame: the panel's first frame at the next start, kept beside the journal.

`companion run` shows it before it imports the app, the game's rules and its screens, so the
table sees its game some tenths of a second sooner on a Pi Zero 2 W (docs/performance.md,
"The kept start frame"). Then the app draws its own first frame, which is the same picture
(the display sends nothing for it).

It is a cache, never a second source of truth: the frame is shown only when everything it was
drawn from is as it was, else the start is as if there were no file. The key:

- The journal's open game (the one a start resumes): its id, `content` (the games row: the
  checksums' head, the status and its checksum, the header) and which of its rows are active
  (`game_digest`): every append, undo, redo and status change makes a new key. The store asks
  `open_game` and `content` from here too, so the two never disagree on which game that is.
- The configuration, as checked (`config_digest`): names, house rules, the display's setup.
- The code that draws: the companion's own modules and a house game's package, by name, size
  and modification time, and Pillow's version (`code_stamp`), as they were when the process
  started (`code_stamp_once`).

The app writes the file (companion/app/firstframe.py) once nothing has changed for a second,
and at exit: the frame of a fresh start, drawn as the start draws it (none after a start that
raised a notice, which the next start would likely draw instead). It is written beside the
journal (`journal.db.frame`) as a new file renamed over the old one, with no fsync: after a
power cut it is the old file, the new one, or an empty one, and only a file whose key matches
is used. An unfinished game is the only start it keeps: a journal with none starts at the
start menu, drawn by the app (there is then no file).

File format: one line of JSON (the key, with `format`), then the frame's 1,024 bytes (128x64,
one bit a pixel, as PIL's `tobytes()` of a mode "1" image).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any, Iterable

log = logging.getLogger(__name__)

FORMAT = 1
SIZE = (128, 64)
RAW_BYTES = SIZE[0] * SIZE[1] // 8
MAX_HEADER = 4096  # a key line longer than this is not ours


def path_for(journal: Path) -> Path:
    """Where the start frame of `journal` is kept."""
    return journal.with_name(journal.name + ".frame")


def open_game(db: sqlite3.Connection) -> int | None:
    """The id of the unfinished game a start resumes (the newest open one), or None."""
    row = db.execute("SELECT id FROM games WHERE status='open' ORDER BY id DESC LIMIT 1"
                     ).fetchone()
    return None if row is None else row[0]


def content(db: sqlite3.Connection, game_id: int) -> tuple:
    """What changes with every row appended to a game and every change of its header or
    status (schema 3): its checksums' head, its status and status sum, its header. Not an undo
    or a redo, which change a row's status only (`game_digest` adds those); the store's
    start-up check needs no more (it holds the journal's lock from check to resume)."""
    return tuple(db.execute("SELECT head, sum, status, CAST(header AS BLOB) FROM games "
                            "WHERE id=?", (game_id,)).fetchone() or ())


def game_digest(db: sqlite3.Connection) -> dict[str, Any] | None:
    """The open game's part of the key (None when no game is open): its `content` and which
    of its rows are active, so every append, undo, redo and status change is a new key."""
    gid = open_game(db)
    if gid is None:
        return None
    active, = db.execute("SELECT group_concat(row, ',') FROM (SELECT row FROM events "
                         "WHERE game_id=? AND status='active' ORDER BY seq)", (gid,)).fetchone()
    h = hashlib.sha256()
    for value in (*content(db, gid), active or ""):
        data = value if isinstance(value, bytes) else str(value).encode()
        h.update(len(data).to_bytes(4, "big") + data)
    return {"game": gid, "content": h.hexdigest()}


def config_digest(data: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()


def code_stamp(dirs: Iterable[str]) -> str | None:
    """The Python modules under `dirs` (folders, or single modules) by name, size and
    modification time; None when one is gone (an uninstalled house game)."""
    import PIL
    h = hashlib.sha256(f"Pillow {PIL.__version__}\n".encode())
    for top in dirs:
        if os.path.isfile(top) and top.endswith(".py"):
            st = os.stat(top)
            h.update(f"{top} {st.st_size} {st.st_mtime_ns}\n".encode())
            continue
        if not os.path.isdir(top):
            return None
        for where, subdirs, files in os.walk(top):
            subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(where, name))
                    h.update(f"{where}/{name} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


_STAMPS: dict[tuple[str, ...], str | None] = {}


def code_stamp_once(dirs: Iterable[str]) -> str | None:
    """`code_stamp`, worked out once a process for the same folders: the stamp of the code it
    started with. (A package upgraded under a running companion is not stamped onto frames
    its old code draws; and a keep does not stat every module again.)"""
    t = tuple(dirs)
    if t not in _STAMPS:
        _STAMPS[t] = code_stamp(t)
    return _STAMPS[t]


def companion_dir() -> str:
    return str(Path(__file__).resolve().parent.parent)


def key(db: sqlite3.Connection, config: dict[str, Any], dirs: list[str]) -> dict[str, Any] | None:
    """The whole key for the journal `db` as it is now, or None when there is nothing to keep
    (no open game, or a folder of `dirs` is gone)."""
    game = game_digest(db)
    stamp = code_stamp_once(dirs)
    if game is None or stamp is None:
        return None
    return {"format": FORMAT, **game, "config": config_digest(config), "dirs": dirs,
            "code": stamp}


def write(path: Path, k: dict[str, Any], raw: bytes) -> None:
    """Keep `raw` (a frame's bytes) under key `k`; a failure is logged, never raised (it is a
    cache: the next start then draws its first frame itself)."""
    if len(raw) != RAW_BYTES:
        raise ValueError(f"a start frame is {RAW_BYTES} bytes, not {len(raw)}")
    tmp = path.with_name(path.name + ".new")
    try:
        with open(tmp, "wb") as f:
            f.write(json.dumps(k, sort_keys=True).encode() + b"\n" + raw)
        os.replace(tmp, path)
    except OSError as e:
        log.info("start frame not kept: %s", e)
        try:
            tmp.unlink()
        except OSError:
            pass


def forget(path: Path) -> None:
    """No start frame: the next start draws its own (no game open, nothing to show early)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        log.info("start frame not removed: %s", e)


def _load(path: Path) -> tuple[dict[str, Any], bytes] | None:
    """The key and the frame's bytes of the file at `path`, or None when it is not a regular
    file of ours (read without blocking: a FIFO or a device there never stalls a start)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        blob = os.read(fd, MAX_HEADER + RAW_BYTES + 1)
    finally:
        os.close(fd)
    line, _, raw = blob.partition(b"\n")
    if not line.startswith(b"{") or len(raw) != RAW_BYTES:
        return None
    kept = json.loads(line)
    return (kept, raw) if isinstance(kept, dict) else None


def kept_key(path: Path) -> dict[str, Any] | None:
    """The key of the frame kept at `path` (None: no file, or not one of ours)."""
    try:
        found = _load(path)
    except Exception:  # a cache: whatever is there (garbled, nested too deep) is no key
        return None
    return None if found is None else found[0]


def read(path: Path, journal: Path, config: dict[str, Any]) -> bytes | None:
    """The frame kept for `journal` if it is the frame a start would draw now (the key the
    file holds is the key of the journal, config and code as they are), else None. Never
    raises: a missing, short, garbled or stale file, or a journal that cannot be read here, is
    None, and the start goes on as if there were no file."""
    try:
        found = _load(path)
        if found is None:
            return None
        kept, raw = found
        dirs = kept.get("dirs")
        if kept.get("format") != FORMAT or not isinstance(dirs, list) or not dirs \
                or dirs[0] != companion_dir() or not all(isinstance(d, str) for d in dirs):
            return None
        if not journal.is_file():
            return None
        db = sqlite3.connect(f"{journal.resolve().as_uri()}?mode=ro", uri=True, timeout=0.1)
        try:
            now = key(db, config, dirs)
        finally:
            db.close()
    except Exception as e:  # a cache: nothing found there may stop a start
        log.debug("no start frame: %s", e)
        return None
    return raw if now == kept else None
