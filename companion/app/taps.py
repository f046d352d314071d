"""A double tap from a phone: the same control tapped twice from one phone within TAP_WINDOW
counts once (docs/web.md, "One tap is one action").

`Taps` owns the memory of the taps done lately: (phone, request) -> (when, what it did). It is
given only a clock (the web's, which a test fakes; else the app's) and calls nothing else.
"""

from __future__ import annotations

import json
from typing import Callable

# A double tap: the same control tapped twice from one phone within this many seconds counts
# once. Measured on the web's clock (injectable).
TAP_WINDOW = 0.7
# Presses that repeat by nature (scrolling a list, counting points up and down): never a
# double tap.
REPEATS = ("UP", "DOWN")

Tap = tuple[str, str]  # (phone, request): which control of which phone


def tap_key(kind: str, p: dict) -> Tap | None:
    """Which control of which phone a page's request comes from: the phone's session, and
    the request itself (route, button or event, the form's fields). None for a request the
    double-tap rule leaves alone: a script's (`"seq": null`), and UP/DOWN (REPEATS)."""
    phone = p.get("phone")
    if p.get("seq") is None or not phone:
        return None
    if kind == "press" and p.get("button") in REPEATS:
        return None
    what = {k: v for k, v in p.items() if k not in ("seq", "phone")}
    return phone, json.dumps([kind, what], sort_keys=True, default=str)


class Taps:
    """The taps of the last TAP_WINDOW, and whether a new one repeats one of them."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.done: dict[Tap, tuple[float, str]] = {}  # tap -> (when, what it did, in words)

    def repeated(self, tap: Tap) -> str | None:
        """What the first tap did ("" when it moved nothing) when `tap` repeats one done
        less than TAP_WINDOW ago: a double tap. None: a tap of its own."""
        first = self.done.get(tap)
        if first is not None and self.clock() - first[0] < TAP_WINDOW:
            return first[1]
        return None

    def remember(self, tap: Tap, did: str) -> None:
        """A page's tap was done: the same one again within TAP_WINDOW is a double tap."""
        now = self.clock()
        for old in [k for k, (t, _) in self.done.items() if now - t >= TAP_WINDOW]:
            del self.done[old]
        self.done[tap] = (now, did)
