"""Every game kind has its screens: the registry (companion/games/__init__.py) finds each kind
through its entry point, and a kind that is unknown or declared wrong fails loudly, by name,
instead of running with the table's screens and menu."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest

from companion import games
from companion.errors import CompanionError, IllegalEvent, KindBroken
from companion.games import GameKind, kinds, load, mode_for
from companion.rules.game import Game
from companion.ui.modes import Mode


def test_every_game_kind_has_its_own_mode():
    # The built-in ones first, in this order; a house game installed beside them comes after.
    assert list(kinds())[:9] == ["table", "dice-factor", "flower-power", "match-patch",
                                 "penny-badger", "pig-farm", "rainbow-rush", "chaos",
                                 "drop-rainbow"]
    assert [k for k, v in kinds().items() if games.builtin(v)] == list(kinds())[:9]
    for kind in kinds():
        assert mode_for(kind).kind == kind


def test_an_unknown_kind_is_an_error_not_the_table():
    with pytest.raises(KindBroken, match="'no-such-game' is not installed") as e:
        mode_for("no-such-game")
    assert isinstance(e.value, CompanionError) and isinstance(e.value, LookupError)


@dataclass
class FakeEntryPoint:
    """The part of importlib.metadata.EntryPoint that the registry uses."""

    name: str
    value: str
    obj: object

    def load(self) -> object:
        if isinstance(self.obj, Exception):
            raise self.obj
        return self.obj


class New(Game):
    kind = "brand-new"
    title = "Brand New"


class NewMode(Mode):
    kind = "brand-new"


NEW = GameKind(rules=New(), panel=NewMode)


def test_a_house_game_is_found_and_ordered_after_the_built_in_ones():
    table = games.get("table")
    found = load([FakeEntryPoint("brand-new", "house:KIND", NEW),
                  FakeEntryPoint("table", "companion.games.table:KIND", table)])
    assert list(found) == ["table", "brand-new"]
    assert found["brand-new"].mode.kind == "brand-new"


@pytest.fixture
def fresh_registry(monkeypatch):
    """A registry with no house game failures remembered (each test's own)."""
    monkeypatch.setattr(games, "_FAILED", {})


def test_a_house_game_declared_wrong_is_left_out_by_name(fresh_registry, caplog):
    table = FakeEntryPoint("table", "companion.games.table:KIND", games.get("table"))
    with caplog.at_level(logging.ERROR):
        found = load([table, FakeEntryPoint("brand-new", "house:KIND", object())])
        assert list(found) == ["table"]
        found = load([table, FakeEntryPoint("other", "house:KIND", NEW)])
        assert list(found) == ["table"]
    assert "house:KIND is not a GameKind" in caplog.text
    assert "declares kind 'brand-new'" in caplog.text
    with pytest.raises(IllegalEvent, match="'other' is installed but could not be loaded"):
        games.get("other")  # a game of it in the journal says why, not "unknown"


def test_a_name_installed_twice_keeps_the_first_and_says_so(fresh_registry, caplog):
    other = GameKind(rules=New(), panel=NewMode)
    with caplog.at_level(logging.ERROR):
        found = load([FakeEntryPoint("brand-new", "a:KIND", NEW),
                      FakeEntryPoint("brand-new", "b:KIND", other)])
    assert found["brand-new"] is NEW
    assert "brand-new is installed twice (a:KIND and b:KIND)" in caplog.text


def test_a_panel_for_another_kind_is_refused_by_name():
    wrong = GameKind(rules=New(), panel=Mode)  # the table's screens for another game
    with pytest.raises(KindBroken, match="its panel is for 'table'"):
        load([FakeEntryPoint("brand-new", "house:KIND", wrong)])["brand-new"].mode


def test_a_house_game_that_fails_to_load_is_named_and_the_others_still_load(fresh_registry,
                                                                               caplog):
    table = games.get("table")
    with caplog.at_level(logging.ERROR):
        found = load([FakeEntryPoint("broken", "house:KIND", ImportError("no module named x")),
                      FakeEntryPoint("table", "companion.games.table:KIND", table)])
    assert list(found) == ["table"]
    assert "game kind broken (house:KIND) could not be loaded: no module named x" in caplog.text


def test_a_built_in_kind_that_fails_to_load_stops_start_up():
    with pytest.raises(ImportError):
        load([FakeEntryPoint("table", "companion.games.table:KIND", ImportError("gone"))])


def test_asking_for_one_kind_imports_that_kind_only():
    """Start-up resumes one game: it reads that kind's rules, not the eight others'."""
    import subprocess
    import sys
    code = ("import sys\nfrom companion import games\ngames.get('pig-farm')\n"
            "print(sorted(m for m in sys.modules if m.startswith('companion.games.')))\n"
            "print('importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.split("\n")[:2] == [str(["companion.games.pig_farm",
                                        "companion.games.pig_farm.rules",
                                        "companion.games.pig_farm.sample"]),
                                   "False"]  # nor the installed distributions' metadata


