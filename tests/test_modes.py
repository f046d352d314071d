"""Every game kind has its screens: a kind without a registered mode fails loudly, by name,
instead of running with the table's screens and menu."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.errors import CompanionError, ModeMissing
from companion.rules import GAMES
from companion.ui.modes import MODES, Mode, check_modes, mode_for


def test_every_game_kind_has_its_own_mode():
    assert set(MODES) == set(GAMES)
    for kind in GAMES:
        assert mode_for(kind).kind == kind


def test_an_unknown_kind_is_an_error_not_the_table():
    with pytest.raises(ModeMissing, match="'no-such-game' has no screen mode") as e:
        mode_for("no-such-game")
    assert isinstance(e.value, CompanionError) and isinstance(e.value, LookupError)


def test_the_check_names_the_kind_without_a_mode_and_the_mode_without_a_game():
    modes = {"table": Mode()}
    with pytest.raises(ModeMissing, match="no screen mode for game kind pig-farm"):
        check_modes(["table", "pig-farm"], modes)
    with pytest.raises(ModeMissing, match="screen mode table without a game engine"):
        check_modes([], modes)
    check_modes(["table"], modes)


def test_a_game_engine_added_without_screens_stops_the_import_of_the_ui():
    code = ("from companion.rules import GAMES, register\n"
            "from companion.rules.game import Game\n"
            "class New(Game):\n    kind = 'brand-new'\n"
            "register(New())\n"
            "import companion.ui.modes\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0
    assert "ModeMissing: no screen mode for game kind brand-new" in done.stderr
