"""The calls: what is said aloud of a move (docs/speech.md), by the box's espeak-ng and by the
pages' speech synthesis alike.

A `Call` is one thing to say, "Ben's turn" or "Ann sold the farm for 230", with its kind
(one of `config.CALLS`: which kinds are spoken is `[speech] calls`) and its number `n`, which
grows with each call the app makes: a page speaks the calls numbered past the last it spoke,
and a call of kind "turn", "reverse" or "skip" is stale, not to be spoken, once a later one
of those kinds exists (its turn is over).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.rules.game import skipped_words, turn_words

if TYPE_CHECKING:
    from companion.rules.game import Event
    from companion.session.journal import Journal

TURN_KINDS = ("turn", "reverse", "skip")


@dataclass(frozen=True, slots=True)
class Call:
    kind: str  # one of config.CALLS
    text: str  # the words, as said: "Reverse: Cy's turn"
    n: int  # the app's running number of calls

    @property
    def about_turn(self) -> bool:
        """A call that names whose turn it is (stale once a later one is made)."""
        return self.kind in TURN_KINDS

    @property
    def ends_turns(self) -> bool:
        """A call that makes the calls about the turn made before it stale: a later one about
        the turn, or the game over (no turn is anybody's then). An undo always carries one."""
        return self.about_turn or self.kind == "end"

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "n": self.n}


TIME_WORDS = "Time!"  # the turn clock's call at no time left; the panel's clock shows it too
# A word in capitals (the panel's colour and shape names, "RED STAR") is said in lower case,
# so that no speech engine spells it out letter by letter.
_CAPITALS = re.compile(r"\b[A-Z]{2,}\b")


def spoken(text: str) -> str:
    """The history line's words as they are said: "Ann rolled RED STAR" -> "Ann rolled red
    star"."""
    return _CAPITALS.sub(lambda m: m.group(0).lower(), text)


def of_change(journal: Journal, what: str, event: Event, last: int) -> list[Call]:
    """The calls of a change just committed to `journal` (`what`: "append", "redo" or
    "undo", `event` the event appended, redone or undone), numbered on from `last`.

    An append or a redo says what its kind's `Game.calls` says of it (the move, then whose
    turn it is or the game over). An undo says "Undone: " and the history line of what it
    took back, then whose turn it is now (even when it did not move) and, with skips still
    pending, who they pass over now: every call is made from the state after the change."""
    j = journal
    if what == "undo":
        now = j.state
        pairs = [("move", "Undone: " + j.game.describe(event, j.header, now))]
        if not now.over:  # whose turn it is now, even when it did not move (an undone skip:
            # its "Dee is skipped", still waiting to be said, is stale by it)
            t = now.table
            words = turn_words(j.header.name(t.current))
            if t.pending_skips:  # and who the skips still pending pass over, now (an undone
                # reverse moves them back: "Ben is skipped" again, not the reverse's "Eve"),
                # in the same call: a page drops a turn call a later one in its batch follows
                words += ", " + skipped_words([j.header.name(s)
                                               for s in dict.fromkeys(t.passed_over)])
            pairs.append(("turn", words))
    else:
        pairs = j.game.calls(event, j.header, j.previous_state, j.state)
    return [Call(kind, spoken(text), last + i) for i, (kind, text) in enumerate(pairs, 1)]


def start_call(journal: Journal, last: int) -> list[Call]:
    """A new game's first turn, once its setup is done, when no move has named it yet ("Cy
    goes first" already did): "Ann's turn"."""
    if journal.events or journal.state.over:
        return []
    return [Call("turn", turn_words(journal.header.name(journal.state.table.current)),
                 last + 1)]


def time_call(last: int) -> Call:
    """The turn clock's "Time!" (the turn limit or the time bank ran out)."""
    return Call("time", TIME_WORDS, last + 1)
