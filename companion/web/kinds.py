"""The web part of a game kind: the phone's action forms and the live pages' game view.

Each kind declares them in its own package (companion/games/<kind>/web.py) as a `KindWeb`
given to its `GameKind(web=...)`; control.js and table.js render the JSON made here and know no
kind, so a kind installed as a plugin gets phone forms and a game view with no JS of its own.

A `KindWeb` holds functions of `Seen` (the game as the snapshot has it: the state as `companion
replay --json` writes it, the players, the house rules, the question the game asks now) that
return data from the small closed vocabulary below: `Form`s (fields filled in, then one event
sent) and `Quick` buttons (one tap, one fixed event) for the phone; widgets and `Column`s for
the game panel and the players' table. A form's own checks are data too (what to test, and the
message as a template with {name}, {least}, {value}), run by the browser before sending; what
only the rules engine can check comes back in the form's words (companion/web/words.py).
Counts in labels, defaults from the state, forms shown only in some states are plain Python in
the kind's functions: the snapshot carries the forms and view worked out for the game as it is
(`render`), /api/kinds the forms of a new game of each kind (`fresh`).

A field that is the players' input (a number per player, a count in a hand, a color or a face
they read off a card or a die) has no default: it starts empty, the page refuses it empty, and
so does the box (`refusal`, for a script or a page that skips the check), naming it by its
label ("Enter Ann's points (a whole number)"), never by its key. Only a field with a sensible
default (the player whose turn it is, the dealer the game suggests) starts filled in. A move the rules engine
refuses is said in the kind's own words too: its forms' `titles` by event type and its `words`
for its engine's messages, which companion/web/words.py tries before the common ones.

It lives in companion/web/ as the web's vocabulary (the JS renders exactly these tags) and
imports nothing of the server, so a kind's package imports it at no cost.
"""

from __future__ import annotations

import logging
import re
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Sequence

if TYPE_CHECKING:
    from companion.games import GameKind
    from companion.rules.game import Game

log = logging.getLogger(__name__)

Value = str | int | bool | None  # a JSON scalar: an option's value, a field's default


# --- what a kind's functions read --------------------------------------------------------------

@dataclass(frozen=True)
class Seen:
    """The game as the snapshot shows it: `state` is `companion replay --json` (JSON types),
    `ask` the question the game's flow asks now (Game.question), or None."""

    state: Mapping[str, Any]
    players: tuple[str, ...]
    rules: Mapping[str, Any] = field(default_factory=dict)
    ask: Mapping[str, Any] | None = None

    @property
    def current(self) -> int:
        return self.state["current"]

    def name(self, seat: int) -> str:
        return self.players[seat]

    def active(self, seat: int) -> bool:
        """Not eliminated (a kind without eliminations has every seat active)."""
        return seat not in (self.state.get("eliminated") or ())

    def seats(self, *, others: bool = False, active: bool = False) -> tuple[Option, ...]:
        """The players as options (value: the seat); `others` leaves out the current player,
        `active` the eliminated ones."""
        return tuple(Option(k, n) for k, n in enumerate(self.players)
                     if not (others and k == self.current) and not (active and not self.active(k)))

    def next_seat(self) -> int:
        """The seat after the current one, clockwise (a second player's default)."""
        return (self.current + 1) % len(self.players)


