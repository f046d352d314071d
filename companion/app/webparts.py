"""The web snapshot's pieces that other parts own: the turn clock (clock.py), the calls and
how they are said (calls.py), the seat lights (lights.py). The web bridge is handed
`pieces(...)`, a callable it asks for them at each snapshot, so it imports none of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from companion.app.calls import speech
from companion.app.clock import snapshot

if TYPE_CHECKING:
    from companion.app.calls import Caller
    from companion.app.clock import TurnClock
    from companion.app.lights import Lights


def pieces(turn_clock: TurnClock, caller: Caller, lights: Lights,
           config: Any) -> Callable[[], dict[str, Any]]:
    """What the snapshot's "clock", "calls", "speech" and "ring" are, read when asked."""

    def read() -> dict[str, Any]:
        tc = turn_clock
        return {"clock": snapshot(tc.reading(), tc.limits, at=tc.now()),
                "calls": caller.snapshot(), "speech": speech(config, caller.run),
                "ring": lights.snapshot()}

    return read
