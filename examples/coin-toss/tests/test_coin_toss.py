"""Coin Toss's own tests, run as a house game's author would: `python -m pytest tests` in
this folder, with the companion installed. The rules are in README.md here."""

from __future__ import annotations

import pytest
from coin_toss import KIND

from companion.errors import IllegalEvent
from companion.rules.game import Header

GAME = KIND.rules


def fold(*events, target=3, players=("Ann", "Ben", "Cy")):
    header = GAME.check_header(Header("coin-toss", players, 0, {"target": target}))
    return GAME.fold(header, events)


def test_a_right_call_scores_and_the_turn_passes_either_way():
    s = fold({"type": "toss", "right": True}, {"type": "toss", "right": False})
    assert s.points == (1, 0, 0) and s.table.current == 2 and not s.over


def test_the_first_to_the_target_wins_at_once():
    s = fold(*[{"type": "toss", "right": True}] * 4, target=2)
    assert s.over and s.winners == (0,) and s.points == (2, 1, 1)


def test_a_toss_needs_a_yes_or_no_and_a_bad_target_is_refused():
    with pytest.raises(IllegalEvent, match="right must be true or false"):
        fold({"type": "toss", "right": "yes"})
    with pytest.raises(IllegalEvent, match="target must be 1-99"):
        fold(target=0)


def test_ending_the_game_names_the_leaders():
    s = fold({"type": "toss", "right": True}, {"type": "toss", "right": True}, {"type": "end"})
    assert s.winners == (0, 1)


# --- the panel, through the companion's test driver (companion/testing.py) -------------------

@pytest.fixture
def app(tmp_path):
    from companion.testing import close, make_app

    app = make_app(tmp_path, kind="coin-toss", players=("Ann", "Ben"), rules={"target": 2},
                   setup=False)
    yield app
    close(app)


def test_up_is_a_right_call_and_down_a_wrong_one(app):
    from companion.testing import press

    press(app, "UP")
    press(app, "DOWN")
    assert app.journal.events == [{"type": "toss", "right": True},
                                  {"type": "toss", "right": False}]
    assert app.journal.state.points == (1, 0) and app.journal.state.table.current == 0


def test_the_winning_call_ends_the_game_and_hold_back_brings_it_back(app):
    from companion.testing import press

    press(app, "UP", "DOWN", "UP")
    assert app.journal.state.over and app.journal.state.winners == (0,)
    press(app, "BACK", hold=True)
    assert not app.journal.state.over and app.journal.state.points == (1, 0)
