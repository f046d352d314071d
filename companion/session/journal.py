"""One game's journal: a header and an ordered list of events, with undo and redo.

The state after every event is kept, so undo is a pop and the screen never waits for a
re-fold. Each change is handed to the `sink` (the SQLite store) and committed there before
the in-memory journal changes: an event the screen shows is always on disk.
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol

from companion.rules import GAMES
from companion.rules.game import Event, Game, Header, State
from companion.errors import IllegalEvent


class Sink(Protocol):
    def append(self, seq: int, event: Event) -> None: ...
    def undo(self, seq: int) -> None: ...
    def redo(self, seq: int) -> None: ...


class NullSink:
    """For journals that live only in memory (replay, screenshots, benchmarks)."""

    def append(self, seq: int, event: Event) -> None:
        pass

    def undo(self, seq: int) -> None:
        pass

    def redo(self, seq: int) -> None:
        pass


def game_for(header: Header) -> Game:
    try:
        return GAMES[header.game]
    except KeyError:
        raise IllegalEvent(f"unknown game {header.game!r} (known: {', '.join(GAMES)})") from None


class Journal:
    def __init__(self, header: Header, events: Iterable[Event] = (),
                 redo: Iterable[Event] = (), *, sink: Sink | None = None) -> None:
        self.game = game_for(header)
        self.header = self.game.check_header(header)
        self.sink: Sink = sink or NullSink()
        self.events: list[Event] = []
        self.states: list[State] = [self.game.initial(self.header)]
        for e in events:
            self.states.append(self.game.apply(self.states[-1], e))
            self.events.append(e)
        # Undone events, most recently undone last (so redo pops from the end).
        self.redo_stack: list[Event] = list(redo)

    @property
    def state(self) -> State:
        return self.states[-1]

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
        new = self.game.apply(self.state, event)
        self.sink.append(len(self.events), event)
        self.events.append(event)
        self.states.append(new)
        self.redo_stack.clear()
        return new

    def undo(self) -> Event:
        """Take back the last event (kept for redo) and return it."""
        if not self.events:
            raise IllegalEvent("nothing to undo: this is the start of the game")
        seq = len(self.events) - 1
        self.sink.undo(seq)
        event = self.events.pop()
        self.states.pop()
        self.redo_stack.append(event)
        return event

    def redo(self) -> Event:
        if not self.redo_stack:
            raise IllegalEvent("nothing to redo")
        event = self.redo_stack[-1]
        new = self.game.apply(self.state, event)
        self.sink.redo(len(self.events))
        self.redo_stack.pop()
        self.events.append(event)
        self.states.append(new)
        return event

    def describe(self, index: int) -> str:
        """Words for event number `index` (0-based), as of the state before it."""
        return self.game.describe(self.events[index], self.header, self.states[index])

    def describe_event(self, event: Event) -> str:
        return self.game.describe(event, self.header, self.state)

    def summary(self) -> dict[str, Any]:
        return self.game.summary(self.state)

    def name(self, seat: int) -> str:
        return self.header.name(seat)
