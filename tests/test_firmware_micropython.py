"""The firmware's pure modules under real MicroPython: the WebAssembly port, run by node.

`make test` installs the port into tests/mpy/node_modules (npm). Without node or the port
these tests skip, saying why; under CI (CI=true) they fail instead, so CI cannot pass
without them.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MPY = HERE / "mpy"
FIRMWARE = ROOT / "firmware"
VECTORS = HERE / "vectors" / "protocol.json"
PORT = MPY / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"

sys.path.insert(0, str(MPY))
sys.path.insert(0, str(FIRMWARE))
import fwchecks  # noqa: E402


def _node() -> str:
    node = shutil.which("node")
    why = None
    if node is None:
        why = "node is not installed"
    elif not PORT.exists():
        why = "the MicroPython WebAssembly port is not installed (make test runs npm install)"
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the MicroPython tests, but {why}")
        pytest.skip(why)
    return node


def run_micropython(firmware: Path) -> tuple[int, list[str]]:
    proc = subprocess.run(
        [_node(), str(MPY / "run.mjs"), str(firmware), str(MPY / "fwchecks.py"), str(VECTORS)],
        capture_output=True, text=True, timeout=120,
    )
    return proc.returncode, (proc.stdout + proc.stderr).splitlines()


@pytest.fixture(scope="module")
def mpy_output():
    return run_micropython(FIRMWARE)


def test_runs_on_micropython(mpy_output):
    code, lines = mpy_output
    assert code == 0, "\n".join(lines)
    impl = [ln for ln in lines if ln.startswith("IMPL ")]
    assert impl and impl[0].split()[1] == "micropython", lines
    loaded = next(ln for ln in lines if ln.startswith("LOADED ")).split()[1:]
    wanted = sorted(p.name for p in FIRMWARE.glob("*.py") if p.name != "main.py")
    assert loaded == wanted


def test_every_check_passes_on_micropython(mpy_output):
    code, lines = mpy_output
    passed = [ln.split()[1] for ln in lines if ln.startswith("PASS ")]
    failed = [ln for ln in lines if ln.startswith("FAIL ")]
    assert not failed, "\n".join(failed)
    # The very same checks as under CPython, none left out.
    assert passed == [name for name, _, _ in fwchecks.checks()]
    assert "DONE 0" in lines


def test_micropython_catches_a_broken_firmware(tmp_path):
    """Proof that the port really runs the firmware files: break one and watch it fail."""
    broken = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, broken)
    src = (broken / "proto.py").read_text()
    assert "x ^= b" in src
    (broken / "proto.py").write_text(src.replace("x ^= b", "x ^= b ^ 1", 1))
    code, lines = run_micropython(broken)
    failed = {ln.split()[1] for ln in lines if ln.startswith("FAIL ")}
    assert {"check_checksums", "check_frames", "check_exchanges"} <= failed, lines
