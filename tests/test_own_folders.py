"""Issue 34, item 12: `make test` failed while the emulator was open. `make run` serves
127.0.0.1:8080 on the user's default journal and publishes where its web listens beside it
(companion/session/webinfo.py); the doctor's tests read the user's own state folder and found
it. Every test now runs in its own config and state folders (tests/conftest.py, `own_folders`),
so nothing a user has saved or running changes a result, and no test touches a user's
journal."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config as configmod
from tests.conftest import USER_DIRS

ROOT = Path(__file__).resolve().parent.parent


def test_a_test_sees_only_its_own_empty_folders(own_folders):
    for name in USER_DIRS:
        assert Path(os.environ[name]).is_relative_to(own_folders)
    assert "STATE_DIRECTORY" not in os.environ
    assert configmod.default_config_path().is_relative_to(own_folders)
    assert configmod.load(None).journal_path().is_relative_to(own_folders)
    assert not configmod.default_config_path().exists()
    assert not any(own_folders.rglob("*"))


def port_8080_or_free() -> int:
    """8080 (where `make run` serves) when it is free here, else any free port."""
    for port in (8080, 0):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
            return s.getsockname()[1]
        except OSError:
            continue
        finally:
            s.close()
    raise AssertionError("no free port")


def journal_games(env: dict[str, str]) -> str:
    """The user's journal as `companion export` reads it: every game and the open one's
    events (the running companion keeps its own files moving: the bytes are no measure)."""
    out = []
    for args in (["--list"], []):
        p = subprocess.run([sys.executable, "-m", "companion.cli", "export", *args],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert p.returncode == 0, p.stderr
        out.append(p.stdout)
    return "\n".join(out)


@pytest.mark.slow
def test_the_doctor_tests_pass_while_the_user_runs_the_companion(tmp_path):
    """A "user" (their own XDG folders) runs the companion on their default journal, with a
    game on it and its web on 127.0.0.1:8080 as `make run` has it; the doctor's tests, run
    from that user's shell, pass, and the user's journal is byte for byte the same after."""
    user = tmp_path / "user"
    env = {k: v for k, v in os.environ.items() if k != "STATE_DIRECTORY"}
    env.update({name: str(user / name.lower()) for name in USER_DIRS},
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    port = port_8080_or_free()
    box = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--display", "dummy", "--input", "stdin",
         "--ack", "--web", f"127.0.0.1:{port}"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert box.stdout.readline().strip() == f"web http://127.0.0.1:{port}/"
        assert box.stdout.readline().strip() == "ready"
        box.stdin.write("OK\n" * 5 + "NEXT\n")  # a table game, Ann first; then Ben's turn
        box.stdin.flush()
        while "next" not in (line := box.stdout.readline()):
            assert line, "the user's companion stopped"
        state = user / "xdg_state_home" / "chroma-companion"
        assert list(state.glob("*.web"))  # where the doctor looked for a running web
        before = journal_games(env)
        assert '"next"' in before
        tests = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             "tests/test_web_cli.py", "-k", "doctor"], capture_output=True, text=True,
            env=env, cwd=ROOT, timeout=600)
        assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
        assert journal_games(env) == before
    finally:
        out, err = box.communicate("QUIT\n", timeout=60)
    assert box.returncode == 0, err
