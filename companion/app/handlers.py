"""The screen actions (companion/ui/actions.py, and power.PowerOff): what each does, and the
open game's place on screen (its home or end screen, the start menu).

`Actions` owns what the screens ask for: a move appended to the journal (`append`), undo and
redo, a roll started, a new game, Play again, Resume, leaving a game, the box's switches.
It is given an `ActionHost`, what it uses of the app (declared below: the screen stack, the
journal and the store, the toast, `perform` and `committed`, and the parts a screen reaches:
the rolls, the turn clock, the calls, the web). `App.perform` looks an action's type up in
HANDLERS and calls its method. A method returns whether it did the action: a list of actions
stops at the first that was not done. A phone's changes are these same actions (bridge.py).

Everything here runs on the app thread (the one thread that changes the app's state).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion import games
from companion.app.calls import Caller
from companion.app.clock import TurnClock
from companion.app.rolls import Rolls
from companion.app.timers import Scheduler
from companion.errors import IllegalEvent, JournalError
from companion.inputs import Quit, Tick
from companion.session import asides, designs, when
from companion.session.store import CannotResume
from companion.ui import actions as A, power
from companion.ui.screen import Context, Screen, TextScreen
from companion.ui.start import ResumeEntry, StartScreen

if TYPE_CHECKING:
    from companion.rules.game import Header
    from companion.session.journal import Journal

log = logging.getLogger(__name__)


class Switch(Protocol):
    """The box's switches of the table web (WebBridge): on or off, and forget every phone."""

    def switch(self, on: bool) -> None: ...

    def forget_phones(self) -> bool: ...


class ActionHost(Protocol):
    """What the screen actions use of the app (App satisfies it)."""

    stack: list[Screen]
    journal: Journal | None
    left: Journal | None  # the game left for the start menu (still the open game)
    unfinished: tuple[ResumeEntry, ...]  # what the start menu's Resume offers
    toast: tuple[str, float] | None
    snapshot_due: bool
    store: Any
    config: Any
    buzzer: Any
    power_runner: power.Runner | None
    timers: Scheduler
    rolls: Rolls
    turn_clock: TurnClock
    caller: Caller

    @property
    def top(self) -> Screen: ...

    @property
    def mode(self) -> Any: ...

    def ctx(self) -> Context: ...

    def post(self, item: object) -> None: ...

    def perform(self, action: Any) -> bool: ...

    def committed(self, what: str, event: Any) -> None: ...

    def show_toast(self, text: str, seconds: float = 2.0) -> None: ...

    def not_saved(self, e: JournalError) -> None: ...

    @property
    def bridge(self) -> Switch: ...  # the web's switch (WebBridge)


