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
