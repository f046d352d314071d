"""One writer per journal (issue 18 part 6) and schema 3 (issue 20 part 5).

- `companion run` holds an exclusive lock on `<journal>.lock` for its life: a second `run` on
  the same journal exits 1 with one line naming the holder's pid; a SIGKILL leaves no stale
  lock; export, stats and doctor still read the journal meanwhile. The lock belongs to the
  file (issue 29 item 5): on Linux the journal file itself is locked too, so every name of it
  (a hard link, `..`) is refused with the same line.
- The schema keeps one active row per (game_id, seq); the sink re-reads the game's last seq
  inside its write transaction, so a stale count in memory never records a duplicate.
- A game's status is under a checksum (`games.sum`): a finished game set back to open by hand
  is caught, at start and by doctor.
- A schema 2 journal is upgraded to 3 once, after a backup copy; rows that break the unique
  rule (two companions wrote before it existed) are kept and set aside, their game broken.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import types

import pytest

from companion import cli
from companion.errors import JournalError
from companion.rules.game import Header
from companion.session import checksum
from companion.session.rows import GameSink
from companion.session.store import SCHEMA_VERSION, NotSaved, Store

HEADER = Header("table", ("Ann", "Ben", "Cy", "Dee"))


def launch(journal, config, *extra):
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--no-web", "--display", "dummy",
         "--input", "stdin", "--ack", "--journal", str(journal), "--config", str(config),
         *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        bufsize=1, env=env)


def wait_ready(proc, timeout=30.0) -> list[str]:
    """Lines on stdout up to "ready" (read on a thread: a dead process ends the wait)."""
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            lines.append(line.strip())
            if line.strip() == "ready":
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    assert ready.wait(timeout) and "ready" in lines, proc.stderr.read()
    return lines


@pytest.fixture
def cfg_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[dice]\nanimation = 0.0\n")
    return path


def play_one_event(proc) -> list[str]:
    """A started companion: a new table game and one NEXT, acked; its stdout lines so far
    (more come as it runs)."""
    acks = wait_ready(proc)
    for key in ("OK", "OK", "OK", "OK", "OK", "NEXT"):  # a table game, one event
        proc.stdin.write(key + "\n")
        proc.stdin.flush()
    deadline = time.monotonic() + 30  # a bound on the wait, not a speed requirement
    while not any(a.startswith("ack append 1") for a in acks):
        assert time.monotonic() < deadline and proc.poll() is None, acks
        time.sleep(0.01)
    return acks


@pytest.mark.slow
def test_a_second_companion_on_the_journal_exits_1_naming_the_first(tmp_path, cfg_file,
                                                                    capsys):
    config = cfg_file
    journal = tmp_path / "journal.db"
    first = launch(journal, config)
    try:
        play_one_event(first)

        second = launch(journal, config)
        out, err = second.communicate(timeout=30)
        assert second.returncode == 1
        assert err.splitlines() == [f"companion: journal: {journal} is in use by another "
                                    f"companion (pid {first.pid})"]
        assert "ready" not in out

        # The readers still read it while the first one holds it.
        assert cli.main(["export", "--journal", str(journal), "--config", str(config)]) == 0
        lines = capsys.readouterr().out.splitlines()
        last = json.loads(lines[-1])
        assert json.loads(lines[0])["game"] == "table" and last.pop("at") > 0 and last == {
            "type": "next"}
        assert cli.main(["stats", "--journal", str(journal), "--config", str(config)]) == 0
        import io

        from gpiozero.pins.mock import MockFactory

        from companion.cli import doctor
        from companion.drivers.display import dummy
        report = io.StringIO()
        doctor.main(["--journal", str(journal), "--config", str(config)], out=report,
                    factory=MockFactory(), open_display=lambda cfg: dummy(),
                    comports=lambda: [])
        assert "OK    journal:" in report.getvalue()

        # A SIGKILL leaves no stale lock: the next companion starts and resumes the game.
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        third = launch(journal, config)
        try:
            wait_ready(third)
            assert third.poll() is None
        finally:
            third.stdin.close()
            third.wait(30)
        assert third.returncode == 0, third.stderr.read()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(10)
    with Store(journal) as s:
        assert s.resume().events[-1] == {"type": "next"}


def test_the_lock_is_held_in_process_and_names_the_pid(tmp_path):
    from companion.session.lock import JournalInUse, JournalLock, lock_path

    journal = tmp_path / "state" / "journal.db"
    with JournalLock(journal):
        assert lock_path(journal).read_text().strip() == str(os.getpid())
        with pytest.raises(JournalInUse) as e:
            JournalLock(journal).acquire()
        assert str(e.value) == (f"journal: {journal} is in use by another companion "
                                f"(pid {os.getpid()})")
        assert isinstance(e.value, OSError)  # JournalError: exit 1 in cli.main
    assert not lock_path(journal).exists()  # a clean exit removes it
    with JournalLock(journal):  # released: taken again
        pass
    lock_path(journal).write_text("4242\n")  # left by a SIGKILL: nobody holds it
    with JournalLock(journal):
        assert lock_path(journal).read_text().strip() == str(os.getpid())


def test_a_symlink_or_relative_path_to_the_journal_is_the_same_lock(tmp_path, monkeypatch):
    """Two companions reaching one journal by two names still meet at one lock."""
    from companion.session.lock import JournalInUse, JournalLock

    real = tmp_path / "state" / "journal.db"
    real.parent.mkdir()
    real.touch()
    (tmp_path / "link.db").symlink_to(real)
    monkeypatch.chdir(tmp_path / "state")
    with JournalLock(real):
        for other in (tmp_path / "link.db", "journal.db"):
            with pytest.raises(JournalInUse):
                JournalLock(other).acquire()


needs_file_locks = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                      reason="the journal file itself is locked on Linux only")


@needs_file_locks
def test_every_name_of_the_journal_file_is_the_same_lock(tmp_path):
    """Issue 29 item 5: the lock belongs to the file (device and inode), not to one name: a
    hard link beside it or in another directory, and a path through `..`, are all in use while
    one companion holds it, and each says so with the holder's pid."""
    from companion.session.lock import JournalInUse, JournalLock, lock_path

    d, elsewhere = tmp_path / "d", tmp_path / "elsewhere"
    elsewhere.mkdir()
    journal = d / "j.db"
    with Store(journal) as s:
        s.new_game(HEADER)
    os.link(journal, d / "hard.db")
    os.link(journal, elsewhere / "hard.db")
    with JournalLock(journal):
        for other in (d / "hard.db", elsewhere / "hard.db", d / ".." / "d" / "j.db"):
            with pytest.raises(JournalInUse) as e:
                JournalLock(other).acquire()
            assert str(e.value) == (f"journal: {other} is in use by another companion "
                                    f"(pid {os.getpid()})")
            assert not lock_path(other).exists() or other.name == "j.db"  # none left behind
    with JournalLock(d / "hard.db"):  # released: any name takes it, and holds every name
        with pytest.raises(JournalInUse):
            JournalLock(journal).acquire()