class Actions:
    """The screen actions, done on the app given (`host`)."""

    def __init__(self, host: ActionHost) -> None:
        self.host = host
        self.at_end = False  # the end screen is up (`check_over`)

    # --- the journal and the game's screens

    def append(self, event: dict) -> bool:
        """Append `event` to the journal, committed before anything shows it (A.Emit, a
        roll's result): a refused move or a failed save is a toast, and False."""
        app = self.host
        assert app.journal is not None
        try:
            app.journal.append(event)
        except IllegalEvent as e:
            app.show_toast(str(e), 3.0)
            return False
        except JournalError as e:
            app.not_saved(e)
            return False
        app.committed("append", event)
        self.check_over()
        return True

    def enter_game(self) -> None:
        """The journal's game on screen: its home screen, or its end screen when over."""
        app = self.host
        assert app.journal is not None
        ctx = app.ctx()
        if app.journal.state.over:
            app.stack = [app.mode.end_screen(ctx)]
            self.at_end = True
        else:
            app.stack = [app.mode.home(ctx)]
            self.at_end = False

    def check_over(self) -> None:
        """Switch to the end screen when the game ends, and back when undo reopens it. The
        end screen is shown clear: a toast still up (a "Redone: ..." of the last move, a
        hint) would cover the winners, so it goes."""
        app = self.host
        assert app.journal is not None
        over = app.journal.state.over
        if over != self.at_end:
            self.enter_game()
            if over:
                app.toast = None

    def first_screens(self) -> None:
        """The screens of a start: the resumed game's (the start menu when there is none, or
        when its kind cannot be shown on the panel), and the store's notice on top."""
        app = self.host
        notice = app.store.notice
        problem = games.panel_problem(app.journal.header.game) if app.journal else ""
        if problem:  # kept open in the journal, as it is: the start menu instead
            app.journal = None
            notice = " ".join(filter(None, [notice, f"Not resumed: {problem}. It is kept."]))
        if app.journal is not None:
            self.enter_game()
        else:
            self.start_menu()
        if notice:
            log.warning("%s", notice)
            app.stack.append(TextScreen("Saved games", [notice, "OK to go on."]))

    # --- the screens ------------------------------------------------------------------------------

    def push(self, action: A.Push) -> bool:
        self.host.stack.append(action.screen)
        return True

    def pop(self, action: A.Pop) -> bool:
        app = self.host
        del app.stack[max(1, len(app.stack) - action.count):]
        return True

    def replace(self, action: A.Replace) -> bool:
        self.host.stack[-1] = action.screen
        return True

    def home(self, action: A.Home) -> bool:
        del self.host.stack[1:]
        return True

    def toast(self, action: A.Toast) -> bool:
        self.host.show_toast(action.text, action.seconds)
        return True

    def after(self, action: A.After) -> bool:
        app = self.host
        app.timers.after(action.seconds, Tick(action.token, {**action.data, "screen": app.top}))
        return True

    # --- the game: moves, undo, redo, rolls -------------------------------------------------------

    def emit(self, action: A.Emit) -> bool:
        """A move from any live input (a panel screen, a phone's /api/action, a script's
        presses): a bare NEXT where the kind's rules need a choice first is refused in the
        rules' words (Game.next_refusal: "Pass or claim first"), and nothing is written."""
        app = self.host
        j = app.journal
        why = j.game.next_refusal(j.state, action.event) if j is not None else None
        if why:
            app.show_toast(why, 3.0)
            return False
        return self.append(action.event) and app.perform(action.then)

    def undo(self, action: A.Undo) -> bool:
        app = self.host
        j = app.journal
        if j is None:
            return False
        if not j.can_undo:
            app.show_toast("Nothing to undo")
            return False
        before = j.previous_state
        event = j.undo()
        app.committed("undo", event)
        app.stack[:] = [app.mode.home(app.ctx())]
        app.show_toast("Undone: " + j.game.describe(event, j.header, before))
        self.check_over()  # after the toast: an end screen clears it
        return True

    def redo(self, action: A.Redo) -> bool:
        app = self.host
        j = app.journal
        if j is None:
            return False
        if not j.can_redo:
            app.show_toast("Nothing to redo")
            return False
        before = j.state
        event = j.redo()
        app.committed("redo", event)
        app.show_toast("Redone: " + j.game.describe(event, j.header, before))
        self.check_over()  # after the toast: an end screen clears it
        return True

    def roll(self, action: A.Roll) -> bool:
        self.host.rolls.start(action)
        return True

    # --- games: new, play again, resume, leave ----------------------------------------------------

    def new_game(self, action: A.NewGame) -> bool:
        return self.start_game(action.header)

    def start_game(self, header: Header) -> bool:
        """A new game of `header` (A.NewGame, Play again), with its setup screens
        (house rules, who goes first) on top; a header the journal refuses is a toast, and so is
        a kind whose screens fail to load (nothing is written then)."""
        app = self.host
        problem = games.panel_problem(header.game)
        if problem:
            app.show_toast(problem, 4.0)
            return False
        park = self.open_unfinished()
        parked = self.open_game_id() if park else None
        try:
            header = designs.first_seat(app.store, header)  # "the next seat each game"
            # The game open until now is parked when unfinished: Resume brings it back.
            app.journal = app.store.new_game(header, park=park)
        except IllegalEvent as e:
            app.show_toast(str(e), 3.0)
            return False
        if parked is not None:
            asides.set_aside(app.store, parked)  # its playing time stops here
        app.left = None
        self.enter_game()
        setup = app.mode.setup(app.ctx())
        app.stack.extend(setup)
        app.turn_clock.hold(setup)  # nobody's turn runs while the rules are read
        if not setup:
            app.caller.started()  # no setup to wait for: whose turn it is, said now
        app.snapshot_due = True
        return True

    def play_again(self, action: A.PlayAgain) -> bool:
        """A new game of the finished one's kind, with its players in their seats and its
        house rules (as the header recorded them), the first player one seat on clockwise
        (as a deal passes), through `start_game` like any new game; the finished game stays in
        the journal. The game's own "who goes first" follows (at that seat); a phone's one
        tap goes on to the game (bridge.py)."""
        app = self.host
        j = app.journal
        if j is None or not j.state.over:
            app.show_toast("Play again: the game is not over")
            return False
        from companion.rules.game import Header
        h = j.header
        header = Header(h.game, tuple(h.players), (h.first + 1) % len(h.players),
                        dict(h.rules))
        if not self.start_game(header):
            return False
        del app.stack[1:]  # the same house rules: not shown again
        app.stack.append(app.mode.first_player_screen(app.ctx()))
        app.turn_clock.hold([app.top])
        return True

    def resume_game(self, action: A.ResumeGame) -> bool:
        """The start menu's Resume, or a phone's: a game that cannot be resumed is a toast on
        the panel, and raises CannotResume for a phone, whose answer says why."""
        app = self.host
        game_id = action.game
        if game_id is None:
            if not app.unfinished:
                return False
            game_id = app.unfinished[0].game_id
        try:
            self.switch_to(game_id)
        except CannotResume as e:
            if action.from_phone:
                raise
            app.show_toast(str(e)[:1].upper() + str(e)[1:], 3.0)
            return False
        return True

    def switch_to(self, game_id: int) -> None:
        """Continue unfinished game `game_id`; the open one is parked when it is unfinished.
        CannotResume (nothing changed) for a game that is finished, broken or altered."""
        app = self.host
        if app.journal is not None and app.store.game_id(app.journal) == game_id:
            del app.stack[1:]  # already the game being played
            return
        if app.left is not None and app.store.game_id(app.left) == game_id \
                and not app.left.state.over:
            journal = app.left  # still the open game in the journal
        else:
            park = self.open_unfinished()
            parked = self.open_game_id() if park else None
            journal = app.store.reopen(game_id, park=park)
            if parked is not None:
                asides.set_aside(app.store, parked)
        asides.taken_back(app.store, game_id)  # its playing time goes on from here
        app.journal, app.left = journal, None
        self.enter_game()
        app.snapshot_due = True

    def taken_back_at_start(self) -> None:
        """The game resumed at start-up was left for the start menu before the companion stopped:
        its aside ends now, as a Resume's would (switch_to), so its clock and its statistics both
        leave out the time it sat there and count what is played from now on."""
        app = self.host
        gid = app.store.game_id(app.journal) if app.journal is not None else None
        if gid is not None and not (app.store.read_only or app.store.unwritable) \
                and asides.open_since(app.store.db, gid, "asides") is not None:
            asides.taken_back(app.store, gid)

    def open_game_id(self) -> int | None:
        """The id of the journal's open game (played, or left for the start menu)."""
        app = self.host
        j = app.journal if app.journal is not None else app.left
        return app.store.game_id(j) if j is not None else None

    def open_unfinished(self) -> bool:
        """Whether the journal's open game (played, or left for the start menu) is
        unfinished."""
        app = self.host
        j = app.journal if app.journal is not None else app.left
        return j is not None and not j.state.over

    def leave_game(self, action: A.LeaveGame) -> bool:
        app = self.host
        if app.journal is not None:  # it stays the open game: resumed at start
            gid = app.store.game_id(app.journal)
            if gid is not None and not app.journal.state.over:
                asides.set_aside(app.store, gid)  # its playing time stops until it is resumed
            app.left, app.journal = app.journal, None
        self.start_menu()
        app.snapshot_due = True
        return True

    def start_menu(self) -> None:
        """Show the start menu, with the unfinished games Resume offers as they are now."""
        app = self.host
        now = app.store.clock()
        app.unfinished = tuple(
            ResumeEntry(u.id, games.title(u.header.game), tuple(u.header.players),
                        when_text(u.last, now))
            for u in app.store.unfinished())
        app.stack = [StartScreen(app.ctx())]

    # --- the box: the web, the buzzer, quitting, power --------------------------------------------

    def web_switch(self, action: A.WebSwitch) -> bool:
        self.host.bridge.switch(action.on)
        return True

    def forget_phones(self, action: A.ForgetPhones) -> bool:
        return self.host.bridge.forget_phones()

    def beep(self, action: A.Beep) -> bool:
        app = self.host
        if app.buzzer is not None:
            app.buzzer.beep(action.seconds)
        return True

    def pause_clock(self, action: A.PauseClock) -> bool:
        app = self.host
        on = not app.turn_clock.paused if action.on is None else action.on
        return app.turn_clock.pause(on)

    def quit_app(self, action: A.QuitApp) -> bool:
        self.host.post(Quit())
        return True

    def power_off(self, action: power.PowerOff) -> bool:
        app = self.host
        return app.perform(power.after(*power.power_off(app.config, runner=app.power_runner)))


