"""The project's packaging (issue 29, item 9): setuptools deprecated `project.license` as a
table, and says builds that use it stop working from 2027-02-18; a Pi installed after that day
with a current setuptools could then fail to install the companion. The license is an SPDX
expression, read by the setuptools floor the build-system names."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECTS = [ROOT, ROOT / "examples" / "coin-toss"]

# Build a project's metadata as pip's build does, with every setuptools warning an error.
BUILD = """
import sys, warnings
warnings.simplefilter("error")
from setuptools import build_meta
print(build_meta.prepare_metadata_for_build_wheel(sys.argv[1]))
"""


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name if p != ROOT else "companion")
def test_the_metadata_builds_without_a_deprecation(tmp_path, project):
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    floor = next(r for r in meta["build-system"]["requires"] if r.startswith("setuptools"))
    assert floor == "setuptools>=77"  # the first to read an SPDX `license` string
    import setuptools
    assert int(setuptools.__version__.split(".")[0]) >= 77, "make test installs the floor"
    # A copy of what the metadata is made from (the package's files are not read for it).
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        if (project / name).exists():
            shutil.copy(project / name, src / name)
    for pkg in ("companion", "coin_toss"):
        (src / pkg).mkdir()
        (src / pkg / "__init__.py").write_text("")
    out = tmp_path / "meta"
    out.mkdir()
    done = subprocess.run([sys.executable, "-c", BUILD, str(out)], cwd=src, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    metadata = next(out.glob("*.dist-info")) / "METADATA"
    assert "License-Expression: MIT" in metadata.read_text(encoding="utf-8").splitlines()
