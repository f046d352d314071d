"""What the seat light ring shows (docs/lights.md): a game's table -> one colour per LED, and
a change of it -> the timed frames of a short animation. Pure: no clock, no device; the app
side (companion/app/lights.py) steps the frames on the app thread's timers.

The ring's LEDs are numbered clockwise from LED 0, seats clockwise from seat 0 (who faces
LED 0 unless `[lights] seats` says otherwise). A frame is one (r, g, b) of 0-255 per LED at
full brightness; the device scales it by the brightness of the hour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

Pixel = tuple[int, int, int]
Frame = tuple[Pixel, ...]
Plan = list[tuple[float, Frame]]  # (seconds from the start of the change, the frame)

DARK: Pixel = (0, 0, 0)
TURN: Pixel = (255, 255, 255)  # the current player's LEDs, and the chase and sweep
SEAT: Pixel = (24, 24, 24)  # the one LED facing each other player still in the game
WARN: Pixel = (255, 110, 0)  # amber: the turn clock's warning
TIME: Pixel = (255, 0, 0)  # red: the turn's time is up
WIN: Pixel = (255, 190, 0)  # gold: the winners' seats pulse
# The Colors die's faces (rules/dice.py COLORS); its logo face (wild) shows all five around.
DIE: dict[str, Pixel] = {
    "red": (255, 0, 0), "orange": (255, 80, 0), "yellow": (255, 200, 0),
    "green": (0, 200, 0), "blue": (0, 60, 255),
}

STEP = 0.04  # seconds a LED of a chase or sweep (24 LEDs round in about a second)
CHASE_MAX = 0.6  # a chase takes no longer than this, however far it goes
BLINK = 0.15  # seconds on and off of a skipped seat's blink (three blinks)
ROLL = 2.0  # seconds the Colors die's colour shows
PULSE = 1.6  # seconds of one pulse of the winners' seats
PULSE_STEPS = 16


@dataclass(frozen=True)
class Layout:
    """The ring's `count` LEDs and the LED facing each seat (`centres`). With more seats than
    LEDs (`folded`) a seat sits either at a LED or between two: `pairs` are the seats between
    their centre and the next LED clockwise, shown by both (docs/lights.md)."""

    count: int
    centres: tuple[int, ...]
    pairs: frozenset[int] = frozenset()
    folded: bool = False

    @classmethod
    def of(cls, count: int, seats: int, configured: Sequence[int] = ()) -> Layout:
        """`configured`: `[lights] seats`, used when it names a LED for every seat; else the
        seats spread evenly, the first at LED 0. More seats than LEDs (16 players on 8
        LEDs; issue 35.6): spread evenly over the 2 x `count` places at and between the
        LEDs, so each seat's light differs from every other's up to twice as many seats as
        LEDs (`distinct`)."""
        if len(configured) >= seats:
            return cls(count, tuple(configured[:seats]))
        if seats <= count:
            return cls(count, tuple(round(i * count / seats) % count for i in range(seats)))
        places = [math.floor(i * 2 * count / seats + 0.5) % (2 * count) for i in range(seats)]
        return cls(count, tuple(p // 2 for p in places),
                   frozenset(i for i, p in enumerate(places) if p % 2), True)

    @property
    def distinct(self) -> bool:
        """Whether every seat's light (`arc`) differs from every other's: False when there
        are over twice as many seats as LEDs, and the ring cannot tell whose turn it is."""
        return len({frozenset(self.arc(s)) for s in range(len(self.centres))}) \
            == len(self.centres)

    def arc(self, seat: int) -> tuple[int, ...]:
        """The LEDs lit for `seat`: the one facing it and its neighbours either side, those
        of them nearer to it than to any other seat's (one LED when seats sit close). Folded:
        its LED alone, or the two it sits between."""
        c = self.centres[seat]
        if self.folded:
            return (c, (c + 1) % self.count) if seat in self.pairs else (c,)
        out = []
        for led in ((c - 1) % self.count, c, (c + 1) % self.count):
            mine = self._dist(led, c)
            if all(self._dist(led, o) > mine for i, o in enumerate(self.centres) if i != seat):
                out.append(led)
        return tuple(out) or (c,)

    def _dist(self, a: int, b: int) -> int:
        d = abs(a - b) % self.count
        return min(d, self.count - d)

    def path(self, start: int, end: int, direction: int) -> list[int]:
        """The LEDs from `start` to `end` stepping in `direction` (+1 clockwise), both ends
        included; once round the ring when they are the same LED."""
        leds = [start]
        led = start
        while True:
            led = (led + direction) % self.count
            leds.append(led)
            if led == end:
                return leds


@dataclass(frozen=True)
class Look:
    """What the ring shows at rest: the table's seats, whose turn (None: nobody's), the
    direction of play, who is out, the end and its winners, the turn clock's alarm."""

    seats: int
    current: int | None
    direction: int = 1
    eliminated: frozenset[int] = frozenset()
    over: bool = False
    winners: tuple[int, ...] = ()
    alarm: str = ""  # "" | "warn" | "time"
    pending_skips: int = 0
    skipped: tuple[int, ...] = field(default=(), compare=False)  # seats a pending skip passes
    table: Any = field(default=None, compare=False, repr=False)  # its Table: who comes next

    @classmethod
    def of(cls, state: Any, alarm: str = "") -> Look:
        """The look of a game's `state` (rules/game.py State: its table, over, winners)."""
        t = state.table
        skipped: list[int] = []
        seat = t.current
        for _ in range(t.pending_skips):
            seat = t.step(seat)
            skipped.append(seat)
        return cls(t.seats, None if state.over else t.current, t.direction,
                   frozenset(t.eliminated), bool(state.over), tuple(state.winners),
                   "" if state.over else alarm, t.pending_skips, tuple(skipped), t)


