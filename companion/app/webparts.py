"""The web snapshot's pieces that other parts own: the turn clock (clock.py), the calls and
how they are said (calls.py), the seat lights (lights.py). The web bridge is handed
`pieces(host)`, a callable it asks for them at each snapshot, so it imports none of them; the
parts are read from the host at each call (a benchmark replaces the App's turn clock)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.app.calls import speech
from companion.app.clock import snapshot

if TYPE_CHECKING:
    from companion.app.calls import Caller
    from companion.app.clock import TurnClock
    from companion.app.lights import Lights


class Owners(Protocol):
    """The parts that own the pieces (the App holds them)."""

    config: Any
    turn_clock: TurnClock
    caller: Caller
    lights: Lights


def pieces(owners: Owners) -> Callable[[], dict[str, Any]]:
    """What the snapshot's "clock", "calls", "speech" and "ring" are, read when asked."""

    def read() -> dict[str, Any]:
        tc, caller = owners.turn_clock, owners.caller
        return {"clock": snapshot(tc.reading(), tc.limits, at=tc.now()),
                "calls": caller.snapshot(), "speech": speech(owners.config, caller.run),
                "ring": owners.lights.snapshot()}

    return read
