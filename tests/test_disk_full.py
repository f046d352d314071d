"""A full disk (issue 20 part 5, issue 29 item 6): every toast that says so is whole, a phone is
answered in the same words (503 "Not saved: disk full"), and start-up on a full disk shows the
game read-only ("Disk full: nothing can be saved") instead of exiting 1.

The start-up test fills a real (small) tmpfs, mounted in a private mount namespace with
`unshare -rm` (no root needed where user namespaces are allowed; skipped where they are not).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

import pytest

from companion.inputs import Button
from companion.ui.toast import toast_lines
from tests.test_app import press, start_table_game


def test_the_disk_full_toast_is_whole(make_app):
    app = make_app()
    start_table_game(app)
    # SQLite's own SQLITE_FULL, from the page limit: the next page the journal needs is refused.
    db = app.store.db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages}")
    before = len(app.journal.events)
    for _ in range(200):
        press(app, Button.NEXT)
        if app.toast and app.toast[0].startswith("Not saved"):
            break
    assert app.toast[0] == "Not saved: disk full"
    lines = toast_lines(app.toast[0])
    assert len(lines) <= 2 and " ".join(lines) == app.toast[0]  # drawn whole
    assert len(app.journal.events) < before + 200  # the refused press changed nothing
    app.render()  # and it draws


def test_a_toast_too_long_for_two_lines_shows_it_was_cut():
    lines = toast_lines("Not saved: database or disk is full")  # SQLite's words, too long
    assert len(lines) == 2 and lines[1].endswith("…")
    for short in ("Not saved: disk full", "Not saved: journal busy", "Not saved: read-only",
                  "Not saved: row altered", "Not saved: game moved on",
                  "Not saved: journal error"):
        assert " ".join(toast_lines(short)) == short


SCRIPT = r'''
import os, subprocess, sys, time
mnt = sys.argv[1]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", mnt], check=True)
from companion import config as configmod
from companion.cli import common
from companion.rules.game import Header
from companion.session.store import Store
journal = os.path.join(mnt, "journal.db")
with Store(journal) as s:
    j = s.new_game(Header("table", ("Ann", "Ben", "Cy")))
    for _ in range(5):
        j.append({"type": "next"})
try:  # fill the disk
    with open(os.path.join(mnt, "filler"), "wb") as f:
        while True:
            f.write(b"x" * 4096)
            f.flush()
except OSError:
    pass
try:
    Store(journal)
    raise SystemExit("FAIL: the journal opened for writing on a full disk")
except Exception as e:
    print("writable open:", type(e).__name__, e)

cfg = configmod.load(None)
cfg.data["storage"]["path"] = journal
cfg.data["dice"]["animation"] = 0.0
store = common.open_store(cfg, full_ok=True)
from companion.app.core import App
from companion.drivers.display import dummy
from companion.inputs import Button, ButtonInput, Gesture
app = App(config=cfg, store=store, display=dummy())
assert app.journal is not None and len(app.journal.events) == 5, app.journal
text = " ".join(getattr(app.top, "raw", []))
assert "Disk full: nothing can be saved" in text, text
app.handle(ButtonInput(Button.OK, Gesture.PRESS))  # the message read
app.handle(ButtonInput(Button.NEXT, Gesture.PRESS))
assert app.toast[0] == "Not saved: disk full", app.toast
assert len(app.journal.events) == 5
app.render()
store.close()

env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
p = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--no-web", "--display",
                    "dummy", "--input", "stdin", "--ack", "--journal", journal],
                   input="OK\nNEXT\n", capture_output=True, text=True, env=env, timeout=60)
assert p.returncode == 0, (p.returncode, p.stderr)
assert "ready" in p.stdout.split() and "ack" not in p.stdout, p.stdout
print("OK")
'''


def _namespaces() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _namespaces(), reason="needs unshare -rm (user and mount namespaces)")
def test_start_up_on_a_full_disk_shows_the_game_read_only(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    script = tmp_path / "full.py"
    script.write_text(textwrap.dedent(SCRIPT))
    p = subprocess.run(["unshare", "-rm", sys.executable, str(script), str(mnt)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.splitlines()[-1] == "OK", p.stdout + p.stderr
    assert "writable open: DiskFull" in p.stdout


# --- a full disk seen from a phone (issue 29 item 6) ----------------------------------------

def _fill(served) -> None:
    """SQLite's own SQLITE_FULL from now on: no page beyond those the journal has (set while
    the app thread waits for its next input)."""
    db = served.store.db
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")


def _read_only_start(served) -> None:
    """As `companion run` opens a journal on a disk already full (cli/common.py's open_store)."""
    served.store.unwritable = "the disk is full"


@pytest.mark.parametrize("make_full", [_fill, _read_only_start], ids=["full", "read-only"])
def test_a_phone_is_told_not_saved_disk_full_like_the_panel(tmp_path, config, clock,
                                                             make_full):
    """Through the real web: a press, a form's action and undo that meet a full disk answer
    503 in the panel's words, "Not saved: disk full" (not 200 "changed": false, which the
    phone shows as "Nothing to do here"), and nothing is recorded."""
    from tests.test_web_api import Served

    served = Served(tmp_path, config, clock)
    try:
        served.pair()
        served.new_game("table", ["Ann", "Ben", "Cy"])
        assert served.post("/api/press", {"button": "NEXT"})[0] == 200
        make_full(served)
        events = len(served.app.journal.events)
        answers = []
        for _ in range(300):  # until the journal has no room left for the next row
            answers.append(served.post("/api/press", {"button": "NEXT"}))
            if answers[-1][0] != 200:
                break
        assert answers[-1] == (503, {"error": "Not saved: disk full"}), answers[-3:]
        full = len(served.app.journal.events)  # the presses that still fitted, if any
        assert full == events + len(answers) - 1
        assert served.post("/api/action", {"event": {"type": "next"}}) == (
            503, {"error": "Not saved: disk full"})
        assert len(served.app.journal.events) == full  # nothing recorded by the refused ones
        if make_full is _read_only_start:  # (on a page limit, undo fits: it adds no row)
            assert served.post("/api/undo") == (503, {"error": "Not saved: disk full"})
            assert len(served.app.journal.events) == full
        assert served.app.toast[0] == "Not saved: disk full"  # the panel says the same
    finally:
        served.close()
