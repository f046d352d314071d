"""Every game kind has its screens: the registry (companion/games/__init__.py) finds each kind
through its entry point, and a kind that is unknown or declared wrong fails loudly, by name,
instead of running with the table's screens and menu."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest

from companion import games
from companion.errors import CompanionError, KindBroken
from companion.games import GameKind, kinds, load, mode_for
from companion.rules.game import Game
from companion.ui.modes import Mode


def test_every_game_kind_has_its_own_mode():
    assert list(kinds()) == ["table", "dice-factor", "flower-power", "match-patch",
                             "penny-badger", "pig-farm", "rainbow-rush", "chaos", "drop-rainbow"]
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


def test_a_declaration_that_is_wrong_is_refused_by_name():
    with pytest.raises(KindBroken, match="house:KIND is not a GameKind"):
        load([FakeEntryPoint("brand-new", "house:KIND", object())])
    with pytest.raises(KindBroken, match="declares kind 'brand-new'"):
        load([FakeEntryPoint("other", "house:KIND", NEW)])
    with pytest.raises(KindBroken, match="installed twice"):
        load([FakeEntryPoint("brand-new", "a:KIND", NEW), FakeEntryPoint("brand-new", "b:KIND", NEW)])
    wrong = GameKind(rules=New(), panel=Mode)  # the table's screens for another game
    with pytest.raises(KindBroken, match="its panel is for 'table'"):
        load([FakeEntryPoint("brand-new", "house:KIND", wrong)])["brand-new"].mode


def test_a_house_game_that_fails_to_load_is_named_and_the_others_still_load(caplog):
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
            "print(sorted(m for m in sys.modules if m.startswith('companion.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == str(["companion.games.pig_farm", "companion.games.pig_farm.rules",
                               "companion.games.pig_farm.sample"])


def test_house_rules_in_the_config_import_only_the_kinds_they_name():
    """A [rules.<kind>] section is checked by that kind's engine; the others stay unread, so a
    config with house rules does not undo the one-kind start-up."""
    import subprocess
    import sys
    code = ("import sys\nfrom companion.config import check\n"
            "check({'rules': {'pig-farm': {'target': 300}}})\n"
            "print(sorted({m.split('.')[2] for m in sys.modules\n"
            "              if m.startswith('companion.games.')}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == str(["pig_farm"])