@needs_file_locks
def test_a_journal_made_after_the_lock_is_locked_by_the_file_too(tmp_path):
    """A first start: no journal when the lock is taken; once the store has made it,
    `hold_file` locks the file, and a hard link made then is refused."""
    from companion.session.lock import JournalInUse, JournalLock

    journal = tmp_path / "journal.db"
    with JournalLock(journal) as lock:
        with Store(journal) as s:
            lock.hold_file()
            s.new_game(HEADER).append({"type": "next"})  # SQLite writes under the flock
            lock.hold_file()  # the same file: nothing changes
            os.link(journal, tmp_path / "hard.db")
            with pytest.raises(JournalInUse, match=f"pid {os.getpid()}"):
                JournalLock(tmp_path / "hard.db").acquire()



def test_locking_the_file_again_keeps_sqlites_own_locks(tmp_path):
    """`hold_file` again on the file it holds (as `companion run` does after the store opened
    an existing journal) must not open and close another descriptor of it: on Linux that close
    drops SQLite's POSIX locks, and a writer that then opened and closed the journal (an
    import) checkpointed and deleted the -wal the companion went on writing to: the next
    acknowledged event was lost."""
    from companion.session.lock import JournalLock

    journal = tmp_path / "journal.db"
    Store(journal).close()  # an existing journal, as at every start after the first
    with JournalLock(journal) as lock:
        with Store(journal) as s:
            game = s.new_game(HEADER)
            game.append({"type": "next"})
            lock.hold_file()
            other = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                     "c.execute('SELECT count(*) FROM games').fetchone(); c.close()")
            subprocess.run([sys.executable, "-c", other, str(journal)], check=True, timeout=60)
            game.append({"type": "next"})
            assert os.path.exists(f"{journal}-wal")
            seen = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
            try:
                count = seen.execute("SELECT count(*) FROM events").fetchone()[0]
            finally:
                seen.close()
            assert count == 2

