"""The firmware's pure modules under CPython: every check in tests/mpy/fwchecks.py.

The same checks run under MicroPython in test_firmware_micropython.py.
"""

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for p in (HERE.parent / "firmware", HERE / "mpy"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import fwchecks  # noqa: E402

VECTORS = json.loads((HERE / "vectors" / "protocol.json").read_text())
CHECKS = fwchecks.checks()


@pytest.mark.parametrize("name,fn,needs_vectors", CHECKS, ids=[c[0] for c in CHECKS])
def test_firmware_check(name, fn, needs_vectors):
    fn(VECTORS) if needs_vectors else fn()


def test_the_checks_can_fail(monkeypatch):
    """A broken checksum must be caught, or the checks prove nothing."""
    import proto

    monkeypatch.setattr(proto, "checksum", lambda body: 0)
    with pytest.raises(AssertionError):
        fwchecks.check_checksums(VECTORS)
    with pytest.raises(AssertionError):
        fwchecks.check_exchanges(VECTORS)
