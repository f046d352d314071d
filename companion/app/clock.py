"""The turn clock on the app thread (docs/clock.md): the open game's ledger kept in step with
its journal, Pause, the tick once a second while a turn runs, and the buzzer's chirp at the
warning and at "Time!".

The seconds themselves come from companion/session/clock.py, folded from the journal's own
times: nothing here counts time, it only asks the store's clock (wall time, the one `events.at`
is written with) what time it is now. A press is never held up by the clock: a commit folds one
more event into the ledger (a few microseconds), and a tick draws a frame only when what the
clock shows has changed (the panel's driver then sends the changed pages only).

`TurnClock` owns the open game's ledger, its pauses and its alarm. It is given a `ClockHost`,
what it uses of the app (declared below): the journal and the store, the count of commits, the
screen stack (a new game's setup screens), the timers, the buzzer, the calls ("Time!"), and
`not_saved` for a pause that could not be saved.
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from companion.app.timers import Scheduler
from companion.errors import JournalError
from companion.inputs import Tick
from companion.session import asides
from companion.session.clock import (
    BREAK_AFTER,
    OVER,
    WARN_BEFORE,
    Ledger,
    Limits,
    Reading,
    ledger_of,
)

if TYPE_CHECKING:
    from companion.session.journal import Journal

log = logging.getLogger(__name__)

TOKEN = "clock"
CHIRP = 0.06  # seconds: the buzzer at the warning (WARN_BEFORE seconds left)
TIME_UP = 0.5  # seconds: the buzzer at "Time!"


class Announcer(Protocol):
    """The calls the clock makes (app/calls.py's Caller)."""

    def started(self) -> None: ...

    def time_up(self) -> None: ...


class ClockHost(Protocol):
    """What the turn clock uses of the app (App satisfies it)."""

    journal: Journal | None
    store: Any
    commits: int  # appends, undos and redos so far: the ledger folds in what is new
    stack: list[Any]
    snapshot_due: bool
    timers: Scheduler
    buzzer: Any

    @property
    def caller(self) -> Announcer: ...

    def not_saved(self, e: JournalError) -> None: ...


class TurnClock:
    """The open game's clock. `reading()` is the clock now (None: no game, or it is over
    and never ran); `pause(on)` stops or starts it; `schedule()` keeps the tick going while
    a turn runs. Everything runs on the app thread."""

    def __init__(self, app: ClockHost) -> None:
        self.app = app
        self._journal: Any = None  # the journal the ledger was loaded for
        self._commits = -1  # app.commits when it was last folded
        self.game_id: int | None = None
        self.ledger: Ledger | None = None
        self.limits = Limits()
        self.away: list[tuple[float, float | None]] = []
        self.alarm = ""  # the alarm of the last tick (a chirp sounds when it changes)
        # The turns "Time!" was called for, (game id, seat, turn number): once a turn, however
        # often an undo and a redo bring it back (its alarm then changes again).
        self._timed: set[tuple[int | None, int, int]] = set()
        self._tick_due = False
        # (game id, screens) while a new game's setup screens (house rules, who goes first)
        # are up: its clock is paused from its creation until they are gone (`hold`).
        self._setup: tuple[int, list[Any]] | None = None
        # The setup held is a question to the whole table on the panel (a screen that
        # `asks_table`: a rule vote, a roll-off, who deals): nobody's turn, read as asking.
        self._question = False
        self._refused: list[Any] = []  # the question screens a hold failed for (not saved)
        # A pause asked for (a phone's Pause) while a hold stood: kept when its screens go.
        self._pause_asked = False

    # --- keeping in step ----------------------------------------------------------------------

    def now(self) -> float:
        return float(self.app.store.clock())

    def _sync(self) -> Ledger | None:
        j = self.app.journal
        if j is None:
            self._journal, self.ledger, self.game_id = None, None, None
            return None
        if j is not self._journal:
            self._load(j)
        elif self._commits != self.app.commits:
            assert self.ledger is not None
            self.ledger.update(j.times, j.seats, j.turn_numbers, self.away)
        self._commits = self.app.commits
        return self.ledger

    def _load(self, journal: Any) -> None:
        """A game comes on (new, resumed, reopened): its start and its spans away."""
        self._journal = journal
        self.game_id = self.app.store.game_id(journal)
        self.limits = Limits.of(journal.header.rules)
        start = journal.times[0] if len(journal.times) else self.now()
        self.away = []
        if self.game_id is not None:
            db = self.app.store.db
            row = db.execute("SELECT created FROM games WHERE id=?", (self.game_id,)).fetchone()
            if row is not None:
                start = float(row[0])
            self.away = asides.away(db, self.game_id)
        self.ledger = ledger_of(journal, start, self.away)
        self.alarm = self.reading_of(self.ledger).alarm if self.ledger else ""
        if self.alarm == "time":
            self._first_time()  # a game resumed past its time: not called again

    def reading_of(self, ledger: Ledger) -> Reading:
        return ledger.read(self.now(), self.limits)

    def reading(self) -> Reading | None:
        ledger = self._sync()
        if ledger is None:
            return None
        r = self.reading_of(ledger)
        if self._question and self._setup is not None and self.paused and r.seat is not None \
                and not self._pause_asked:
            # Held for a question to the table: nobody's turn, as when the rules state asks.
            return replace(r, seat=None, asking=True, paused=False, elapsed=0.0, left=None,
                           alarm="")
        return r

    def committed(self, what: str) -> None:
        """After an append, undo or redo: a move made while paused goes on with the clock
        (the group is playing); an undo leaves a pause as it is. An undo that reopens an
        ended game gives the time since the end to nobody: it was the end screen's. A new
        move (not a redo) that starts a turn starts a new one, even of the seat and number
        of a turn an undo took back: its "Time!" is its own (a redo brings the same turn back,
        with its own times, and its "Time!" once called is not called again)."""
        j = self.app.journal
        if what == "append" and j is not None and self._journal is j and len(j.seats):
            after = (j.seats[-1], j.turn_numbers[-1])
            before = (j.seats[-2], j.turn_numbers[-2]) if len(j.seats) > 1 \
                else (j.first_seat, 0)
            if after != before:
                self._timed.discard((self.game_id, *after))
        if what == "undo" and j is not None and self.ledger is not None \
                and self._journal is j and self.game_id is not None \
                and self.ledger.reading_key()[0] == OVER and not j.state.over and j.redo_times:
            ended, now = j.redo_times[-1], self.now()
            if ended == ended and ended < now:  # a time known (not NaN), and before now
                asides.add_span(self.app.store, self.game_id, ended, now, table="pauses")
                self.away.append((ended, now))  # in memory even when not saved: as shown
        elif what != "undo" and self.paused:
            self.pause(False, force=True)

    @property
    def paused(self) -> bool:
        return bool(self.away) and self.away[-1][1] is None and self.app.journal is not None \
            and self.app.journal is self._journal

    # --- pause --------------------------------------------------------------------------------

    def pause(self, on: bool, *, force: bool = False) -> bool:
        """Stop (`on`) or start the clock of the game being played. False when there is no
        such game, or when the change could not be saved (a toast says so). `force`: a
        move ends a pause, saved or not (the journal's pause ends at the next event anyway,
        asides.spans), the game's last move too."""
        j = self.app.journal
        if j is None or (j.state.over and not force) or self._sync() is None \
                or self.game_id is None:
            return False
        if on == self.paused:
            if on and self._setup is not None and not self._pause_asked:
                # Paused already by a hold (a question to the table, a new game's setup):
                # the group's pause from now on, which the hold's end does not take back.
                self._pause_asked = True
                self.app.snapshot_due = True
            return True
        try:
            (asides.set_aside if on else asides.taken_back)(
                self.app.store, self.game_id, table="pauses", raises=True)
        except JournalError as e:
            if not force:  # say why, as every failed save does ("Not saved: disk full"); a
                self.app.not_saved(e)  # phone's Pause is answered in the same words
                return False
            log.warning("game %d: the pause's %s is not saved: %s", self.game_id,
                        "start" if on else "end", e)
        now = self.now()
        if on:
            self.away.append((now, None))
        else:
            since = self.away[-1][0]
            self.away[-1] = (since, max(since, now))
        assert self.ledger is not None
        self.ledger.update(j.times, j.seats, j.turn_numbers, self.away)
        self.app.snapshot_due = True
        return True

    # --- a new game's setup -------------------------------------------------------------------

    def hold(self, screens: list[Any]) -> None:
        """A new game's setup `screens` (house rules, who goes first) are up: its clock stands
        paused from now (its creation) until they are gone or a move is made, so nobody's
        turn is charged with the reading of the rules. A pause that cannot be saved is
        logged and the clock runs, as it did before."""
        j = self.app.journal
        if j is None or self._sync() is None or self.game_id is None or not screens:
            return
        if self._setup is not None and self._setup[0] == self.game_id:
            self._setup[1].extend(screens)  # play again: its own "who goes first"
            return
        self._end_setup()
        if self.paused or asides.set_aside(self.app.store, self.game_id, table="pauses"):
            if not self.paused:
                self.away.append((self.now(), None))
                assert self.ledger is not None
                self.ledger.update(j.times, j.seats, j.turn_numbers, self.away)
            self._setup = (self.game_id, list(screens))

    def settle(self) -> None:
        """After each action (App.perform) and frame: a new game's setup screens gone, its
        clock starts, within the same change (a phone's answer and its snapshot see it); a
        screen that asks the whole table a question come up (`Screen.asks_table`: a rule
        vote, a roll-off, who deals, who goes first), the clock is held as for the setup, so
        that nobody's turn runs while the table answers (docs/clock.md)."""
        if self._setup is not None:
            self._sync()
            self._end_setup()
        if self._setup is None and not self.paused:
            asking = [t for t in self.app.stack if getattr(t, "asks_table", False)]
            j = self.app.journal
            if asking and j is not None and not j.state.over and not j.state.asks_table \
                    and asking != self._refused:
                self.hold(asking)
                self._question = self._setup is not None
                # A hold that could not be saved (a full disk) is not tried again each frame
                # for the same screens: the clock runs, as it did before.
                self._refused = [] if self._question else asking
                if self._question:
                    self.app.snapshot_due = True  # the pages show nobody's clock running

    def _end_setup(self) -> None:
        """The setup screens are gone (or their game is no longer the one played): its clock
        goes on, unless a move already started it."""
        if self._setup is None:
            return
        gid, screens = self._setup
        stack = self.app.stack
        if gid == self.game_id and self.app.journal is self._journal \
                and any(s is t for s in screens for t in stack):
            return  # still up
        self._setup = None
        question, self._question = self._question, False
        asked, self._pause_asked = self._pause_asked, False
        if question:
            self.app.snapshot_due = True
        elif gid == self.game_id:
            self.app.caller.started()  # "Ann's turn", unless "Ann goes first" said it
        if gid == self.game_id and self.paused and not asked:
            self.pause(False, force=True)
        elif gid != self.game_id:
            asides.taken_back(self.app.store, gid, table="pauses")

    # --- the tick -----------------------------------------------------------------------------

    def schedule(self) -> None:
        """After a frame: while a turn runs, a tick is due when the seconds shown next
        change (once a second, on the second). None while paused, on a break or over: the
        clock stands still then, and so does the frame. A new game's setup screens gone,
        its clock starts (`hold`)."""
        self.settle()
        if self._tick_due:
            return
        r = self.reading()
        if r is None or r.seat is None or r.paused or r.on_break:
            return
        if r.left is not None:
            wait = r.left - (math.ceil(r.left) - 1)  # until the seconds left go one down
        else:
            wait = math.floor(r.elapsed) + 1 - r.elapsed
        self._tick_due = True
        self.app.timers.after(wait + 0.005, Tick(TOKEN))

    def _first_time(self) -> bool:
        """Whether the turn running now reaches "Time!" for the first time (and note it)."""
        if self.ledger is None:
            return False
        turn = (self.game_id, *self.ledger.reading_key())
        first = turn not in self._timed
        self._timed.add(turn)
        return first

    def on_tick(self) -> None:
        """The seconds shown have changed (the frame is drawn once the queue is empty);
        the buzzer chirps once as WARN_BEFORE seconds are left and once more at "Time!".
        A break just begun is published to the web (docs/web.md: the snapshot's clock)."""
        self._tick_due = False
        r = self.reading()
        alarm = "" if r is None else r.alarm
        # The seat lights turn the seat amber or red with the same change: App.handle asks
        # them again after this tick (companion/app/lights.py).
        sound = alarm != self.alarm and bool(alarm)
        if alarm == "time":
            sound = self._first_time()  # once a turn, whatever undo and redo bring back
        if sound and self.app.buzzer is not None:
            self.app.buzzer.beep(CHIRP if alarm == "warn" else TIME_UP)
        if sound and alarm == "time":
            self.app.caller.time_up()  # "Time!" on the box's speaker and the pages
        self.alarm = alarm
        if r is not None and r.on_break:
            # The one change of the clock no press makes: the pages learn it from a new
            # snapshot (they count the seconds themselves, and work the alarm out, but a
            # break starts only on the box). The tick stops on a break, so this is once.
            self.app.snapshot_due = True
        self.schedule()


def snapshot(reading: Reading | None, limits: Limits,
             at: float | None = None) -> dict[str, Any] | None:
    """The clock for the web's snapshot (docs/web.md): each figure as of the moment the
    snapshot was made, `at` (the store's wall clock, the one events' times are in); a page
    adds the seconds since then while `running` (the web sends the box's `now` with each
    copy of a snapshot, which may be sent long after it was made: to a page that opens)."""
    if reading is None:
        return None
    r = reading
    return {
        "seat": r.seat, "elapsed": round(r.elapsed, 2),
        "running": r.seat is not None and not r.paused and not r.on_break,
        "paused": r.paused, "on_break": r.on_break,
        "left": None if r.left is None else round(r.left, 2), "alarm": r.alarm,
        "limit": {"turn": limits.turn, "bank": limits.bank, "bonus": limits.bonus},
        "warn_before": WARN_BEFORE, "break_after": BREAK_AFTER,
        "totals": [round(t, 2) for t in r.totals], "turns": list(r.turns),
        "longest": [round(t, 2) for t in r.longest],
        "banks": None if r.banks is None else [round(b, 2) for b in r.banks],
        "played": round(r.played, 2), "at": at,
        "asking": r.asking,  # the table is being asked (who deals...): nobody's turn runs
    }
