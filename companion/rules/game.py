"""What every game kind shares: the header, the base state, event checking, common moves.

A game kind is a `Game` subclass with a `moves` table (event type -> method). `apply` is pure:
it returns a new state or raises `IllegalEvent`, never changing the state it was given.
State is always `fold(apply, events, initial(header))` (docs/rules.md, "The game journal").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Generic, Iterable, Mapping, Sequence, TypeVar, cast

from companion.errors import IllegalEvent
from companion.rules import dice as dicemod, table as tbl
from companion.rules.table import Table

Event = dict[str, Any]


# The turn clock's house rules, common to every kind like `deck_owner` (docs/clock.md): absent
# or null is off, and none of them changes the game (the engines never read them). key ->
# (lowest, highest) in whole seconds.
CLOCK_RULES: dict[str, tuple[int, int]] = {
    "turn_limit": (10, 3600),  # seconds each turn may take
    "time_bank": (60, 36000),  # chess clock: seconds each player has for the whole game
    "time_bonus": (0, 600),  # chess clock: seconds added to a bank at the end of each turn
}


def check_clock_rule(key: str, value: Any) -> int | None:
    """One turn clock house rule: null (off) or whole seconds within its range."""
    lo, hi = CLOCK_RULES[key]
    if value is None and key != "time_bonus":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        off = " or null (off)" if key != "time_bonus" else ""
        raise IllegalEvent(f"house rule {key} must be whole seconds {lo}-{hi}{off}, "
                           f"not {value!r}")
    return value


# --- words for people: the pieces the history lines and the spoken calls share --------------
# (docs/speech.md): a call is built from the same pieces as its history line, never a copy.

def and_list(words: Sequence[str]) -> str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def turn_words(name: str) -> str:
    """"Ben's turn": the turn call, and the start of the history's "Ben's turn ended"."""
    return f"{name}'s turn"


def skipped_words(names: Sequence[str]) -> str:
    """"Ann is skipped", "Ann and Ben are skipped"."""
    return f"{and_list(names)} {'is' if len(names) == 1 else 'are'} skipped"


def over_words(names: Sequence[str]) -> str:
    """"Game over: Ann wins", "Game over: Ann and Ben win", "Game over" (no winner)."""
    if not names:
        return "Game over"
    return f"Game over: {and_list(names)} {'wins' if len(names) == 1 else 'win'}"


def roll_words(who: str, dice: Mapping[str, Any]) -> str:
    """"Ann rolled RED STAR": the faces in capitals, as the panel shows them."""
    return f"{who} rolled " + " ".join(str(v).upper() for v in dice.values())


TURN_MOVES = frozenset({"next", "skip_to", "first", "end"})  # said only by the turn/end call
# The common moves said in their history line's words (a roll: by `roll_calls`, which reads
# the line itself).
SAID_AS_LINE = frozenset({"skip", "double_skip", "reverse_skip", "reverse", "first"})
# The skips, by their words: the call names who they pass over, and so does the history line
# (`Game.skip_line`), each from the state after the move.
SKIPS = {"skip": "Skip", "double_skip": "Double skip", "reverse_skip": "Reverse + skip"}
# The common turn moves a kind may offer its players (Game.turn_moves), in the menu's order,
# and their names in a refusal's words.
COMMON_TURN_MOVES = ("skip", "double_skip", "reverse", "reverse_skip", "skip_to")
TURN_MOVE_NAMES = {"skip": "Skip", "double_skip": "Double skip", "reverse": "Reverse",
                   "reverse_skip": "Reverse + skip", "skip_to": "Skip to player"}
Call = tuple[str, str]  # (kind of call, words): session/calls.py numbers them


@dataclass(frozen=True)
class Header:
    game: str
    players: tuple[str, ...]
    first: int = 0
    rules: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "first": self.first,
                "rules": dict(self.rules)}

    def name(self, seat: int) -> str:
        return self.players[seat]


