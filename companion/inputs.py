"""What arrives on the app's one input queue.

Every producer (gpiozero callback threads, the keyboard reader, the dice roller's serial
reader, timers) puts one of these on the queue; only the app thread consumes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Button(str, Enum):
    NEXT = "NEXT"
    ROLL = "ROLL"
    UP = "UP"
    DOWN = "DOWN"
    OK = "OK"
    BACK = "BACK"


class Gesture(str, Enum):
    PRESS = "press"  # pressed and released before the hold time
    HOLD = "hold"  # kept down for the hold time (no press follows on release)


@dataclass(frozen=True)
class ButtonInput:
    button: Button
    gesture: Gesture = Gesture.PRESS


@dataclass(frozen=True)
class RollResult:
    """Dice results for a roll the app asked for (`seq` matches the request).

    `source` is "roller" when the dice roller rolled them, "software" otherwise.
    `note` is a short text for the screen (e.g. "roller not answering: software roll").
    """

    seq: int
    dice: dict[str, str | int]
    source: str = "software"
    note: str = ""


@dataclass(frozen=True)
class Tick:
    """A timer the app set has run out (`token` says which one)."""

    token: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Notice:
    """A message for the screen from a driver (roller plugged in or out, display back, ...)."""

    text: str


@dataclass(frozen=True)
class Quit:
    """Stop the app cleanly (keyboard q, SIGTERM, end of a scripted input)."""


@dataclass(frozen=True)
class ShutdownRequest:
    """BACK and NEXT were held together for 5 s: ask whether to power the box off."""


@dataclass(frozen=True)
class RollerPress:
    """The dice roller's own button: a request to roll now (ui/dice.py, `roller_press`)."""


@dataclass(frozen=True, eq=False)
class WebRequest:
    """A change asked for by a paired browser (see companion/web/api.py), done by the app
    thread like a button press. `kind`: press, action, undo, redo, new-game, resume, roster,
    roster-set; a change's payload carries `seq` (App.web_request). The app sets `reply` (a concurrent.futures.Future) to {"ok": True, "seq": n,
    ...} or {"ok": False, "error": "one line", "status": HTTP status}."""

    kind: str
    payload: dict
    reply: Any = None


@dataclass(frozen=True, eq=False)
class StatsFilled:
    """What the statistics' background thread did (companion/app/statscache.py): `records`,
    the records it replayed of games with none saved (a journal from before the statistics),
    (game id, key, record JSON) for the app thread to save; `history`, the History it read
    every game's record with and folded the skill ratings in (session/tally.py), for the app
    thread to take over. Both None when it failed."""

    records: Any = None
    history: Any = None


@dataclass(frozen=True, eq=False)
class PhonePaired:
    """A phone paired (companion/web/pairing.py): the app thread, the journal's one writer,
    keeps its session (the token's SHA-256 and its creation time, wall clock) in the journal
    database, so it survives a restart. `reply` (a concurrent.futures.Future) gets True, or
    False when it could not be saved (the phone is then paired until a restart)."""

    digest: str
    created: float
    reply: Any = None
