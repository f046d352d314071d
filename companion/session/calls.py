"""The calls: what is said aloud of a move (docs/speech.md), by the box's espeak-ng and by the
pages' speech synthesis alike.

A `Call` is one thing to say, "Ben's turn" or "Ann sold the farm for 230", with its kind
(one of `config.CALLS`: which kinds are spoken is `[speech] calls`) and its number `n`, which
grows with each call the app makes: a page speaks the calls numbered past the last it spoke,
and a call of kind "turn", "reverse" or "skip" is stale, not to be spoken, once a later one
of those kinds exists (its turn is over).
"""

from __future__ import annotations

from dataclasses import dataclass

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

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "n": self.n}
