"""Every firmware file compiles with mpy-cross, and only main.py touches the hardware."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
FILES = sorted(FIRMWARE.glob("*.py"))
HARDWARE = {"machine", "neopixel", "ssd1306", "rp2", "select", "framebuf", "network", "os"}


def test_firmware_files_exist():
    names = {p.name for p in FILES}
    assert {"main.py", "proto.py", "faces.py", "rolling.py", "debounce.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    proc = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(out), str(path)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:1] == b"M"  # the .mpy magic


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", [p for p in FILES if p.name != "main.py"],
                         ids=[p.name for p in FILES if p.name != "main.py"])
def test_pure_modules_touch_no_hardware(path):
    assert not imports(path) & HARDWARE


def test_mpy_cross_rejects_bad_code(tmp_path):
    """The compile test above would notice a syntax error."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n")
    proc = subprocess.run([sys.executable, "-m", "mpy_cross", str(bad)], capture_output=True)
    assert proc.returncode != 0
