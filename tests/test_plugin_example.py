"""A house game installs beside the companion and needs nothing else (issue 19): the example
in examples/coin-toss is pip-installed into a temporary venv that sees this venv's packages,
and appears everywhere a built-in kind does: the panel's New game, /api/kinds, the phone's
new-game form and its own buttons (its web part, coin_toss/web.py), `companion replay`,
`companion stats`, `companion screens` and the web screenshots. No file of the companion
names it.

The temporary venv reaches the companion and its dependencies through a .pth file that adds
this venv's site-packages as a site directory (so the companion's own editable install and
its entry points are found); the example itself is built and installed by pip (offline: the
build requirements come from the configured index, as for the companion's own install).

The web is checked against the real companion started in the temporary venv (`served`: an App
on the dummy display and its web on a free port, companion.gallery.web_shots.Companion), driven
from here over HTTP and by Debian's chromium through Playwright. The browser tests are marked
`browser` (`make test-fast` leaves them out); without chromium they skip, saying why, and under
CI (CI=true) they fail instead, as tests/web's do.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
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
    # A copy is built, not the folder itself: pip's build/ and egg-info stay out of the tree.
    source = home.parent / "coin-toss"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info",
                                                                   "__pycache__"))
    done = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(source)],
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


def _unavailable(why: str):
    """No browser: skip, saying why; under CI fail (tests/web/conftest.py's convention)."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must run the browser tests, but {why}")
    pytest.skip(why)


def chromium() -> str:
    """Debian's chromium (the path the companion's web shots use), with Playwright importable."""
    from companion.gallery.web_shots import chromium_path
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    exe = chromium_path()
    if exe is None:
        _unavailable("no chromium on this machine (Debian: apt-get install chromium)")
    assert exe is not None
    return exe


# The real companion in the temporary venv, on a free port: it prints its address, then a fresh
# pairing code (the one the box shows under Pair a phone) for each "code" line it reads, and
# stops at any other line. Its config sets the game's house rule, as a group's would.
SERVE = """\
import sys
from pathlib import Path

from companion.games import load_config as load
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
    code = ("from companion.games import load_config as load\n"
            "from companion.ui.screen import Context\n"
            "from companion.ui.start import choose_game\n"
            "menu = choose_game(Context(config=load(None), journal=None))\n"
            "print([i.label for i in menu.items])\n")
    assert "Coin Toss" in run(house, "-c", code)


def test_api_kinds_lists_it_with_its_phone_buttons_and_house_rule(served):
    kinds = served.get("/api/kinds")
    assert [k["kind"] for k in kinds][-1] == "coin-toss"  # after the built-in kinds
    coin = kinds[-1]
    assert (coin["title"], coin["min_players"], coin["max_players"]) == ("Coin Toss", 2, 4)
    assert coin["rules"] == {"target": 2}  # the config's house rule, checked by the game
    assert any("UP: the call was right" in line for line in coin["house_rules"])
    assert coin["actions"] == [{
        "kind": "quick", "title": "P1's call: a right one scores",
        "buttons": [{"label": "Right call", "event": {"type": "toss", "right": True},
                     "color": "green"},
                    {"label": "Wrong call", "event": {"type": "toss", "right": False},
                     "color": "red"}]}]


@pytest.mark.browser
def test_a_phone_starts_it_and_its_buttons_score(served):
    """Paired, the phone's New game offers it with its house rule; on /control its own buttons
    record the calls, and the pages show the points as they change, to the win."""
    from playwright.sync_api import expect, sync_playwright

    exe = chromium()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            page = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{served.url}/J/{served.code()}")  # the QR code's address
            page.wait_for_url(f"{served.url}/")
            page.wait_for_selector("#control-box:not([hidden])")

            page.goto(served.url + "/control")
            page.click("#new-game summary")
            expect(page.locator("#ng-kind option[value=coin-toss]")).to_have_text("Coin Toss")
            page.select_option("#ng-kind", "coin-toss")
            expect(page.locator("#rule-target")).to_have_value("2")
            players = page.locator("#ng-players input")
            expect(players).to_have_count(2)  # its fewest players
            players.nth(0).fill("Ann")
            players.nth(1).fill("Ben")
            page.select_option("#ng-first", "0")
            page.click("#new-game-form button[type=submit]")
            expect(page.locator("#who")).to_have_text("Ann")

            acts = page.locator("#actions")
            expect(acts.locator("h3").first).to_have_text("Ann's call: a right one scores")
            expect(page.locator("#players thead th").nth(1)).to_have_text("Points")
            acts.get_by_role("button", name="Right call", exact=True).click()
            expect(page.locator("#who")).to_have_text("Ben")
            expect(page.locator("#players tbody tr").first.locator("td.num:not(.clock-col)")).to_have_text("1")
            snap = served.get("/api/state")
            assert snap["game"] == "coin-toss" and snap["rules"] == {"target": 2}
            assert snap["state"]["points"] == [1, 0]

            acts.get_by_role("button", name="Wrong call", exact=True).click()
            expect(page.locator("#who")).to_have_text("Ann")
            expect(acts.locator("h3").first).to_have_text("Ann's call: a right one wins")
            expect(page.locator("#turn-sub")).to_contain_text("a right call wins")
            acts.get_by_role("button", name="Right call", exact=True).click()
            expect(page.locator("#turn")).to_have_attribute("data-state", "over")
            snap = served.get("/api/state")
            assert snap["state"]["over"] and snap["state"]["winners"] == [0]
            assert snap["state"]["points"] == [2, 0] and snap["actions"] == []
            assert [e["text"] for e in snap["history"]] == [
                "Ann called it right", "Ben called it wrong", "Ann called it right"]
            assert not errors
        finally:
            browser.close()


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
        "coin-toss-clock-running.png", "coin-toss-clock-warn.png",  # every kind's turn clock
        "coin-toss-end.png", "coin-toss-main.png", "coin-toss-menu.png"]


@pytest.mark.browser
def test_web_shots_draw_its_phone_and_tv_pages(house, tmp_path):
    from PIL import Image

    chromium()
    out = tmp_path / "web"
    written = run(house, "-m", "companion.gallery.web_shots", str(out), "--kind", "coin-toss")
    names = ["coin-toss-phone.png", "coin-toss-tv.png", "coin-toss-actions-phone.png",
             "coin-toss-tv-4-players.png"]  # the TV at its most players
    assert written.split() == [str(out / n) for n in names]
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    with Image.open(out / "coin-toss-tv.png") as tv, Image.open(out / "coin-toss-phone.png") as ph:
        assert tv.size == (1920, 1080) and ph.size[0] == 390
    with Image.open(out / "coin-toss-tv-4-players.png") as crowd:
        assert crowd.size == (1920, 1080)


def test_its_own_tests_pass_with_the_companion_test_driver(house):
    """Run from the copy that was built (nothing is written into the source tree), with -P so
    that `coin_toss` is the installed package, not the folder the tests sit beside."""
    copy = house.parents[2] / "coin-toss"
    out = run(house, "-P", "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
              str(copy / "tests"), cwd=copy)
    assert " passed" in out and "failed" not in out


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-v"]))