BIND = r'''
import subprocess, sys
from pathlib import Path
journal, bound = Path(sys.argv[1]), Path(sys.argv[2])
subprocess.run(["mount", "--bind", str(journal), str(bound)], check=True)
from companion.session.lock import JournalInUse, JournalLock
with JournalLock(journal):
    try:
        JournalLock(bound).acquire()
    except JournalInUse as err:
        print(err)
    else:
        print("FAIL: the bound path took the lock")
'''


@needs_file_locks
def test_a_bind_mount_of_the_journal_is_the_same_lock(tmp_path):
    """The journal file bound onto another path in another directory (made in a private
    mount namespace, `unshare -rm`, as the full-disk test does) meets the same lock."""
    from tests.test_disk_full import _namespaces
    if not _namespaces():
        pytest.skip("needs unshare -rm (user and mount namespaces)")
    journal, bound = tmp_path / "d" / "j.db", tmp_path / "e" / "bound.db"
    Store(journal).close()
    bound.parent.mkdir()
    bound.touch()
    script = tmp_path / "bind.py"
    script.write_text(BIND)
    p = subprocess.run(["unshare", "-rm", sys.executable, str(script), str(journal),
                        str(bound)], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1].startswith(f"journal: {bound} is in use by another "
                                                "companion (pid "), p.stdout


@needs_file_locks
def test_a_journal_path_that_is_no_file_is_left_to_the_store_to_refuse(tmp_path, cfg_file):
    """Opening the journal to lock it never hangs on a FIFO, nor locks a directory: the
    start stops with the store's own line."""
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        p = launch(path, cfg_file)
        try:
            out, err = p.communicate(timeout=30)
        finally:
            if p.poll() is None:  # hung on the FIFO: not left behind
                p.kill()
                p.wait(10)
        assert p.returncode == 1 and err.splitlines() == [
            f"companion: the journal path {path} is not a file"], err


def test_the_holder_of_a_file_lock_is_read_from_the_kernels_table(tmp_path):
    from companion.session.lock import flock_holder

    st = os.stat(tmp_path)
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}"
    table = tmp_path / "locks"
    table.write_text(f"1: POSIX  ADVISORY  WRITE 11 {dev}:{st.st_ino} 1073741824 1073741824\n"
                     f"2: FLOCK  ADVISORY  WRITE 812 {dev}:{st.st_ino} 0 EOF\n"
                     f"2: -> FLOCK  ADVISORY  WRITE 900 {dev}:{st.st_ino} 0 EOF\n"
                     f"3: FLOCK  ADVISORY  WRITE 77 {dev}:{st.st_ino + 1} 0 EOF\n")
    assert flock_holder(st, table=table) == 812
    table.write_text(f"3: FLOCK  ADVISORY  WRITE 77 {dev}:{st.st_ino + 1} 0 EOF\n")
    assert flock_holder(st, table=table) is None
    assert flock_holder(st, table=tmp_path / "none") is None


@pytest.mark.slow
@needs_file_locks
def test_a_companion_started_on_a_hard_link_stops_naming_the_first(tmp_path, cfg_file):
    """The issue's steps: a companion on d/j.db, `ln d/j.db d/hard.db`, a second companion on
    d/hard.db: it stops with the one line, and nothing it could have acked is lost."""
    d = tmp_path / "d"
    d.mkdir()
    journal, hard = d / "j.db", d / "hard.db"
    first = launch(journal, cfg_file)
    try:
        play_one_event(first)
        os.link(journal, hard)
        second = launch(hard, cfg_file)
        out, err = second.communicate("NEXT\nNEXT\n", timeout=30)
        assert second.returncode == 1 and "ready" not in out and "ack" not in out
        assert err.splitlines() == [f"companion: journal: {hard} is in use by another "
                                    f"companion (pid {first.pid})"]
        assert not (d / "hard.db-wal").exists()  # SQLite never opened it by that name
    finally:
        first.stdin.close()
        first.wait(30)
    with Store(journal) as s:
        assert [e["type"] for e in s.resume().events] == ["first", "next"]  # as acked


# --- one active row per place -----------------------------------------------------------------

