"""The design format (companion/rules/design/; docs/designing-a-game.md): the examples of the
docs and of examples/designs/ load, `to_json` is canonical, the schema is published as it is,
and every refusal is a DesignError in plain words naming the field."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.errors import CompanionError, DesignError
from companion.rules.design import FORMAT_VERSION, Design, load, rule_keys, schema

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "designing-a-game.md"

BASE: dict[str, Any] = {
    "format_version": 1, "title": "Pairs",
    "tallies": [{"name": "pairs"}],
    "moves": [{"name": "Pair", "effects": [{"do": "add", "tally": "pairs", "amount": 1}]}],
    "end": [{"when": "group"}],
    "winner": {"by": "most", "tally": "pairs"},
}
COINS = {"name": "coins", "start": 10, "money": True}


def changed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    design = copy.deepcopy(BASE)
    change(design)
    return design


def doc_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_docs_whole_design_loads_and_every_fragment_is_toml():
    blocks = doc_blocks("toml")
    whole = [b for b in blocks if "format_version" in b]
    assert len(whole) == 1 and len(blocks) >= 5
    design = load(tomllib.loads(whole[0]))
    assert design.title == "Penalty Pot" and design.pot == 5
    assert [m.name for m in design.moves] == ["Penalty", "Steal"]
    for block in blocks:
        tomllib.loads(block)


def test_a_fragment_of_the_docs_fits_in_a_design():
    """Each field's example, put in the base design, is accepted (with what it refers to)."""
    ten = tomllib.loads(next(b for b in doc_blocks("toml") if b.startswith("end = [")))
    design = changed(lambda d: d.update(
        tallies=[{"name": "points"}, {"name": "strikes", "out_at": 3}], pot={"start": 1},
        moves=[], **ten))
    assert [e.when for e in load(design).end] == ["reach", "rounds", "pot_empty", "one_left",
                                                  "group"]


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "designs").glob("*.toml")),
                         ids=lambda p: p.stem)
def test_every_example_design_loads_and_gives_back_its_canonical_dict(path):
    with open(path, "rb") as f:
        design = load(tomllib.load(f))
    canonical = design.to_json()
    assert load(canonical) == design
    assert json.loads(json.dumps(canonical)) == canonical  # plain JSON, for the journal
    assert load(json.loads(json.dumps(canonical))).to_json() == canonical
    assert canonical["format_version"] == FORMAT_VERSION == design.format_version


def test_to_json_fills_every_default():
    assert load(BASE).to_json() == {
        "format_version": 1, "title": "Pairs", "version": 1, "color": "#4a90d9",
        "players": {"min": 2, "max": 16},
        "tallies": [{"name": "pairs", "start": 0, "floor": None, "out_at": None,
                     "money": False}],
        "pot": None,
        "moves": [{"name": "Pair", "effects": [{"do": "add", "tally": "pairs", "amount": 1,
                                                "who": "current"}], "ask": None}],
        "round_score": None, "turn_order": {"moves": [], "first": "picked"}, "dice": [],
        "end": [{"when": "group"}], "winner": {"by": "most", "tally": "pairs"},
        "house_rules": []}


def test_names_are_tidied_and_tallies_found_in_any_case():
    design = load(changed(lambda d: (d.update(title="  Big   Pairs "),
                                     d["moves"][0]["effects"][0].update(tally="PAIRS"))))
    assert design.title == "Big Pairs"
    assert design.moves[0].effects[0].tally == "pairs"


