"""What /tv's Share serves (companion/web/designs.py `of_kind`, docs/web.md "The TV"): the
design of a registered design kind, and nothing for a built-in kind or a design this box does
not know; a design file's name from its title. The routes in a browser:
tests/web/test_design_share.py."""

from __future__ import annotations

from companion import games
from companion.rules.design import load
from companion.web import designs

PAIRS = {"format_version": 1, "title": "Pairs to 6", "tallies": [{"name": "pairs"}],
         "moves": [{"name": "Pair", "effects": [{"do": "add", "tally": "pairs", "amount": 1}]}],
         "end": [{"when": "reach", "tally": "pairs", "target": 6}],
         "winner": {"by": "most", "tally": "pairs"}}


def test_a_registered_design_kind_gives_its_design():
    kind = games.design_kind(PAIRS).kind
    design = designs.of_kind(kind)
    assert design is not None
    assert design.to_json() == load(PAIRS).to_json()
    assert games.design_name(design.to_json()) == kind


def test_a_built_in_kind_or_an_unknown_design_gives_none():
    assert designs.of_kind("pig-farm") is None
    assert designs.of_kind("no-such-kind") is None
    assert designs.of_kind("design:000000000000") is None


def test_a_design_file_is_named_for_its_title():
    assert designs.file_name("Pairs to 6") == "pairs-to-6"
    assert designs.file_name("  Ann's   Pot! ") == "ann-s-pot"
    assert designs.file_name("!!!") == "design"
