"""What each screen action does (companion/ui/actions.py, and power.PowerOff): `App.perform`
looks the action's type up in HANDLERS and calls its handler with the app. A handler returns
whether it did the action: a list of actions stops at the first that was not done. A phone's
changes are these same actions (bridge.py).

Every function here runs on the app thread, on the App it is given (the one thread that
changes its state).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from companion import games
from companion.app import rolls
from companion.errors import IllegalEvent, JournalError
from companion.inputs import Quit, Tick
from companion.session import asides, when
from companion.session.store import CannotResume
from companion.ui import actions as A, power
from companion.ui.start import ResumeEntry, StartScreen

if TYPE_CHECKING:
    from companion.app.core import App
    from companion.rules.game import Header


# --- the screens ------------------------------------------------------------------------------

def push(app: App, action: A.Push) -> bool:
    app.stack.append(action.screen)
    return True


def pop(app: App, action: A.Pop) -> bool:
    del app.stack[max(1, len(app.stack) - action.count):]
    return True


def replace(app: App, action: A.Replace) -> bool:
    app.stack[-1] = action.screen
    return True


def home(app: App, action: A.Home) -> bool:
    del app.stack[1:]
    return True


def toast(app: App, action: A.Toast) -> bool:
    app.show_toast(action.text, action.seconds)
    return True


def after(app: App, action: A.After) -> bool:
    app.timers.after(action.seconds, Tick(action.token, {**action.data, "screen": app.top}))
    return True


# --- the game: moves, undo, redo, rolls -------------------------------------------------------

def emit(app: App, action: A.Emit) -> bool:
    """A move from any live input (a panel screen, a phone's /api/action, a script's
    presses): a bare NEXT where the kind's rules need a choice first is refused in the
    rules' words (Game.next_refusal: "Pass or claim first"), and nothing is written."""
    j = app.journal
    why = j.game.next_refusal(j.state, action.event) if j is not None else None
    if why:
        app.show_toast(why, 3.0)
        return False
    return app.emit(action.event) and app.perform(action.then)


def undo(app: App, action: A.Undo) -> bool:
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
    app.check_over()  # after the toast: an end screen clears it
    return True


def redo(app: App, action: A.Redo) -> bool:
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
    app.check_over()  # after the toast: an end screen clears it
    return True


def roll(app: App, action: A.Roll) -> bool:
    rolls.start_roll(app, action)
    return True


# --- games: new, play again, resume, leave ----------------------------------------------------

def new_game(app: App, action: A.NewGame) -> bool:
    return start_game(app, action.header)


def start_game(app: App, header: Header) -> bool:
    """A new game of `header` (A.NewGame, play again, App.new_game), with its setup screens
    (house rules, who goes first) on top; a header the journal refuses is a toast, and so is
    a kind whose screens fail to load (nothing is written then)."""
    problem = games.panel_problem(header.game)
    if problem:
        app.show_toast(problem, 4.0)
        return False
    park = open_unfinished(app)
    parked = _open_game_id(app) if park else None
    try:
        # The game open until now is parked when unfinished: Resume brings it back.
        app.journal = app.store.new_game(header, park=park)
    except IllegalEvent as e:
        app.show_toast(str(e), 3.0)
        return False
    if parked is not None:
        asides.set_aside(app.store, parked)  # its playing time stops here
    app.left = None
    app.enter_game()
    setup = app.mode.setup(app.ctx())
    app.stack.extend(setup)
    app.turn_clock.hold(setup)  # nobody's turn runs while the rules are read
    if not setup:
        app.caller.started()  # no setup to wait for: whose turn it is, said now
    app.snapshot_due = True
    return True


def play_again(app: App, action: A.PlayAgain) -> bool:
    """A new game of the finished one's kind, with its players in their seats and its
    house rules (as the header recorded them), the first player one seat on clockwise
    (as a deal passes), through `start_game` like any new game; the finished game stays in
    the journal. The game's own "who goes first" follows (at that seat); a phone's one
    tap goes on to the game (bridge.py)."""
    j = app.journal
    if j is None or not j.state.over:
        app.show_toast("Play again: the game is not over")
        return False
    from companion.rules.game import Header
    h = j.header
    header = Header(h.game, tuple(h.players), (h.first + 1) % len(h.players),
                    dict(h.rules))
    if not start_game(app, header):
        return False
    del app.stack[1:]  # the same house rules: not shown again
    app.stack.append(app.mode.first_player_screen(app.ctx()))
    app.turn_clock.hold([app.top])
    return True


def resume_game(app: App, action: A.ResumeGame) -> bool:
    """The start menu's Resume, or a phone's: a game that cannot be resumed is a toast on
    the panel, and raises CannotResume for a phone, whose answer says why."""
    game_id = action.game
    if game_id is None:
        if not app.unfinished:
            return False
        game_id = app.unfinished[0].game_id
    try:
        switch_to(app, game_id)
    except CannotResume as e:
        if action.from_phone:
            raise
        app.show_toast(str(e)[:1].upper() + str(e)[1:], 3.0)
        return False
    return True


