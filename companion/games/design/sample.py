"""A random legal move of a design game, for tests and sample journals: the design's moves
with a random chosen player, amount and dice, its round score, the roll-off, the common
moves it offers; each tried on the engine, the first it takes returned."""

from __future__ import annotations

import random
from typing import Any

from companion.errors import IllegalEvent
from companion.rules import dice as dicemod
from companion.rules.design import Design, DesignGame, DesignState
from companion.rules.game import Event


def move_events(design: Design, seats: list[int], rng: random.Random) -> list[Event]:
    """Each of the design's moves as its event, with a random chosen player (of `seats`),
    amount and dice where the move takes them; each twice (the likeliest thing to press)."""
    out: list[Event] = []
    for m in design.moves:
        e: dict[str, Any] = {"type": "move", "name": m.name}
        if m.chooses:
            e["player"] = rng.choice(seats)
        if m.ask is not None:
            e["amount"] = rng.randint(m.ask.min, m.ask.max)
        if m.rolls:
            e["dice"] = dicemod.roll(m.rolls, rng)
        out += [e, e]
    return out


def candidates(game: DesignGame, state: DesignState, rng: random.Random) -> list[Event]:
    """Events worth trying now, legal or not, more of the likely ones."""
    d, t = game.design, state.table
    seats = list(range(t.seats))
    out: list[Event] = []
    if state.rolling:
        out += [{"type": "roll", "dice": {"d8": rng.randint(1, 8)}}] * 6
    out += move_events(d, seats, rng)
    if d.round_score is not None:
        rs = d.round_score
        out += [{"type": "score", "scores": [
            0 if s in t.eliminated else rng.randint(max(rs.min, -30), min(rs.max, 30))
            for s in seats]}] * 2
    out += [{"type": "next"}] * 4
    out += [{"type": k} for k in game.turn_moves if k != "skip_to"]
    if "skip_to" in game.turn_moves:
        out.append({"type": "skip_to", "player": rng.choice(seats)})
    if d.dice:
        out.append({"type": "roll", "dice": dicemod.roll(d.dice, rng)})
    return out


def move(game: DesignGame, rng: random.Random, n: int, state: DesignState) -> Event:
    """A random event the engine takes now (`end` when none of the candidates is legal)."""
    options = candidates(game, state, rng)
    rng.shuffle(options)
    for e in options:
        try:
            game.apply(state, e)
        except IllegalEvent:
            continue
        return e
    return {"type": "end"}
