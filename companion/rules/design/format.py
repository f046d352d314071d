"""A game design as data (docs/designing-a-game.md): frozen dataclasses, `load` from a
JSON-like dict (a TOML file's, the journal's JSON) and `Design.to_json` back to a canonical
dict.

`load` checks a design as a whole: first against the JSON Schema (schema.py), then the
checks no schema can say (a move that adds to a tally that does not exist, a payment with
nothing to pay into), each refused with a `DesignError` in plain words naming the field.
Nothing here runs a design: the engine (engine.py) reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Mapping

from companion import names
from companion.errors import DesignError
from companion.rules.design import schema

FORMAT_VERSION = 1
DEFAULT_COLOR = "#4a90d9"
SIDES = {"current": "the current player", "chosen": "the chosen player",
         "others": "every other player", "pot": "the pot"}
FIRST = {"picked": "the group picks", "roll_off": "the highest 8-sided roll",
         "next_seat": "the next seat each game"}
MOVE_FIELDS = {"add": ("tally", "amount", "who"), "take": ("tally", "amount", "who"),
               "pay": ("amount", "from", "to", "tally"), "end_turn": (), "skip": (),
               "reverse": (), "roll": ("dice",)}
END_FIELDS = {"reach": ("tally", "target"), "rounds": ("rounds",), "pot_empty": (),
              "one_left": (), "group": ()}
MAX_VALUE = 9999  # the most a tally's start, floor or target may be, either way


@dataclass(frozen=True)
class Tally:
    """A number kept per player. A money tally changes only by payments; its floor is 0 or
    more (money is never owed)."""

    name: str
    start: int = 0
    floor: int | None = None
    out_at: int | None = None
    money: bool = False

    def out(self, value: int, start: int) -> bool:
        """Whether `value` puts a player out, for a tally that started at `start`: reaching
        out_at from the start's side (coins down to 0, strikes up to 3)."""
        if self.out_at is None:
            return False
        return value <= self.out_at if self.out_at < start else value >= self.out_at

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "start": self.start, "floor": self.floor,
                "out_at": self.out_at, "money": self.money}


@dataclass(frozen=True)
class Effect:
    """One effect of a move. `do` is add, take, pay, end_turn, skip, reverse or roll; the
    other fields are those its `do` reads (MOVE_FIELDS). `amount` is a number or "ask"."""

    do: str
    tally: str | None = None
    amount: int | str | None = None
    who: str = "current"
    source: str | None = None  # "from" in the format
    target: str | None = None  # "to" in the format
    dice: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.do in ("add", "take"):
            return {"do": self.do, "tally": self.tally, "amount": self.amount, "who": self.who}
        if self.do == "pay":
            return {"do": self.do, "amount": self.amount, "from": self.source, "to": self.target}
        if self.do == "roll":
            return {"do": self.do, "dice": list(self.dice)}
        return {"do": self.do}


@dataclass(frozen=True)
class Ask:
    """The range of the number typed at play time for a move's "ask" amounts."""

    min: int
    max: int


@dataclass(frozen=True)
class MoveDesign:
    name: str
    effects: tuple[Effect, ...]
    ask: Ask | None = None

    @cached_property
    def chooses(self) -> bool:
        """Whether the move names a chosen player (its event's "player")."""
        return any("chosen" in (e.who if e.do in ("add", "take") else None, e.source, e.target)
                   for e in self.effects)

    @cached_property
    def rolls(self) -> tuple[str, ...]:
        """The dice the move rolls (its event's "dice"), in the order listed."""
        return tuple(d for e in self.effects if e.do == "roll" for d in e.dice)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "effects": [e.to_json() for e in self.effects],
                "ask": {"min": self.ask.min, "max": self.ask.max} if self.ask else None}


@dataclass(frozen=True)
class RoundScore:
    """A number per player typed once a round, added to `tally`. `when` the round ends:
    "group" (the group types the scores when its round is over, which ends it) or "turns"
    (a round is one turn per player still in; then the scores are asked)."""

    tally: str
    min: int = -MAX_VALUE
    max: int = MAX_VALUE
    when: str = "group"


