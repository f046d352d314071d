"""The App: its state, the input queue and the loop that handles it (companion/app/__init__.py
says what the other modules of the package do)."""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from typing import Any, Callable

from companion.errors import IllegalEvent, JournalError
from companion.inputs import Button, ButtonInput, Gesture, Notice, Quit, RollResult, Tick
from companion.inputs import PhonePaired, ShutdownRequest, StatsFilled, WebRequest
from companion.inputs import RollerPress
from companion.app import rolls
from companion.ui import power
from companion.session.journal import Journal
from companion.ui import actions as A
from companion.ui import draw
from companion.ui.dice import roller_press
from companion.ui.screen import Context, Screen, TextScreen
from companion import games
from companion.session.store import CannotResume
from companion.ui.start import ResumeEntry, StartScreen

log = logging.getLogger(__name__)

# Events the app thread replays itself for the history figures (about 0.2 s here); a journal
# with more in games that have no saved record is replayed by a background thread instead.
STATS_BUDGET = 20_000

SEEN = 256  # published snapshots remembered to say what changed since (App.moved_on)

# What a press from a phone may not do on a stale snapshot (App.web_request): each commits to
# the journal, changes the game shown, or starts a roll that will.
# The device menu's switches (forget phones, web on/off, quit) count too: a page
# that is behind may not be pressing what its user thinks.
COMMITS = (A.Emit, A.Undo, A.Redo, A.NewGame, A.PlayAgain, A.ResumeGame, A.LeaveGame, A.Roll,
           A.ForgetPhones, A.WebSwitch, A.QuitApp)


class StaleChange(Exception):
    """A phone's press would commit something on a snapshot that is no longer the game's."""


def when_text(t: float, now: float) -> str:
    """A time for the Resume list: "14:05" today, "12 Mar" this year, else "2024-03-12"."""
    lt, today = time.localtime(t), time.localtime(now)
    if lt[:3] == today[:3]:
        return time.strftime("%H:%M", lt)
    if lt.tm_year == today.tm_year:
        return f"{lt.tm_mday} {time.strftime('%b', lt)}"
    return time.strftime("%Y-%m-%d", lt)