# --- the forms -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """One choice. `label` defaults to the value as text; `note` is said under the field while
    this option is chosen; `send` is what the event gets instead of `value` (None: `value`)."""

    value: Value
    label: str = ""
    note: str = ""
    send: Value = None


def options(*values: Value) -> tuple[Option, ...]:
    """Options whose labels are their values."""
    return tuple(Option(v) for v in values)


@dataclass(frozen=True)
class Choice:
    """A select. `key` is where its value goes in the event (dotted: "dice.colors", "players.0";
    default: the name); `label` is its label ("Color" beside the select; none: the form's
    title names it, for screen readers and messages); `follows` names another Choice whose
    value picks this one's options from `options_by`; `only_if` names a field that must be
    filled in (ticked, or a choice made) for this one to be sent.

    No `default` (None): the players' input. It starts on an empty line ("choose") and is
    refused empty as `missing` ({label}: its label), unless `optional`: then it is left out
    of the event while nobody chose (a form's `one_of` may still need one of its fields).
    A default is only for what the players do not choose; what the game suggests is said in
    a label or a `Note` instead, so an untouched form never commits a choice nobody made."""

    tag: ClassVar[str] = "choice"
    name: str
    options: tuple[Option, ...]
    default: Value = None
    key: str = ""
    label: str = ""
    follows: str = ""
    options_by: Mapping[str, tuple[Option, ...]] = field(default_factory=dict)
    only_if: str = ""
    missing: str = "{label}: choose one"
    optional: bool = False


@dataclass(frozen=True)
class Many:
    """Checkboxes under a legend: the ticked options' values as a list (`empty` is said when
    there are no options)."""

    tag: ClassVar[str] = "many"
    name: str
    legend: str
    options: tuple[Option, ...]
    key: str = ""
    empty: str = ""


@dataclass(frozen=True)
class Radio:
    """Radio buttons under a legend: the chosen option's value. With `only_if`, sent only when
    that field is filled in, and then `required` (the message) when none is chosen."""

    tag: ClassVar[str] = "radio"
    name: str
    legend: str
    options: tuple[Option, ...]
    key: str = ""
    only_if: str = ""
    required: str = ""


@dataclass(frozen=True)
class Tick:
    """One checkbox: `true` in the event when ticked, else left out."""

    tag: ClassVar[str] = "tick"
    name: str
    label: str
    key: str = ""


@dataclass(frozen=True)
class PerSeat:
    """A whole number per player (a list, in seat order): always the players' input, so each
    starts empty. Each input is labelled "<What>, <name>" ("Points, Ann"). An empty or bad one
    is refused as `missing`, one outside `low`-`high` as `outside` (templates: {name} the player,
    {what}, {low}, {high}, {value}); with `need` set, one seat at least must have that value,
    else `need_message` ({value}: `need`)."""

    tag: ClassVar[str] = "per-seat"
    name: str
    what: str
    low: int
    high: int
    key: str = ""
    need: int | None = None
    need_message: str = "Enter {value} for one player at least"
    missing: str = "Enter {name}'s {what} (a whole number)"
    outside: str = "{name}'s {what}: {low} to {high}, not {value}"


@dataclass(frozen=True)
class Whole:
    """One whole number the players type (a move's amount): it starts empty, and an empty or
    bad one is refused as `missing`, one outside `low`-`high` as `outside` (templates: {label},
    {low}, {high}, {value}). Labelled `label` beside its input."""

    tag: ClassVar[str] = "whole"
    name: str
    label: str
    low: int
    high: int
    key: str = ""
    missing: str = "{label}: enter a whole number, {low} to {high}"
    outside: str = "{label}: {low} to {high}, not {value}"


@dataclass(frozen=True)
class Ints:
    """A cell of `SeatRows`: whole numbers typed as "3 3 2", as a list (empty: none). `bad` is
    said when one is not a whole number, `small` when one is under `least` (templates: {name}
    the player, {least}, {value}). Its input is labelled "<What>, <name>" ("Sets, Ann")."""

    tag: ClassVar[str] = "ints"
    name: str
    key: str
    what: str
    placeholders: tuple[str, ...] = ()  # per seat
    least: int = 0
    bad: str = "{name}: whole numbers, e.g. 3 3 2"
    small: str = "{name}: {least} or more each, not {value}"


@dataclass(frozen=True)
class Number:
    """A cell of `SeatRows`: one whole number, the players' input: it starts empty, and an
    empty or bad one is refused as `missing`, one outside `low`-`high` as `outside` (templates as
    `PerSeat`'s). Its input is labelled "<What>, <name>" ("Unmatched pigs, Ann")."""

    tag: ClassVar[str] = "number"
    name: str
    key: str
    what: str
    low: int
    high: int
    missing: str = "Enter {name}'s {what} (a whole number)"
    outside: str = "{name}'s {what}: {low} to {high}, not {value}"


@dataclass(frozen=True)
class Count:
    """A check on a `SeatRows` form: seat `seat`'s `cell` list has at least `least` items."""

    cell: str
    seat: int
    least: int
    message: str


@dataclass(frozen=True)
class SeatRows:
    """A row per player (`labels`) with a few cells each: a list of objects (cell key: value),
    in seat order, under a header row (`heads`)."""

    tag: ClassVar[str] = "seat-rows"
    key: str
    heads: tuple[str, ...]
    labels: tuple[str, ...]
    cells: tuple[Ints | Number, ...]
    count: Count | None = None


@dataclass(frozen=True)
class Note:
    """A line of small print (in a form, or in the game view)."""

    tag: ClassVar[str] = "note"
    text: str


@dataclass(frozen=True)
class Row:
    """Fields side by side."""

    tag: ClassVar[str] = "row"
    fields: tuple[Field, ...]


Field = Choice | Many | Radio | Tick | PerSeat | Whole | SeatRows | Note | Row


@dataclass(frozen=True)
class Send:
    """A button and the event it sends (a form adds its fields to it); `color` draws it as
    that color's chip."""

    label: str
    event: Mapping[str, Any]
    color: str = ""


@dataclass(frozen=True)
class Quick:
    """Buttons that each send their event at one tap, under an optional title. `main`: they
    are among the kind's main actions, at hand under NEXT on a phone (see `Form`)."""

    tag: ClassVar[str] = "quick"
    buttons: tuple[Send, ...]
    title: str = ""
    main: bool = False


@dataclass(frozen=True)
class Form:
    """A form (`name`: its data-form), sent by its `submit` button, or by any of `buttons` (each
    its own event with the same fields). `ask`: it answers the question the game asks now.
    `one_of`: said when none of its fields is filled in (a form of optional fields, such as
    one die of two re-rolled, that must still say something).

    `main`: one of the kind's main actions (what a turn is mostly made of): /control shows it
    under NEXT, Undo and Pause, above the scoreboard, as a button that brings the form on
    screen, named `short` (default: the title); a question's form (`ask`) always is. Few:
    a 360x640 phone shows them all without scrolling (tests/web/test_narrow.py)."""

    tag: ClassVar[str] = "form"
    name: str
    title: str
    fields: tuple[Field, ...] = ()
    submit: Send | None = None
    buttons: tuple[Send, ...] = ()
    ask: bool = False
    one_of: str = ""
    main: bool = False
    short: str = ""


Action = Form | Quick


# --- the game view -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Stat:
    """A figure and what it is; `style` "huge", "alert" or "wide" (table.css)."""

    tag: ClassVar[str] = "stat"
    label: str
    value: str
    style: str = ""


@dataclass(frozen=True)
class ChipStat:
    """A color as a chip (None: `none` in its place)."""

    tag: ClassVar[str] = "chip-stat"
    label: str
    color: str | None
    none: str = "none"
    style: str = "huge"


@dataclass(frozen=True)
class ChipsStat:
    """Colors as a row of chips (none: `none`)."""

    tag: ClassVar[str] = "chips-stat"
    label: str
    colors: tuple[str, ...]
    none: str = "none"
    style: str = "wide"


@dataclass(frozen=True)
class Die:
    """A die showing `face` ("colors", "shapes", "d8", "d6"); None: an empty die, "?", `empty`
    under it."""

    die: str
    face: str | int | None
    empty: str = ""


@dataclass(frozen=True)
class DiceStat:
    tag: ClassVar[str] = "dice"
    label: str
    dice: tuple[Die, ...]
    style: str = "wide"


@dataclass(frozen=True)
class Bed:
    color: str
    n: int


@dataclass(frozen=True)
class Garden:
    """A bed per color: its chip, `of` petals with `n` of them on, and n/of."""

    tag: ClassVar[str] = "garden"
    beds: tuple[Bed, ...]
    of: int = 5


@dataclass(frozen=True)
class RoundRow:
    label: str
    cells: tuple[str, ...]
    mark: int | None = None  # the seat whose cell is marked


@dataclass(frozen=True)
class Rounds:
    """A table of rounds: a column per player (`names`), a row per round, the totals. A marked
    cell gets `mark_class`, `mark_title` and `mark_glyph` before its text. The TV, which cannot
    scroll, keeps the last `tv_rows` rows and adds `cut` ({n}: the rows left out) to `note`."""

    tag: ClassVar[str] = "rounds"
    head: str
    names: tuple[str, ...]
    rows: tuple[RoundRow, ...]
    total: RoundRow
    mark_class: str = ""
    mark_title: str = ""
    mark_glyph: str = ""
    note: str = ""
    cut: str = ""
    tv_rows: int = 5


Widget = Stat | ChipStat | ChipsStat | DiceStat | Garden | Rounds | Note


@dataclass(frozen=True)
class Chip:
    color: str
    text: str = ""  # default: the color's name


@dataclass(frozen=True)
class Column:
    """A column of the players' table: a cell per seat, text or a row of chips."""

    name: str
    cells: tuple[str | tuple[Chip, ...], ...]


@dataclass(frozen=True)
class View:
    """The game panel (`stats`), the players' table's columns, and `turn`: words said beside
    whose turn it is while the game is on (e.g. who owes cards)."""

    stats: tuple[Widget, ...] = ()
    columns: tuple[Column, ...] = ()
    turn: tuple[str, ...] = ()


# --- a refused move in the form's words ----------------------------------------------------------

Name = Callable[[str | int], str]  # a seat (as a match has it, "2", or 2) -> the player's name


@dataclass(frozen=True)
class Words:
    """A message of the kind's rules engine said for the phone: when a refused move's message
    matches `pattern` (the whole of it), the phone is told `say(match, name)` instead, where
    `name("2")` is seat 2's name (`named` puts names in a whole text). A kind's are tried in
    order, before the common ones of companion/web/words.py."""

    pattern: re.Pattern[str]
    say: Callable[[re.Match[str], Name], str]


def named(text: str, name: Name) -> str:
    """"seat 2's" and "seat 2" in `text` as the player's name."""
    return re.sub(r"\bseat (\d+)", lambda m: name(m[1]), text)


# --- the declaration -----------------------------------------------------------------------------

def _no_actions(seen: Seen) -> Sequence[Action]:
    return ()


@dataclass(frozen=True)
class KindWeb:
    """A kind's web part: its view, its actions, and a form per question the game may ask
    (`asks`, by the question's kind: the snapshot's `ask`), shown above the actions.

    A refused move is said in the kind's words: `titles` names the form (or button) each of its
    event types comes from, as the phone reads it ("sell": "Sell the farm"; an event type left
    out reads "Add card" for add_card), put before the engine's message; `words` rewrite its
    engine's messages whole (companion/web/words.py)."""

    view: Callable[[Seen], View]
    actions: Callable[[Seen], Sequence[Action]] = _no_actions
    asks: Mapping[str, Callable[[Seen], Form]] = field(default_factory=dict)
    titles: Mapping[str, str] = field(default_factory=dict)
    words: Sequence[Words] = ()
    # The phone's New game labels for the kind's house rules, by key ("bank": "Pennies in the
    # bank at the start"); a key left out is said in words made from it (`rule_labels`).
    rules: Mapping[str, str] = field(default_factory=dict)


# House rules every kind may have (companion/rules/game.py; the clock's have a form of their
# own on the phone).
COMMON_RULES = {"deck_owner": "Deck owner's seat (0: the first player), 2 votes on a tie"}


def rule_labels(kind: GameKind, keys: Sequence[str]) -> dict[str, str]:
    """A label in words for each house rule key in `keys`, as New game shows it: the kind's
    own (`KindWeb.rules`), a common one, or the key made into words ("max_hand": "Max hand"),
    never the key itself."""
    try:
        web = part(kind) if kind.web is not None else None
        own: Mapping[str, str] = web.rules if web is not None else {}
    except Exception as e:  # a plugin's bug: its rules are still labelled
        log.error("game kind %s: its web part failed: %r", kind.kind, e)
        own = {}
    return {k: own.get(k) or COMMON_RULES.get(k) or k.replace("_", " ").capitalize()
            for k in keys}


# --- as JSON -------------------------------------------------------------------------------------

def to_json(v: Any) -> Any:
    """Declarations as JSON: a dataclass is an object with its tag as "kind" (when it has one)
    and its fields, leaving out optional ones left at an empty default ("", None, False, empty
    lists: the JS reads a missing field as empty; a False where the default is None, such as
    an option that sends false, is kept); tuples are lists."""
    if is_dataclass(v) and not isinstance(v, type):
        out: dict[str, Any] = {}
        tag = getattr(v, "tag", None)
        if tag:
            out["kind"] = tag
        for f in fields(v):
            x = getattr(v, f.name)
            if f.default is not MISSING:
                default: Any = f.default
            elif f.default_factory is not MISSING:
                default = f.default_factory()
            else:
                default = MISSING
            if default is not MISSING and _empty(x) and x == default:
                continue  # left as declared by default: the JS reads it as empty
            out[f.name] = to_json(x)
        return out
    if isinstance(v, (tuple, list, set, frozenset)):
        return [to_json(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): to_json(x) for k, x in v.items()}
    return v


def _empty(x: Any) -> bool:
    return x is None or x is False or x == "" or (isinstance(x, (tuple, list, Mapping)) and not x)


# By id(GameKind), with the kind itself (an id is only unique while its object lives).
_PARTS: dict[int, tuple[GameKind, Any]] = {}


def part(kind: GameKind) -> KindWeb | None:
    """The kind's web part: `GameKind.web` is a `KindWeb`, a `Part` naming one (the built-in
    kinds declare it so: start-up, which draws the panel's first frame before the web
    starts, reads none of it), or a function that imports and returns one, called once;
    None: it has none."""
    from companion.games import Part  # the registry is loaded by then: it gave `kind`

    web = kind.web
    if web is not None and not isinstance(web, KindWeb):
        held = _PARTS.get(id(kind))
        if held is None or held[0] is not kind:
            held = _PARTS[id(kind)] = (kind, web.load() if isinstance(web, Part) else web())
        web = held[1]
    return web if isinstance(web, KindWeb) else None


def actions(kind: GameKind, seen: Seen) -> list[Action]:
    """The forms the phone shows now: the question's form (when the game asks one this kind
    answers), then the kind's actions; none once the game is over."""
    web = part(kind)
    if web is None or seen.state.get("over"):
        return []
    out: list[Action] = []
    ask = seen.ask.get("kind") if seen.ask else None
    if isinstance(ask, str) and ask in web.asks:
        out.append(web.asks[ask](seen))
    out += web.actions(seen)
    return out


# --- what the box refuses before the rules engine sees it ---------------------------------------

# The moves every kind has (companion/rules/game.py), whose forms the pages draw themselves
# (control.js: Next player, Skip to, Who goes first, Record a roll, End the game).
COMMON = frozenset({"next", "skip", "double_skip", "reverse", "reverse_skip", "skip_to",
                    "first", "roll", "end"})

FIRST_LATE = ("Who goes first: only before the first turn ends; to give the turn to "
              "someone now, use Skip to")


def first_open(seen: Seen) -> bool:
    """Who goes first may be picked (the common form is offered): before the first turn ends,
    as the panel asks it when a game starts (a kind's own "first", such as Chaos's next
    dealer, is offered by its own form when its game asks)."""
    return not seen.state.get("turns")


def refusal(kind: GameKind | None, seen: Seen, event: Mapping[str, Any]) -> str | None:
    """Why the box refuses `event` from a phone before the rules engine sees it, in the words
    of the form it comes from; None: on to the engine. A "first" after the first turn ended
    unless a form offered now sends one; and an event of one of the kind's own forms offered
    now with one of its players' inputs missing or empty (the page refuses it first; this is
    for a page that skipped the check, or a script), named by its label."""
    etype = event.get("type")
    try:
        found = actions(kind, seen) if kind is not None else []
    except Exception as e:  # a kind's own bug: the engine still checks the move
        log.error("game kind %s: its web actions failed: %r", kind.kind if kind else None, e)
        return None
    offered = [a for a in found if etype in {s.event.get("type") for s in _sends(a)}]
    # Of those, the ones whose buttons' fixed fields the event has (a design's moves all
    # send "move", each with its own "name"); none: every one of the type, as before.
    exact = [a for a in offered if any(all(event.get(k) == v for k, v in s.event.items())
                                       for s in _sends(a))]
    offered = exact or offered
    if etype == "first" and not first_open(seen) and not offered:
        return FIRST_LATE
    if etype in COMMON:
        return None  # the pages' own forms send these too: the engine checks them
    why: str | None = None
    for a in offered:
        if not isinstance(a, Form):
            return None  # a Quick button sends it as it is
        missing = _missing(a, seen, event)
        if missing is None:
            return None  # one form it may come from is filled in
        why = why or missing
    return why


def _sends(a: Action) -> tuple[Send, ...]:
    return (a.submit,) if isinstance(a, Form) and a.submit else a.buttons


def _flat(items: Sequence[Field]) -> list[Field]:
    out: list[Field] = []
    for f in items:
        out += _flat(f.fields) if isinstance(f, Row) else [f]
    return out


def _at(event: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted key ("dice.colors", "players.0"); None where there is none."""
    v: Any = event
    for p in path.split("."):
        if isinstance(v, Mapping):
            v = v.get(p)
        elif isinstance(v, list) and p.isdigit() and int(p) < len(v):
            v = v[int(p)]
        else:
            return None
    return v


def _filled(v: Any) -> bool:
    return not _empty(v)


def _say(template: str, **kw: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(kw[m[1]]) if m[1] in kw else m[0], template)


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(c: PerSeat | Number, who: str, v: Any) -> str | None:
    if not _whole(v):
        return _say(c.missing, name=who, what=c.what)
    if not c.low <= v <= c.high:
        return _say(c.outside, name=who, what=c.what, low=c.low, high=c.high, value=v)
    return None


def _missing(form: Form, seen: Seen, event: Mapping[str, Any]) -> str | None:
    """The first of `form`'s players' inputs that `event` leaves missing, empty or out of
    range, in the words the page says it in ("Enter Ann's points (a whole number)", "Color:
    choose one"); None: all there."""
    values: dict[str, Any] = {}
    for f in _flat(form.fields):
        only_if = getattr(f, "only_if", "")
        if isinstance(f, Note) or (only_if and not _filled(values.get(only_if))):
            continue
        name = f.key if isinstance(f, SeatRows) else getattr(f, "name", "")
        v = values[name] = _at(event, getattr(f, "key", "") or name)
        if isinstance(f, Choice) and f.default is None and not f.optional \
                and not _filled(v) and v is not False:
            return _say(f.missing, label=f.label or form.title)
        if isinstance(f, Whole):
            if not _whole(v):
                return _say(f.missing, label=f.label, low=f.low, high=f.high)
            if not f.low <= v <= f.high:
                return _say(f.outside, label=f.label, low=f.low, high=f.high, value=v)
        if isinstance(f, PerSeat):
            got = v if isinstance(v, list) else []
            for k, who in enumerate(seen.players):
                bad = _number(f, who, got[k] if k < len(got) else None)
                if bad:
                    return bad
        if isinstance(f, SeatRows):
            rows = v if isinstance(v, list) else []
            for k, who in enumerate(seen.players):
                row = rows[k] if k < len(rows) and isinstance(rows[k], Mapping) else {}
                for c in f.cells:
                    if isinstance(c, Number) and (bad := _number(c, who, row.get(c.key))):
                        return bad
    if form.one_of and not any(_filled(v) or v is False for v in values.values()):
        return form.one_of
    return None


def render(kind: GameKind | None, seen: Seen) -> tuple[Any, list[Any]]:
    """(view, actions) as JSON for the snapshot. A kind with no web part has no view (the page
    hides the game panel) and no actions of its own; one whose declaration fails is logged and
    shown the same way, so a plugin's bug never stops the snapshot."""
    if kind is None or kind.web is None:
        return None, []
    try:
        web = part(kind)
        if web is None:
            return None, []
        return to_json(web.view(seen)), to_json(actions(kind, seen))
    except Exception as e:  # a kind's own bug: the game goes on, without its web part
        log.error("game kind %s: its web view or actions failed: %r", kind.kind, e)
        return None, []


def new_game(game: Game, rules: Mapping[str, Any] | None = None) -> Seen:
    """A new game of `game` with its fewest players (P1, P2, ... as the panel names them), or
    as many as a house rule's deck owner needs to have a seat (seats 0-15 pass the config)."""
    from companion.rules.game import Header
    rules = dict(rules if rules is not None else game.default_rules)
    owner = rules.get("deck_owner")
    seats = max(game.min_players, owner + 1 if isinstance(owner, int) else 0)
    header = game.check_header(Header(game.kind, tuple(f"P{i + 1}" for i in range(seats)), 0,
                                      rules))
    state = to_json(game.summary(game.initial(header)))
    return Seen(state, header.players, to_json(dict(header.rules)))


def fresh(kind: GameKind, rules: Mapping[str, Any] | None = None) -> list[Any]:
    """The action forms of a new game of `kind`, as JSON (/api/kinds)."""
    try:
        return to_json(actions(kind, new_game(kind.rules, rules)))
    except Exception as e:
        log.error("game kind %s: its web actions failed: %r", kind.kind, e)
        return []
