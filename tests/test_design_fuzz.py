"""No design, however odd, crashes the box (docs/designing-a-game.md, "The checks"):
hypothesis builds design dicts, some sensible, many odd, and each is either refused with a
DesignError in words or plays a random legal game to its end, with the money kept after every
move, undo (the fold without the last event) and redo; never any other exception. And in every
design with a pot, the pot plus the coins is constant through moves, undos and redos."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.errors import DesignError, IllegalEvent
from companion.rules.design import DesignGame, load
from companion.rules.game import COMMON_TURN_MOVES, Header
from tests.test_design_engine import NAMES, random_event

TALLY_NAMES = ["pairs", "coins", "points", "strikes"]
ODD_NAMES = ["", " ", "x" * 17, "a\tb", "Pairs", "\u2800", "✓ ok"]
DOS = ["add", "take", "pay", "end_turn", "skip", "reverse", "roll"]
SIDES = ["current", "chosen", "others", "pot"]
DICE = ["colors", "shapes", "d8", "d6"]
WHENS = ["reach", "rounds", "pot_empty", "one_left", "group"]

small = st.integers(-12, 12)
json_junk = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6)


@st.composite
def sensible(draw: Any, pot: bool | None = None) -> dict[str, Any]:
    """A design that makes sense, most times: its references name what it has. One time in
    five it is built loose (a payment with no money, a take of money, an end the design
    cannot reach...), for the semantic checks to refuse."""
    loose = draw(st.integers(0, 4)) == 0
    names = draw(st.lists(st.sampled_from(TALLY_NAMES), min_size=1, max_size=4, unique=True))
    money = draw(st.sampled_from([None, *names])) if pot is None else (
        "coins" if "coins" in names else None)
    if pot and money is None:
        names = names[:3] + ["coins"]
        money = "coins"
    plain = [n for n in names if n != money] or (names if loose else [])
    tallies = []
    for name in names:
        t: dict[str, Any] = {"name": name}
        if name == money:
            t.update(money=True, start=draw(st.integers(0, 12)))
            if draw(st.booleans()):
                t["out_at"] = 0 if t["start"] else 1
        else:
            t["start"] = draw(small)
            if draw(st.booleans()):
                t["floor"] = draw(st.integers(-12, t["start"]))
            if draw(st.integers(0, 2)) == 0:
                t["out_at"] = draw(st.integers(t.get("floor", -12), 12))
                if t["out_at"] == t["start"] and not loose:
                    t["out_at"] += 1
        tallies.append(t)
    outs = any("out_at" in t for t in tallies)
    has_pot = draw(st.booleans()) if pot is None else pot
    sides = [x for x in SIDES if loose or x != "pot" or has_pot]
    dice = draw(st.lists(st.sampled_from(DICE), max_size=3, unique=True))
    moves = []
    for i in range(draw(st.integers(0, 5))):
        effects = []
        for _ in range(draw(st.integers(1, 3))):
            do = draw(st.sampled_from(DOS))
            e: dict[str, Any] = {"do": do}
            amount = draw(st.one_of(st.integers(1, 6), st.just("ask")))
            if do in ("add", "take") and plain:
                e.update(tally=draw(st.sampled_from(plain)), amount=amount,
                         who=draw(st.sampled_from(SIDES[:3])))
            elif do == "pay" and (money or loose):
                src, dst = draw(st.lists(st.sampled_from(sides), min_size=2, max_size=2,
                                         unique=True))
                if {src, dst} == {"others", "chosen"} and not loose:
                    src = "current"
                e.update(amount=amount, **{"from": src, "to": dst})
            elif do == "roll" and (dice or loose):
                e["dice"] = draw(st.lists(st.sampled_from(dice or DICE), min_size=1,
                                          max_size=2, unique=True))
            elif do in ("end_turn", "skip", "reverse"):
                if do == "end_turn" and any(x["do"] == "end_turn" for x in effects):
                    continue
            else:
                e = {"do": "skip"}
            effects.append(e)
        effects.sort(key=lambda e: e["do"] == "end_turn")
        move: dict[str, Any] = {"name": f"Move {i}", "effects": effects}
        if any(e.get("amount") == "ask" for e in effects):
            lo = draw(st.integers(1, 5))
            move["ask"] = {"min": lo, "max": lo + draw(st.integers(0, 9))}
        moves.append(move)
    whens = [w for w in WHENS if loose or (w != "pot_empty" or has_pot) and (
        w != "one_left" or outs)]
    end = [{"when": w} for w in draw(st.lists(st.sampled_from(whens), min_size=1, max_size=3,
                                              unique=True))]
    for e in end:
        if e["when"] == "reach":
            t = draw(st.sampled_from(tallies))
            e.update(tally=t["name"], target=t["start"] + draw(st.sampled_from(
                [-6, -3, -1, 1, 2, 5, 9] + ([0] if loose else []))))
        elif e["when"] == "rounds":
            e["rounds"] = draw(st.integers(1, 4))
    by = draw(st.sampled_from(["most", "fewest"] + (["last_left"] if outs or loose else [])))
    low = draw(st.integers(2, 4))
    design: dict[str, Any] = {
        "format_version": 1, "title": "Fuzz", "tallies": tallies, "moves": moves, "end": end,
        "winner": {"by": by} if by == "last_left" else {"by": by,
                                                        "tally": draw(st.sampled_from(names))},
        "dice": dice,
        "players": {"min": low, "max": draw(st.integers(2 if loose else low, 16))},
        "turn_order": {"moves": draw(st.lists(st.sampled_from(COMMON_TURN_MOVES), unique=True)),
                       "first": draw(st.sampled_from(["picked", "roll_off", "next_seat"]))},
    }
    if has_pot:
        design["pot"] = {"start": draw(st.integers(0, 20))}
    if draw(st.booleans()) and plain:
        design["round_score"] = {"tally": draw(st.sampled_from(plain)), "min": -5, "max": 9,
                                 "when": draw(st.sampled_from(["group", "turns"]))}
    if draw(st.booleans()):
        keys = [f"{n} start" for n in names]
        keys += ["pot start"] if has_pot or loose else []
        keys += ["target"] if loose or any(e["when"] == "reach" for e in end) else []
        keys += ["rounds"] if loose or any(e["when"] == "rounds" for e in end) else []
        design["house_rules"] = draw(st.lists(st.sampled_from(keys), max_size=2, unique=True))
    return design


@st.composite
def odd(draw: Any) -> dict[str, Any]:
    """A sensible design with one field broken: a junk value, an odd name, a field gone."""
    design = draw(sensible())
    where = draw(st.sampled_from(["top", "tally", "move", "effect", "end", "drop"]))
    junk = draw(st.one_of(json_junk, st.sampled_from(ODD_NAMES)))
    if where == "top":
        design[draw(st.sampled_from(sorted(design) + ["extra"]))] = junk
    elif where == "tally":
        design["tallies"][0][draw(st.sampled_from(["name", "start", "floor", "out_at",
                                                   "money", "x"]))] = junk
    elif where == "move" and design["moves"]:
        design["moves"][0][draw(st.sampled_from(["name", "effects", "ask"]))] = junk
    elif where == "effect" and design["moves"]:
        design["moves"][0]["effects"][0][draw(st.sampled_from(
            ["do", "tally", "amount", "who", "from", "to", "dice"]))] = junk
    elif where == "end":
        design["end"][0][draw(st.sampled_from(["when", "tally", "target", "rounds"]))] = junk
    else:
        design.pop(draw(st.sampled_from(sorted(design))))
    return design


def house_rules(game: DesignGame, rng: random.Random) -> dict[str, Any]:
    return {k: v + rng.randint(-3, 3) for k, v in game.default_rules.items()}


def new_game(game: DesignGame, rng: random.Random) -> tuple[Header, Any]:
    d = game.design
    n = rng.randint(d.min_players, min(d.max_players, 6))
    first = game.first_seat(n, rng.choice([None, rng.randrange(n)]))
    try:
        header = game.check_header(Header("design", NAMES[:n], first, house_rules(game, rng)))
    except IllegalEvent:  # a house rule out of its range: refused in words, as any kind's
        header = game.check_header(Header("design", NAMES[:n], first, {}))
    return header, game.initial(header)


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(obj=st.one_of(sensible(), odd(), json_junk), seed=st.integers(0, 2**32))
def test_every_design_is_refused_in_words_or_plays_to_its_end(obj, seed):
    try:
        design = load(obj)
    except DesignError as e:
        assert str(e) and "Traceback" not in str(e) and "data." not in str(e)
        return
    canonical = design.to_json()
    assert load(json.loads(json.dumps(canonical))) == design  # as the journal keeps it
    game = DesignGame(design)
    rng = random.Random(seed)
    header, state = new_game(game, rng)
    money, events = state.money, []
    for step in range(50):
        if state.over:
            break
        e = random_event(game, state, rng)
        assert e is not None, "no legal event in a game that is not over"
        after = game.apply(state, e)
        assert after.money == money
        assert game.describe(e, header, state)
        game.calls(e, header, state, after)
        # A question to the whole table is nobody's turn (docs/clock.md), and only then.
        assert (game.question(after, e) is not None) == (after.asks_table and not after.over)
        assert game.apply(state, e) == after  # redo: the same event, the same state
        events.append(e)
        if step % 10 == 0:
            assert game.fold(header, events[:-1]) == state  # undo
            assert game.fold(header, events) == after
        state = after
    if not state.over:
        events.append({"type": "end"})
        state = game.apply(state, events[-1])
    assert state.over and state.money == money
    assert game.fold(header, events) == state
    assert set(state.winners) <= set(state.table.active)
    game.summary(state)
    assert game.text(state, header)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=sensible(pot=True), seed=st.integers(0, 2**32))
def test_the_pot_and_the_coins_are_constant_through_moves_undos_and_redos(obj, seed):
    try:
        design = load(obj)
    except DesignError:
        return
    assert design.pot is not None and design.money_tally is not None
    game = DesignGame(design)
    rng = random.Random(seed)
    header, state = new_game(game, rng)
    total = state.pot + sum(state.tallies[design.money_tally])
    events: list[dict] = []
    undone: list[dict] = []
    for _ in range(80):
        r = rng.random()
        if r < 0.15 and events:
            undone.append(events.pop())
            state = game.fold(header, events)
        elif r < 0.25 and undone:
            events.append(undone.pop())
            state = game.apply(state, events[-1])
        elif not state.over:
            e = random_event(game, state, rng)
            assert e is not None
            state = game.apply(state, e)
            events.append(e)
            undone.clear()
        assert state.pot + sum(state.tallies[design.money_tally]) == total
        assert state.money == total
