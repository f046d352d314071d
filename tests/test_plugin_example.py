"""A house game installs beside the companion and needs nothing else (issue 19): the example
in examples/coin-toss is pip-installed into a temporary venv that sees this venv's packages,
and appears everywhere a built-in kind does. No file of the companion names it.

The temporary venv reaches the companion and its dependencies through a .pth file that adds
this venv's site-packages as a site directory (so the companion's own editable install and
its entry points are found); the example itself is built and installed by pip (offline: the
build requirements come from the configured index, as for the companion's own install).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "coin-toss"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> Path:
    """The python of a temporary venv with the companion and the coin-toss game installed."""
    home = tmp_path_factory.mktemp("house") / "venv"
    venv.create(home, with_pip=True)
    py = home / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(purelib, "_companion_site.pth").write_text(
        f"import site; site.addsitedir({ours!r})\n", encoding="utf-8")
    done = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return py


def run(py: Path, *args: str, cwd: Path | None = None, check: bool = True) -> str:
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([str(py), *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=env)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_example_is_named_by_no_file_of_the_companion():
    hits = [str(p.relative_to(ROOT)) for p in (ROOT / "companion").rglob("*")
            if p.is_file() and p.suffix in (".py", ".js", ".html", ".css", ".toml")
            and ("coin-toss" in p.read_text(encoding="utf-8", errors="replace")
                 or "coin_toss" in p.read_text(encoding="utf-8", errors="replace"))]
    assert hits == []


def test_it_is_a_game_kind_with_its_screens(house):
    out = run(house, "-c", "from companion import games; "
              "print(list(games.kinds())); print(type(games.mode_for('coin-toss')).__name__)")
    kinds, mode = out.splitlines()
    assert "'coin-toss'" in kinds and kinds.index("'drop-rainbow'") < kinds.index("'coin-toss'")
    assert mode == "CoinTossMode"


def test_it_is_offered_in_new_game_on_the_panel(house, tmp_path):
    code = ("from companion.config import load\n"
            "from companion.ui.screen import Context\n"
            "from companion.ui.start import choose_game\n"
            "menu = choose_game(Context(config=load(None), journal=None))\n"
            "print([i.label for i in menu.items])\n")
    assert "Coin Toss" in run(house, "-c", code)


def test_replay_folds_its_log(house, tmp_path):
    log = tmp_path / "coin.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in (
        {"game": "coin-toss", "players": ["Ann", "Ben"], "rules": {"target": 2}},
        {"type": "toss", "right": True}, {"type": "toss", "right": False},
        {"type": "toss", "right": True})) + "\n", encoding="utf-8")
    state = json.loads(run(house, "-m", "companion.cli", "replay", "--json", str(log)))
    assert state["over"] and state["winners"] == [0] and state["points"] == [2, 0]
    assert "Winner: Ann" in run(house, "-m", "companion.cli", "replay", str(log))


def test_stats_count_its_games(house, tmp_path):
    journal = tmp_path / "journal.db"
    code = ("import random, sys\n"
            "from companion.gallery import sample\n"
            "from companion.session.store import Store\n"
            "store = Store(sys.argv[1])\n"
            "sample.fill(store, random.Random(3), games=4, events=30, kinds=('coin-toss',))\n"
            "store.close()\n")
    run(house, "-c", code, str(journal))
    out = json.loads(run(house, "-m", "companion.cli", "stats", "--json", "--journal",
                         str(journal), "--game", "coin-toss"))
    assert out["games"]["finished"] == 4 and out["games"]["by_game"] == {"coin-toss": 4}
    some = next(iter(out["players"].values()))
    assert some["by_game"]["coin-toss"]["score"] == "points"
    assert "Coin Toss" in run(house, "-m", "companion.cli", "stats", "--journal", str(journal))


def test_screens_draws_its_screens(house, tmp_path):
    run(house, "-m", "companion.cli", "screens", str(tmp_path / "shots"))
    assert sorted(p.name for p in (tmp_path / "shots").glob("coin-toss-*.png")) == [
        "coin-toss-end.png", "coin-toss-main.png", "coin-toss-menu.png"]


def test_its_own_tests_pass_with_the_companion_test_driver(house):
    out = run(house, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
              str(EXAMPLE / "tests"), cwd=EXAMPLE)
    assert " passed" in out and "failed" not in out


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-v"]))
