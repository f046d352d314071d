"""One game's journal: a header and an ordered list of events, with undo and redo.

Each change is handed to the `sink` (the SQLite store) and committed there before the
in-memory journal changes: an event the screen shows is always on disk.

Memory stays flat however long the game (issue 20): the events are kept as compact JSON
(`EventLog`, equal events shared), and of the states only a checkpoint every
`CHECKPOINT_EVERY` events plus the recent ones (between one and two checkpoints' worth, so an
undo is a pop). An older state (`state_at`) is folded again from the nearest checkpoint; the
last two such blocks are kept, so a walk over the whole game folds each event once more.

Beside each event it keeps what the turn clock needs (companion/session/clock.py): when the
event was recorded (`times`, NaN when not known: a log without times) and whose turn it was
 after it (`seats`, -1 once the game is over, -2 while the table is being asked;
`turn_numbers`, the turns ended so far, PICKED for the first turn once the table has picked
who plays it), in flat arrays of numbers, 14 bytes an event (and 4 for the event itself).
"""

from __future__ import annotations

import itertools
import json
import math
from array import array
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from companion import games
from companion.errors import IllegalEvent
from companion.rules.game import Event, Game, Header, State
from companion.session.clock import ASKED, OVER, PICKED

CHECKPOINT_EVERY = 64
NO_TIME = math.nan  # an event whose time is not known (a log without times)


class Sink(Protocol):
    """Where a journal's changes are committed. `append` and `redo` return the time the
    event is recorded at (Unix time; the store's `events.at`), or None when nothing keeps
    time (the journal then takes its own clock's, or none)."""

    def append(self, seq: int, event: Event) -> float | None: ...
    def undo(self, seq: int) -> None: ...
    def redo(self, seq: int) -> float | None: ...


class NullSink:
    """For journals that live only in memory (replay, screenshots, benchmarks)."""

    def append(self, seq: int, event: Event) -> float | None:
        return None

    def undo(self, seq: int) -> None:
        pass

    def redo(self, seq: int) -> float | None:
        return None


def turn_mark(state: State) -> tuple[int, int]:
    """What the turn clock notes after an event: whose turn it is (OVER once the game is
    over; ASKED while the table is being asked, State.asks_table: nobody's turn) and how many
    turns have ended (companion/session/clock.py)."""
    seat = OVER if state.over else ASKED if state.asks_table else state.table.current
    t = state.table
    # The first turn once the table has picked who plays it is numbered apart (PICKED), so
    # that a pick of the seat that stood first still ends the table's stretch (clock.py).
    return seat, PICKED if t.turns == 0 and t.picked else t.turns


def game_for(header: Header) -> Game[Any]:
    """The engine of a game's header: the one place a design game's kind is registered from
    the design its header carries (`games.for_header`), so that it replays on any box."""
    return games.for_header(header).rules


class EventLog:
    """A list of events held as compact JSON text, each distinct text once (a game of 100,000
    "next"s holds one) and each event as the number of its text (4 bytes). Reading an item
    decodes a fresh dict, so no caller can change what was recorded; it is the event as the
    journal stores it (tuples read back as lists). Compares equal to a list of the same
    events."""

    __slots__ = ("_distinct", "_items", "_texts")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._items = array("I")  # the number of each event's text in _distinct
        self._distinct: list[bytes] = []
        self._texts: dict[bytes, int] = {}
        for e in events:
            self.append(e)

    def encode(self, event: Event) -> bytes:
        text = json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode()
        number = self._texts.setdefault(text, len(self._distinct))
        if number == len(self._distinct):
            self._distinct.append(text)
        return self._distinct[number]

    def append(self, event: Event) -> None:
        self.append_encoded(self.encode(event))

    def append_encoded(self, text: bytes) -> None:
        """Appends a text `encode` returned."""
        self._items.append(self._texts[text])

    def pop(self) -> Event:
        return json.loads(self._distinct[self._items.pop()])

    def clear(self) -> None:
        del self._items[:]

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [json.loads(self._distinct[i]) for i in self._items[index]]
        return json.loads(self._distinct[self._items[index]])

    def __iter__(self) -> Iterator[Event]:
        for i in self._items:
            yield json.loads(self._distinct[i])

    def _all_texts(self) -> list[bytes]:
        return [self._distinct[i] for i in self._items]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._all_texts() == other._all_texts()
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"