def when_text(t: float, now: float) -> str:
    """A time for the Resume list: "14:05" today, "12 Mar" this year, else "2024-03-12";
    "unknown" for a stored time out of range (companion/session/when.py)."""
    lt, today = when.local(t), when.local(now)
    if lt is None:
        return when.UNKNOWN
    if today is not None and lt[:3] == today[:3]:
        return time.strftime("%H:%M", lt)
    if today is not None and lt.tm_year == today.tm_year:
        return f"{lt.tm_mday} {time.strftime('%b', lt)}"
    return time.strftime("%Y-%m-%d", lt)


# Each action's handler (App.perform): the action's exact type, to the `Actions` method that
# does it.
HANDLERS: dict[type, Callable[[Actions, Any], bool]] = {
    A.Push: Actions.push,
    A.Pop: Actions.pop,
    A.Replace: Actions.replace,
    A.Home: Actions.home,
    A.Toast: Actions.toast,
    A.After: Actions.after,
    A.Emit: Actions.emit,
    A.Undo: Actions.undo,
    A.Redo: Actions.redo,
    A.Roll: Actions.roll,
    A.NewGame: Actions.new_game,
    A.PlayAgain: Actions.play_again,
    A.ResumeGame: Actions.resume_game,
    A.LeaveGame: Actions.leave_game,
    A.WebSwitch: Actions.web_switch,
    A.ForgetPhones: Actions.forget_phones,
    A.Beep: Actions.beep,
    A.PauseClock: Actions.pause_clock,
    A.QuitApp: Actions.quit_app,
    power.PowerOff: Actions.power_off,
}