@dataclass(frozen=True)
class End:
    """One way the game ends: reach (first to `target` on `tally`), rounds (after `rounds`),
    pot_empty, one_left, group."""

    when: str
    tally: str | None = None
    target: int | None = None
    rounds: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"when": self.when}
        if self.when == "reach":
            out.update(tally=self.tally, target=self.target)
        elif self.when == "rounds":
            out["rounds"] = self.rounds
        return out


@dataclass(frozen=True)
class Winner:
    """most / fewest of `tally` (ties share), or last_left."""

    by: str
    tally: str | None = None


@dataclass(frozen=True)
class Design:
    title: str
    tallies: tuple[Tally, ...]
    moves: tuple[MoveDesign, ...]
    end: tuple[End, ...]
    winner: Winner
    version: int = 1
    color: str = DEFAULT_COLOR
    min_players: int = 2
    max_players: int = 16
    pot: int | None = None  # the pot's start amount; None: no pot
    round_score: RoundScore | None = None
    turn_moves: tuple[str, ...] = ()
    first: str = "picked"
    dice: tuple[str, ...] = ()
    house_rules: tuple[str, ...] = ()

    format_version = FORMAT_VERSION

    # Looked up at every move: worked out once (a design is frozen; cached_property keeps
    # each in the instance's own dict, outside the fields, so equality is unchanged).
    @cached_property
    def _tally_at(self) -> dict[str, int]:
        return {t.name: i for i, t in enumerate(self.tallies)}

    @cached_property
    def _move_named(self) -> dict[str, MoveDesign]:
        return {m.name: m for m in self.moves}

    def tally_index(self, name: str | None) -> int:
        """The index of the tally named `name` (load has checked it exists)."""
        return self._tally_at[name]  # type: ignore[index]

    @cached_property
    def money_tally(self) -> int | None:
        return next((i for i, t in enumerate(self.tallies) if t.money), None)

    def move(self, name: object) -> MoveDesign | None:
        return self._move_named.get(name) if isinstance(name, str) else None

    def end_when(self, when: str) -> End | None:
        return next((e for e in self.end if e.when == when), None)

    def to_json(self) -> dict[str, Any]:
        """The canonical dict: every field, in the schema's order; `load` of it gives back an
        equal Design."""
        return {
            "format_version": FORMAT_VERSION,
            "title": self.title,
            "version": self.version,
            "color": self.color,
            "players": {"min": self.min_players, "max": self.max_players},
            "tallies": [t.to_json() for t in self.tallies],
            "pot": {"start": self.pot} if self.pot is not None else None,
            "moves": [m.to_json() for m in self.moves],
            "round_score": ({"tally": self.round_score.tally, "min": self.round_score.min,
                             "max": self.round_score.max, "when": self.round_score.when}
                            if self.round_score else None),
            "turn_order": {"moves": list(self.turn_moves), "first": self.first},
            "dice": list(self.dice),
            "end": [e.to_json() for e in self.end],
            "winner": ({"by": self.winner.by, "tally": self.winner.tally}
                       if self.winner.tally is not None else {"by": self.winner.by}),
            "house_rules": list(self.house_rules),
        }


def rule_keys(design: Design) -> dict[str, str]:
    """Every house rule a design may offer: key -> what it sets. A tally's start is
    "<name> start"."""
    keys = {f"{t.name} start": f"the start of {t.name}" for t in design.tallies}
    if design.pot is not None:
        keys["pot start"] = "the pot's start"
    if design.end_when("reach") is not None:
        keys["target"] = "the target to reach"
    if design.end_when("rounds") is not None:
        keys["rounds"] = "the rounds played"
    return keys


# --- load ---------------------------------------------------------------------------------------