def switch_to(app: App, game_id: int) -> None:
    """Continue unfinished game `game_id`; the open one is parked when it is unfinished.
    CannotResume (nothing changed) for a game that is finished, broken or altered."""
    if app.journal is not None and app.store.game_id(app.journal) == game_id:
        del app.stack[1:]  # already the game being played
        return
    if app.left is not None and app.store.game_id(app.left) == game_id \
            and not app.left.state.over:
        journal = app.left  # still the open game in the journal
    else:
        park = open_unfinished(app)
        parked = _open_game_id(app) if park else None
        journal = app.store.reopen(game_id, park=park)
        if parked is not None:
            asides.set_aside(app.store, parked)
    asides.taken_back(app.store, game_id)  # its playing time goes on from here
    app.journal, app.left = journal, None
    app.enter_game()
    app.snapshot_due = True


def taken_back_at_start(app: App) -> None:
    """The game resumed at start-up was left for the start menu before the companion stopped:
    its aside ends now, as a Resume's would (switch_to), so its clock and its statistics both
    leave out the time it sat there and count what is played from now on."""
    gid = app.store.game_id(app.journal) if app.journal is not None else None
    if gid is not None and not (app.store.read_only or app.store.unwritable) \
            and asides.open_since(app.store.db, gid, "asides") is not None:
        asides.taken_back(app.store, gid)


def _open_game_id(app: App) -> int | None:
    """The id of the journal's open game (played, or left for the start menu)."""
    j = app.journal if app.journal is not None else app.left
    return app.store.game_id(j) if j is not None else None


def open_unfinished(app: App) -> bool:
    """Whether the journal's open game (played, or left for the start menu) is
    unfinished."""
    j = app.journal if app.journal is not None else app.left
    return j is not None and not j.state.over


def leave_game(app: App, action: A.LeaveGame) -> bool:
    if app.journal is not None:  # it stays the open game: resumed at start
        gid = app.store.game_id(app.journal)
        if gid is not None and not app.journal.state.over:
            asides.set_aside(app.store, gid)  # its playing time stops until it is resumed
        app.left, app.journal = app.journal, None
    start_menu(app)
    app.snapshot_due = True
    return True


def start_menu(app: App) -> None:
    """Show the start menu, with the unfinished games Resume offers as they are now."""
    now = app.store.clock()
    app.unfinished = tuple(
        ResumeEntry(u.id, games.title(u.header.game), tuple(u.header.players),
                    when_text(u.last, now))
        for u in app.store.unfinished())
    app.stack = [StartScreen(app.ctx())]


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


# --- the box: the web, the buzzer, quitting, power --------------------------------------------

def web_switch(app: App, action: A.WebSwitch) -> bool:
    app.bridge.switch(action.on)
    return True


def forget_phones(app: App, action: A.ForgetPhones) -> bool:
    if app.web is not None:
        from companion.session import phones
        n = app.web.pairing.forget_all()
        app.web.phones_forgotten()  # their open pages are told, and stop showing controls
        try:
            phones.clear(app.store)
        except JournalError as e:  # forgotten now; kept ones come back after a restart
            app.not_saved(e)
            return False
        app.show_toast(f"Forgot {n} phone{'s' * (n != 1)}")
    return True


def beep(app: App, action: A.Beep) -> bool:
    if app.buzzer is not None:
        app.buzzer.beep(action.seconds)
    return True


def pause_clock(app: App, action: A.PauseClock) -> bool:
    on = not app.turn_clock.paused if action.on is None else action.on
    return app.turn_clock.pause(on)


def quit_app(app: App, action: A.QuitApp) -> bool:
    app.post(Quit())
    return True


def power_off(app: App, action: power.PowerOff) -> bool:
    return app.perform(power.after(*power.power_off(app.config, runner=app.power_runner)))


# Each action's handler (App.perform): the action's exact type, to what it does.
HANDLERS: dict[type, Callable[[App, Any], bool]] = {
    A.Push: push,
    A.Pop: pop,
    A.Replace: replace,
    A.Home: home,
    A.Toast: toast,
    A.After: after,
    A.Emit: emit,
    A.Undo: undo,
    A.Redo: redo,
    A.Roll: roll,
    A.NewGame: new_game,
    A.PlayAgain: play_again,
    A.ResumeGame: resume_game,
    A.LeaveGame: leave_game,
    A.WebSwitch: web_switch,
    A.ForgetPhones: forget_phones,
    A.Beep: beep,
    A.PauseClock: pause_clock,
    A.QuitApp: quit_app,
    power.PowerOff: power_off,
}
