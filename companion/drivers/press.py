"""Debounce and press/hold detection, pure: edges and times in, gestures out.

gpiozero's MockFactory ignores `bounce_time`, and a hold must not also count as a press, so
this logic is ours. It never reads a clock: the caller passes `now` and calls `tick(now)` at
`due()`. An edge that comes within `debounce` seconds of the last accepted change is chatter:
only the level it leaves behind counts, checked when the window closes.
"""

from __future__ import annotations

from companion.inputs import Gesture


class PressDetector:
    def __init__(self, *, debounce: float = 0.03, hold_time: float = 0.8) -> None:
        self.debounce = debounce
        self.hold_time = hold_time
        self.raw = False  # the level the last edge left (True = pressed)
        self.stable = False  # the accepted level
        self.changed_at = float("-inf")  # when `stable` last changed
        self.held = False  # the current press has already reported a hold

    def edge(self, pressed: bool, now: float) -> list[Gesture]:
        self.raw = pressed
        if now - self.changed_at >= self.debounce and pressed != self.stable:
            return self._accept(pressed, now)
        return []

    def due(self) -> float | None:
        """When `tick` must be called next, or None when nothing is pending."""
        if self.raw != self.stable:
            return self.changed_at + self.debounce
        if self.stable and not self.held:
            return self.changed_at + self.hold_time
        return None

    def tick(self, now: float) -> list[Gesture]:
        out: list[Gesture] = []
        if self.raw != self.stable and now >= self.changed_at + self.debounce:
            out += self._accept(self.raw, now)
        if self.stable and not self.held and now >= self.changed_at + self.hold_time:
            self.held = True
            out.append(Gesture.HOLD)
        return out

    def _accept(self, pressed: bool, now: float) -> list[Gesture]:
        self.stable = pressed
        self.changed_at = now
        if pressed:
            self.held = False
            return []
        return [] if self.held else [Gesture.PRESS]