def test_every_built_in_kind_is_where_get_looks_for_it():
    """`get` imports a built-in kind from `builtin_entry(name)` without reading the entry
    points: that holds only while every built-in entry point is exactly that, and every
    package under companion/games/ is registered."""
    import tomllib
    from pathlib import Path

    root = Path(games.__file__).parent
    declared = tomllib.loads((root.parents[1] / "pyproject.toml").read_text())[
        "project"]["entry-points"][games.GROUP]
    installed = {ep.name: ep.value for ep in games.entry_points() if games._builtin(ep)}
    assert installed == declared  # the installed metadata is the checkout's
    assert {name: games.builtin_entry(name) for name in declared} == declared
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    # and the designs' one kind package (its entry point group: chroma_companion.designs)
    assert packages == {name.replace("-", "_") for name in declared} | {
        games.DESIGN_ENTRY.partition(":")[0].rpartition(".")[2]}


def test_a_name_no_built_in_has_is_looked_up_in_the_entry_points(monkeypatch):
    asked = []
    monkeypatch.setattr(games, "_ONE", {})
    monkeypatch.setattr(games, "_KINDS", None)
    monkeypatch.setattr(games, "entry_points", lambda: asked.append(1) or [
        FakeEntryPoint("brand-new", "house:KIND", NEW)])
    assert games.get("table").kind == "table" and not asked  # a built-in: no metadata read
    assert games.get("brand-new") is NEW and asked == [1]
    for odd in ("no-such-game", "../etc", "table.rules", ""):
        with pytest.raises(IllegalEvent, match="unknown game"):
            games.get(odd)