class Journal:
    """`times`: when each of `events` was recorded, read once every event is folded (so a
    loader may fill it as it streams the events); missing or None entries are not known."""

    def __init__(self, header: Header, events: Iterable[Event] = (),
                 redo: Iterable[Event] = (), *, sink: Sink | None = None,
                 times: Iterable[float | None] | None = None) -> None:
        self.game = game_for(header)
        self.header = self.game.check_header(header)
        self.sink: Sink = sink or NullSink()
        self.events = EventLog()
        self.times = array("d")
        self.seats = array("h")  # (a short: a game has far fewer than 32,767 seats)
        self.turn_numbers = array("i")
        first = self.game.initial(self.header)
        self.first_seat = turn_mark(first)[0]  # whose time runs before any event
        self._marks: list[State] = [first]  # the state before event k * CHECKPOINT_EVERY
        self._tail: list[State] = [first]  # the states from event _tail_start on, to now
        self._tail_start = 0
        self._blocks: dict[int, list[State]] = {}  # refolded older blocks, the last two
        for e in events:
            text = self.events.encode(e)
            self._push(text, self.game.apply(self.state, json.loads(text)), NO_TIME)
        if times is not None:
            for i, t in enumerate(itertools.islice(times, len(self.events))):
                self.times[i] = NO_TIME if t is None else float(t)
        # Undone events, most recently undone last (so redo pops from the end), and their times.
        self.redo_stack = EventLog(redo)
        self.redo_times = array("d", [NO_TIME] * len(self.redo_stack))

    # --- states ---------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self._tail[-1]

    @property
    def previous_state(self) -> State:
        """The state before the last event (the start's state when there is none)."""
        return self.state_at(max(0, len(self.events) - 1))

    def state_at(self, index: int) -> State:
        """The state before event `index` (0-based); `len(events)` is the current state.
        Exactly the fold of the first `index` events."""
        n = len(self.events)
        if index < 0:
            index += n + 1
        if not 0 <= index <= n:
            raise IndexError(f"no state {index} in a game of {n} events")
        if index >= self._tail_start:
            return self._tail[index - self._tail_start]
        k, offset = divmod(index, CHECKPOINT_EVERY)
        block = self._blocks.get(k)
        if block is None:
            start = k * CHECKPOINT_EVERY  # whole blocks below the tail: all their events are in
            block = self._fold(self._marks[k], start, start + CHECKPOINT_EVERY - 1)
            if len(self._blocks) >= 2:
                del self._blocks[next(iter(self._blocks))]
            self._blocks[k] = block
        return block[offset]

    def _fold(self, state: State, start: int, stop: int) -> list[State]:
        """`state` (the state before event `start`) and the states after each event up to
        `stop` (exclusive)."""
        out = [state]
        for e in self.events[start:stop]:
            out.append(self.game.apply(out[-1], e))
        return out

    def _push(self, text: bytes, new: State, at: float) -> None:
        self.events.append_encoded(text)
        self.times.append(at)
        seat, number = turn_mark(new)
        self.seats.append(seat)
        self.turn_numbers.append(number)
        self._tail.append(new)
        n = len(self.events)
        if n % CHECKPOINT_EVERY == 0:
            self._marks.append(new)
        if len(self._tail) > 2 * CHECKPOINT_EVERY:  # keep one to two blocks of recent states
            del self._tail[:CHECKPOINT_EVERY]
            self._tail_start += CHECKPOINT_EVERY

    def _pop(self) -> tuple[Event, float]:
        event = self.events.pop()
        at = self.times.pop()
        self.seats.pop()
        self.turn_numbers.pop()
        self._tail.pop()
        n = len(self.events)
        del self._marks[n // CHECKPOINT_EVERY + 1:]
        # Blocks that reach past the new end may be folded from events a redo or a new event
        # will replace.
        for k in [k for k in self._blocks if (k + 1) * CHECKPOINT_EVERY > n]:
            del self._blocks[k]
        if len(self._tail) < 2 and n > 0:  # keep the previous state at hand: refold its block
            start = (n - 1) // CHECKPOINT_EVERY * CHECKPOINT_EVERY
            self._tail = self._fold(self._marks[start // CHECKPOINT_EVERY], start, n)
            self._tail_start = start
        return event, at

    # --- changes --------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self.events)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def check(self, event: Event) -> State:
        """The state `event` would lead to; raises IllegalEvent and changes nothing."""
        return self.game.apply(self.state, event)

    def append(self, event: Event) -> State:
        text = self.events.encode(event)  # the event as stored, and as a replay will read it
        new = self.game.apply(self.state, json.loads(text))
        at = self.sink.append(len(self.events), event)
        self._push(text, new, NO_TIME if at is None else float(at))
        self.redo_stack.clear()
        del self.redo_times[:]
        return new


    def undo(self) -> Event:
        """Take back the last event (kept for redo) and return it."""
        if not self.events:
            raise IllegalEvent("nothing to undo: this is the start of the game")
        seq = len(self.events) - 1
        self.sink.undo(seq)
        event, at = self._pop()
        self.redo_stack.append(event)
        self.redo_times.append(at)
        return event

    def redo(self) -> Event:
        if not self.redo_stack:
            raise IllegalEvent("nothing to redo")
        event = self.redo_stack[-1]
        text = self.events.encode(event)
        new = self.game.apply(self.state, event)
        at = self.sink.redo(len(self.events))
        self.redo_stack.pop()
        kept = self.redo_times.pop()
        # A redone event keeps the time it was first recorded at (its row's `at`).
        self._push(text, new, float(at) if at is not None else kept)
        return event

    # --- words ----------------------------------------------------------------------------

    def describe(self, index: int) -> str:
        """Words for event number `index` (0-based), as of the state before it."""
        return self.game.describe(self.events[index], self.header, self.state_at(index))

    def summary(self) -> dict[str, Any]:
        return self.game.summary(self.state)

    def name(self, seat: int) -> str:
        return self.header.name(seat)