@dataclass(frozen=True)
class State:
    """The base state every game kind extends with its own fields."""

    table: Table
    over: bool = False
    winners: tuple[int, ...] = ()
    last_roll: Mapping[str, Any] | None = None

    @property
    def asks_table(self) -> bool:
        """The table is being asked (who deals the next round, who goes first, a roll-off): a
        question to the whole table, so it is nobody's turn. The one rule of the turn clock,
        its statistics, the snapshot's clock, the lights' warning and "Time!" (docs/clock.md);
        a kind whose own flow asks the table declares it from its own state."""
        return False

    @property
    def money(self) -> int | None:
        """All the money in the game (every purse, the bank, a pot), for a kind that keeps
        money; None for one that keeps none. `Game.apply` refuses any move that changes it:
        money is neither created nor destroyed, in every kind (docs/architecture.md, "Table
        invariants"); a kind declares where its money is, never whether it is kept."""
        return None


def money_words(kind: str, before: int, after: int) -> str:
    """Why a move that would change the money in the game is refused."""
    change = after - before
    what = "create" if change > 0 else "destroy"
    return (f"{kind}: this move would {what} {abs(change)} (money is neither created nor "
            f"destroyed: {before} before it, {after} after)")


def turn_order_call(kind: str, line: str, header: Header, after: State) -> Call:
    """The call of a skip, double skip, reverse or reverse + skip, made from the state after
    it: the seats the pending skips now pass over (every one, in the direction then in
    force: a reverse after a skip changes who loses a turn) and, after a reverse, who plays
    next. "Ben is skipped"; "Reverse: Eve is skipped, Dee's turn"; "Reverse + skip: Eve and
    Dee are skipped"."""
    t = after.table
    seats = list(dict.fromkeys(t.passed_over))  # each seat once, in the order passed
    lost = skipped_words([header.name(s) for s in seats]) if seats else ""
    if kind == "reverse":
        return ("reverse", f"{line}: " + (f"{lost}, " if lost else "")
                + turn_words(header.name(t.upcoming)))
    if kind == "reverse_skip":
        return ("reverse", f"{line}: {lost or turn_words(header.name(t.upcoming))}")
    return ("skip", lost or line)


@dataclass(frozen=True)
class NextNeeds:
    """What a bare NEXT needs first where a kind's rules make NEXT a choice
    (docs/architecture.md, "What NEXT means", which lists each kind's): the moves that
    answer it and the words a refused NEXT is answered with, on the panel and on a phone
    alike."""

    moves: tuple[str, ...]  # event types that end the turn in NEXT's place ("pass", "claim")
    words: str  # "Pass or claim first"


S = TypeVar("S", bound=State)  # a game kind's state


@dataclass(frozen=True)
class Move(Generic[S]):
    """One event type: the method that applies it and the fields it takes besides `type`."""

    apply: Callable[[Any, S, Event], S]
    fields: frozenset[str] = frozenset()
    required: frozenset[str] = frozenset()


M = TypeVar("M", bound=Callable[..., State])


def move(*fields: str, required: Iterable[str] = ()) -> Callable[[M], M]:
    """Mark a `Game` method as the handler of the event type of the same name."""

    def wrap(fn: M) -> M:
        fn.move_fields = frozenset(fields) | frozenset(required)  # type: ignore[attr-defined]
        fn.move_required = frozenset(required)  # type: ignore[attr-defined]
        return fn

    return wrap