def test_house_rules_in_the_config_import_only_the_kinds_they_name():
    """A [rules.<kind>] section is checked by that kind's engine; the others stay unread, so a
    config with house rules does not undo the one-kind start-up."""
    import subprocess
    import sys
    code = ("import sys\nfrom companion.games import check_config as check\n"
            "check({'rules': {'pig-farm': {'target': 300}}})\n"
            "print(sorted({m.split('.')[2] for m in sys.modules\n"
            "              if m.startswith('companion.games.')}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == str(["pig_farm"])


def test_games_of_a_kind_no_longer_installed_wait_unbroken(tmp_path):
    """A house game uninstalled (or failing to load): its unfinished games are neither
    resumed nor marked broken, and the start-up says why; the box starts at the start menu."""
    import sqlite3

    from companion.games import load_config
    from companion.rules.game import Header
    from companion.session.store import Store
    from companion.testing import close, make_app

    path = tmp_path / "journal.db"
    with Store(path) as st:
        j = st.new_game(Header("table", ("Ann", "Ben")))
        j.append({"type": "next"})
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET header=replace(header, ?, ?)", ('"table"', '"gone-kind"'))
    # Its checksums as the box that wrote it made them: a kind uninstalled, not a header
    # changed behind the journal's back (that one is altered: tests/test_journal.py).
    from companion.session import checksum
    checksum.fill(db)
    db.commit()
    db.close()
    with Store(path) as st:
        assert st.resume() is None
        assert "gone-kind" in st.notice and "not installed" in st.notice
        assert st.db.execute("SELECT status FROM games").fetchone()[0] == "open"
    app = make_app(tmp_path, config=load_config(None))
    try:
        assert app.journal is None  # the start menu, not a traceback
    finally:
        close(app)


def test_a_house_game_whose_screens_fail_neither_starts_nor_stops_the_box(tmp_path,
                                                                        monkeypatch):
    """Its New game is a toast and writes nothing; an open game of it (from before the
    failure) is kept, and the box starts at the start menu, saying why."""
    from companion.games import load_config
    from companion.rules.game import Header
    from companion.session.store import Store
    from companion.testing import close, make_app
    from companion.ui.actions import NewGame

    def panel():
        raise ImportError("no module named frobnicate")

    broken = GameKind(rules=New(), panel=panel)
    monkeypatch.setattr(games, "_KINDS", {**games.kinds(), "brand-new": broken})
    app = make_app(tmp_path, config=load_config(None))
    try:
        assert app.perform(NewGame(Header("brand-new", ("Ann", "Ben")))) is False
        assert "Brand New: its screens could not be loaded" in app.toast[0]
        assert app.store.games() == [] and app.journal is None
    finally:
        close(app)
    with Store(tmp_path / "other.db") as st:
        st.new_game(Header("brand-new", ("Ann", "Ben"))).append({"type": "next"})
    app = make_app(tmp_path, journal="other.db", config=load_config(None))
    try:
        assert app.journal is None
        assert "Not resumed: Brand New: its screens could not be loaded" in app.top.raw[0]
        assert app.store.db.execute("SELECT status FROM games").fetchone()[0] == "open"
    finally:
        close(app)


def test_a_panel_that_fails_is_tried_and_logged_once(monkeypatch, caplog):
    tries = []

    def panel():
        tries.append(1)
        raise ImportError("no module named frobnicate")

    monkeypatch.setattr(games, "_KINDS", {**games.kinds(),
                                           "brand-new": GameKind(rules=New(), panel=panel)})
    with caplog.at_level(logging.ERROR):
        for _ in range(3):
            assert "could not be loaded" in games.panel_problem("brand-new")
    assert len(tries) == 1 and caplog.text.count("its screens could not be loaded") == 1


def test_a_part_is_named_by_its_path_and_imported_only_when_used():
    """The built-in kinds name their panel, screenshots and web part by dotted path (one
    `Part` in the registry, in place of three loader functions in each kind's package)."""
    import subprocess
    import sys
    code = ("import sys\nfrom companion import games\nk = games.get('chaos')\n"
            "print(k.panel, k.gallery, k.web)\n"
            "print('companion.games.chaos.panel' in sys.modules)\n"
            "k.mode\nprint('companion.games.chaos.panel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split("\n")
    assert out[:3] == ["Part('companion.games.chaos.panel:ChaosMode') "
                       "Part('companion.games.chaos.gallery:shots') "
                       "Part('companion.games.chaos.web:WEB')", "False", "True"]
    for k in kinds().values():  # every built-in kind declares its parts so
        if games.builtin(k):
            assert all(isinstance(p, games.Part) for p in (k.panel, k.gallery, k.web)), k.kind


@pytest.mark.parametrize("path", ["", "companion.games.chaos", "a b:C", "mod:", ":Name",
                                  "mod:1x"])
def test_a_part_path_that_is_no_path_is_refused_when_declared(path):
    with pytest.raises(KindBroken, match="is not a dotted path"):
        games.Part(path)


def test_a_part_naming_nothing_is_a_one_line_problem_of_its_kind(monkeypatch):
    broken = GameKind(rules=New(), panel=games.Part("companion.ui.modes:NoSuchMode"))
    monkeypatch.setattr(games, "_KINDS", {**games.kinds(), "brand-new": broken})
    monkeypatch.setattr(games, "_PANEL_PROBLEMS", {})
    assert games.panel_problem("brand-new") == ("Brand New: its screens could not be loaded "
                                                "(companion.ui.modes:NoSuchMode: "
                                                "companion.ui.modes has no NoSuchMode)")
    assert games.Part("companion.ui.modes:Mode")().kind == "table"  # a class: called