def steady(layout: Layout, look: Look | None, *, glow: float = 1.0) -> Frame:
    """The frame at rest. No game (None): dark. Each seat still in the game shows its one LED
    dim, the current player's LEDs are lit (amber at the clock's warning, red at time);
    eliminated seats are dark. Over: the winners' LEDs in gold at `glow` (0-1: the pulse)."""
    px: list[Pixel] = [DARK] * layout.count
    if look is None:
        return tuple(px)
    for seat, led in enumerate(layout.centres):
        if seat not in look.eliminated:
            for lit in layout.arc(seat) if layout.folded else (led,):
                px[lit] = SEAT
    if look.over:
        for seat in look.winners:
            if seat < len(layout.centres):
                for led in layout.arc(seat):
                    px[led] = _scaled(WIN, glow)
    elif look.current is not None and look.current < len(layout.centres):
        colour = TIME if look.alarm == "time" else WARN if look.alarm == "warn" else TURN
        for led in layout.arc(look.current):
            px[led] = colour
    return tuple(px)


def _scaled(p: Pixel, k: float) -> Pixel:
    return (round(p[0] * k), round(p[1] * k), round(p[2] * k))


def _with(base: Frame, leds: Sequence[int], colour: Pixel) -> Frame:
    px = list(base)
    for led in leds:
        px[led] = colour
    return tuple(px)