class Game(Generic[S]):
    """The `table` game kind (turns and dice only) and the base of every other kind.

    Generic over its state: a kind with its own state class subclasses `Game[ThatState]` (and
    overrides `initial`); the table kind is `Game[State]`."""

    kind: ClassVar[str] = "table"
    title: ClassVar[str] = "Table"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 16
    default_rules: ClassVar[dict[str, Any]] = {}
    # The common turn moves the players make live (some of COMMON_TURN_MOVES, in the panel
    # menu's order: Mode.turn_actions reads it, the snapshot's `turns` too). A live input of
    # one the kind does not offer is refused (`next_refusal`); a log's still folds.
    turn_moves: ClassVar[tuple[str, ...]] = COMMON_TURN_MOVES
    # Common turn moves the kind's own screens make, beside the menu's (Chaos's "Skip to
    # most" is a skip_to): live inputs may record them too.
    own_turn_moves: ClassVar[tuple[str, ...]] = ()
    # The dice the kind is played with (names in rules/dice.py DICE), for the phone's ROLL and
    # "Record a roll" (the snapshot's `dice`, from `dice_now`); None: not declared, the phone
    # offers every die.
    dice: ClassVar[tuple[str, ...] | None] = None
    # Whether Play again asks who goes first, as New game does (a design whose first player
    # is "the group picks"); False: Play again moves the first player one seat on, as a deal
    # passes, and a phone's one tap goes straight to the game (the built-in kinds, docs/web.md).
    # The panel's and a phone's Play again read it alike (the snapshot's `picks_first`).
    picks_first: bool = False

    def __init__(self) -> None:
        self.moves: dict[str, Move[S]] = {}
        for name in dir(type(self)):
            fn = getattr(type(self), name)
            if callable(fn) and hasattr(fn, "move_fields"):
                self.moves[name.removeprefix("move_")] = Move(fn, fn.move_fields, fn.move_required)

    # --- header and rules -------------------------------------------------------------------

    def check_rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """Merge `rules` over the defaults; unknown keys and wrong types are refused."""
        out = dict(self.default_rules)
        for key, value in rules.items():
            if key == "deck_owner":  # every kind: the seat whose vote counts 2 on a tied rule vote
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                          or not 0 <= value < self.max_players):
                    # Seats count from 0; the most a game can have is known without its players.
                    raise IllegalEvent(f"house rule deck_owner must be a seat number 0-"
                                       f"{self.max_players - 1} ({self.title} takes at most "
                                       f"{self.max_players} players), not {value!r}")
                out[key] = value
                continue
            if key in CLOCK_RULES and key not in self.default_rules:
                out[key] = check_clock_rule(key, value)
                continue
            if key not in self.default_rules:
                known = ", ".join([*self.default_rules, "deck_owner", *CLOCK_RULES])
                raise IllegalEvent(f"unknown house rule {key!r} for {self.kind} (known: {known})")
            out[key] = self.check_rule(key, value)
        if out.get("turn_limit") is not None and out.get("time_bank") is not None:
            raise IllegalEvent("house rules turn_limit and time_bank are two turn clocks: "
                               "choose one (a limit per turn, or a time bank per player)")
        if out.get("time_bonus") and out.get("time_bank") is None:
            raise IllegalEvent("house rule time_bonus is added to a time bank: set time_bank "
                               "too, or leave time_bonus out")
        return out

    def check_rule(self, key: str, value: Any) -> Any:
        """Check one house rule's value. Subclasses override for ranges and special values."""
        default = self.default_rules[key]
        if type(value) is not type(default):
            raise IllegalEvent(f"house rule {key} must be like {default!r}, not {value!r}")
        return value

    def check_header(self, header: Header) -> Header:
        n = len(header.players)
        if not self.min_players <= n <= self.max_players:
            raise IllegalEvent(f"{self.title} takes {self.min_players}-{self.max_players} "
                               f"players, not {n}")
        for name in header.players:
            if not isinstance(name, str) or not name.strip():
                raise IllegalEvent(f"player names must be non-empty text, not {name!r}")
        if isinstance(header.first, bool) or not isinstance(header.first, int) \
                or not 0 <= header.first < n:
            raise IllegalEvent(f"first must be a seat 0-{n - 1}, not {header.first!r}")
        rules = self.check_rules(header.rules)
        owner = rules.get("deck_owner")
        if owner is not None and owner >= n:
            raise IllegalEvent(f"the house rules make seat {owner + 1} the deck owner "
                               f"(deck_owner = {owner}): start with {owner + 1} players or more")
        return replace(header, players=tuple(header.players), rules=rules)

    def initial(self, header: Header) -> S:
        # The table kind's state; every kind with a state class of its own overrides this.
        return cast(S, State(table=Table(seats=len(header.players), current=header.first)))

    # --- applying events ----------------------------------------------------------------------

    def apply(self, state: S, event: Event) -> S:
        if not isinstance(event, dict):
            raise IllegalEvent(f"an event must be a JSON object, not {event!r}")
        kind = event.get("type")
        if not isinstance(kind, str):
            raise IllegalEvent("an event needs a \"type\"")
        m = self.moves.get(kind)
        if m is None:
            raise IllegalEvent(f"unknown event type {kind!r} for {self.kind} "
                               f"(known: {', '.join(sorted(self.moves))})")
        extra = set(event) - {"type"} - m.fields
        if extra:
            allowed = ", ".join(sorted(m.fields)) or "none"
            raise IllegalEvent(f"{kind}: unknown field {sorted(extra)[0]!r} (allowed: {allowed})")
        missing = m.required - set(event)
        if missing:
            raise IllegalEvent(f"{kind}: missing field {sorted(missing)[0]!r}")
        if state.over:
            raise IllegalEvent(f"{kind}: the game is over")
        after = m.apply(self, state, event)
        before_money = state.money
        if before_money is not None and after.money != before_money:
            raise IllegalEvent(money_words(kind, before_money, after.money or 0))
        return after

    def fold(self, header: Header, events: Iterable[Event]) -> S:
        state = self.initial(header)
        for e in events:
            state = self.apply(state, e)
        return state

    def actor(self, state: S, event: Event) -> int:
        """The seat an event acts for: its "player", or the current player."""
        if "player" in event:
            return tbl.check_seat(state.table, event["player"])
        return state.table.current

    def with_table(self, state: S, table: Table) -> S:
        return replace(state, table=table)

    def end_turn(self, state: S) -> S:
        """End the current turn the way `next` does. Games hook their per-turn upkeep here."""
        return self.with_table(state, tbl.end_turn(state.table))

    # --- common moves (every game kind) -------------------------------------------------------

    @move("player")
    def move_next(self, state: S, event: Event) -> S:
        self._check_is_current(state, event)
        return self.end_turn(state)

    @move("player")
    def move_skip(self, state: S, event: Event) -> S:
        self._check_is_current(state, event)
        return self.with_table(state, tbl.skip(state.table))

    @move("player")
    def move_double_skip(self, state: S, event: Event) -> S:
        self._check_is_current(state, event)
        return self.with_table(state, tbl.skip(state.table, 2))

    @move("player")
    def move_reverse(self, state: S, event: Event) -> S:
        self._check_is_current(state, event)
        return self.with_table(state, tbl.reverse(state.table))

    @move("player")
    def move_reverse_skip(self, state: S, event: Event) -> S:
        self._check_is_current(state, event)
        return self.with_table(state, tbl.reverse_skip(state.table))

    @move(required=("player",))
    def move_skip_to(self, state: S, event: Event) -> S:
        seat = tbl.check_seat(state.table, event["player"])
        return self.end_turn_to(state, seat)

    @move(required=("player",))
    def move_first(self, state: S, event: Event) -> S:
        return self.with_table(state, tbl.set_first(state.table, event["player"]))

    @move("player", required=("dice",))
    def move_roll(self, state: S, event: Event) -> S:
        self.actor(state, event)
        return replace(state, last_roll=dicemod.check_roll(event["dice"]))

    @move()
    def move_end(self, state: S, event: Event) -> S:
        """The group ends the game. Games with a score name their winners in `final_winners`."""
        return replace(state, over=True, winners=self.final_winners(state))

    def end_turn_to(self, state: S, seat: int) -> S:
        """`skip_to`: the turn ends at once and `seat` plays next."""
        return self.with_table(state, tbl.skip_to(state.table, seat))

    def final_winners(self, state: S) -> tuple[int, ...]:
        return ()

    def _check_is_current(self, state: S, event: Event) -> None:
        if "player" in event and self.actor(state, event) != state.table.current:
            raise IllegalEvent(f"{event['type']}: it is seat {state.table.current}'s turn, "
                               f"not seat {event['player']}'s")

    # --- for replay and the screen ------------------------------------------------------------

    def summary(self, state: S) -> dict[str, Any]:
        """The `companion replay --json` object (docs/log-format.md); games add their fields."""
        return {"current": state.table.current, "direction": state.table.direction,
                "over": state.over, "winners": list(state.winners),
                "pending_skips": state.table.pending_skips, "turns": state.table.turns,
                "last_roll": dict(state.last_roll) if state.last_roll else None}

    def records_roll(self, event: Event) -> bool:
        """Whether `event` recorded the dice now in `last_roll` (the web names whose roll it
        was): a `roll`, or any move with `dice`; a kind whose own move rolls says so."""
        return "dice" in event

    def dice_now(self, state: S) -> tuple[str, ...] | None:
        """The dice a roll may use now (the phone offers these): the kind's `dice`."""
        return self.dice

    def question(self, state: S, last: Event | None) -> dict[str, Any] | None:
        """What the game's flow asks the table now that `last` was recorded (the panel asks
        it, and a phone reads it in the snapshot's `ask`), e.g. {"kind": "dealer",
        "suggested": seat}; None when nothing is asked."""
        return None

    def next_needs(self, state: S) -> NextNeeds | None:
        """What NEXT means now (docs/architecture.md, "What NEXT means"): None when it ends the
        turn as it is; else the choice it needs first (Penny Badger: pass or claim), which
        the box's NEXT asks and a phone's NEXT takes the player to. A kind declares it here,
        once; `next_refusal` applies it to every live input."""
        return None

    def next_refusal(self, state: S, event: Event) -> str | None:
        """Why a live input's `event` (the panel, a phone, a script) is refused before the
        engine sees it: a bare NEXT where the rules need a choice, in that choice's words;
        a common turn move the kind does not offer (`turn_moves`: Penny Badger has no Skip
        to player, which would end a badger's turn with no penny paid). The engine itself
        still folds both (an imported or replayed log's: docs/log-format.md), so only what
        is pressed now is refused."""
        if not isinstance(event, dict):
            return None
        kind = event.get("type")
        if kind in TURN_MOVE_NAMES and kind not in self.turn_moves + self.own_turn_moves:
            return f"{self.title} has no {TURN_MOVE_NAMES[str(kind)]}"
        if kind != "next" or state.over:
            return None
        needs = self.next_needs(state)
        return needs.words if needs is not None else None

    def describe(self, event: Event, header: Header, before: S) -> str:
        """A few words for people: the undo toast, the history list."""
        kind = event.get("type")
        who = header.name(event["player"]) if isinstance(event.get("player"), int) \
            and 0 <= event["player"] < len(header.players) else header.name(before.table.current)
        if kind == "next":
            return f"{turn_words(who)} ended"
        if kind == "roll":
            dice = event.get("dice")
            return roll_words(who, dice if isinstance(dice, Mapping) else {})
        if kind == "skip_to":
            return f"Skip to {who}"
        if kind == "first":
            return f"{who} goes first"
        if kind in SKIPS:
            return self.skip_line(event, header, before)
        return {"reverse": "Reverse", "end": "End of game"}.get(str(kind), str(kind))

    def skip_line(self, event: Event, header: Header, before: S) -> str:
        """A skip's history line names who it passes over, as its call does, from the state
        after it (docs/architecture.md, "Table invariants"): "Skip: Cy is skipped", "Reverse
        + skip: Ann and Dee are skipped"."""
        title = SKIPS[str(event.get("type"))]
        try:
            after = self.apply(before, event)
        except IllegalEvent:  # words only: a move the rules refuse is named as it was asked
            return title
        seats = list(dict.fromkeys(after.table.passed_over))
        return f"{title}: {skipped_words([header.name(s) for s in seats])}" if seats else title

    def calls(self, event: Event, header: Header, before: S, after: S) -> list[Call]:
        """What is said aloud of `event`, recorded on `before` and leading to `after`: a list
        of (kind, words), the kinds of config.CALLS (docs/speech.md). The words are the
        history line's (`describe`) or built from its pieces: a move's own call first
        (`move_calls`), then whose turn it is now when the turn changed, or the game over."""
        kind = event.get("type")
        t0, t1 = before.table, after.table
        # The common moves said in their history line's words; a kind's own move says its
        # `move_calls` (which reads the line itself when it says it), NEXT only the turn.
        line = SKIPS[kind] if kind in SKIPS else \
            self.describe(event, header, before) if kind in SAID_AS_LINE else ""
        out: list[Call] = []
        if kind in ("skip", "double_skip", "reverse_skip", "reverse"):
            out.append(turn_order_call(str(kind), line, header, after))
        elif kind == "first":
            out.append(("turn", line))  # "Ben goes first"
        elif kind == "roll":
            out += self.roll_calls(event, header, before, after)
        elif kind not in TURN_MOVES:
            out += self.move_calls(event, header, before, after)
        # A call of kind "turn" already says whose turn it is ("Ben goes first").
        turn_said = any(c[0] == "turn" for c in out)
        if after.over:
            if not before.over:
                end = over_words([header.name(s) for s in after.winners])
                # A winning move whose own line already says it ("Ben wins": Rainbow Rush,
                # Dice Factor) is said once, as the game over.
                out = [c for c in out if c[1] != end.removeprefix("Game over: ")]
                out.append(("end", end))
        elif not turn_said and (t1.current != t0.current or t1.turns != t0.turns):
            out.append(("turn", turn_words(header.name(t1.current))))
        return out

    def roll_calls(self, event: Event, header: Header, before: S, after: S) -> list[Call]:
        """The call of a roll: its history line, of kind "roll" ("Ann rolled RED STAR").
        A kind whose roll can end the turn says why as a "move", which is said even when
        roll calls are off (Dice Factor: "Ann rolled 3: Ann loses the turn")."""
        return [("roll", self.describe(event, header, before))]

    def move_calls(self, event: Event, header: Header, before: S, after: S) -> list[Call]:
        """The call of a kind's own move (not the common turn moves): its history line, said
        as it is. A kind overrides this where the spoken words differ ("Ann sold the farm
        for 230"); an empty list says nothing but the turn call."""
        return [("move", self.describe(event, header, before))]

    def text(self, state: S, header: Header) -> str:
        """`companion replay` without --json: the final state for people."""
        t = state.table
        lines = [f"{self.title}: {len(header.players)} players"]
        if state.over:
            names = ", ".join(header.name(s) for s in state.winners) or "nobody"
            lines.append(f"Game over. Winner{'s' if len(state.winners) > 1 else ''}: {names}")
        else:
            lines.append(f"Current player: {header.name(t.current)} (seat {t.current})")
            lines.append(f"Direction: {'clockwise' if t.direction == 1 else 'counter-clockwise'}")
            lines.append(f"Next: {header.name(t.upcoming)}"
                         + (f" ({t.pending_skips} skip(s) pending)" if t.pending_skips else ""))
        if state.last_roll:
            lines.append("Last roll: " + ", ".join(f"{k} {v}" for k, v in state.last_roll.items()))
        lines.append(f"Turns played: {t.turns}")
        return "\n".join(lines)
