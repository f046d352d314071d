"""Power cut: SIGKILL the running app mid-game; every acknowledged event survives.

The app runs as a real subprocess (`companion run --display dummy --input stdin --ack`),
driven by button names on stdin. It prints `ack ...` only after an event is committed, so
every acked event must be in the journal after the kill, the database must pass
`PRAGMA integrity_check`, and the resumed game must equal a replay of its exported log.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from companion.session.store import Store

START = ["OK", "OK", "OK", "OK", "OK"]  # new game, table, 4 players, house rules, first seat
ROLLED = "(the roll's ack)"  # not a key: the next key waits until the dice have settled
# ROLL opens the dice menu and OK rolls; presses while the dice tumble are ignored by design,
# so the next key waits for the roll's ack (its result committed), on any speed of machine.
# In the menu (hold OK), DOWN DOWN: "Skip next player" (after Roll dice and Pause clock).
TURN_KEYS = ["NEXT", "NEXT", "NEXT", "ROLL", "OK", ROLLED, "OK", "HOLD OK", "DOWN", "DOWN",
             "OK", "HOLD BACK"]


def launch(journal, config):
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--no-web", "--display", "dummy", "--input", "stdin",
         "--ack", "--journal", str(journal), "--config", str(config)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        bufsize=1, env=env)


def read_acks(proc, acks: list[str], ready: threading.Event) -> threading.Thread:
    def run() -> None:
        for line in proc.stdout:
            if line.startswith("ack "):
                acks.append(line.strip())
            elif line.strip() == "ready":
                ready.set()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def rolled(acks: list[str]) -> bool:
    """Whether a roll's result is among `acks` (committed: the dice stopped tumbling)."""
    return any(json.loads(line.split(" ", 3)[3]).get("type") == "roll" for line in acks)


def expected_events(base: list[dict], acks: list[str]) -> list[dict]:
    """Apply the acknowledgements to `base`: appends and redos push, undos pop."""
    events = list(base)
    for line in acks:
        _, what, count, body = line.split(" ", 3)
        if what == "undo":
            events.pop()
        else:
            events.append(json.loads(body))
        assert len(events) == int(count)
    return events


@pytest.mark.slow
def test_sigkill_mid_game_loses_no_acknowledged_event(tmp_path):
    journal = tmp_path / "journal.db"
    config = tmp_path / "config.toml"
    config.write_text("[dice]\nanimation = 0.0\n")
    rng = random.Random(2024)
    base: list[dict] = []  # the events found after the previous kill
    acked = 0
    for round_no in range(4):
        proc = launch(journal, config)
        acks: list[str] = []
        ready = threading.Event()
        reader = read_acks(proc, acks, ready)
        assert ready.wait(timeout=30), proc.stderr.read() if proc.poll() is not None else ""
        keys = (START if round_no == 0 else []) + TURN_KEYS * 6
        # Kill somewhere in the middle of the game: after a random number of acks. Keys go as
        # fast as the pipe takes them, but for the wait for each roll's ack (ROLLED).
        kill_after = rng.randint(3, 25)
        deadline = time.monotonic() + 300  # a bound for a stuck app on a slow box, no timing
        since = 0  # the acks before the last key sent
        for key in keys:
            if len(acks) >= kill_after or proc.poll() is not None:
                break
            if key == ROLLED:
                while (not rolled(acks[since:]) and len(acks) < kill_after
                       and proc.poll() is None and time.monotonic() < deadline):
                    time.sleep(0.001)
                continue
            since = len(acks)
            proc.stdin.write(key + "\n")
            proc.stdin.flush()
        while len(acks) < kill_after and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        assert len(acks) >= kill_after, f"round {round_no}: the app stopped early ({acks})"
        time.sleep(rng.uniform(0, 0.005))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        reader.join(timeout=5)
        acked += len(acks)

        db = sqlite3.connect(journal)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
        with Store(journal) as store:
            assert store.notice == ""
            resumed = store.resume()
            assert resumed is not None
            want = expected_events(base, acks)
            # Every acknowledged change is there. One change committed in the instant before
            # the kill may be there without its ack having been read: one event more (an
            # append or redo) or one fewer (an undo).
            got = resumed.events
            assert got == want or got[:-1] == want or got == want[:-1], (got, want)
            base = got
            # The resumed state equals a replay of the exported log.
            from companion.session.log import dump, read
            replayed = read(list(dump(resumed)))
            assert replayed.state == resumed.state
    assert len(base) > 0