def test_the_schema_refuses_a_second_active_row_at_one_place(tmp_path):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        j.append({"type": "next"})
        j.append({"type": "skip"})
    db = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        db.execute("INSERT INTO events(game_id, seq, body, at) VALUES (1, 1, ?, 0)",
                   ('{"type": "next"}',))
    # An undone or dropped row may share its place (undo, then a new event).
    db.execute("INSERT INTO events(game_id, seq, body, status, at) VALUES (1, 1, ?, 'undone', 0)",
               ('{"type": "next"}',))
    db.rollback()
    db.close()


def test_a_stale_count_in_memory_never_writes_a_second_event_at_one_place(tmp_path):
    """Two writers that each believe the game has one event (the lock keeps two companions
    apart; this is what stops a write that slips past it)."""
    path = tmp_path / "journal.db"
    with Store(path) as a:
        a.new_game(HEADER).append({"type": "next"})
    with Store(path) as a, Store(path) as b:
        ja, jb = a.resume(), b.resume()
        ja.append({"type": "skip"})
        with pytest.raises(NotSaved, match="moved on") as e:
            jb.append({"type": "reverse"})
        assert e.value.short == "Not saved: game moved on"
        assert jb.events == [{"type": "next"}]  # unchanged in memory too
        with pytest.raises(NotSaved, match="moved on"):
            jb.undo()  # would take back event 0, which is no longer the last
        ja.undo()
        ja.undo()
        with pytest.raises(NotSaved, match="moved on"):
            jb.append({"type": "reverse"})  # the journal is at 0 events, b says 1
    with Store(path) as s:
        assert s.db.execute("SELECT seq, body, status FROM events ORDER BY row").fetchall() == [
            (0, '{"type": "next"}', "undone"), (1, '{"type": "skip"}', "undone")]
        assert s.verify(1) == []


# --- the game's status under a checksum -------------------------------------------------------

def edit(path, sql, *args):
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def test_every_status_change_keeps_the_checksums(tmp_path):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        first = s.new_game(HEADER)
        first.append({"type": "next"})
        s.new_game(HEADER)  # closes game 1
        s.close_game(s.resume())  # closes game 2
        assert [s.verify(g) for g in (1, 2)] == [[], []]
        assert s.db.execute("SELECT status FROM games ORDER BY id").fetchall() == [
            ("closed",), ("closed",)]


def test_a_finished_game_set_back_to_open_by_hand_is_caught(tmp_path, make_app):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
        s.new_game(HEADER)
    edit(path, "UPDATE games SET status='closed' WHERE id=2")  # by hand: caught too
    edit(path, "UPDATE games SET status='open' WHERE id=1")
    with Store(path, read_only=True) as s:
        found = [str(m) for m in s.verify(1)]
    assert found == ["game 1, status: checksum does not match (it was changed from 'closed' "
                     "to 'open')"]
    app = make_app(path=path)
    assert app.journal is None  # not resumed as if it were the unfinished game
    assert "game 1, status: checksum does not match" in app.store.notice
    # Marked broken, and the checksum still says it was closed (not re-summed to hide it).
    with Store(path, read_only=True) as s:
        assert [str(m) for m in s.verify(1)] == [
            "game 1, status: checksum does not match (it was changed from 'closed' to "
            "'broken')"]
        assert [str(m) for m in s.verify(2)] == [
            "game 2, status: checksum does not match (it was changed from 'open' to "
            "'closed')"]


# --- schema 2 -> 3 ----------------------------------------------------------------------------

def as_schema_2(path) -> None:
    """Turn a journal back into exactly what schema 2 wrote: no games.sum, no unique index."""
    db = sqlite3.connect(path)
    db.execute("DROP INDEX events_active_seq")
    db.execute("ALTER TABLE games DROP COLUMN sum")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()


