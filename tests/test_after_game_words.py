"""Words and Play again found by a new user trying a designed game (issue 37): a skip's
history line names who is skipped (as its call does, from the state after the move) for every
kind; a design's "How the box keeps this game" says its target in numbers and its moves in
plain words; a chosen player's field says what the player is for; Play again of a design
whose first player is "the group picks" asks who goes first (the built-in kinds keep one tap,
the first player one seat on); Undo and Redo from a phone say what they took back."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import games
from companion.games.design.web import chosen_label
from companion.rules.design import load
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.web.snapshot import build
from tests.test_web_api import Served, state_of

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Ann", "Ben", "Cy", "Dee")


def example(name: str) -> dict:
    return tomllib.loads((ROOT / "examples" / "designs" / f"{name}.toml").read_text())


DESIGNS = ["patch-pairs", "penalty-pot", "ten-rounds", "flower-count"]
KINDS = [*games.kinds(), *(f"design:{d}" for d in DESIGNS)]


def kind_of(name: str) -> str:
    if name.startswith("design:"):
        return games.design_kind(example(name.removeprefix("design:"))).kind
    return name


def opened(kind: str) -> Journal:
    """A new game of `kind` past its question of who goes first (a design's roll-off)."""
    j = Journal(Header(kind, NAMES))
    if j.game.next_needs(j.state) is not None and j.state.table.turns == 0:
        j.append({"type": "first", "player": 0})
    return j


@pytest.mark.parametrize("name", KINDS)
def test_the_history_line_of_a_skip_names_who_it_passes_over(name):
    """It said just "Skip" on /tv and the phones (a log's skip folds in every kind, the
    designs without a Skip button too)."""
    j = opened(kind_of(name))
    j.append({"type": "skip"})
    assert build(j, seq=1)["history"][-1]["text"] == "Skip: Ben is skipped", name
    j.append({"type": "skip"})  # the pending skips add up: both are named, as the call says
    assert build(j, seq=2)["history"][-1]["text"] == "Skip: Ben and Cy are skipped"
    calls = j.game.calls(j.events[-1], j.header, j.previous_state, j.state)
    assert calls[0] == ("skip", "Ben and Cy are skipped")
    j.append({"type": "next"})  # the skips are spent: the lines already made stay as they were
    assert [h["text"] for h in build(j, seq=3)["history"]][-3:-1] == [
        "Skip: Ben is skipped", "Skip: Ben and Cy are skipped"]


def test_a_designs_rules_say_the_target_and_the_moves_in_plain_words():
    """New game's "How the box keeps this game" said "reaches the target" with no number,
    and "Moves (menu; UP: Steal)"."""
    kind = games.design_kind(example("ten-rounds"))
    text = " ".join(kind.mode.house_rules_text)
    design = load(example("ten-rounds"))
    assert "The game ends: first to 100 points, or after 10 rounds, or when one player is " \
        "left, or when the group ends it." in text
    assert "reaches the target" not in text and "(menu;" not in text
    assert f"Moves: {design.moves[0].name}" in text
    assert f"UP plays {design.moves[0].name}" in text
    # The house rules chosen for a game are in its words on the panel's House rules screen.
    header = Header(kind.kind, NAMES, 0, {"target": 150, "rounds": 1})
    assert "The game ends: first to 150 points, or after 1 round, or" in \
        " ".join(kind.mode.house_rules(header))


@pytest.mark.parametrize("base,effect,label", [
    ("penalty-pot", {"do": "pay", "amount": 1, "from": "chosen", "to": "current"}, "Take from"),
    ("ten-rounds", {"do": "take", "tally": "points", "amount": 1, "who": "chosen"}, "Take from"),
    ("penalty-pot", {"do": "pay", "amount": 1, "from": "current", "to": "chosen"}, "Pay to"),
    ("ten-rounds", {"do": "add", "tally": "points", "amount": 1, "who": "chosen"}, "Give to"),
])
def test_a_chosen_players_label_says_what_the_player_is_for(base, effect, label):
    """The form said only "Player: choose..."."""
    d = example(base)
    d["moves"] = [{"name": "Steal", "effects": [effect]}]
    design = load(d)
    assert chosen_label(design.moves[0]) == label
    kind = games.design_kind(design.to_json())
    j = Journal(Header(kind.kind, NAMES))
    forms = [a for a in build(j, seq=1)["actions"] if a.get("name") == "move-steal"]
    assert [f["label"] for f in forms[0]["fields"] if f["name"] == "player"] == [label]


@pytest.fixture
def served(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    yield s
    s.close()


def test_play_again_of_a_design_where_the_group_picks_asks_who_goes_first(served):
    served.pair()
    picked = games.design_kind(example("patch-pairs")).kind
    served.new_game(picked, list(NAMES), first=1)
    served.post("/api/action", {"event": {"type": "end"}})
    over = state_of(served)
    assert over["picks_first"] is True
    status, data = served.post("/api/play-again", {"seq": over["seq"]})
    assert status == 422 and data["error"] == ("Who goes first? In Patch Pairs the group picks: "
                                               "choose who, then Play again")
    assert state_of(served)["game_id"] == over["game_id"]  # nothing changed
    for bad in ({"first": "2"}, {"first": True}):
        assert served.post("/api/play-again", {"seq": over["seq"], **bad})[0] == 400, bad
    status, data = served.post("/api/play-again", {"seq": over["seq"], "first": 9})
    assert status == 422 and data["error"] == "Who goes first: choose one of the 4 players"
    status, data = served.post("/api/play-again", {"seq": over["seq"], "first": 3})
    assert status == 200
    snap = state_of(served)
    assert snap["game_id"] == data["game_id"] != over["game_id"]
    assert snap["state"]["current"] == 3 and served.app.journal.events == [
        {"type": "first", "player": 3}]
    assert len(served.app.stack) == 1  # the phone chose: straight to the game


def test_play_again_of_a_built_in_kind_stays_one_tap(served):
    served.pair()
    served.new_game("table", list(NAMES), first=1)
    served.post("/api/action", {"event": {"type": "end"}})
    over = state_of(served)
    assert over["picks_first"] is False
    status, _ = served.post("/api/play-again", {"seq": over["seq"]})
    assert status == 200
    snap = state_of(served)
    assert snap["first"] == 2 and snap["events"] == 0  # one seat on, nothing asked


def test_undo_and_redo_from_a_phone_say_what_they_took_back(served):
    served.pair()
    served.new_game("table", list(NAMES))
    served.post("/api/action", {"event": {"type": "skip"}})
    status, data = served.post("/api/undo", {})
    assert status == 200 and data["words"] == "Undone: Skip: Ben is skipped; it is Ann's turn"
    status, data = served.post("/api/redo", {})
    assert status == 200 and data["words"] == "Redone: Skip: Ben is skipped; it is Ann's turn"
    served.post("/api/action", {"event": {"type": "end"}})
    served.post("/api/undo", {})
    status, data = served.post("/api/redo", {})
    assert data["words"] == "Redone: End of game; the game is over"