def test_the_schema_is_published_byte_for_byte():
    ours = (ROOT / "companion" / "rules" / "design" / "schema.json").read_bytes()
    assert (ROOT / "docs" / "design.schema.json").read_bytes() == ours
    assert json.loads(ours)["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema.schema() == json.loads(ours)


def test_the_house_rules_a_design_may_offer():
    design = load(changed(lambda d: (d["tallies"].append(COINS), d.update(pot={"start": 0}),
                                     d.update(end=[{"when": "reach", "tally": "pairs",
                                                    "target": 6}]))))
    assert list(rule_keys(design)) == ["pairs start", "coins start", "pot start", "target"]


def test_a_design_error_is_a_companion_error_and_a_value_error():
    with pytest.raises(DesignError) as e:
        load({})
    assert isinstance(e.value, CompanionError) and isinstance(e.value, ValueError)
    assert e.value.field == "" and str(e.value) == e.value.words


REFUSALS: list[tuple[str, Callable[[dict[str, Any]], object], str, str]] = [
    # (id, change to BASE, field, words)
    ("not a dict", lambda d: d.clear(), "", "the design: missing 'format_version'"),
    ("format", lambda d: d.update(format_version=2), "format_version",
     "format_version: must be 1 (the one format there is), not 2"),
    ("unknown field", lambda d: d.update(colour="#000000"), "",
     "the design: unknown field 'colour' (known: format_version, title, version, color, "
     "players, tallies, pot, moves, round_score, turn_order, dice, end, winner, house_rules)"),
    ("float", lambda d: d["tallies"][0].update(start=1.0), "tallies[0].start",
     "tallies[0].start: must be a whole number, not 1.0"),
    ("bool", lambda d: d["tallies"][0].update(start=True), "tallies[0].start",
     "tallies[0].start: must be a whole number, not True"),
    ("title type", lambda d: d.update(title=3), "title", "title: must be text, not 3"),
    ("title long", lambda d: d.update(title="x" * 17), "title",
     "title: is longer than 16 characters"),
    ("title blank", lambda d: d.update(title="  "), "title", "title: must be a non-empty name"),
    ("title hidden", lambda d: d.update(title="A\tB"), "title",
     "title: the box's screen cannot show '\\t' in 'A\\tB' (a control or invisible character)"),
    ("colour", lambda d: d.update(color="red"), "color",
     "color: must be a colour like #3366cc, not 'red'"),
    ("players range", lambda d: d.update(players={"min": 1}), "players.min",
     "players.min: must be at least 2, not 1"),
    ("players order", lambda d: d.update(players={"min": 5, "max": 3}), "players",
     "players: min 5 is more than max 3"),
    ("five tallies", lambda d: d.update(tallies=[{"name": f"t{i}"} for i in range(5)]),
     "tallies", "tallies: has 5, at most 4"),
    ("tally twice", lambda d: d["tallies"].append({"name": "Pairs"}), "tallies",
     "tallies: 'Pairs' is named twice"),
    ("two money", lambda d: d["tallies"].extend([COINS, {**COINS, "name": "gold"}]),
     "tallies", "tallies: coins and gold are both money: a design keeps one money tally "
                "(and the pot)"),
    ("below floor", lambda d: d["tallies"][0].update(floor=1), "tallies[0].start",
     "tally pairs: starts at 0, below its floor 1"),
    ("money owed", lambda d: d["tallies"].append({**COINS, "floor": -5}), "tallies[1].floor",
     "tally coins: money can't go below 0 (it is never owed), so 'never below' can't be -5"),
    ("out at start", lambda d: d["tallies"][0].update(out_at=0), "tallies[0].out_at",
     "tally pairs: out at 0 is where it starts: everybody would be out at once"),
    ("out below floor", lambda d: d["tallies"][0].update(start=5, floor=0, out_at=-1),
     "tallies[0].out_at", "tally pairs: out at -1 is below its floor 0: nobody could ever be out"),
    ("amount zero", lambda d: d["moves"][0]["effects"][0].update(amount=0),
     "moves[0].effects[0].amount",
     "moves[0].effects[0].amount: must be a whole number 1-9999 or \"ask\" (typed at play "
     "time), not 0"),
    ("do", lambda d: d["moves"][0]["effects"][0].update(do="fly"), "moves[0].effects[0].do",
     "moves[0].effects[0].do: must be one of add, take, pay, end_turn, skip, reverse, roll, "
     "not 'fly'"),
    ("13 moves", lambda d: d.update(moves=d["moves"] * 13), "moves", "moves: has 13, at most 12"),
    ("move twice", lambda d: d["moves"].append(d["moves"][0]), "moves",
     "moves: 'Pair' is named twice"),
    ("no tally", lambda d: d["moves"][0]["effects"][0].update(tally="pears"),
     "moves[0].effects[0].tally",
     "move Pair: adds to 'pears' but there is no tally 'pears' (the tallies: pairs)"),
    ("money add", lambda d: (d["tallies"].append(COINS),
                             d["moves"].append({"name": "Bonus", "effects": [
                                 {"do": "add", "tally": "coins", "amount": 1}]})),
     "moves[1].effects[0].tally",
     "move Bonus: adds to 'coins', a money tally (money only moves by payments)"),
    ("money take", lambda d: (d["tallies"].append(COINS),
                              d["moves"][0]["effects"][0].update(do="take", tally="coins")),
     "moves[0].effects[0].tally",
     "move Pair: takes from 'coins', a money tally (money only moves by payments)"),
    ("pay nothing", lambda d: d["moves"].append({"name": "Steal", "effects": [
        {"do": "pay", "amount": 1, "from": "chosen", "to": "current"}]}),
     "moves[1].effects[0]",
     "move Steal: pays from 'the chosen player' but the game has no pot or tally to pay into"),
    ("pay no money", lambda d: (d.update(pot={"start": 3}), d["moves"].append(
        {"name": "Fine", "effects": [{"do": "pay", "amount": 1, "from": "current",
                                      "to": "pot"}]})),
     "moves[1].effects[0]",
     "move Fine: pays from 'the current player' but no tally is money (money = true)"),
    ("pay no pot", lambda d: (d["tallies"].append(COINS), d["moves"].append(
        {"name": "Fine", "effects": [{"do": "pay", "amount": 1, "from": "current",
                                      "to": "pot"}]})),
     "moves[1].effects[0]", "move Fine: pays into 'the pot' but the game has no pot"),
    ("pay self", lambda d: (d["tallies"].append(COINS), d["moves"].append(
        {"name": "Fine", "effects": [{"do": "pay", "amount": 1, "from": "current",
                                      "to": "current"}]})),
     "moves[1].effects[0]", "move Fine: pays from and to 'the current player'"),
    ("others chosen", lambda d: (d["tallies"].append(COINS), d["moves"].append(
        {"name": "Fine", "effects": [{"do": "pay", "amount": 1, "from": "others",
                                      "to": "chosen"}]})),
     "moves[1].effects[0]",
     "move Fine: pays between 'every other player' and 'the chosen player': every other "
     "player pays or is paid by the current player or the pot"),
    ("pay in points", lambda d: (d["tallies"].append(COINS), d["moves"].append(
        {"name": "Fine", "effects": [{"do": "pay", "amount": 1, "from": "others",
                                      "to": "current", "tally": "pairs"}]})),
     "moves[1].effects[0].tally",
     "move Fine: pays in 'pairs', which is not money (money = true)"),
    ("extra field", lambda d: d["moves"][0]["effects"].append({"do": "skip", "amount": 1}),
     "moves[0].effects[1].amount", "move Pair: 'skip' takes no 'amount'"),
    ("needs field", lambda d: d["moves"][0]["effects"][0].pop("amount"),
     "moves[0].effects[0]", "move Pair: 'add' needs 'amount'"),
    ("end turn first", lambda d: d["moves"][0]["effects"].insert(0, {"do": "end_turn"}),
     "moves[0].effects[0]", "move Pair: ends the turn before its last effect (end the turn "
                            "last)"),
    ("ask no range", lambda d: d["moves"][0]["effects"][0].update(amount="ask"),
     "moves[0].ask", "move Pair: an amount is \"ask\" but the move has no ask range "
                     "(ask = {min, max})"),
    ("range no ask", lambda d: d["moves"][0].update(ask={"min": 1, "max": 3}),
     "moves[0].ask", "move Pair: has an ask range but no amount is \"ask\""),
    ("range order", lambda d: (d["moves"][0]["effects"][0].update(amount="ask"),
                               d["moves"][0].update(ask={"min": 5, "max": 3})),
     "moves[0].ask", "move Pair: asks for 5 to 3: min is more than max"),
    ("die unused", lambda d: d["moves"][0]["effects"].append({"do": "roll", "dice": ["d6"]}),
     "moves[0].effects[1].dice", "move Pair: rolls 'd6' but the game's dice are none"),
    ("die unknown", lambda d: d.update(dice=["d20"]), "dice[0]",
     "dice[0]: must be one of colors, shapes, d8, d6, not 'd20'"),
    ("round score money", lambda d: (d["tallies"].append(COINS),
                                     d.update(round_score={"tally": "coins"})),
     "round_score.tally",
     "round_score: adds to 'coins', a money tally (money only moves by payments)"),
    ("round score order", lambda d: d.update(round_score={"tally": "pairs", "min": 5,
                                                          "max": 1}),
     "round_score", "round_score: min 5 is more than max 1"),
    ("turn move", lambda d: d.update(turn_order={"moves": ["jump"]}), "turn_order.moves[0]",
     "turn_order.moves[0]: must be one of skip, double_skip, reverse, reverse_skip, skip_to, "
     "not 'jump'"),
    ("end tally", lambda d: d.update(end=[{"when": "reach", "tally": "pears", "target": 10}]),
     "end[0].tally",
     "end: 'first to 10 pears' but there is no tally 'pears' (the tallies: pairs)"),
    ("end at start", lambda d: d.update(end=[{"when": "reach", "tally": "pairs",
                                              "target": 0}]),
     "end[0].target", "end: 'first to 0 pairs': pairs starts at 0: everybody would reach it "
                      "at once"),
    ("end twice", lambda d: d.update(end=[{"when": "group"}, {"when": "group"}]), "end[1]",
     "end: 'group' is listed twice"),
    ("end needs", lambda d: d.update(end=[{"when": "rounds"}]), "end[0]",
     "end: 'rounds' needs 'rounds'"),
    ("end extra", lambda d: d.update(end=[{"when": "group", "rounds": 3}]), "end[0].rounds",
     "end: 'group' takes no 'rounds'"),
    ("pot empty", lambda d: d.update(end=[{"when": "pot_empty"}]), "end[0]",
     "end: 'when the pot is empty' but the game has no pot"),
    ("one left", lambda d: d.update(end=[{"when": "one_left"}]), "end[0]",
     "end: 'one player left' but no tally has an out_at: nobody can be out"),
    ("last left", lambda d: d.update(winner={"by": "last_left"}), "winner",
     "winner: 'last player left' but no tally has an out_at: nobody can be out"),
    ("winner tally", lambda d: d.update(winner={"by": "fewest"}), "winner",
     "winner: 'fewest' needs a tally (the fewest of what)"),
    ("winner no tally", lambda d: d.update(winner={"by": "most", "tally": "gold"}),
     "winner.tally", "winner: the most 'gold' but there is no tally 'gold' (the tallies: pairs)"),
    ("house rule", lambda d: d.update(house_rules=["target"]), "house_rules[0]",
     "house rule 'target': not one this design has (it may offer: pairs start)"),
    ("pot", lambda d: d.update(pot=3), "pot",
     "pot: must be a table with a start amount ({start = 0}), or left out, not 3"),
    ("deep", lambda d: d.update(title=[[[[[[[[[["x"]]]]]]]]]]), "title[0][0][0][0][0][0][0][0]",
     "title[0][0][0][0][0][0][0][0]: nested deeper than any field of a design"),
]


@pytest.mark.parametrize("change, field, words", [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_every_refusal_names_the_field_in_plain_words(change, field, words):
    with pytest.raises(DesignError) as e:
        load(changed(change))
    assert (e.value.field, str(e.value)) == (field, words)


@pytest.mark.parametrize("obj", [None, [], "design", 3, {"format_version": 1}])
def test_what_is_no_design_at_all_is_refused_in_words(obj):
    with pytest.raises(DesignError, match="the design: "):
        load(obj)


def test_a_design_is_frozen():
    design = load(BASE)
    assert isinstance(design, Design)
    with pytest.raises(AttributeError):
        design.title = "Other"  # type: ignore[misc]


def test_a_money_tally_left_without_a_floor_stops_at_0():
    """The Design page sends a blank "never below" as null: for money that is 0 (money is
    never owed), not a refusal that says "None" to a player (found trying /design as a new
    user would)."""
    d = load(changed(lambda d: d["tallies"].append({**COINS, "floor": None})))
    assert d.tallies[1].floor == 0