class App:
    # Off at the table: a bug in a screen is logged with its traceback and shown as a toast,
    # and the game goes on (it is safe in the journal). The test suite turns it on
    # (tests/conftest.py) so that such a bug fails the test instead.
    strict = False

    def __init__(self, *, config, store, display, dice=None, clock=time.monotonic,
                 rng: random.Random | None = None, on_commit: Callable[[str, int, Any], None]
                 | None = None, buzzer=None, power_runner: power.Runner | None = None) -> None:
        self.config = config
        self.store = store
        self.display = display
        self.clock = clock
        self.rng = rng or random.Random()
        # SimpleQueue: its put() may be called from a signal handler (SIGTERM posts Quit),
        # which queue.Queue's non-reentrant lock does not allow.
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.timers = rolls.Timers(self.post)
        if hasattr(display, "schedule"):  # a failed panel write asks for a redraw later;
            # any Tick wakes run(), which draws the current frame once the queue is empty.
            display.schedule = lambda seconds: self.timers.after(seconds, Tick("redraw"))
        if dice is None:
            from companion.drivers.dice import SoftwareDice
            dice = SoftwareDice(post=self.post)
        self.dice = dice
        self.buzzer = buzzer
        self.power_runner = power_runner  # runs the power-off command; None = subprocess.run
        self.on_commit = on_commit
        self.animation = config["dice"]["animation"]
        # A roll with no result by then is rolled in software: the roller driver falls back
        # after its own timeout, so this only guards against a result lost on the way.
        self.roll_deadline = self.animation + config["roller"]["timeout"] + 1.0
        self.toast: tuple[str, float] | None = None
        self.roll_seq = 0
        self.pending: rolls.PendingRoll | None = None
        self.dice_note = ""
        self.journal: Journal | None = store.resume()
        # The game left for the start menu (still the open game in the journal: resumed at
        # start); the unfinished games the start menu's Resume offers, newest move first.
        self.left: Journal | None = None
        self.unfinished: tuple[ResumeEntry, ...] = ()
        # While a phone's press on a stale snapshot is handled: what changed since (App.gate).
        self.stale_press = ""
        # seq -> (game id, title, events, commits) of recently published snapshots, to say in
        # plain words what changed since the snapshot a phone acted on (App.moved_on).
        self.seen: dict[int, tuple[int | None, str, int, int]] = {}
        self.commits = 0  # appends, undos and redos so far
        from companion.session import roster
        names = roster.load(store)  # the names a phone keeps for new games (None: never set)
        self.roster: tuple[str, ...] | None = None if names is None else tuple(names)
        self._history = None  # companion.session.stats.History, made on the first stats() call
        self._stats = None  # its figures, until the next committed change
        self._filling = False  # a background replay of games with no saved record runs
        self._filled = False  # it ran (once is enough: what it left is this thread's)
        self.stack: list[Screen] = []
        # The table web (companion/web): `web` is the Web object the device menu switches,
        # `publish(snapshot)` its callback after each committed change (None: no web).
        self.web = None
        self.publish: Callable[[dict], None] | None = None
        # Increases with every snapshot published. It starts at a random point of each run, so
        # a page still holding a seq from before a restart (a power cut) is told it is behind,
        # never taken for a snapshot this run happens to have reached too.
        self.web_seq = random.randrange(1, 2**40) * 1000
        self.snapshot_due = False  # a change is not published yet (flush_snapshot)
        self.answering = False  # handling a WebRequest (on_web)
        self.web_off_due = False  # "Web off" from a phone: stop once it has its answer
        self._secret_up = False  # a secret screen (Pair a phone) was on the stack last render
        # (frame number, PIL image) the web may show: the panel's last frame, or a stand-in
        # while a secret screen (Pair a phone) is up; the number grows only when it changes.
        # Set here only (the app thread); the web thread only reads it.
        self.last_frame: tuple[int, Any] | None = None
        self._public_raw = b""
        self.panel_frame: Any = None  # the image the panel itself shows now
        self.on_frame: Callable[[int], None] | None = None  # the web's push (attach_web)
        if self.journal is not None:
            self._enter_game()
        else:
            self._start_menu()
        if store.notice:
            log.warning("%s", store.notice)
            self.stack.append(TextScreen("Saved games", [store.notice, "OK to go on."]))

    # --- plumbing -----------------------------------------------------------------------------

    def post(self, item: object) -> None:
        """Called from any thread."""
        self.queue.put(item)

    def ctx(self) -> Context:
        unfinished = self.unfinished if self.journal is None else ()
        resume = unfinished[0].label if unfinished else ""
        return Context(config=self.config, journal=self.journal, now=self.clock(),
                       dice_note=self.dice_note, resume=resume, unfinished=unfinished,
                       # No statistics in the first frame: never computed at start-up.
                       stats=self.stats if self.last_frame is not None else None,
                       extra={"web": self.web} if self.web is not None else {},
                       roster=self.roster)

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def run(self) -> None:
        """Handle inputs until Quit. Blocks on the queue: no polling while idle."""
        self.render()
        if self.journal is not None and self.journal.state.over:
            self.post(Tick("redraw"))  # now the end screen's line of history
        while True:
            item = self.queue.get()
            if isinstance(item, Quit):
                break
            self.handle(item)
            # Draw once the burst is handled: inputs that queued meanwhile are taken first.
            if self.queue.empty():
                self.render()
                self.flush_snapshot()

    def close(self) -> None:
        self.timers.close()

    def handle(self, item: object) -> None:
        try:
            if isinstance(item, ButtonInput):
                self.on_button(item)
            elif isinstance(item, RollResult):
                rolls.on_roll_result(self, item)
            elif isinstance(item, Tick):
                rolls.on_tick(self, item)
            elif isinstance(item, Notice):
                self.show_toast(item.text, 3.0)
            elif isinstance(item, ShutdownRequest):
                self.perform(power.ask(self.top))
            elif isinstance(item, RollerPress):
                self.on_roller_press()
            elif isinstance(item, WebRequest):
                self.on_web(item)
            elif isinstance(item, StatsFilled):
                self.on_stats_filled(item)
            elif isinstance(item, PhonePaired):
                self.on_phone_paired(item)
        except IllegalEvent as e:
            self.show_toast(str(e), 3.0)
        except JournalError as e:
            self.not_saved(e)
        except Exception as e:  # the last resort: see `strict`
            if self.strict:
                raise
            log.exception("error handling %r", item)
            self.show_toast(f"Internal error ({type(e).__name__}); the game is saved", 4.0)

    # --- inputs -------------------------------------------------------------------------------

    def on_roller_press(self) -> None:
        """The roller's own button: roll now, without the dice menu (ui/dice.py)."""
        if rolls.tumbling(self):
            return  # a roll is tumbling: like every button, it waits for the result
        self.perform(roller_press(self.top, self.ctx()))

    def on_button(self, b: ButtonInput) -> None:
        if rolls.tumbling(self):
            return  # a roll is tumbling: buttons wait for the result
        if b.gesture is Gesture.HOLD and self.journal is not None:
            if b.button is Button.BACK:
                self.perform(A.Undo())
                return
            if b.button is Button.OK and not self.journal.state.over:
                self.perform(A.Push(self.mode.menu(self.ctx())))
                return
        self.perform(self.top.handle(b, self.ctx()))

    # --- actions ------------------------------------------------------------------------------

    @property
    def mode(self):
        assert self.journal is not None
        return games.mode_for(self.journal.header.game)

    def perform(self, action: Any) -> bool:
        """Carry out an action (or a list, stopping at the first that fails)."""
        if action is None:
            return True
        if isinstance(action, (list, tuple)):
            return all(self.perform(a) for a in action)
        if self.stale_press and isinstance(action, COMMITS):
            raise StaleChange(self.stale_press)
        if isinstance(action, A.Emit):
            return self.emit(action.event) and self.perform(action.then)
        if isinstance(action, A.Push):
            self.stack.append(action.screen)
        elif isinstance(action, A.Pop):
            del self.stack[max(1, len(self.stack) - action.count):]
        elif isinstance(action, A.Replace):
            self.stack[-1] = action.screen
        elif isinstance(action, A.Home):
            del self.stack[1:]
        elif isinstance(action, A.Undo):
            return self.undo()
        elif isinstance(action, A.Redo):
            return self.redo()
        elif isinstance(action, A.Roll):
            rolls.start_roll(self, action)
        elif isinstance(action, A.NewGame):
            return self.new_game(action.header)
        elif isinstance(action, A.PlayAgain):
            return self.play_again()
        elif isinstance(action, A.ResumeGame):
            return self.resume_game(action.game)
        elif isinstance(action, A.LeaveGame):
            if self.journal is not None:  # it stays the open game: resumed at start
                self.left, self.journal = self.journal, None
            self._start_menu()
            self.snapshot_due = True
        elif isinstance(action, A.WebSwitch):
            self.web_switch(action.on)
        elif isinstance(action, A.ForgetPhones):
            if self.web is not None:
                from companion.session import phones
                n = self.web.pairing.forget_all()
                try:
                    phones.clear(self.store)
                except JournalError as e:  # forgotten now; kept ones come back after a restart
                    self.not_saved(e)
                    return False
                self.show_toast(f"Forgot {n} phone{'s' * (n != 1)}")
        elif isinstance(action, A.Toast):
            self.show_toast(action.text, action.seconds)
        elif isinstance(action, A.After):
            self.timers.after(action.seconds, Tick(action.token,
                                                   {**action.data, "screen": self.top}))
        elif isinstance(action, A.Beep):
            if self.buzzer is not None:
                self.buzzer.beep(action.seconds)
        elif isinstance(action, A.QuitApp):
            self.post(Quit())
        elif isinstance(action, power.PowerOff):
            runner = {"runner": self.power_runner} if self.power_runner else {}
            return self.perform(power.after(*power.power_off(self.config, **runner)))
        else:
            raise TypeError(f"unknown action {action!r}")
        return True

    def emit(self, event: dict) -> bool:
        assert self.journal is not None
        try:
            self.journal.append(event)
        except IllegalEvent as e:
            self.show_toast(str(e), 3.0)
            return False
        except JournalError as e:
            self.not_saved(e)
            return False
        self._committed("append", event)
        self._check_over()
        return True

    def not_saved(self, e: JournalError) -> None:
        """Not saved (disk full, locked, I/O error): the journal in memory is unchanged, since
        it writes to the store first; say so, and keep the table going."""
        log.error("%s", e)
        short = getattr(e, "short", "")  # what fits the panel whole: "Not saved: disk full"
        self.show_toast(short or str(e)[:1].upper() + str(e)[1:], 4.0)

    def undo(self) -> bool:
        j = self.journal
        if j is None:
            return False
        if not j.can_undo:
            self.show_toast("Nothing to undo")
            return False
        before = j.previous_state
        event = j.undo()
        self._committed("undo", event)
        self.stack[:] = [self.mode.home(self.ctx())]
        self.show_toast("Undone: " + j.game.describe(event, j.header, before))
        self._check_over()  # after the toast: an end screen clears it
        return True

    def redo(self) -> bool:
        j = self.journal
        if j is None:
            return False
        if not j.can_redo:
            self.show_toast("Nothing to redo")
            return False
        before = j.state
        event = j.redo()
        self._committed("redo", event)
        self.show_toast("Redone: " + j.game.describe(event, j.header, before))
        self._check_over()  # after the toast: an end screen clears it
        return True

    def stats(self):
        """The history figures for Records and the end screens: computed here, on the app
        thread, when a screen first asks, and kept until the next committed change (never
        at start-up; only games changed since the last time are replayed).

        Games with no saved record (a journal from before the statistics: ~9 us an event
        here, several times that on a Pi) would stall the buttons: past STATS_BUDGET events
        they are replayed once by a thread of their own on a read-only connection, and the
        app thread saves what it posts back (`on_stats_filled`). None until then: Records
        says "Counting games", an end screen keeps its plain title."""
        if self._stats is None and not self._filling:
            from companion.session.stats import History
            if self._history is None:
                self._history = History(self.store, save=True)
            budget = None if self._filled else STATS_BUDGET
            self._stats = self._history.stats(budget=budget)
            if self._stats is None:
                self._fill_stats()
        return self._stats

    def _fill_stats(self) -> None:
        from companion.session.store import Store
        from companion.session.stats import History
        self._filling = True
        path, post = self.store.path, self.post

        def fill() -> None:
            records = None
            try:
                with Store(path, read_only=True) as reader:
                    history = History(reader)
                    history.records()
                    records = history.unsaved
            except Exception:  # the app thread then replays them itself
                log.exception("statistics: the background replay failed")
            post(StatsFilled(records))

        threading.Thread(target=fill, name="stats", daemon=True).start()

    def on_stats_filled(self, item: StatsFilled) -> None:
        """Save what the background replay found (the journal's one writer), then figure.
        What is left to replay after it (an unfinished game has no saved record; a failed
        replay or save) the app thread replays itself: there is one background replay."""
        self._filling = False
        self._filled = True
        if item.records:
            try:
                self.store.save_summaries(item.records)
            except JournalError as e:
                log.warning("statistics records not saved: %s", e)
        self._stats = None  # asked again by the next frame: now from the saved records

    def _committed(self, what: str, event: Any) -> None:
        self.commits += 1
        self._stats = None
        self.snapshot_due = True
        if self.on_commit is not None:
            self.on_commit(what, len(self.journal.events), event)

    def flush_snapshot(self) -> None:
        """Publish the snapshot a change made due. Called after the frame is drawn, so the
        web's work (building, encoding, sending) never delays the panel."""
        if self.snapshot_due:
            self.snapshot_due = False
            self.publish_snapshot()

    def publish_snapshot(self) -> None:
        """Hand the web a snapshot of the game (after a commit, a new game, leave, resume)."""
        if self.publish is None:
            return
        from companion.web.snapshot import build
        self.web_seq += 1
        resume = self.ctx().resume if self.journal is None else ""
        j = self.journal
        self.seen[self.web_seq] = (None, "", 0, self.commits) if j is None else (
            self.store.game_id(j), j.game.title, len(j.events), self.commits)
        self.seen.pop(self.web_seq - SEEN, None)
        left = None
        if j is None and self.left is not None and not self.left.state.over:
            left = {"game_id": self.store.game_id(self.left), "title": self.left.game.title}
        self.publish(build(self.journal, seq=self.web_seq, resume=resume, left=left))

    def current_seq(self) -> int:
        """The `seq` of the snapshot of the game as it is now: a change not yet published
        (the burst of inputs is still being handled) already counts."""
        return self.web_seq + (1 if self.snapshot_due and self.publish is not None else 0)

    def moved_on(self, seq: int | None) -> str:
        """"" when a phone that acted on snapshot `seq` saw the game as it is (or sent
        `"seq": null`); else what changed since, in plain words."""
        if seq is None or seq == self.current_seq():
            return ""
        then = self.seen.get(seq)
        if then is None:
            # Older than the snapshots kept, or from another run (a restart): either way the
            # page is not showing the game as it is now.
            return (f"this page shows an old state of the game (snapshot {seq} is not one of "
                    f"the box's latest; it is at {self.current_seq()}, perhaps after a "
                    "restart); look again")
        gid0, title0, n0, commits0 = then
        j = self.journal
        if j is None:
            return f"{title0} #{gid0} was left for the start menu" if gid0 is not None else \
                "the start menu changed; look again"
        gid = self.store.game_id(j)
        if gid != gid0:
            return f"{j.game.title} #{gid} is the game now" + \
                (f", not {title0} #{gid0}" if gid0 is not None else "")
        n = len(j.events)
        if n > n0:
            words = j.describe(n0) + (f" and {n - n0 - 1} more" if n - n0 > 1 else "")
        elif n < n0:
            words = f"{n0 - n} move{'s' * (n0 - n != 1)} undone"
        elif self.commits != commits0:
            words = "moves were undone and made again"
        else:
            words = "the page is behind the box"
        if j.state.over:
            return words + "; the game is over"
        return words + f"; it is {j.name(j.state.table.current)}'s turn"

    def new_game(self, header) -> bool:
        try:
            # The game open until now is parked when unfinished: Resume brings it back.
            self.journal = self.store.new_game(header, park=self._open_unfinished())
        except IllegalEvent as e:
            self.show_toast(str(e), 3.0)
            return False
        self.left = None
        self._enter_game()
        self.stack.extend(self.mode.setup(self.ctx()))
        self.snapshot_due = True
        return True

    def _open_unfinished(self) -> bool:
        """Whether the journal's open game (played, or left for the start menu) is
        unfinished."""
        j = self.journal if self.journal is not None else self.left
        return j is not None and not j.state.over

    def resume_game(self, game_id: int | None) -> bool:
        """The start menu's Resume: a game that cannot be resumed is a toast."""
        if game_id is None:
            if not self.unfinished:
                return False
            game_id = self.unfinished[0].game_id
        try:
            self.switch_to(game_id)
        except CannotResume as e:
            self.show_toast(str(e)[:1].upper() + str(e)[1:], 3.0)
            return False
        return True

    def switch_to(self, game_id: int) -> None:
        """Continue unfinished game `game_id`; the open one is parked when it is unfinished.
        CannotResume (nothing changed) for a game that is finished, broken or altered."""
        if self.journal is not None and self.store.game_id(self.journal) == game_id:
            del self.stack[1:]  # already the game being played
            return
        if self.left is not None and self.store.game_id(self.left) == game_id \
                and not self.left.state.over:
            journal = self.left  # still the open game in the journal
        else:
            journal = self.store.reopen(game_id, park=self._open_unfinished())
        self.journal, self.left = journal, None
        self._enter_game()
        self.snapshot_due = True

    def _start_menu(self) -> None:
        """Show the start menu, with the unfinished games Resume offers as they are now."""
        now = self.store.clock()
        self.unfinished = tuple(
            ResumeEntry(u.id, games.title(u.header.game), tuple(u.header.players),
                        when_text(u.last, now))
            for u in self.store.unfinished())
        self.stack = [StartScreen(self.ctx())]

    # --- play again ---------------------------------------------------------------------------

    def play_again(self, *, from_phone: bool = False) -> bool:
        """A new game of the finished one's kind, with its players in their seats and its
        house rules (as the header recorded them), the first player one seat on clockwise
        (as a deal passes), through `new_game` like any new game; the finished game stays in
        the journal. On the panel the game's own "who goes first" follows (at that seat); a
        phone's one tap goes straight to the game."""
        j = self.journal
        if j is None or not j.state.over:
            self.show_toast("Play again: the game is not over")
            return False
        from companion.rules.game import Header
        h = j.header
        header = Header(h.game, tuple(h.players), (h.first + 1) % len(h.players),
                        dict(h.rules))
        if not self.new_game(header):
            return False
        del self.stack[1:]  # the same house rules: not shown again
        if not from_phone:
            self.stack.append(self.mode.first_player_screen(self.ctx()))
        return True

    def web_play_again(self, p: dict) -> dict:
        """POST /api/play-again: the game-over view's one tap. Only a finished game is played
        again (an unfinished one is not replaced by it); `seq` is the snapshot it was
        pressed on."""
        j = self.journal
        if j is None:
            return {"ok": False, "status": 409, "error": "no game to play again: start one"}
        if not j.state.over:
            return {"ok": False, "status": 409, "error": "the game is not over: finish it, "
                    "or start a new game"}
        if not self.play_again(from_phone=True):
            return {"ok": False, "status": 503, "error": "the new game was not saved: "
                    + (self.toast[0] if self.toast else "error")}
        return {"ok": True, "seq": self.web_seq, "game_id": getattr(self.journal.sink,
                                                                    "game_id", None)}

    def _enter_game(self) -> None:
        ctx = self.ctx()
        if self.journal.state.over:
            self.stack = [self.mode.end_screen(ctx)]
            self.at_end = True
        else:
            self.stack = [self.mode.home(ctx)]
            self.at_end = False

    def _check_over(self) -> None:
        """Switch to the end screen when the game ends, and back when undo reopens it. The
        end screen is shown clear: a toast still up (a "Redone: ..." of the last move, a
        hint) would cover the winners, so it goes."""
        over = self.journal.state.over
        if over != self.at_end:
            self._enter_game()
            if over:
                self.toast = None

    def show_toast(self, text: str, seconds: float = 2.0) -> None:
        self.toast = (text, self.clock() + seconds)
        self.timers.after(seconds, Tick("toast"))

    # --- the table web ------------------------------------------------------------------------

    def gate(self, p: dict, stale: str) -> dict:
        """A phone's press, exactly a button on the box, unless the phone's snapshot is stale
        (`stale` says what changed) and the press would commit something (COMMITS): then it
        is refused and the screens are put back as they were. `changed` says whether the
        press did anything: the game, the screens, or the frame."""
        gesture = Gesture.HOLD if p.get("hold") else Gesture.PRESS
        before = self._look()
        stack, toast = list(self.stack), self.toast
        self.stale_press = stale
        try:
            self.on_button(ButtonInput(Button(p["button"]), gesture))
        except StaleChange:
            self.stack[:], self.toast = stack, toast
            return {"ok": False, "error": "the game moved on: " + stale, "status": 409}
        finally:
            self.stale_press = ""
        return {"ok": True, "seq": self.web_seq, "changed": self._look() != before}

    def _look(self) -> tuple:
        """What a press may change: the game (the next snapshot), the screens, a roll, the
        frame the panel would show."""
        try:
            frame = self.frame().tobytes()
        except Exception:  # a screen that fails to draw: render() shows the error frame
            frame = b""
        return (self.current_seq(), [id(s) for s in self.stack], self.roll_seq, frame)

    def on_web(self, req: WebRequest) -> None:
        """Do what a paired browser asked (companion/web/api.py checked its shape) and answer."""
        if req.reply is not None and not req.reply.set_running_or_notify_cancel():
            return  # the browser was told "nothing changed" (Web.ask gave up waiting)
        self.answering = True
        try:
            result = self.web_request(req.kind, req.payload)
        except IllegalEvent as e:
            result = {"ok": False, "error": str(e), "status": 422}
        except JournalError as e:
            self.not_saved(e)
            result = {"ok": False, "error": str(e), "status": 503}
        except Exception as e:  # the last resort: see `strict`
            log.exception("error handling %r", req)
            result = {"ok": False, "error": f"internal error ({type(e).__name__}); the game "
                      "is saved", "status": 500}
            if self.strict:
                self._reply(req, result)
                raise
        finally:
            self.answering = False
        self.flush_snapshot()  # the reply's seq is the snapshot with this change
        if result.get("ok"):
            result["seq"] = self.web_seq
        self._reply(req, result)
        if self.web_off_due:  # "Web off" chosen from a phone: it has its answer, now stop
            self.web_off_due = False
            self.web.stop()

    @staticmethod
    def _reply(req: WebRequest, result: dict) -> None:
        if req.reply is not None:
            try:
                req.reply.set_result(result)
            except Exception:  # cancelled: the browser gave up waiting
                pass

    def web_request(self, kind: str, p: dict) -> dict:
        """Do a paired browser's request. A change carries `seq`, the snapshot the phone
        acted on (None: a script that skips the check). On a stale one it is refused (409,
        what changed, in plain words) and nothing changes, except a press that commits
        nothing (UP/DOWN in a menu, BACK out of a screen): that is never stale (`gate`)."""
        def ok(**more) -> dict:
            return {"ok": True, "seq": self.web_seq, **more}

        def refused(status: int, error: str) -> dict:
            return {"ok": False, "error": error, "status": status}

        if kind == "roster":
            return ok(names=self.ctx().names)
        stale = self.moved_on(p.get("seq"))
        if kind == "press":
            return self.gate(p, stale)
        if stale:
            return refused(409, "the game moved on: " + stale)
        if kind == "roster-set":
            from companion.session import roster
            roster.save(self.store, p["names"])
            self.roster = tuple(p["names"])
            return ok(names=list(self.roster))
        if kind == "play-again":
            return self.web_play_again(p)
        if kind == "new-game":
            from companion.session.journal import game_for
            from companion.rules.game import Header
            header = Header(p["game"], tuple(p["players"]), p["first"],
                            {**self.config.house_rules(p["game"]), **p["rules"]})
            game_for(header).check_header(header)  # IllegalEvent (422) before anything changes
        if kind in ("new-game", "resume"):
            # The game in progress, or the one left for the start menu (still unfinished).
            j = self.journal if self.journal is not None else self.left
            if j is not None and not j.state.over and (kind == "new-game" or
                                                       self.store.game_id(j) != p["game"]):
                gid = self.store.game_id(j)
                if p.get("replaces") != gid:
                    return refused(409, f"{j.game.title} #{gid} is not finished: send "
                                   f"\"replaces\": {gid} to set it aside (it can be "
                                   "resumed later)")
        if kind == "resume":
            try:
                self.switch_to(p["game"])
            except CannotResume as e:
                return refused(e.status, str(e))
            return ok()
        if kind == "new-game":
            if not self.new_game(header):
                return refused(422, "the game could not be started")
            del self.stack[1:]  # the phone chose the first player: straight to the game
            return ok()
        j = self.journal
        if j is None:
            return refused(409, "no game is open on the box: start one first")
        if kind == "action":
            event = p["event"]
            try:
                j.check(event)  # an illegal move changes nothing
            except IllegalEvent as e:  # 422 in a form's words; the engine's beside them
                from companion.web.words import plain
                return {**refused(422, plain(str(e), event, j.header.players)),
                        "engine": str(e)}
            if not self.emit(event):
                return refused(503, "not saved: " + (self.toast[0] if self.toast else "error"))
            del self.stack[1:]  # back to the game's home (or end) screen
            if not j.state.over:  # and what the panel asks next (Chaos: the next dealer)
                self.perform(self.mode.after_web_action(event, self.ctx()))
            return ok()
        if kind in ("undo", "redo"):
            if not (j.can_undo if kind == "undo" else j.can_redo):
                return refused(409, f"nothing to {kind}")
            if not (self.undo() if kind == "undo" else self.redo()):
                return refused(503, f"{kind} was not saved")
            return ok()
        return refused(400, f"unknown request {kind!r}")

    def on_phone_paired(self, item: PhonePaired) -> None:
        """Keep a paired phone's session in the journal database (the web asked; this thread
        is the one writer)."""
        from companion.session import phones
        from companion.web import pairing
        if self.web is not None and not self.web.pairing.knows(item.digest):
            ok = False  # forgotten (Forget all phones) before this got here: not kept
        else:
            try:
                phones.add(self.store, item.digest, item.created,
                           now=self.web.pairing.wall() if self.web is not None else item.created,
                           ttl=pairing.SESSION_TTL, keep=pairing.MAX_SESSIONS)
                ok = True
            except JournalError as e:
                log.warning("the paired phone is not kept across a restart: %s", e)
                ok = False
        if item.reply is not None:
            try:
                item.reply.set_result(ok)
            except Exception:  # the web gave up waiting
                pass

    def attach_web(self, web) -> None:
        """Give the app its table web (companion.web.server.Web, started or not): snapshots
        and changed frames go to it from now on, the phones kept in the journal are paired
        again, and the menus offer "Table web"."""
        from companion.session import phones
        self.web, self.publish = web, web.publish
        self.on_frame = web.frame_changed
        if self.last_frame is not None:  # drawn before the web came: its number, for new streams
            web.frame_changed(self.last_frame[0])
        web.pairing.load(phones.load(self.store))
        # A code used or voided by wrong tries: redraw the pairing screen (and say so).
        web.pairing.on_change = lambda note: self.post(Notice(note) if note else Tick("web"))
        if self.journal is None and isinstance(self.stack[0], StartScreen):
            self.stack[0] = StartScreen(self.ctx())
        self.publish_snapshot()

    def web_switch(self, on: bool) -> None:
        """The device menu's "Web on" / "Web off"."""
        if self.web is None:
            return
        if not on:
            if self.answering:  # stopping now would wait on the very request being answered
                self.web_off_due = True
            else:
                self.web.stop()
            self.show_toast("Web off")
            return
        problem = self.web.start()
        if problem:
            log.warning("%s", problem)
            self.show_toast(problem.removeprefix("web: ").split(";")[0], 4.0)
        else:
            self.publish_snapshot()
            self.show_toast("Web on: " + self.web.url.removeprefix("http://").rstrip("/"), 3.0)

    # --- drawing ------------------------------------------------------------------------------

    def frame(self):
        img = self.top.render(self.ctx())
        if self.toast is not None:
            draw_toast(img, self.toast[0])
        return img

    def render(self) -> None:
        try:
            frame = self.frame()
        except Exception:  # the last resort: see `strict`
            if self.strict:
                raise
            log.exception("error drawing %r", self.top)
            frame = error_frame()
        self.panel_frame = frame
        self.display.show(frame)
        # The pairing screen gone by any path (a phone's action, undo, a new game, the game's
        # end, not only its own OK/BACK): its code closes with it, as the screen's would.
        secret_up = any(getattr(s, "secret", False) for s in self.stack)
        if self._secret_up and not secret_up and self.web is not None:
            self.web.pairing.close()
        self._secret_up = secret_up
        # What the web may show: never a secret screen (the pairing code and its QR).
        public = frame
        if getattr(self.top, "secret", False):
            from companion.ui.device import standin_frame
            public = standin_frame()
        raw = public.tobytes()
        if self.last_frame is None or raw != self._public_raw:
            self._public_raw = raw
            self.last_frame = (self.last_frame[0] + 1 if self.last_frame else 1, public)
            if self.on_frame is not None:
                self.on_frame(self.last_frame[0])


