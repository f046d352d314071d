"""The turn clock: each seat's seconds, derived from when the journal's events were recorded
(docs/clock.md). Nothing here reads a clock: the times come in as numbers, so the panel, the
web, the statistics and a replay of an exported log all get the same seconds from the same
rows.

A game's time line runs from its start (`games.created`) through the times of its active
events (`events.at`, in `seq` order). After each event the state says whose turn it is; the
stretch up to the next event belongs to that seat, less

- the spans the game sat away from play: set aside (parked, left for the start menu) or
  paused (companion/session/asides.py; the app ends a pause at the latest at the next move);
- breaks: a stretch with no press at all (no event, no pause or resume) of BREAK_AFTER
  seconds or more counts for nobody, whole (say a game left on the table over dinner).

Consecutive stretches of one seat in one turn (the same count of ended turns) are one turn.
Before any turn has ended, the table's pick of who goes first or its question (a `first`, a
roll-off's winner, even the seat that stood first: the journal numbers the first turn after
a pick `PICKED`; or the turn handed to the table, a tied roll-off) makes every stretch
before it the table's: it was choosing, and nobody's turn.
An undone event is not on the line (only active rows are), so an undone NEXT gives its
seconds back to the seat that was playing; a redone one keeps the time it was first recorded
at. A time earlier than the point before it (a wall clock set back) makes that stretch 0 s.
Once the game is over, nothing runs; nor while the rules state says the table is being asked
(`ASKED`: who deals, who goes first, a roll-off): a question to the whole table is nobody's
turn. Its seconds are the game's playing time, but no seat's.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

BREAK_AFTER = 15 * 60  # seconds with no press: a break, not play
WARN_BEFORE = 10  # seconds left when the clock warns
OVER = -1  # the seat noted after an event that ended the game: nothing runs
ASKED = -2  # the seat noted while the table is being asked (State.asks_table): nobody's turn
PICKED = -1  # the turn number noted for the first turn once the table picked who plays it
NONE = -3  # in a checkpoint: no turn (no event) folded yet
CHECKPOINT_EVERY = 64  # segments between a ledger's checkpoints (the most an undo refolds)
RECENT = 64  # the events a ledger keeps as folded (at least), to see what an update changed

Span = tuple[float, "float | None"]  # (from, to); to None: still running


@dataclass(frozen=True)
class Limits:
    """The turn clock's house rules (rules/game.py CLOCK_RULES): at most one of `turn` (each
    turn's seconds) and `bank` (each player's seconds for the whole game, plus `bonus` at the
    end of each of their turns)."""

    turn: int | None = None
    bank: int | None = None
    bonus: int = 0

    @classmethod
    def of(cls, rules: Mapping[str, Any]) -> Limits:
        return cls(rules.get("turn_limit"), rules.get("time_bank"), rules.get("time_bonus") or 0)

    def __bool__(self) -> bool:
        return self.turn is not None or self.bank is not None


@dataclass(frozen=True)
class Reading:
    """The clock at one moment: what every screen shows. Seconds are floats; a screen rounds
    them down (`whole`)."""

    seat: int | None  # whose turn runs (None: the game is over, or the table is asked)
    elapsed: float  # the current turn's seconds so far (pauses and breaks left out)
    paused: bool
    on_break: bool  # no press for BREAK_AFTER seconds: this stretch counts for nobody
    left: float | None  # seconds left of the turn limit, or of the seat's bank (None: no limit)
    alarm: str  # "" | "warn": WARN_BEFORE s or less left | "time": none left
    totals: tuple[float, ...]  # each seat's seconds this game (the current turn so far too)
    turns: tuple[int, ...]  # each seat's turns (the current one too)
    longest: tuple[float, ...]  # each seat's longest turn
    banks: tuple[float, ...] | None  # chess clock: each seat's seconds left; None: no bank
    played: float  # the game's playing time: every seat's seconds together
    asking: bool = False  # the table is being asked (who deals, who goes first): nobody's turn

    def average(self, seat: int) -> float | None:
        return self.totals[seat] / self.turns[seat] if self.turns[seat] else None

    def share(self, seat: int) -> float | None:
        """The seat's part of the table's time (0-1); None before any second counted."""
        return self.totals[seat] / self.played if self.played > 0 else None


def whole(seconds: float, *, left: bool = False) -> int:
    """Seconds as a screen shows them. Time played is rounded down (a turn 9.99 s old shows
    9); time `left` is rounded up, as a countdown shows it (10 s left from 9.01 s on, 0 at
    0 exactly, then -1, -2 past the limit)."""
    return math.ceil(seconds) if left else math.floor(seconds)


def clock_text(seconds: float, *, left: bool = False) -> str:
    """`0:07`, `12:34`, `1:02:03`; a negative time (past the limit) `-0:04`."""
    s = whole(seconds, left=left)
    sign = "-" if s < 0 else ""
    s = abs(s)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{sign}{h}:{m:02d}:{sec:02d}" if h else f"{sign}{m}:{sec:02d}"


class Ledger:
    """One game's turns and each seat's seconds, folded from its time line and kept up to
    date as events are appended, undone and redone (`update`), then read at any moment
    (`read`): a press folds one segment, a clock tick folds none, a pause or an undo refolds
    at most CHECKPOINT_EVERY segments (from the checkpoint before the first one it changes).

    A turn counts (in `turns`, the averages, a chess clock's bonus) once it has a second:
    a turn that was all break or pause is no turn.

    Memory stays flat however long the game (issue 35.4): nothing is kept per event or per
    turn but a checkpoint of the sums every CHECKPOINT_EVERY segments, the last few events
    folded (to tell what an update changed) and the breaks (a few a game). The times, seats
    and turn numbers themselves are the journal's.

    `start`: the game's start; `first_seat`: whose turn it is before any event; `seats`: how
    many seats."""

    def __init__(self, start: float, first_seat: int, seats: int) -> None:
        self.start = float(start)
        self.first_seat = first_seat
        self.seats = seats
        self._away: list[tuple[float, float]] = []  # merged, sorted; an open end is +inf
        self._away_key: tuple = ()
        # The last events folded (from event _recent_start on), as they were: an update
        # compares the events it is given with these to find what changed.
        self._recent_start = 0
        self._recent_times = array("d")
        self._recent_seats = array("i")
        self._recent_numbers = array("i")
        # The sums before segment k * CHECKPOINT_EVERY, flat (`_checkpoint`: a few numbers
        # for each seat and 9 more), and the reach of each (for bisect).
        self._stride = 3 * seats + 9
        self._checks = array("d")
        self._check_reach = array("d")
        self._reset()

    def _reset(self) -> None:
        self._total = [0.0] * self.seats
        self._count = [0] * self.seats
        self._longest = [0.0] * self.seats
        self._table = 0.0  # the seconds nobody's: the table asked, or choosing who goes first
        self._turn: tuple[int, int] | None = None  # (seat, number) of the last turn folded
        self._turn_seconds = 0.0  # its seconds
        self._breaks: list[tuple[float, float]] = []  # the stretches of BREAK_AFTER or more
        self._last: tuple[float, int, int] | None = None  # (time, seat, number) of event _n-1
        self._reach = -math.inf  # the latest time among the events folded
        self._n = 0  # closed segments folded

    # --- folding ----------------------------------------------------------------------------

    def update(self, times: Sequence[float], seats: Sequence[int], numbers: Sequence[int],
               away: Sequence[Span] = ()) -> None:
        """Fold the game's active events as they are now: `times` (when each was recorded,
        NaN unknown), `seats` (whose turn after each; OVER, or ASKED: nobody's), `numbers` (turns ended after
        each), and the spans it sat `away` (set aside or paused). Only what changed since the
        last call is folded again."""
        keep = self._common(times, seats, numbers)
        key = tuple(away)
        if key != self._away_key:
            merged = merge(away)
            since = _first_change(self._away, merged)
            self._away_key, self._away = key, merged
            # The segments that end by the first changed span's start keep their seconds.
            if self._reach > since:
                before = bisect_right(self._check_reach, since) - 1  # its checkpoint
                keep = min(keep, before * CHECKPOINT_EVERY)
        n = len(times)
        if keep < self._n:
            self._rewind(max(keep, 0))
        for k in range(self._n, n):  # event k closes segment k (from point k to point k + 1)
            if k % CHECKPOINT_EVERY == 0 and len(self._check_reach) == k // CHECKPOINT_EVERY:
                self._checkpoint()
            self._fold(k, times, seats, numbers)
            t = times[k] if times[k] == times[k] else -math.inf  # NaN: no time
            self._reach = max(t, self._reach)
            self._last = (times[k], seats[k], numbers[k])
            self._recent_times.append(times[k])
            self._recent_seats.append(seats[k])
            self._recent_numbers.append(numbers[k])
        self._n = n
        if len(self._recent_times) > 2 * RECENT:  # keep the last RECENT to 2 * RECENT
            cut = len(self._recent_times) - RECENT  # (a whole game folded at once: all)
            del self._recent_times[:cut], self._recent_seats[:cut], self._recent_numbers[:cut]
            self._recent_start += cut

    def per_seat(self) -> tuple[tuple[float, ...], tuple[int, ...], tuple[float, ...]]:
        """Each seat's seconds, turns and longest turn in the events folded (a turn still
        running counts up to the last event), as `read` starts from."""
        return tuple(self._total), tuple(self._count), tuple(self._longest)

    @property
    def breaks(self) -> list[tuple[float, float]]:
        """The stretches of BREAK_AFTER seconds or more with no press, in the turns folded."""
        return list(self._breaks)

    def playing_seconds(self) -> float:
        """The game's playing time so far (to its last event): its seconds from start to last
        event less the spans away (set aside, paused), breaks included: a break is nobody's
        turn, but the game was on the table (docs/stats.md)."""
        return sum(self._total) + self._table + sum(e - f for f, e in self._breaks)

    def _common(self, times, seats, numbers) -> int:
        """How many of the events folded before are still the first events now (a journal
        changes only at its end: an append, an undo, a redo). Only the last RECENT or more
        are kept to compare: when none of those is the same, 0 (all is folded again)."""
        k = min(self._n, len(times))
        base = self._recent_start
        while k > base:
            i = k - 1 - base
            t, s, m = self._recent_times[i], self._recent_seats[i], self._recent_numbers[i]
            same_time = t == times[k - 1] or (math.isnan(t) and math.isnan(times[k - 1]))
            if same_time and s == seats[k - 1] and m == numbers[k - 1]:
                return k
            k -= 1
        return 0

    def _checkpoint(self) -> None:
        """Keeps the sums before segment _n (a multiple of CHECKPOINT_EVERY), as numbers."""
        turn = self._turn or (NONE, 0)
        last = self._last or (math.nan, NONE, 0)
        self._checks.extend(self._total)
        self._checks.extend(self._count)
        self._checks.extend(self._longest)
        self._checks.extend((turn[0], turn[1], self._turn_seconds, len(self._breaks), *last,
                             self._reach, self._table))
        self._check_reach.append(self._reach)

    def _rewind(self, keep: int) -> None:
        """Forget what was folded from segment `keep` on, back to the checkpoint before it."""
        i = keep // CHECKPOINT_EVERY
        s, n = self._stride, self.seats
        c = self._checks[i * s:(i + 1) * s]
        del self._checks[i * s:], self._check_reach[i:]  # made again as the fold passes them
        self._total, self._longest = list(c[:n]), list(c[2 * n:3 * n])
        self._count = [int(x) for x in c[n:2 * n]]
        seat, number, self._turn_seconds, breaks, t, last_seat, last_number, self._reach, \
            self._table = c[3 * n:]
        self._turn = None if seat == NONE else (int(seat), int(number))
        self._last = None if last_seat == NONE else (t, int(last_seat), int(last_number))
        del self._breaks[int(breaks):]
        self._n = i * CHECKPOINT_EVERY
        cut = max(0, self._n - self._recent_start)
        del self._recent_times[cut:], self._recent_seats[cut:], self._recent_numbers[cut:]
        if self._n < self._recent_start:
            self._recent_start = self._n

    def _point_at(self, k: int) -> float:
        """Point k (k = 0 or _n): the game's start, or the time of the last event folded."""
        assert k == 0 or k == self._n
        return self.start if k == 0 or self._last is None else self._last[0]

    def _key(self, k: int, seats, numbers) -> tuple[int, int]:
        """(seat, turn number) of segment k: after event k - 1, or at the start."""
        return (self.first_seat, 0) if k == 0 else (seats[k - 1], numbers[k - 1])

    def _fold(self, k: int, times, seats, numbers) -> None:
        seat, number = self._key(k, seats, numbers)
        if seat == OVER:
            return  # the game was over: nothing runs (an undone end reopens it)
        a = self.start if k == 0 else times[k - 1]
        if self._turn != (seat, number):  # a new turn
            self._turn, self._turn_seconds = (seat, number), 0.0
        seconds = self._count_span(a, times[k], self._breaks)
        first_second = seconds > 0 and self._turn_seconds == 0
        self._turn_seconds += seconds
        if seat < 0:  # ASKED: the game's playing time, no seat's (playing_seconds)
            self._table += seconds
            return
        if first_second:
            self._count[seat] += 1  # a turn from its first second on
        self._total[seat] += seconds
        self._longest[seat] = max(self._longest[seat], self._turn_seconds)
        if numbers[k] in (0, PICKED) and (seats[k], numbers[k]) != (seat, number) \
                and seats[k] != OVER:
            self._to_table()

    def _to_table(self) -> None:
        """The event just folded is the table's pick of who goes first, or its question
        (before any turn ended, the turn handed to a seat, even the one that stood first, as
        PICKED says, or to the table: `first`, a roll-off, a tied one): every stretch before it
        was the table choosing, not a turn of the seat that stood first. Its seconds stay the
        game's playing time. An undo of the pick refolds from the checkpoint before it, which
        holds the seats' sums as they were."""
        self._table += sum(self._total)
        self._total = [0.0] * self.seats
        self._count = [0] * self.seats
        self._longest = [0.0] * self.seats

    def _count_span(self, a: float, b: float,
                    breaks: list[tuple[float, float]] | None = None) -> float:
        """The seconds of [a, b] that count: less the away spans, less each break."""
        if not a < b:  # NaN (a time not known), or a clock set back: nothing counts
            return 0.0
        total = 0.0
        x = a  # counted up to here
        away = self._away
        i = max(0, bisect_right(away, (a, math.inf)) - 1)  # the last span from before a
        while x < b:
            f, e = away[i] if i < len(away) and away[i][0] < b else (b, b)
            i += 1
            if e <= x:
                continue  # over before x
            y = min(max(x, f), b)  # [x, y] is play, then [f, e] away
            if y - x >= BREAK_AFTER:
                if breaks is not None:
                    breaks.append((x, y))
            else:
                total += y - x
            x = max(y, e)
        return total

    # --- reading ----------------------------------------------------------------------------

    def read(self, now: float, limits: Limits = Limits()) -> Reading:
        """The clock at `now` (a time of the same clock as the events')."""
        totals = list(self._total)
        counts = list(self._count)
        longest = list(self._longest)
        seat, number = self._current_key()
        elapsed = 0.0
        paused = on_break = False
        asking = seat == ASKED
        current = None if seat < 0 else seat
        if asking or current is not None:
            a = self._point_at(self._n)
            paused = bool(self._away) and self._away[-1][1] == math.inf
            on_break = not paused and self._open_break(a, now)
        if current is not None:
            before = self._turn_seconds if self._turn == (seat, number) else None
            running = self._count_span(a, now) if not math.isnan(a) else 0.0
            elapsed = (before or 0.0) + running
            totals[seat] += running
            if elapsed > 0 and not (before or 0.0) > 0:
                counts[seat] += 1  # the turn being played, from its first second
            longest[seat] = max(longest[seat], elapsed)
        banks = None
        if limits.bank is not None:
            done = list(counts)
            if current is not None and elapsed > 0:
                done[current] -= 1  # the turn being played earns its bonus when it ends
            banks = tuple(limits.bank + limits.bonus * done[s] - totals[s]
                          for s in range(self.seats))
        left = None
        if current is not None:
            if limits.turn is not None:
                left = limits.turn - elapsed
            elif banks is not None:
                left = banks[current]
        alarm = "" if left is None else "time" if left <= 0 else \
            "warn" if left <= WARN_BEFORE else ""
        return Reading(current, elapsed, paused, on_break, left, alarm, tuple(totals),
                       tuple(counts), tuple(longest), banks, sum(totals), asking)

    def _open_break(self, a: float, now: float) -> bool:
        """The stretch running now (since the last press, or the last resume) is a break."""
        last = a
        for _, e in self._away:
            if e != math.inf and a <= e <= now:
                last = max(last, e)
        return now - last >= BREAK_AFTER

    def reading_key(self) -> tuple[int, int]:
        """(seat, turn number) running after the events folded; seat OVER: the game is over,
        ASKED: the table is being asked."""
        return self._current_key()

    def _current_key(self) -> tuple[int, int]:
        """(seat, turn number) of the segment running now."""
        if not self._n:
            return self.first_seat, 0
        assert self._last is not None
        _, seat, number = self._last
        return seat, number


def _first_change(old: list[tuple[float, float]], new: list[tuple[float, float]]) -> float:
    """The earliest start of a span in one merged list and not the other (+inf: none)."""
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a != b:
            return min(s[0] for s in (a, b) if s is not None)
    return math.inf


def merge(spans: Sequence[Span]) -> list[tuple[float, float]]:
    """Spans sorted and joined where they overlap; an open end (None) is +inf."""
    out: list[list[float]] = []
    for f, e in sorted((float(f), math.inf if e is None else float(e)) for f, e in spans):
        if math.isnan(f) or e <= f:
            continue
        if out and f <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([f, e])
    return [(f, e) for f, e in out]


def ledger_of(journal: Any, start: float, away: Sequence[Span] = ()) -> Ledger:
    """A journal's ledger (a `Journal`: its times, seats and turn numbers)."""
    ledger = Ledger(start, journal.first_seat, len(journal.header.players))
    ledger.update(journal.times, journal.seats, journal.turn_numbers, away)
    return ledger
