"""What a new user runs into first: plain `pytest`, a small terminal, commands given the
wrong arguments or files. Each test is a bug found by trying the companion as a new user."""

from __future__ import annotations

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
