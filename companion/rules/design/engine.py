"""The one engine of every designed game: a `Game` read entirely from a `Design`
(docs/designing-a-game.md, "How the engine reads a design"). No code is generated and nothing
is evaluated: each effect is one of a few fixed kinds, applied with the design's numbers.

Events: the design's moves (`{"type": "move", "name": "Pair", "player": k?, "amount": n?,
"dice": {...}?}`), the round score (`{"type": "score", "scores": [..]}`), and the common moves
of every kind (next, skip, ..., first, roll, end) as the base `Game` applies them; the turn
order a design offers live is its `turn_moves`. After every event the engine puts out the
players a tally's out_at has reached, ends the game when an end condition holds, and names
the winners the design's way. Money (the pot and the money tally) is only ever moved, so
`Game.apply`'s money check holds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion.errors import IllegalEvent
from companion.rules import dice as dicemod, table as tbl
from companion.rules.design import effects
from companion.rules.design.effects import Namer
from companion.rules.design.format import MAX_VALUE, Design, Effect, End, MoveDesign
from companion.rules.game import (
    Call,
    Event,
    Game,
    Header,
    NextNeeds,
    State,
    and_list,
    move,
    roll_words,
)
from companion.rules.table import Table

ROLL_OFF_DIE = "d8"
OPEN = ("roll", "first", "end")  # the events a roll-off for who goes first takes
SCORING = ("score", "end")  # the events a pending round score takes


def _seat_words(seat: int) -> str:
    return f"seat {seat}"


@dataclass(frozen=True)
class DesignState(State):
    tallies: tuple[tuple[int, ...], ...] = ()  # by tally (the design's order), then by seat
    pot: int | None = None  # None: the design has no pot
    money_tally: int | None = None  # the index of the money tally, if any
    round: int = 0  # rounds ended
    round_turns: int = 0  # turns ended in this round (a design with no round score)
    rolling: tuple[int, ...] = ()  # the roll-off for who goes first: the seats in it now
    rolls: tuple[tuple[int, int], ...] = ()  # (seat, d8) rolled in this pass of the roll-off
    scoring: bool = False  # a round of turns is over: its scores are asked (round_score "turns")
    starts: tuple[int, ...] = ()  # each tally's start in force (the house rules')
    target: int | None = None  # the reach target in force
    rounds: int | None = None  # the rounds to play in force

    @property
    def asks_table(self) -> bool:
        """The roll-off for who goes first and a pending round score are questions to the
        whole table (docs/clock.md)."""
        return bool(self.rolling) or self.scoring

    @property
    def money(self) -> int | None:
        if self.pot is None and self.money_tally is None:
            return None
        purses = sum(self.tallies[self.money_tally]) if self.money_tally is not None else 0
        return (self.pot or 0) + purses

    @property
    def to_roll(self) -> tuple[int, ...]:
        """The roll-off's seats that have not rolled in this pass, in seat order."""
        rolled = {s for s, _ in self.rolls}
        return tuple(s for s in self.rolling if s not in rolled)


