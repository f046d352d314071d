"""Two buttons held together: the power-off chord (BACK + NEXT for 5 s), pure.

Pulling the plug is how people switch these boxes off, so holding BACK and NEXT together
asks to power off. The chord must not also do what each button does alone (a hold of BACK
undoes; a press of NEXT ends the turn), so once it forms it swallows every gesture of its
buttons until all of them are up again:

- The chord forms when all its buttons are down and none of them has reported a hold yet,
  i.e. the second one went down within the hold time (0.8 s) of the first. Once one of them
  has reported a hold (an undo already happened), the other joining in is an ordinary press.
- From then on the `PressDetector` gestures of those buttons (the hold of BACK at 0.8 s, the
  press of a button let go early) are dropped until every chord button is released.
- Held together for `hold_time` (5 s), it reports one `ShutdownRequest`. Letting go earlier
  reports nothing at all: a brief press of both does nothing.

Like `PressDetector` it never reads a clock: the caller passes `now`, feeds it the debounced
level and the gestures of each chord button after every edge or tick, and calls `tick(now)`
at `due()`.
"""

from __future__ import annotations

from typing import Iterable

from companion.inputs import Button, Gesture, ShutdownRequest

POWER_CHORD = (Button.BACK, Button.NEXT)


class ChordDetector:
    def __init__(self, buttons: Iterable[Button] = POWER_CHORD, *,
                 hold_time: float = 5.0) -> None:
        self.buttons = frozenset(buttons)
        if len(self.buttons) < 2:
            raise ValueError("a chord needs at least two buttons")
        self.hold_time = hold_time
        self.down: dict[Button, bool] = {b: False for b in self.buttons}
        self.held: set[Button] = set()  # down, and already reported a hold of their own
        self.latched = False  # the chord formed: swallow its buttons' gestures until all are up
        self.since: float | None = None  # when all chord buttons were last all down (latched)
        self.fired = False  # reported its request for this latch

    def step(self, button: Button, down: bool, gestures: list[Gesture],
             now: float) -> tuple[list[Gesture], list[object]]:
        """Take `button`'s debounced level and the gestures its detector just reported.

        Returns the gestures to pass on (none while the chord holds them) and any inputs the
        chord itself reports.
        """
        if button not in self.buttons:
            return gestures, []
        self.down[button] = down
        all_down = all(self.down.values())
        if not self.latched:
            if all_down and not self.held:
                self.latched = True
            elif Gesture.HOLD in gestures:
                self.held.add(button)
        if not down:
            self.held.discard(button)
        passed = [] if self.latched else gestures
        if self.latched:
            if not any(self.down.values()):
                self.latched = False
                self.fired = False
                self.since = None
            elif not all_down:
                self.since = None
            elif self.since is None:
                self.since = now
        return passed, self.tick(now)

    def due(self) -> float | None:
        """When `tick` must be called next, or None when nothing is pending."""
        if self.latched and self.since is not None and not self.fired:
            return self.since + self.hold_time
        return None

    def tick(self, now: float) -> list[object]:
        due = self.due()
        if due is not None and now >= due:
            self.fired = True
            return [ShutdownRequest()]
        return []

    @property
    def active(self) -> bool:
        """True while the chord holds its buttons' gestures back."""
        return self.latched
