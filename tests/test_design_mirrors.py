"""A design is as exact as a built-in kind: Match Patch and Flower Power written as designs
(examples/designs/patch-pairs.toml, flower-count.toml) give the same scores, winners and turn
order as the built-in kinds (docs/rules.md, "Match Patch" and "Flower Power") over random legal
logs, each built-in event translated into the design's.

As far as the format reaches (docs/designing-a-game.md, "What a design cannot do"): Match
Patch's mini-pips become the group's pick of who goes first (a `first` for the single highest
total; on a tie the built-in kind waits for the group's `first`, which the log then carries);
Flower Power's petals become one Flower press per flower they complete (the garden and the 5
cards a turn stay with the built-in kind, which refuses what breaks them, so only its legal
logs are translated). Rolls are left out: a design rolls only its own dice, and these two
use none."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from companion.errors import IllegalEvent
from companion.games.flower_power.rules import COLORS, FlowerPower
from companion.games.match_patch.rules import MatchPatch
from companion.rules.design import DesignGame
from companion.rules.game import Game, Header
from companion.rules.table import best_seats
from tests.test_design_engine import NAMES, example

TURNS = [{"type": "next"}] * 4 + [{"type": t} for t in
                                  ("skip", "double_skip", "reverse", "reverse_skip")]


def common(rng: random.Random, n: int) -> dict:
    r = rng.random()
    if r < 0.02:
        return {"type": "end"}
    if r < 0.12:
        return {"type": "skip_to", "player": rng.randrange(n)}
    if r < 0.2:
        return {"type": "first", "player": rng.randrange(n)}
    return dict(rng.choice(TURNS))


def match_patch_event(rng: random.Random, n: int) -> dict:
    r = rng.random()
    if r < 0.1:
        return {"type": "pips", "pips": [rng.randint(0, 4) for _ in range(n)]}
    if r < 0.45:
        return {"type": "pair"}
    if r < 0.55:
        return {"type": "pair", "player": rng.randrange(n)}
    return common(rng, n)


def flower_event(rng: random.Random, n: int) -> dict:
    if rng.random() < 0.5:
        return {"type": "petals", "color": rng.choice(COLORS), "count": rng.randint(1, 5)}
    return common(rng, n)


def translate(event: dict, before, after) -> list[dict]:
    """The design's events for one built-in event, read from the built-in states around it."""
    kind = event["type"]
    if kind == "pips":
        top = best_seats(event["pips"])
        return [{"type": "first", "player": top[0]}] if len(top) == 1 else []
    if kind == "pair":
        if "player" in event:
            return [{"type": "move", "name": "Pair for", "player": event["player"]}]
        return [{"type": "move", "name": "Pair"}]
    if kind == "petals":
        taken = after.scores[before.table.current] - before.scores[before.table.current]
        return [{"type": "move", "name": "Flower"}] * taken
    return [event]


def mirror(builtin: Game, design: DesignGame, make, n: int, first: int, seed: int) -> int:
    """Play a random legal log of `builtin`, the translated log of `design` beside it; the
    scores, the winners and the table (whose turn, direction, skips, turns) are the same after
    every event. The number of events played."""
    rng = random.Random(seed)
    header = Header(builtin.kind, NAMES[:n], first)
    b = builtin.initial(builtin.check_header(header))
    dheader = design.check_header(Header("design", NAMES[:n], first))
    d = design.initial(dheader)
    played = 0
    for _ in range(120):
        if b.over:
            break
        e = make(rng, n)
        try:
            after = builtin.apply(b, e)
        except IllegalEvent:
            continue
        for de in translate(e, b, after):
            d = design.apply(d, de)
        b, played = after, played + 1
        assert d.table == b.table, (e, d.table, b.table)
        assert d.tallies[0] == b.scores
        assert (d.over, d.winners) == (b.over, b.winners)
    return played


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 8), first=st.integers(0, 7), seed=st.integers(0, 2**32))
def test_match_patch_as_a_design_scores_and_turns_as_the_built_in_kind(n, first, seed):
    assert mirror(MatchPatch(), example("patch-pairs"), match_patch_event, n, first % n,
                  seed) > 0


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 8), first=st.integers(0, 7), seed=st.integers(0, 2**32))
def test_flower_power_as_a_design_scores_and_turns_as_the_built_in_kind(n, first, seed):
    assert mirror(FlowerPower(), example("flower-count"), flower_event, n, first % n,
                  seed) > 0


def test_the_group_s_end_names_the_same_winners_with_nobody_on_no_score():
    for builtin, design, move in ((MatchPatch(), example("patch-pairs"), "Pair"),
                                  (FlowerPower(), example("flower-count"), "Flower")):
        header = Header("x", NAMES[:3])
        b, d = builtin.initial(header), design.initial(header)
        end = {"type": "end"}
        assert builtin.apply(b, end).winners == design.apply(d, end).winners == ()
        d = design.apply(design.apply(d, {"type": "move", "name": move}), end)
        assert d.winners == (0,)