def change(layout: Layout, before: Look | None, after: Look | None, *,
           roll: Mapping[str, Any] | None = None, animate: bool = True) -> Plan:
    """The frames from `before` to `after`, ending on `steady(after)`:

    - the direction of play reversed: a sweep once round from the current seat the new way;
    - the turn passed on: a chase from the old seat to the new one in the direction of play,
      then the seats a pending skip passed over blink three times (a skip to is a jump:
      nobody blinks);
    - a skip played that ends no turn yet: the seat(s) it will pass over blink;
    - a roll: the Colors die's colour over the whole ring for 2 s (its logo face: the five
      colours round the ring); a roll without the Colors die: one white sweep round;
    - anything else (and `animate` False: an undo, a redo, another game): at once.
    """
    end = steady(layout, after)
    if not animate or before is None or after is None or before.seats != after.seats \
            or after.seats != len(layout.centres):
        return [(0.0, end)]
    plan: Plan = []
    t = 0.0
    base = steady(layout, Look(after.seats, None, after.direction, after.eliminated))
    if after.direction != before.direction and before.current is not None:
        start = layout.centres[before.current]
        for led in layout.path(start, start, after.direction):
            plan.append((t, _with(base, _tail(layout, led, -after.direction), TURN)))
            t += STEP
    passed: list[int] = []
    if before.current is not None and after.current is not None \
            and after.current != before.current and not after.over:
        a, b = layout.centres[before.current], layout.centres[after.current]
        leds = layout.path(a, b, after.direction)
        step = min(STEP, CHASE_MAX / max(1, len(leds)))
        for led in leds:
            plan.append((t, _with(base, _tail(layout, led, -after.direction), TURN)))
            t += step
        # The seats the turn passed over, unless it went to the next seat in turn or jumped
        # there with no skip pending (skip to): the Tables' own steps, past the eliminated.
        if before.pending_skips and after.table is not None and before.table is not None \
                and after.current != before.table.step(before.current, 1, after.direction):
            seat = after.table.step(before.current)
            while seat != after.current and len(passed) < after.seats:
                passed.append(seat)
                seat = after.table.step(seat)
    elif after.current == before.current and after.pending_skips > before.pending_skips:
        passed = list(after.skipped)
    if passed:
        leds = [led for seat in passed for led in layout.arc(seat)]
        for _ in range(3):
            plan.append((t, _with(end, leds, TURN)))
            t += BLINK
            plan.append((t, _with(end, leds, DARK)))
            t += BLINK
    if roll is not None:
        face = roll.get("colors")
        if isinstance(face, str) and face in DIE:
            plan.append((t, (DIE[face],) * layout.count))
            t += ROLL
        elif "colors" in roll:  # the logo: wild, every colour
            colours = list(DIE.values())
            plan.append((t, tuple(colours[i * len(colours) // layout.count]
                                  for i in range(layout.count))))
            t += ROLL
        else:  # the Shapes die, the d8, the d6 have no colour: one white sweep round
            for led in range(layout.count):
                plan.append((t, _with(end, _tail(layout, led, -1), TURN)))
                t += STEP
    plan.append((t, end))
    return plan


def _tail(layout: Layout, led: int, back: int) -> list[int]:
    """A short comet: `led` and the one behind it."""
    return [(led + back) % layout.count, led]


def pulse(layout: Layout, look: Look) -> Plan:
    """One pulse of the winners' seats (repeated while the end is shown): their glow rises
    from a third to full and falls back, PULSE seconds."""
    plan: Plan = []
    for i in range(PULSE_STEPS):
        phase = i / PULSE_STEPS
        glow = 1 / 3 + (2 / 3) * (1 - abs(2 * phase - 1))
        plan.append((i * PULSE / PULSE_STEPS, steady(layout, look, glow=glow)))
    return plan


def marks(look: Look) -> list[str]:
    """What each seat's light says, in a word: "turn" (or the clock's "warn", "time") for
    the current player, "skip" for a seat a pending skip will pass over (it blinks), "won"
    for a winner, "out" for an eliminated seat, else ""."""
    out = []
    for seat in range(look.seats):
        if seat in look.eliminated:
            out.append("out")
        elif look.over:
            out.append("won" if seat in look.winners else "")
        elif seat == look.current:
            out.append(look.alarm or "turn")
        elif seat in look.skipped:
            out.append("skip")
        else:
            out.append("")
    return out


def fold_words(layout: Layout) -> str:
    """What the panel says when a game starts on a ring with more seats than LEDs ("" when
    each seat has a LED of its own)."""
    seats = len(layout.centres)
    if not layout.distinct:
        return f"Lights off: {seats} seats, {layout.count} LEDs"
    if layout.folded:
        return f"{seats} seats, {layout.count} lights: 2 lit = between"
    return ""


def hex_pixels(frame: Frame) -> list[str]:
    """The frame as "#rrggbb" strings (the web's snapshot)."""
    return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in frame]


def in_night(minute: int, hours: tuple[int, int] | None) -> bool:
    """Whether `minute` of the day falls in the night `hours` (config.hours: from, until;
    "22:00-07:00" runs over midnight). None: there is no night."""
    if hours is None:
        return False
    start, stop = hours
    if start < stop:
        return start <= minute < stop
    return minute >= start or minute < stop


def around(led: int, count: int, width: float = 2.0, height: float = 1.0) -> tuple[float, float]:
    """Where LED `led` of `count` is drawn round the panel (the emulator, the screenshots, the
    TV page alike): spaced evenly along the border of a `width` x `height` box, from the
    middle of its top edge, clockwise. Returns (x, y) as fractions 0-1 of the box."""
    length = 2 * (width + height)
    d = (width / 2 + led * length / count) % length
    if d < width:
        return d / width, 0.0
    d -= width
    if d < height:
        return 1.0, d / height
    d -= height
    if d < width:
        return 1 - d / width, 1.0
    d -= width
    return 0.0, 1 - d / height


MARK_WORDS = {"turn": "'s turn", "warn": ": time is running out", "time": ": time is up"}


def words(players: Sequence[str], marks: Sequence[str]) -> str:
    """What the ring says, in words (the TV's line under it and the screenshots): "Lights:
    Ben's turn", "Lights: Ann wins · out: Cy"; "Lights: off" with no seat marked."""
    def who(mark: str) -> list[str]:
        return [players[i] for i, m in enumerate(marks) if m == mark and i < len(players)]
    parts = [", ".join(who(m)) + tail for m, tail in MARK_WORDS.items() if who(m)]
    if who("skip"):
        parts.append(", ".join(who("skip")) + (" are" if len(who("skip")) > 1 else " is")
                     + " skipped")
    won = who("won")
    if won:
        parts.append(", ".join(won) + (" win" if len(won) > 1 else " wins"))
    if who("out"):
        parts.append("out: " + ", ".join(who("out")))
    return "Lights: " + " · ".join(parts) if parts else "Lights: off"
