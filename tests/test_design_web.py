"""A design game's web part (companion/games/design/web.py), made from the design alone: a
button per move that needs nothing typed, a form per move that asks something, the round
score's form, the tallies and the pot in the view, a refused move in words; held to the same
checks as every kind's web part (tests/test_web_kinds.py). And /api/kinds lists the designs
New game offers, titled "(ours)", in their colour."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path

import pytest

from companion import games
from companion.errors import IllegalEvent
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.web import kinds as kw
from companion.web.snapshot import build
from companion.web.words import plain
from tests.test_web_kinds import (
    ACTION_TAGS,
    CELL_TAGS,
    FIELD_TAGS,
    STATIC,
    WIDGET_TAGS,
    along_samples,
    filled_event,
    problems,
    seen,
    tags,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "designs").glob("*.toml"))


def design_json(name: str) -> dict:
    return tomllib.loads((ROOT / "examples" / "designs" / f"{name}.toml").read_text())


def kind_of(name: str) -> games.GameKind:
    return games.design_kind(design_json(name))


def journals(k: games.GameKind) -> list[Journal]:
    """A new game at the fewest and the most players, and states along random games."""
    g = k.rules
    out = [Journal(Header(k.kind, tuple(f"P{i + 1}" for i in range(n)), 0, {}))
           for n in sorted({g.min_players, g.max_players})]
    return out + along_samples(k, seeds=4, moves=60, every=6, first=lambda seed: 0)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_form_of_a_design_sends_events_its_engine_takes(path):
    k = kind_of(path.stem)
    assert isinstance(kw.part(k), kw.KindWeb)
    for j in journals(k):
        s = seen(j)
        found = kw.actions(k, s)
        assert not problems(found, k.rules), problems(found, k.rules)
        for a in found:
            sends = [a.submit] if isinstance(a, kw.Form) and a.submit else list(a.buttons)
            for b in sends:
                e = filled_event(a, dict(b.event), len(s.players)) if isinstance(a, kw.Form) \
                    else dict(b.event)
                if isinstance(a, kw.Form):
                    for f in a.fields:
                        if isinstance(f, kw.Whole):  # filled in: its lowest
                            e[f.key or f.name] = f.low
                assert kw.refusal(k, s, e) is None, (a, e, kw.refusal(k, s, e))
                try:
                    k.rules.apply(j.state, e)
                except IllegalEvent as why:
                    assert not re.match(r"(unknown event type|\w+: (unknown|missing) field)",
                                        str(why)), (a, e, str(why))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_tag_of_a_design_is_one_the_pages_render(path):
    k = kind_of(path.stem)
    for j in journals(k):
        view, actions = kw.render(k, seen(j))
        assert view is not None and view["stats"]
        for a in actions:
            assert a["kind"] in ACTION_TAGS
            for f in a.get("fields", []):
                assert tags(f) <= FIELD_TAGS | CELL_TAGS | {"whole"}, tags(f)
        assert {w["kind"] for w in view.get("stats", [])} <= WIDGET_TAGS
        json.dumps(build(j, seq=1))
    control = (STATIC / "control.js").read_text()
    assert 'case "whole"' in control


def test_moves_are_buttons_or_forms_as_they_ask():
    k = kind_of("penalty-pot")
    j = Journal(Header(k.kind, ("Ann", "Ben", "Cy"), 0, {}))
    found = kw.actions(k, seen(j))
    quick = [a for a in found if isinstance(a, kw.Quick)]
    assert [b.label for b in quick[0].buttons] == ["Penalty", "Tax"]
    forms = {a.title: a for a in found if isinstance(a, kw.Form)}
    assert list(forms) == ["Jackpot", "Steal", "Gamble"]
    amount = forms["Jackpot"].fields[0]
    assert isinstance(amount, kw.Whole) and (amount.low, amount.high) == (1, 20)
    steal = forms["Steal"].fields[0]
    assert isinstance(steal, kw.Choice) and steal.default is None  # the players' input
    assert [o.label for o in steal.options] == ["Ben", "Cy"]  # not who pays themselves
    # An empty amount is refused naming the field, before the engine sees it.
    s = seen(j)
    assert kw.refusal(k, s, {"type": "move", "name": "Jackpot"}) == \
        "Amount: enter a whole number, 1 to 20"
    assert kw.refusal(k, s, {"type": "move", "name": "Jackpot", "amount": 30}) == \
        "Amount: 1 to 20, not 30"


def test_the_view_has_a_column_per_tally_and_the_pot():
    k = kind_of("penalty-pot")
    j = Journal(Header(k.kind, ("Ann", "Ben", "Cy"), 0, {}))
    j.append({"type": "move", "name": "Penalty"})
    view = kw.to_json(kw.part(k).view(seen(j)))
    assert view["columns"] == [{"name": "Coins", "cells": ["8", "10", "10"]}]
    assert {"kind": "stat", "label": "pot", "value": "7", "style": "huge"} in view["stats"]
    assert {"kind": "stat", "label": "out", "value": "nobody"} in view["stats"]


def test_out_is_said_beside_the_tally_that_put_the_player_out_only():
    """A player out is "(out)" in the column of the tally whose out_at they reached, not in
    every column (the row is struck through besides; four columns of "(out)" were too wide
    for a 16 players' table on a 720p TV)."""
    d = copy.deepcopy(design_json("penalty-pot"))
    d["tallies"][0]["start"] = 2
    d["tallies"].append({"name": "stars"})
    k = games.design_kind(d)
    j = Journal(Header(k.kind, ("Ann", "Ben", "Cy"), 0, {}))
    j.append({"type": "move", "name": "Penalty"})  # Ann pays her 2 coins: out
    view = kw.to_json(kw.part(k).view(seen(j)))
    assert view["columns"] == [{"name": "Coins", "cells": ["0 (out)", "2", "2"]},
                               {"name": "Stars", "cells": ["0", "0", "0"]}]


def test_the_round_score_is_asked_as_a_form_per_player():
    k = kind_of("ten-rounds")
    j = Journal(Header(k.kind, ("Ann", "Ben"), 0, {}))
    j.append({"type": "first", "player": 0})
    found = kw.actions(k, seen(j))
    score = next(a for a in found if isinstance(a, kw.Form) and a.name == "score")
    per = score.fields[0]
    assert isinstance(per, kw.PerSeat) and (per.what, per.low, per.high) == ("points", -50, 100)
    assert kw.refusal(k, seen(j), {"type": "score", "scores": [3]}) == \
        "Enter Ben's points (a whole number)"
    stats = kw.to_json(kw.part(k).view(seen(j)))["stats"]
    assert {"kind": "stat", "label": "target", "value": "100 points"} in stats
    assert {"kind": "stat", "label": "rounds played", "value": "0 of 10"} in stats


def test_the_roll_for_who_goes_first_is_the_question_asked():
    k = kind_of("ten-rounds")
    j = Journal(Header(k.kind, ("Ann", "Ben"), 0, {}))
    found = kw.render(k, seen(j))[1]
    assert found[0]["ask"] and found[0]["submit"]["event"] == {"type": "roll", "player": 0}
    j.append({"type": "roll", "player": 0, "dice": {"d8": 5}})
    assert kw.render(k, seen(j))[1][0]["submit"]["event"] == {"type": "roll", "player": 1}


FIRST = [{"type": "first", "player": 0}]


@pytest.mark.parametrize("name, before, event, said", [
    ("ten-rounds", [], {"type": "move", "name": "Bonus"},
     "First roll for who goes first: each player rolls the 8-sided die (or the group picks, "
     "Who goes first)"),
    ("penalty-pot", [], {"type": "move", "name": "Steal", "player": 0},
     "Steal: choose a player other than the one whose turn it is"),
    ("penalty-pot", [], {"type": "move", "name": "Steal"}, "Steal: choose a player"),
    ("ten-rounds", FIRST, {"type": "score", "scores": [5, 500]},
     "Round scores: Ben's score must be a whole number -50 to 100, not 500"),
    ("penalty-pot", [], {"type": "move", "name": "Jackpot", "amount": 99},
     "Jackpot: the amount is a whole number 1 to 20, not 99"),
])
def test_a_refused_move_is_said_in_the_moves_words(name, before, event, said):
    k = kind_of(name)
    j = Journal(Header(k.kind, ("Ann", "Ben"), 0, {}), list(before))
    with pytest.raises(IllegalEvent) as e:
        k.rules.apply(j.state, event)
    assert plain(str(e.value), event, ["Ann", "Ben"], k) == said


def test_api_kinds_lists_the_offered_designs_as_ours_in_their_colour():
    from companion.config import load
    from companion.web.server import Web
    k = kind_of("penalty-pot")
    games.offer_designs([k.kind])
    try:
        listed = Web(config=load(None), post=lambda _: None).kinds()
    finally:
        games.offer_designs([])
    ours = [x for x in listed if x["ours"]]
    assert [(x["kind"], x["title"], x["color"]) for x in ours] == \
        [(k.kind, "Penalty Pot (ours)", "#2e86ab")]
    assert len(listed) > 1 and not any(x["title"].endswith("(ours)")
                                       for x in listed if not x["ours"])
    assert ours[0]["rule_labels"]["coins start"] == "Coins at the start"
    assert ours[0]["rules"] == {"coins start": 10, "pot start": 5}  # the box adds the design
    assert ours[0]["actions"]  # a new game's forms


def test_the_first_six_moves_are_at_hand_the_others_below():
    d = design_json("patch-pairs")
    d["moves"] = [{"name": f"Move {i + 1}", "effects": [
        {"do": "add", "tally": "pairs", "amount": 1}]} for i in range(8)]
    k = games.design_kind(d)
    found = kw.actions(k, seen(Journal(Header(k.kind, ("Ann", "Ben"), 0, {}))))
    assert [(a.title, a.main, [b.label for b in a.buttons]) for a in found] == [
        ("", True, [f"Move {i + 1}" for i in range(6)]),
        ("More moves", False, ["Move 7", "Move 8"])]


def test_a_design_without_rounds_shows_the_turns_played_not_rounds():
    """Patch Pairs has no round score and no rounds to play: its figure is the turns ended,
    not "rounds played" (2 of which showed when not every player had had a turn: a skip ends
    a turn too). A design where rounds count keeps its rounds."""
    k = kind_of("patch-pairs")
    j = Journal(Header(k.kind, ("Ann", "Ben", "Cy"), 0, {}))
    for e in ({"type": "skip_to", "player": 2}, {"type": "skip_to", "player": 1},
              {"type": "skip_to", "player": 2}):
        j.append(e)
    stats = kw.to_json(kw.part(k).view(seen(j)))["stats"]
    assert {"kind": "stat", "label": "turns played", "value": "3"} in stats
    assert not [s for s in stats if s.get("label") == "rounds played"]
    k = kind_of("ten-rounds")
    stats = kw.to_json(kw.part(k).view(seen(Journal(Header(k.kind, ("Ann", "Ben"), 0, {})))))["stats"]
    assert [s["label"] for s in stats if "played" in s.get("label", "")] == ["rounds played"]
