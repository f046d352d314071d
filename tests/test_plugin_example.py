"""A house game installs beside the companion and needs nothing else (issue 19): the example
in examples/coin-toss is pip-installed into a temporary venv that sees this venv's packages,
and appears everywhere a built-in kind does: the panel's New game, /api/kinds (with its web
part's phone buttons, coin_toss/web.py), `companion replay`, `companion stats` and
`companion screens`. No file of the companion names it.

The temporary venv reaches the companion and its dependencies through a .pth file that adds
this venv's site-packages as a site directory (so the companion's own editable install and
its entry points are found); the example itself is built and installed by pip (offline: the
build requirements come from the configured index, as for the companion's own install).

The web is checked against the real companion started in the temporary venv (`served`: an App
on the dummy display and its web on a free port, companion.gallery.web_shots.Companion), driven
from here over HTTP.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import sysconfig
import threading
import urllib.request
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


# The real companion in the temporary venv, on a free port: it prints its address, then a fresh
# pairing code (the one the box shows under Pair a phone) for each "code" line it reads, and
# stops at any other line. Its config sets the game's house rule, as a group's would.
SERVE = """\
import sys
from pathlib import Path

from companion.config import load
from companion.gallery.web_shots import Companion

c = Companion(Path(sys.argv[1]), config=load(sys.argv[2], required=True)).start()
try:
    print("web", c.url, flush=True)
    for line in sys.stdin:
        if line.strip() != "code":
            break
        print("code", c.web.pairing.code(), flush=True)
finally:
    c.close()
"""


class Served:
    """The companion `SERVE` runs, from this side: its `url`, and `code()` to pair a page."""

    def __init__(self, py: Path, home: Path) -> None:
        (home / "config.toml").write_text("[rules.coin-toss]\ntarget = 2\n", encoding="utf-8")
        self.log = home / "stderr.txt"
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(
                [str(py), "-c", SERVE, str(home / "journal.db"), str(home / "config.toml")],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self._expect("web")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def _expect(self, word: str) -> str:
        try:
            line = self.lines.get(timeout=60)
        except queue.Empty:
            line = ""
        assert line.startswith(word + " "), (line, self.log.read_text(errors="replace"))
        return line.split(None, 1)[1].strip()

    def code(self) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write("code\n")
        self.proc.stdin.flush()
        return self._expect("code")

    def get(self, path: str):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def close(self) -> None:
        try:
            self.proc.communicate("quit\n", timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()


@pytest.fixture(scope="module")
def served(house, tmp_path_factory):
    s = Served(house, tmp_path_factory.mktemp("served"))
    yield s
    s.close()


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


def test_api_kinds_lists_it_with_its_phone_buttons_and_house_rule(served):
    kinds = served.get("/api/kinds")
    assert [k["kind"] for k in kinds][-1] == "coin-toss"  # after the built-in kinds
    coin = kinds[-1]
    assert (coin["title"], coin["min_players"], coin["max_players"]) == ("Coin Toss", 2, 8)
    assert coin["rules"] == {"target": 2}  # the config's house rule, checked by the game
    assert any("UP: the call was right" in line for line in coin["house_rules"])
    assert coin["actions"] == [{
        "kind": "quick", "title": "P1's call: a right one scores",
        "buttons": [{"label": "Right call", "event": {"type": "toss", "right": True},
                     "color": "green"},
                    {"label": "Wrong call", "event": {"type": "toss", "right": False},
                     "color": "red"}]}]


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