def second_writer(path, game_id: int, seq: int, event: dict) -> None:
    """What a second companion did before schema 3: the same INSERT (checksums and all) at a
    place that already has an active row."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    GameSink(types.SimpleNamespace(clock=lambda: 5000.0), game_id).insert(db, seq, event)
    db.execute("COMMIT")
    db.close()


def rows(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT row, game_id, seq, body, at FROM events ORDER BY row").fetchall()
    finally:
        db.close()


def test_a_schema_2_journal_is_backed_up_then_upgraded_once(tmp_path):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        for e in ({"type": "next"}, {"type": "skip"}, {"type": "next"}):
            j.append(e)
        j.undo()
        s.new_game(HEADER).append({"type": "reverse"})
    as_schema_2(path)
    before = rows(path)
    with Store(path, read_only=True) as s:  # readers leave it at schema 2
        assert s.schema == 2 and s.verify(1) == [] and s.verify(2) == []
    with Store(path, clock=lambda: 1_700_000_000) as s:
        assert s.schema == SCHEMA_VERSION == 3 and s.notice == ""
        assert s.backup is not None and s.backup.name.startswith("journal.db.pre-v3-")
        assert s.verify(1) == [] and s.verify(2) == []
        assert s.resume().events == [{"type": "reverse"}]
        assert s.load(1).events == [{"type": "next"}, {"type": "skip"}]
        backup = s.backup
    assert rows(path) == before  # every row as it was
    copy = sqlite3.connect(backup)
    assert copy.execute("PRAGMA user_version").fetchone() == (2,)
    assert copy.execute("SELECT row, game_id, seq, body, at FROM events ORDER BY row"
                        ).fetchall() == before
    copy.close()
    with Store(path) as s:  # once
        assert s.backup is None
    assert len([p for p in tmp_path.iterdir() if ".pre-v" in p.name]) == 1
    edit(path, "UPDATE games SET status='open' WHERE id=1")  # now caught
    with Store(path, read_only=True) as s:
        assert "changed from 'closed' to 'open'" in str(s.verify(1)[0])


def test_an_upgrade_keeps_two_writers_rows_and_sets_their_game_aside(tmp_path, cfg_file,
                                                                     capsys):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        j = s.new_game(HEADER)
        j.append({"type": "next"})
        j.append({"type": "skip"})
    as_schema_2(path)
    second_writer(path, 1, 1, {"type": "reverse"})  # a second companion's event 2
    second_writer(path, 1, 2, {"type": "next"})
    before = rows(path)
    with Store(path, read_only=True) as s:  # schema 2 could not tell: the game is a muddle
        with pytest.raises(JournalError, match="not numbered"):
            s.load(1)
    with Store(path) as s:
        assert "Two companions wrote this journal at once: game 1 has 2 events numbered 2" \
            in s.notice
        assert s.resume() is None  # broken: not resumed
        assert s.verify(1) == []  # the upgrade's own changes keep the checksums
        assert s.db.execute("SELECT status FROM games").fetchall() == [("broken",)]
        assert s.db.execute("SELECT seq, status FROM events ORDER BY row").fetchall() == [
            (0, "active"), (1, "active"), (1, "duplicate"), (2, "active")]
        backup = s.backup
    assert rows(path) == before  # nothing lost
    copy = sqlite3.connect(backup)
    assert copy.execute("SELECT row, game_id, seq, body, at FROM events ORDER BY row"
                        ).fetchall() == before
    copy.close()
    # export refuses it; export --force writes every row, the set-aside one in its place.
    out = tmp_path / "g1.jsonl"
    args = ["export", "--journal", str(path), "--config", str(cfg_file), "--game", "1"]
    assert cli.main(args) == 1
    assert capsys.readouterr().err == (
        "companion: game 1 has 1 event recorded twice at one place (two companions wrote the "
        "journal at once); companion export --force writes its stored rows as they are\n")
    assert cli.main([*args, "--force", "-o", str(out)]) == 0
    assert [json.loads(x) for x in out.read_text().splitlines()[1:]] == [
        {"type": "next"}, {"type": "skip"}, {"type": "reverse"}, {"type": "next"}]


def test_a_dropped_unique_index_is_made_again_at_start(tmp_path):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        s.new_game(HEADER).append({"type": "next"})
    edit(path, "DROP INDEX events_active_seq")
    second_writer(path, 1, 0, {"type": "skip"})
    with Store(path) as s:
        assert "game 1 has 2 events numbered 1" in s.notice and s.resume() is None
        assert s.db.execute("SELECT 1 FROM sqlite_master WHERE name='events_active_seq'"
                            ).fetchone() == (1,)
        assert s.db.execute("SELECT COUNT(*) FROM events").fetchone() == (2,)


def test_checksum_game_sum_binds_the_game():
    seed = checksum.seed(1, b"{}", 1.0)
    assert checksum.game_sum(1, seed, "open") != checksum.game_sum(1, seed, "closed")
    assert checksum.game_sum(1, seed, "open") != checksum.game_sum(2, seed, "open")