def load(obj: Any) -> Design:
    """The Design in `obj` (a dict as JSON or TOML gives it), checked as a whole; a
    DesignError in plain words naming the field otherwise. Never any other exception."""
    schema.validate(obj)
    return _Loader(obj).design()


def _name(value: str, field: str, what: str) -> str:
    name = names.tidy(value)
    problem = names.problem(name)
    if problem:
        raise DesignError(field, f"{what}: {problem}")
    return name


class _Loader:
    """Reads a schema-valid dict into a Design, with the semantic checks in order."""

    def __init__(self, obj: Mapping[str, Any]) -> None:
        self.obj = obj
        self.tallies: tuple[Tally, ...] = ()
        self.pot: int | None = None
        self.dice: tuple[str, ...] = ()

    def tally(self, value: str, field: str, subject: str) -> Tally:
        tidy = names.tidy(value)
        found = next((t for t in self.tallies if t.name.casefold() == tidy.casefold()), None)
        if found is None:
            known = ", ".join(t.name for t in self.tallies)
            raise DesignError(field, f"{subject} but there is no tally {tidy!r} "
                                     f"(the tallies: {known})")
        return found

    def design(self) -> Design:
        o = self.obj
        title = _name(o["title"], "title", "title")
        players = o.get("players", {})
        lo, hi = players.get("min", 2), players.get("max", 16)
        if lo > hi:
            raise DesignError("players", f"players: min {lo} is more than max {hi}")
        self.tallies = self.load_tallies(o["tallies"])
        pot = o.get("pot")
        self.pot = pot.get("start", 0) if pot is not None else None
        self.dice = tuple(o.get("dice", []))
        turn = o.get("turn_order", {})
        moves = self.load_moves(o["moves"])
        round_score = self.load_round_score(o.get("round_score"))
        end = self.load_end(o["end"])
        winner = self.load_winner(o["winner"])
        design = Design(title=title, tallies=self.tallies, moves=moves, end=end, winner=winner,
                        version=o.get("version", 1), color=o.get("color", DEFAULT_COLOR).lower(),
                        min_players=lo, max_players=hi, pot=self.pot, round_score=round_score,
                        turn_moves=tuple(turn.get("moves", [])),
                        first=turn.get("first", "picked"), dice=self.dice)
        keys = rule_keys(design)
        rules = []
        for i, key in enumerate(o.get("house_rules", [])):
            if key not in keys:
                raise DesignError(f"house_rules[{i}]", f"house rule {key!r}: not one this "
                                  f"design has (it may offer: {', '.join(keys)})")
            rules.append(key)
        return replace(design, house_rules=tuple(rules))

    def load_tallies(self, items: list[dict[str, Any]]) -> tuple[Tally, ...]:
        out: list[Tally] = []
        for i, t in enumerate(items):
            field = f"tallies[{i}]"
            name = _name(t["name"], f"{field}.name", f"tally {t['name']!r}")
            money = t.get("money", False)
            floor = t.get("floor")
            if floor is None and money:  # left blank (a form sends null): money stops at 0
                floor = 0
            start = t.get("start", 0)
            out_at = t.get("out_at")
            what = f"tally {name}"
            if money and floor is not None and floor < 0:
                raise DesignError(f"{field}.floor", f"{what}: money can't go below 0 (it is "
                                  f"never owed), so 'never below' can't be {floor}")
            if floor is not None and start < floor:
                raise DesignError(f"{field}.start", f"{what}: starts at {start}, below its "
                                  f"floor {floor}")
            if out_at is not None:
                if out_at == start:
                    raise DesignError(f"{field}.out_at", f"{what}: out at {out_at} is where it "
                                      "starts: everybody would be out at once")
                if floor is not None and out_at < floor:
                    raise DesignError(f"{field}.out_at", f"{what}: out at {out_at} is below "
                                      f"its floor {floor}: nobody could ever be out")
            out.append(Tally(name, start, floor, out_at, money))
        dup = names.duplicate([t.name for t in out])
        if dup:
            raise DesignError("tallies", f"tallies: {dup!r} is named twice")
        money = [t.name for t in out if t.money]
        if len(money) > 1:
            raise DesignError("tallies", f"tallies: {' and '.join(money)} are both money: a "
                              "design keeps one money tally (and the pot)")
        return tuple(out)

    def load_moves(self, items: list[dict[str, Any]]) -> tuple[MoveDesign, ...]:
        out = []
        for i, m in enumerate(items):
            field = f"moves[{i}]"
            name = _name(m["name"], f"{field}.name", f"move {m['name']!r}")
            effects = tuple(self.load_effect(e, f"{field}.effects[{j}]", name,
                                             last=j == len(m["effects"]) - 1)
                            for j, e in enumerate(m["effects"]))
            asks = any(e.amount == "ask" for e in effects)
            raw_ask = m.get("ask")
            ask = Ask(raw_ask["min"], raw_ask["max"]) if raw_ask is not None else None
            if asks and ask is None:
                raise DesignError(f"{field}.ask", f"move {name}: an amount is \"ask\" but the "
                                  "move has no ask range (ask = {min, max})")
            if ask is not None and not asks:
                raise DesignError(f"{field}.ask", f"move {name}: has an ask range but no "
                                  "amount is \"ask\"")
            if ask is not None and ask.min > ask.max:
                raise DesignError(f"{field}.ask", f"move {name}: asks for {ask.min} to "
                                  f"{ask.max}: min is more than max")
            out.append(MoveDesign(name, effects, ask))
        dup = names.duplicate([m.name for m in out])
        if dup:
            raise DesignError("moves", f"moves: {dup!r} is named twice")
        return tuple(out)

    def load_effect(self, e: dict[str, Any], field: str, move: str, *, last: bool) -> Effect:
        do = e["do"]
        subject = f"move {move}"
        extra = [k for k in e if k != "do" and k not in MOVE_FIELDS[do]]
        if extra:
            raise DesignError(f"{field}.{extra[0]}", f"{subject}: {do!r} takes no {extra[0]!r}")
        needs = {"add": ("tally", "amount"), "take": ("tally", "amount"),
                 "pay": ("amount", "from", "to"), "roll": ("dice",)}
        for key in needs.get(do, ()):
            if key not in e:
                raise DesignError(f"{field}", f"{subject}: {do!r} needs {key!r}")
        if do in ("add", "take"):
            tally = self.tally(e["tally"], f"{field}.tally",
                               f"{subject}: {'adds to' if do == 'add' else 'takes from'} "
                               f"{e['tally']!r}")
            if tally.money:
                verb = "adds to" if do == "add" else "takes from"
                raise DesignError(f"{field}.tally", f"{subject}: {verb} {tally.name!r}, a money "
                                  "tally (money only moves by payments)")
            return Effect(do, tally=tally.name, amount=e["amount"], who=e.get("who", "current"))
        if do == "pay":
            return self.load_pay(e, field, subject)
        if do == "roll":
            missing = [d for d in e["dice"] if d not in self.dice]
            if missing:
                used = ", ".join(self.dice) or "none"
                raise DesignError(f"{field}.dice", f"{subject}: rolls {missing[0]!r} but the "
                                  f"game's dice are {used}")
            return Effect(do, dice=tuple(e["dice"]))
        if do == "end_turn" and not last:
            raise DesignError(field, f"{subject}: ends the turn before its last effect (end "
                              "the turn last)")
        return Effect(do)

    def load_pay(self, e: dict[str, Any], field: str, subject: str) -> Effect:
        src, dst = e["from"], e["to"]
        money = next((t for t in self.tallies if t.money), None)
        if src == dst:
            raise DesignError(field, f"{subject}: pays from and to {SIDES[src]!r}")
        if money is None and self.pot is None:
            raise DesignError(field, f"{subject}: pays from {SIDES[src]!r} but the game has no "
                              "pot or tally to pay into")
        if money is None:
            player = src if src != "pot" else dst
            raise DesignError(field, f"{subject}: pays {'from' if player == src else 'to'} "
                              f"{SIDES[player]!r} but no tally is money (money = true)")
        for side, word in ((src, "from"), (dst, "into")):
            if side == "pot" and self.pot is None:
                raise DesignError(field, f"{subject}: pays {word} 'the pot' but the game has "
                                  "no pot")
        if "others" in (src, dst) and {src, dst} != {"others", "current"} \
                and {src, dst} != {"others", "pot"}:
            raise DesignError(field, f"{subject}: pays between {SIDES[src]!r} and "
                              f"{SIDES[dst]!r}: every other player pays or is paid by the "
                              "current player or the pot")
        if "tally" in e:
            tally = self.tally(e["tally"], f"{field}.tally", f"{subject}: pays in {e['tally']!r}")
            if not tally.money:
                raise DesignError(f"{field}.tally", f"{subject}: pays in {tally.name!r}, which "
                                  "is not money (money = true)")
        return Effect("pay", amount=e["amount"], source=src, target=dst)

    def load_round_score(self, raw: dict[str, Any] | None) -> RoundScore | None:
        if raw is None:
            return None
        tally = self.tally(raw["tally"], "round_score.tally",
                           f"round_score: adds to {raw['tally']!r}")
        if tally.money:
            raise DesignError("round_score.tally", f"round_score: adds to {tally.name!r}, a "
                              "money tally (money only moves by payments)")
        rs = RoundScore(tally.name, raw.get("min", -MAX_VALUE), raw.get("max", MAX_VALUE),
                        raw.get("when", "group"))
        if rs.min > rs.max:
            raise DesignError("round_score", f"round_score: min {rs.min} is more than max "
                              f"{rs.max}")
        return rs

    def load_end(self, items: list[dict[str, Any]]) -> tuple[End, ...]:
        out: list[End] = []
        for i, e in enumerate(items):
            field, when = f"end[{i}]", e["when"]
            extra = [k for k in e if k != "when" and k not in END_FIELDS[when]]
            if extra:
                raise DesignError(f"{field}.{extra[0]}", f"end: {when!r} takes no {extra[0]!r}")
            if any(x.when == when for x in out):
                raise DesignError(field, f"end: {when!r} is listed twice")
            for key in END_FIELDS[when]:
                if key not in e:
                    raise DesignError(field, f"end: {when!r} needs {key!r}")
            if when == "reach":
                words = f"end: 'first to {e['target']} {e['tally']}'"
                tally = self.tally(e["tally"], f"{field}.tally", words)
                if e["target"] == tally.start:
                    raise DesignError(f"{field}.target", f"{words}: {tally.name} starts at "
                                      f"{tally.start}: everybody would reach it at once")
                out.append(End(when, tally=tally.name, target=e["target"]))
                continue
            if when == "pot_empty" and self.pot is None:
                raise DesignError(field, "end: 'when the pot is empty' but the game has no pot")
            if when == "one_left" and not any(t.out_at is not None for t in self.tallies):
                raise DesignError(field, "end: 'one player left' but no tally has an out_at: "
                                  "nobody can be out")
            out.append(End(when, rounds=e.get("rounds")))
        return tuple(out)

    def load_winner(self, raw: dict[str, Any]) -> Winner:
        by = raw["by"]
        if by == "last_left":
            if "tally" in raw:
                raise DesignError("winner.tally", "winner: 'last player left' takes no tally")
            if not any(t.out_at is not None for t in self.tallies):
                raise DesignError("winner", "winner: 'last player left' but no tally has an "
                                  "out_at: nobody can be out")
            return Winner(by)
        if "tally" not in raw:
            raise DesignError("winner", f"winner: {by!r} needs a tally (the {by} of what)")
        tally = self.tally(raw["tally"], "winner.tally", f"winner: the {by} {raw['tally']!r}")
        return Winner(by, tally.name)
