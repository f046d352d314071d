"""`companion import` takes the lock of `companion run` (issue 35, item 2).

With the box running on `j.db`, an import through any name of that file (the path itself, a
hard link, a symlink) stops with one line naming the running companion and writes nothing:
before, an import through a hard link printed "imported game 1" (an id the box already had),
and a second import after the box stopped replayed the link's write-ahead log over the file,
losing the box's acknowledged events. Real processes: the box, and the import beside it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from companion import cli
from companion.session.lock import JournalLock
from tests.test_one_writer import cfg_file, launch, play_one_event  # noqa: F401  (a fixture)

pytestmark = pytest.mark.slow

LOG = ['{"game": "table", "players": ["Xa", "Yo"]}', '{"type": "next"}', '{"type": "end"}']


def run_import(log, journal, config) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.run([sys.executable, "-m", "companion.cli", "import", str(log),
                           "--journal", str(journal), "--config", str(config)],
                          capture_output=True, text=True, timeout=60, env=env)


def test_import_through_any_name_of_a_running_journal_is_refused(tmp_path, cfg_file):  # noqa: F811
    d = tmp_path / "d"
    d.mkdir()
    journal = d / "j.db"
    log = tmp_path / "g.jsonl"
    log.write_text("".join(line + "\n" for line in LOG))
    box = launch(journal, cfg_file)
    try:
        acks = play_one_event(box)
        os.link(journal, d / "hard.db")
        (d / "sym.db").symlink_to(journal)
        for name in (journal, d / "hard.db", d / "sym.db"):
            done = run_import(log, name, cfg_file)
            assert (done.returncode, done.stdout) == (1, ""), done
            assert done.stderr.splitlines() == [
                f"companion: journal: {name} is in use by another companion (pid {box.pid}): "
                "stop it, then import again; nothing was written"]
        assert not (d / "hard.db-wal").exists()  # SQLite never opened the second name
        before = sum(a.startswith("ack append") for a in acks)
        box.stdin.write("NEXT\n")  # the box goes on, and its events are kept
        box.stdin.flush()
        deadline = time.monotonic() + 30
        while sum(a.startswith("ack append") for a in acks) == before:
            assert time.monotonic() < deadline and box.poll() is None, acks
            time.sleep(0.01)
    finally:
        box.stdin.close()
        box.wait(timeout=60)
    assert box.returncode == 0
    # Stopped: the import goes in, through the link, and the box's game is whole.
    done = run_import(log, d / "hard.db", cfg_file)
    assert done.returncode == 0 and done.stdout.startswith("imported game 2: "), done
    assert cli.main(["export", "--journal", str(journal), "--game", "1", "-o",
                     str(tmp_path / "1.jsonl")]) == 0
    events = [json.loads(line) for line in (tmp_path / "1.jsonl").read_text().splitlines()[1:]]
    acked = [json.loads(a.split(" ", 3)[3]) for a in acks if a.startswith("ack append")]
    assert [e["type"] for e in acked][-2:] == ["next", "next"]  # the one before, and after
    assert [{k: v for k, v in e.items() if k != "at"} for e in events] == acked


def test_an_import_is_refused_while_another_process_holds_the_journal(tmp_path, cfg_file):  # noqa: F811
    """Whoever holds the lock (here this process, as `companion run` does), an import in
    another process through another name of the file is refused."""
    journal = tmp_path / "j.db"
    log = tmp_path / "g.jsonl"
    log.write_text("".join(line + "\n" for line in LOG))
    assert cli.main(["import", str(log), "--journal", str(journal)]) == 0
    os.link(journal, tmp_path / "hard.db")
    with JournalLock(journal):
        done = run_import(log, tmp_path / "hard.db", cfg_file)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"companion: journal: {tmp_path / 'hard.db'} is in use by another companion "
        f"(pid {os.getpid()}): stop it, then import again; nothing was written"]
