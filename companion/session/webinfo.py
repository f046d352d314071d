"""Where the running companion's table web listens, published beside its journal lock.

`companion run --web HOST:PORT` (or a config the doctor was not given) may serve the web
somewhere other than the config says, so `companion doctor` cannot find it from the config.
The running companion therefore writes `<journal>.web` beside `<journal>.lock`
(companion/session/lock.py) once its web listens: one JSON object, `{"pid", "host", "port",
"url"}`. It removes the file when it stops; one left by a SIGKILL or a power cut is ignored,
since its pid no longer holds the journal lock (`running_pid`). Only readers use it: nothing
here touches the lock.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from companion.session.lock import lock_path, running_pid


@dataclass(frozen=True)
class Published:
    pid: int
    host: str
    port: int
    url: str


def path_for(journal: Path | str) -> Path:
    """Beside the journal's lock file (the same real file, whatever path names it)."""
    lock = lock_path(journal)
    return lock.with_name(lock.name.removesuffix(".lock") + ".web")


def publish(journal: Path | str, host: str, port: int, url: str) -> None:
    """Say that this process serves the web of `journal` at host:port (best effort: a full
    disk leaves the doctor looking at the config instead)."""
    path = path_for(journal)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"pid": os.getpid(), "host": host, "port": port,
                                   "url": url}) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def withdraw(journal: Path | str) -> None:
    """This process no longer serves it (a file another process wrote is left alone)."""
    path = path_for(journal)
    found = _read(path)
    if found is not None and found.pid == os.getpid():
        path.unlink(missing_ok=True)


def read(journal: Path | str) -> Published | None:
    """Where the companion that holds `journal` serves its web; None when none runs, when
    it serves none, or when the file is not the running companion's (left by one killed)."""
    found = _read(path_for(journal))
    if found is None or running_pid(journal) != found.pid:
        return None
    return found


def _read(path: Path) -> Published | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        found = Published(int(data["pid"]), str(data["host"]), int(data["port"]),
                          str(data["url"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return found