def error_frame():
    """What the panel shows when a screen fails to draw: the way out, in big letters."""
    img, d = draw.blank()
    draw.centered(d, (0, 0, draw.WIDTH, 30), "Screen error", largest=20)
    draw.centered(d, (0, 32, draw.WIDTH, 47), "The game is saved.", largest=12)
    draw.centered(d, (0, 48, draw.WIDTH, 63), "BACK or hold BACK", largest=12)
    return img


def toast_lines(text: str) -> list[str]:
    """A toast's text in at most two lines; a text that needs more ends in "…" on the second,
    so a cut is seen as one (not "Not saved: database or disk is" for "... is full")."""
    from companion.ui.screen import wrap

    lines = wrap(text, draw.WIDTH - 8, 12)
    if len(lines) > 2:
        lines = [lines[0], draw.clip(" ".join(lines[1:]), draw.WIDTH - 8, 12)]
    return lines


def draw_toast(img, text: str) -> None:
    """A boxed message over the lower part of the frame, up to two lines."""
    from PIL import ImageDraw

    d = ImageDraw.Draw(img)
    lines = toast_lines(text)
    h = 14 * len(lines) + 4
    y0 = draw.HEIGHT - h
    d.rectangle((0, y0 - 2, draw.WIDTH - 1, draw.HEIGHT - 1), fill=0)
    d.rectangle((1, y0 - 1, draw.WIDTH - 2, draw.HEIGHT - 1), outline=1, fill=1)
    for i, line in enumerate(lines):
        d.text((draw.WIDTH // 2, y0 + 2 + 14 * i + 7), line, font=draw.font(12), fill=0,
               anchor="mm")


def run_safely(app: App) -> None:
    try:
        app.run()
    finally:
        app.close()