class DesignGame(Game[DesignState]):
    """A designed game: `DesignGame(design)`. Its `title`, players, house rules and turn
    moves are the design's (instance attributes over the base's class defaults)."""

    kind = "design"

    def __init__(self, design: Design) -> None:
        super().__init__()
        self.design = design
        # The base declares these per kind (ClassVar); a design game is a kind per design.
        self.title = design.title  # type: ignore[misc]
        self.min_players = design.min_players  # type: ignore[misc]
        self.max_players = design.max_players  # type: ignore[misc]
        self.turn_moves = design.turn_moves  # type: ignore[misc]
        self.dice = design.dice  # type: ignore[misc]
        self.picks_first = design.first == "picked"  # Play again asks who goes first
        self.default_rules = {key: self._default(key)  # type: ignore[misc]
                              for key in design.house_rules}
        # The tallies that can put a player out (most designs have none: after each event
        # `put_out` then only ends a turn a move ended).
        self.outs = tuple((i, t) for i, t in enumerate(design.tallies) if t.out_at is not None)

    # --- house rules --------------------------------------------------------------------------

    def _default(self, key: str) -> int:
        d = self.design
        if key == "pot start":
            return d.pot or 0
        if key == "target":
            return self._reach().target or 0
        if key == "rounds":
            rounds = d.end_when("rounds")
            return rounds.rounds or 1 if rounds is not None else 1
        return d.tallies[self._tally_of_rule(key)].start

    def _tally_of_rule(self, key: str) -> int:
        return next(i for i, t in enumerate(self.design.tallies) if f"{t.name} start" == key)

    def _reach(self) -> End:
        end = self.design.end_when("reach")
        assert end is not None  # rule_keys offers "target" only with a reach end
        return end

    def check_rule(self, key: str, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalEvent(f"house rule {key} must be a whole number, not {value!r}")
        lo, hi = -MAX_VALUE, MAX_VALUE
        if key == "pot start":
            lo, hi = 0, 99999
        elif key == "rounds":
            lo, hi = 1, 999
        elif key != "target":
            t = self.design.tallies[self._tally_of_rule(key)]
            lo = t.floor if t.floor is not None else lo
        if not lo <= value <= hi:
            raise IllegalEvent(f"house rule {key} must be {lo} to {hi}, not {value!r}")
        return value

    def check_rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        out = super().check_rules(rules)
        starts = self._starts(out)
        for i, t in enumerate(self.design.tallies):
            if t.out_at is not None and starts[i] == t.out_at:
                raise IllegalEvent(f"house rule {t.name} start {starts[i]} is where a player "
                                   f"is out ({t.name} out at {t.out_at})")
        reach = self.design.end_when("reach")
        if reach is not None:
            target = out.get("target", reach.target)
            start = starts[self.design.tally_index(reach.tally)]
            if target == start:
                raise IllegalEvent(f"house rule target {target} is where {reach.tally} "
                                   "starts: everybody would reach it at once")
        return out

    def _starts(self, rules: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(rules.get(f"{t.name} start", t.start) for t in self.design.tallies)

    def first_seat(self, players: int, previous: int | None) -> int:
        """The header's first seat for a New game of `players`: with "the next seat each
        game", the seat after `previous` (the first seat of the group's last game of this
        design, None for none); else seat 0 (the group picks with `first`, or the roll-off
        decides)."""
        if self.design.first != "next_seat" or previous is None:
            return 0
        return (previous + 1) % players

    def initial(self, header: Header) -> DesignState:
        d, n = self.design, len(header.players)
        rules = {**self.default_rules, **header.rules}
        starts = self._starts(rules)
        reach, rounds = d.end_when("reach"), d.end_when("rounds")
        return DesignState(
            table=Table(seats=n, current=header.first),
            tallies=tuple((s,) * n for s in starts),
            pot=rules.get("pot start", d.pot) if d.pot is not None else None,
            money_tally=d.money_tally,
            rolling=tuple(range(n)) if d.first == "roll_off" else (),
            starts=starts,
            target=rules.get("target", reach.target) if reach else None,
            rounds=rules.get("rounds", rounds.rounds) if rounds else None)

    # --- applying events ----------------------------------------------------------------------

    def apply(self, state: DesignState, event: Event) -> DesignState:
        if isinstance(event, dict) and state.rolling and not state.over \
                and event.get("type") not in OPEN:
            raise IllegalEvent(f"{event.get('type')}: the table is rolling for who goes first "
                               "(roll the 8-sided die, or the group picks)")
        if isinstance(event, dict) and state.scoring and not state.over \
                and event.get("type") not in SCORING:
            raise IllegalEvent(f"{event.get('type')}: the round is over: type its scores first")
        after = super().apply(state, event)
        return after if after.over else self.settle(state, after)

    def settle(self, before: DesignState, state: DesignState) -> DesignState:
        """After every event: put out who an out_at has reached (`put_out`), and end the
        game when an end condition holds."""
        state = self.put_out(state)
        if self.ended(before, state):
            return replace(state, over=True, winners=self.final_winners(state))
        return state

    def put_out(self, state: DesignState, *, end_turn: bool = False) -> DesignState:
        """Eliminate every player still in whose tally reached its out_at; then end the turn
        when `end_turn` (a move's end_turn effect, ended after the eliminations so that the
        turn passes over who just went out) or when the current player went out."""
        t = state.table
        if self.outs:
            active = t.active
            for i, tally in self.outs:
                for seat in active:
                    if seat not in t.eliminated \
                            and tally.out(state.tallies[i][seat], state.starts[i]):
                        t = tbl.eliminate(t, seat)
            state = replace(state, table=t) if t is not state.table else state
        if (end_turn or t.current in t.eliminated) and t.active:
            state = self.end_turn(state)
        return state

    def ended(self, before: DesignState, state: DesignState) -> bool:
        t = state.table
        if t.eliminated and len(t.active) <= 1:
            return True  # one player left (or none): nothing left to play
        for end in self.design.end:
            if end.when == "reach" and state.target is not None:
                i = self.design.tally_index(end.tally)
                start = state.starts[i]
                values = [state.tallies[i][s] for s in t.active]
                if any((v >= state.target) if state.target > start else (v <= state.target)
                       for v in values):
                    return True
            elif end.when == "rounds" and state.rounds is not None:
                if state.round >= state.rounds:
                    return True
            elif end.when == "pot_empty":
                if (before.pot or 0) > 0 and state.pot == 0:
                    return True
        return False

    def final_winners(self, state: DesignState) -> tuple[int, ...]:
        active = state.table.active
        w = self.design.winner
        if w.by == "last_left" or len(active) <= 1:
            return tuple(active)  # the last player left wins, whatever the tally says
        i = self.design.tally_index(w.tally)
        values = [state.tallies[i][s] for s in active]
        if w.by == "most":
            if all(v == state.starts[i] for v in values):
                return ()  # nobody has moved off the start: nobody won anything
            return tuple(active[k] for k in tbl.best_seats(values))
        return tuple(active[k] for k in tbl.best_seats(values, lowest=True))

    def with_table(self, state: DesignState, table: Table) -> DesignState:
        # A turn ended: a round of turns is as many turns as there are players still in. With
        # no round score it counts as a round; with a round score typed after each round of
        # turns ("turns"), its scores are asked; a round the group ends ("group") is ended by
        # its score alone.
        rs = self.design.round_score
        if table.turns == state.table.turns or (rs is not None and rs.when == "group"):
            return replace(state, table=table)
        done = state.round_turns + 1
        if done < max(1, len(table.active)):
            return replace(state, table=table, round_turns=done)
        if rs is None:
            return replace(state, table=table, round=state.round + 1, round_turns=0)
        return replace(state, table=table, round_turns=0, scoring=True)

    @move("player", "amount", "dice", required=("name",))
    def move_move(self, state: DesignState, event: Event) -> DesignState:
        after, _, ends_turn = self.play(state, event, None)  # no words: only describe says them
        return self.put_out(after, end_turn=ends_turn)

    def play(self, state: DesignState, event: Event,
             name: Namer | None = _seat_words) -> tuple[DesignState, list[str], bool]:
        """Apply a design move's effects in order: the state after them, the words of each
        (what was actually moved: a take stops at the floor, a payment at what there is),
        which `describe` says, and whether the move ends the turn (done by `move_move`,
        after the eliminations)."""
        m = self.design.move(event.get("name"))
        if m is None:
            known = ", ".join(x.name for x in self.design.moves) or "none"
            raise IllegalEvent(f"move: no move {event.get('name')!r} in {self.title} "
                               f"(its moves: {known})")
        chosen = self._chosen(state, m, event)
        amount = self._amount(m, event)
        rolled = self._dice(m, event)
        cur = state.table.current
        words: list[str] = []
        end_turn = False
        for e in m.effects:
            n = amount if e.amount == "ask" else int(e.amount or 0)
            if e.do in ("add", "take"):
                state, said = self._change(state, e, n, cur, chosen, name)
                words.append(said)
            elif e.do == "pay":
                state, said = self._pay(state, e, n, cur, chosen, name)
                words.append(said)
            elif e.do == "skip":
                state = replace(state, table=tbl.skip(state.table))
                words.append("skips the next player")
            elif e.do == "reverse":
                state = replace(state, table=tbl.reverse(state.table))
                words.append("reverses")
            elif e.do == "roll":
                state = replace(state, last_roll=rolled)
                words.append(roll_words("", rolled).strip())
            elif e.do == "end_turn":
                end_turn = True
        return state, words, end_turn

    def _chosen(self, state: DesignState, m: MoveDesign, event: Event) -> int | None:
        if not m.chooses:
            if "player" in event:
                raise IllegalEvent(f"move {m.name}: names no player (it has no chosen player)")
            return None
        if "player" not in event:
            raise IllegalEvent(f"move {m.name}: choose a player (\"player\")")
        seat = tbl.check_seat(state.table, event["player"])
        pays = any(e.do == "pay" and "chosen" in (e.source, e.target) for e in m.effects)
        if pays and seat == state.table.current:
            raise IllegalEvent(f"move {m.name}: choose another player than the current one "
                               "(a player does not pay themselves)")
        return seat

    def _amount(self, m: MoveDesign, event: Event) -> int:
        if m.ask is None:
            if "amount" in event:
                raise IllegalEvent(f"move {m.name}: asks for no amount")
            return 0
        n = event.get("amount")
        if isinstance(n, bool) or not isinstance(n, int) or not m.ask.min <= n <= m.ask.max:
            raise IllegalEvent(f"move {m.name}: amount must be a whole number {m.ask.min}-"
                               f"{m.ask.max}, not {n!r}")
        return n

    def _dice(self, m: MoveDesign, event: Event) -> dict[str, str | int]:
        if not m.rolls:
            if "dice" in event:
                raise IllegalEvent(f"move {m.name}: rolls no dice")
            return {}
        rolled = dicemod.check_roll(event.get("dice"))
        if set(rolled) != set(m.rolls):
            raise IllegalEvent(f"move {m.name}: rolls {', '.join(m.rolls)}, not "
                               f"{', '.join(rolled)}")
        return rolled

    def _seats(self, state: DesignState, who: str | None, cur: int,
               chosen: int | None) -> list[int | None]:
        """The seats of one side of an effect (None: the pot)."""
        if who == "pot":
            return [effects.POT]
        if who == "current":
            return [cur]
        if who == "chosen":
            return [chosen]
        return list(effects.others(state.table, cur))

    def _change(self, state: DesignState, e: Effect, amount: int, cur: int,
                chosen: int | None, name: Namer | None) -> tuple[DesignState, str]:
        i = self.design.tally_index(e.tally)
        seats = [s for s in self._seats(state, e.who, cur, chosen) if s is not None]
        values, moved = effects.change(state.tallies[i], self.design.tallies[i],
                                       e.do == "add", amount, seats)
        tallies = state.tallies[:i] + (values,) + state.tallies[i + 1:]
        return (replace(state, tallies=tallies),
                effects.change_words(e, moved, name) if name is not None else "")

    def _pay(self, state: DesignState, e: Effect, amount: int, cur: int,
             chosen: int | None, name: Namer | None) -> tuple[DesignState, str]:
        i = self.design.money_tally
        assert i is not None  # load refuses a payment in a design with no money tally
        purses, pot, transfers = effects.pay(
            state.tallies[i], self.design.tallies[i].floor or 0, state.pot, amount,
            self._seats(state, e.source, cur, chosen), self._seats(state, e.target, cur, chosen))
        tallies = state.tallies[:i] + (purses,) + state.tallies[i + 1:]
        return (replace(state, tallies=tallies, pot=pot),
                effects.pay_words(e, transfers, name) if name is not None else "")

    @move(required=("scores",))
    def move_score(self, state: DesignState, event: Event) -> DesignState:
        rs = self.design.round_score
        if rs is None:
            raise IllegalEvent(f"score: {self.title} has no round score")
        if rs.when == "turns" and not state.scoring:
            raise IllegalEvent("score: the scores are typed when the round of turns is over")
        scores, t = event["scores"], state.table
        if not isinstance(scores, list) or len(scores) != t.seats:
            raise IllegalEvent(f"score: \"scores\" must list one number per seat ({t.seats})")
        for seat, v in enumerate(scores):
            if isinstance(v, bool) or not isinstance(v, int) or not rs.min <= v <= rs.max:
                raise IllegalEvent(f"score: seat {seat}'s score must be a whole number "
                                   f"{rs.min} to {rs.max}, not {v!r}")
            if seat in t.eliminated and v != 0:
                raise IllegalEvent(f"score: seat {seat} is out: its score must be 0")
        i = self.design.tally_index(rs.tally)
        floor = self.design.tallies[i].floor
        values = tuple(a + b if floor is None else max(a + b, min(floor, a))
                       for a, b in zip(state.tallies[i], scores))
        return replace(state, tallies=state.tallies[:i] + (values,) + state.tallies[i + 1:],
                       round=state.round + 1, round_turns=0, scoring=False)

    @move("player", required=("dice",))
    def move_roll(self, state: DesignState, event: Event) -> DesignState:
        if not state.rolling:
            rolled = dicemod.check_roll(event["dice"])
            unused = [d for d in rolled if d not in self.design.dice]
            if unused:
                used = ", ".join(self.design.dice) or "no dice"
                raise IllegalEvent(f"roll: {self.title} uses {used}, not {unused[0]}")
            return super().move_roll(state, event)
        # The roll-off for who goes first: each seat in it rolls the 8-sided die once; the
        # highest goes first; the seats tied on the highest roll again.
        seat = self.roll_off_seat(state, event)
        rolled = dicemod.check_roll(event["dice"])
        if set(rolled) != {ROLL_OFF_DIE}:
            raise IllegalEvent("roll: who goes first is rolled on the 8-sided die alone "
                               "({\"d8\": n})")
        face = int(rolled[ROLL_OFF_DIE])
        rolls = state.rolls + ((seat, face),)
        state = replace(state, last_roll=rolled, rolls=rolls)
        if len(rolls) < len(state.rolling):
            return state
        top = max(f for _, f in rolls)
        best = tuple(sorted(s for s, f in rolls if f == top))
        if len(best) > 1:
            return replace(state, rolling=best, rolls=())
        return replace(state, table=tbl.set_first(state.table, best[0]), rolling=(), rolls=())

    def roll_off_seat(self, state: DesignState, event: Event) -> int:
        """Whose roll-off roll `event` is: its "player", else the first still to roll."""
        if "player" not in event:
            return state.to_roll[0]
        seat = tbl.check_seat(state.table, event["player"])
        if seat not in state.to_roll:
            why = "has rolled already" if seat in state.rolling else "is not in the roll-off"
            raise IllegalEvent(f"roll: seat {seat} {why}")
        return seat

    @move(required=("player",))
    def move_first(self, state: DesignState, event: Event) -> DesignState:
        # The group's pick also settles a roll-off still running.
        return replace(super().move_first(state, event), rolling=(), rolls=())

    # --- what the table is asked --------------------------------------------------------------

    def dice_now(self, state: DesignState) -> tuple[str, ...]:
        """The design's dice; while the table rolls for who goes first, the 8-sided die alone
        (what `move_roll` takes)."""
        return (ROLL_OFF_DIE,) if state.rolling else self.design.dice

    def question(self, state: DesignState, last: Event | None) -> dict[str, Any] | None:
        if state.rolling and not state.over:
            return {"kind": "roll_off", "seats": list(state.to_roll),
                    "contenders": list(state.rolling)}
        if state.scoring and not state.over:
            return {"kind": "round_score", "round": state.round + 1}
        return None

    def next_needs(self, state: DesignState) -> NextNeeds | None:
        if state.rolling:
            return NextNeeds(("roll", "first"), "Roll for who goes first")
        if state.scoring:
            return NextNeeds(("score",), "Type the round's scores first")
        return None

    # --- words --------------------------------------------------------------------------------

    def describe(self, event: Event, header: Header, before: DesignState) -> str:
        kind = event.get("type")
        if kind == "move":
            return self._move_line(event, header, before)
        if kind == "score":
            scores = event.get("scores")
            if isinstance(scores, list) and len(scores) == len(header.players):
                each = ", ".join(f"{header.name(s)} {v}" for s, v in enumerate(scores))
                return f"Round {before.round + 1} scores: {each}"
            return "Round scores"
        if kind == "roll" and before.rolling and before.to_roll:
            try:
                seat = self.roll_off_seat(before, event)
            except IllegalEvent:
                seat = before.to_roll[0]
            dice = event.get("dice")
            return roll_words(header.name(seat), dice if isinstance(dice, Mapping) else {})
        return super().describe(event, header, before)

    def _move_line(self, event: Event, header: Header, before: DesignState) -> str:
        """"Ann: Penalty, pays 2 to the pot": the move's words from the state after it."""
        who = header.name(before.table.current)
        title = str(event.get("name"))
        try:
            words = self.play(before, event, header.name)[1]
            after = self.apply(before, event)
        except (IllegalEvent, KeyError, TypeError, ValueError):
            return f"{who}: {title}"
        out = after.table.eliminated - before.table.eliminated
        words += [f"{header.name(s)} is out" for s in sorted(out)]
        return f"{who}: {title}" + (", " + ", ".join(w for w in words if w) if words else "")

    def roll_calls(self, event: Event, header: Header, before: DesignState,
                   after: DesignState) -> list[Call]:
        out = super().roll_calls(event, header, before, after)
        if before.rolling and not after.rolling:
            out.append(("turn", f"{header.name(after.table.current)} goes first"))
        elif before.rolling and after.rolling != before.rolling:
            tied = [header.name(s) for s in after.rolling]
            out.append(("move", f"{and_list(tied)} tie: they roll again"))
        return out

    def summary(self, state: DesignState) -> dict[str, Any]:
        out = super().summary(state)
        out["tallies"] = {t.name: list(state.tallies[i])
                          for i, t in enumerate(self.design.tallies)}
        out["pot"] = state.pot
        out["round"] = state.round
        out["eliminated"] = sorted(state.table.eliminated)
        out["rolling"] = list(state.rolling)
        out["scoring"] = state.scoring
        return out

    def text(self, state: DesignState, header: Header) -> str:
        lines = [super().text(state, header)]
        for i, t in enumerate(self.design.tallies):
            lines.append(f"{t.name.capitalize()}: " + ", ".join(
                f"{header.name(s)} {v}" for s, v in enumerate(state.tallies[i])))
        if state.pot is not None:
            lines.append(f"Pot: {state.pot}")
        if state.table.eliminated:
            lines.append("Out: " + ", ".join(header.name(s)
                                            for s in sorted(state.table.eliminated)))
        lines.append(f"Rounds played: {state.round}")
        return "\n".join(lines)
