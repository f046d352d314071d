"""What a new user runs into first: plain `pytest`, a small terminal, commands given the
wrong arguments or files. Each test is a bug found by trying the companion as a new user."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_plain_pytest_finds_the_bench_package():
    # `pytest` (the script, not `python -m pytest`) does not put the working directory on
    # sys.path; pyproject's pythonpath must, or tests/test_bench.py cannot import bench.
    pytest_script = Path(sys.executable).parent / "pytest"
    done = subprocess.run([str(pytest_script), "--collect-only", "-q", "-p", "no:cacheprovider",
                           "tests/test_bench.py"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "ModuleNotFoundError" not in done.stdout


def test_export_of_a_game_number_too_big_for_the_journal_is_a_usage_line(tmp_path, capsys):
    # 2**64 overflowed SQLite's integer in the store: a traceback, exit 1.
    from companion.cli import main

    for bad in ("99999999999999999999", "0", "-3", "two"):
        try:
            code = main(["export", "--game", bad, "--journal", str(tmp_path / "j.db")])
        except SystemExit as e:  # argparse: usage and the problem on stderr
            code = e.code
        err = capsys.readouterr().err
        assert code == 2 and "Traceback" not in err
        assert f"argument --game: {bad!r} is not a game number" in err


def test_screens_into_a_file_says_it_is_not_a_directory(tmp_path, capsys):
    from companion.cli import main

    target = tmp_path / "screens.png"
    target.write_bytes(b"not a directory")
    assert main(["screens", str(target)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"companion: cannot write the screens to {target}: it exists and is not a " \
                  "directory"
    assert target.read_bytes() == b"not a directory"


def test_a_journal_path_at_another_programs_file_leaves_it_alone(tmp_path, capsys):
    # It was taken for a damaged journal: renamed to hosts.damaged-... and a new database
    # created in its place (pointed at /etc/passwd as root, that is the system's user list).
    from companion.cli import main

    other = tmp_path / "hosts"
    text = b"127.0.0.1 localhost\n::1 localhost\n" * 40
    other.write_bytes(text)
    code = main(["run", "--no-web", "--display", "dummy", "--input", "stdin",
                 "--journal", str(other)])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert err == (f"companion: {other} is not a companion journal (not an SQLite database at "
                   "all); it was left as it is")
    assert other.read_bytes() == text and sorted(tmp_path.iterdir()) == [other]


def test_a_journal_whose_header_is_damaged_is_still_set_aside(tmp_path):
    import pytest

    from companion.errors import JournalError
    from companion.rules.game import Header
    from companion.session.store import Store

    path = tmp_path / "journal.db"
    with Store(path) as st:
        st.new_game(Header("table", ("Ann", "Ben")))
    raw = path.read_bytes()
    zeroed = bytes(16) + raw[16:]
    one_bit = raw[:3] + bytes([raw[3] ^ 0x10]) + raw[4:]
    wiped = b"\xa5" * 100 + raw[100:]
    # Named as a database (journal.db): set aside whatever is left of it. Named otherwise:
    # set aside while something of SQLite's header is left.
    for n, bad in enumerate((zeroed, one_bit, wiped)):
        for name in (f"j{n}.db", f"journal{n}") if bad is not wiped else (f"j{n}.db",):
            target = tmp_path / name
            target.write_bytes(bad)
            with Store(target) as st:
                assert "was damaged" in st.notice and st.games() == []
            kept = [p for p in tmp_path.glob(f"{name}.damaged-*")
                    if not p.name.endswith(("-wal", "-shm"))]
            assert [p.read_bytes() for p in kept] == [bad]
    # Not named as a database and nothing of SQLite's header left: not taken for a journal.
    target = tmp_path / "wiped"
    target.write_bytes(wiped)
    with pytest.raises(JournalError, match="not a companion journal"):
        Store(target)
    assert target.read_bytes() == wiped
    assert not list(tmp_path.glob("wiped.*"))


def test_ctrl_c_while_roll_or_doctor_waits_is_a_quiet_stop(monkeypatch, capsys):
    from companion.cli import doctor, main, roll as rollcli

    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(rollcli, "roll", interrupted)  # waiting for the roller's answer
    monkeypatch.setattr(doctor, "check_roller", interrupted)  # waiting for HELLO
    assert main(["roll", "--port", "/dev/ttyACM9", "d8"]) == 130
    assert main(["doctor", "--journal", "/nonexistent/j.db"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_the_emulator_redraws_when_the_window_grows(tmp_path):
    # A terminal too small shows the size it needs; made bigger, the panel must come back at
    # once, not at the next press that happens to change the frame.
    import fcntl
    import os
    import select
    import signal
    import struct
    import termios
    import time

    def resize(fd: int, cols: int, rows: int) -> None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def read_until(fd: int, text: str, seconds: float = 20.0) -> str:
        out, end = b"", time.monotonic() + seconds
        while text.encode() not in out and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return out.decode("utf-8", "replace")

    config = tmp_path / "config.toml"
    config.write_text('[roller]\nport = "none"\n')
    master, slave = os.openpty()
    resize(master, 60, 20)  # the emulator starts in a 60x20 terminal
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    child = subprocess.Popen([str(Path(sys.executable).parent / "companion"), "run",
                              "--emulator", "--no-web", "--journal", str(tmp_path / "j.db"),
                              "--config", str(config)],
                             stdin=slave, stdout=slave, stderr=slave, env=env,
                             start_new_session=True)
    os.close(slave)
    try:
        assert "at least 66x18" in read_until(master, "at least 66x18")
        while select.select([master], [], [], 1.0)[0]:  # until the start-up frames are drawn
            os.read(master, 65536)
        resize(master, 80, 24)
        child.send_signal(signal.SIGWINCH)  # as the terminal does when its window grows
        # The panel's border, 64 cells wide (Braille), with the seat lights' dots on it.
        drawn = re.sub(r"\x1b\[[0-9;]*m", "", read_until(master, "q quit"))
        border = re.sub("[○●]", "─", drawn)
        assert "┌" + "─" * 64 + "┐" in border
        os.write(master, b"q")
        assert child.wait(timeout=20) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(master)


def test_a_nul_character_in_a_config_text_is_a_config_error(tmp_path, capsys):
    # "\u0000" is valid TOML; as a journal path it was a ValueError traceback at start-up.
    from companion.cli import main

    for section, key in (("storage", "path"), ("roller", "port"), ("power", "command")):
        cfg = tmp_path / f"{key}.toml"
        cfg.write_text(f'[{section}]\n{key} = "/tmp/a\\u0000b"\n')
        code = main(["run", "--no-web", "--display", "dummy", "--input", "stdin",
                     "--config", str(cfg)])
        err = capsys.readouterr().err.strip()
        assert code == 2, err
        assert err == (f"companion: config: {section}.{key}: '/tmp/a\\x00b' contains a NUL "
                       "character (\\u0000)")
