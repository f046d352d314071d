"""The web bridge: a paired phone's requests (companion/web posts them as `WebRequest`s) done
on the app thread and answered, the snapshots the web is handed after each change, and what
says how far behind a phone's snapshot is (its `seq`).

The web's threads only post; every function below runs on the app thread, on the App it is
given (the one thread that changes its state).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Callable

from companion import games
from companion.errors import IllegalEvent, JournalError
from companion.inputs import Button, ButtonInput, Gesture, Notice, PhonePaired, Tick, WebRequest
from companion.session.store import CannotResume
from companion.ui import actions as A
from companion.ui.start import StartScreen

if TYPE_CHECKING:
    from companion.app.core import App

log = logging.getLogger(__name__)

SEEN = 256  # published snapshots remembered to say what changed since (moved_on)

# What a press from a phone may not do on a stale snapshot (gate, App.perform): each commits to
# the journal, changes the game shown, or starts a roll that will.
# The device menu's switches (forget phones, web on/off, quit) count too: a page
# that is behind may not be pressing what its user thinks.
COMMITS = (A.Emit, A.Undo, A.Redo, A.NewGame, A.PlayAgain, A.ResumeGame, A.LeaveGame, A.Roll,
           A.ForgetPhones, A.WebSwitch, A.QuitApp)


NO_GAME = "no game is open on the box: start one first"

# A double tap: the same control tapped twice from one phone within this many seconds counts
# once (docs/web.md, "One tap is one action"). Measured on the web's clock (injectable).
TAP_WINDOW = 0.7
# Presses that repeat by nature (scrolling a list, counting points up and down): never a
# double tap.
REPEATS = ("UP", "DOWN")


class StaleChange(Exception):
    """A phone's press would commit something on a snapshot that is no longer the game's."""


def on_web(app: App, req: WebRequest) -> None:
    """Do what a paired browser asked (companion/web/api.py checked its shape) and answer."""
    if req.reply is not None and not req.reply.set_running_or_notify_cancel():
        return  # the browser was told "nothing changed" (Web.ask gave up waiting)
    app.answering = True
    app.save_failed = ""
    try:
        result = web_request(app, req.kind, req.payload)
    except IllegalEvent as e:
        result = {"ok": False, "error": str(e), "status": 422}
    except JournalError as e:
        app.not_saved(e)
        result = refused(503, not_saved_words(app))
    except Exception as e:  # the last resort: see App.strict
        log.exception("error handling %r", req)
        result = {"ok": False, "error": f"internal error ({type(e).__name__}); the game "
                  "is saved", "status": 500}
        if app.strict:
            reply(req, result)
            raise
    finally:
        app.answering = False
    flush_snapshot(app)  # the reply's seq is the snapshot with this change
    if result.get("ok"):
        result["seq"] = app.web_seq
    reply(req, result)
    if app.web_off_due:  # "Web off" chosen from a phone: it has its answer, now stop
        app.web_off_due = False
        assert app.web is not None
        app.web.stop("web-off")


def reply(req: WebRequest, result: dict) -> None:
    if req.reply is not None:
        try:
            req.reply.set_result(result)
        except Exception:  # cancelled: the browser gave up waiting
            pass


def web_request(app: App, kind: str, p: dict) -> dict:
    """Do a paired browser's request. A change carries `seq`, the snapshot the phone
    acted on (None: a script that skips the check). On a stale one it is refused (409,
    what changed, in plain words) and nothing changes, except a press that commits
    nothing (UP/DOWN in a menu, BACK out of a screen): that is never stale (`gate`). Each
    change (CHANGES) is done by the actions the panel's own buttons perform. Before all
    that, a page's tap done less than TAP_WINDOW ago from the same phone is a double tap
    (409, nothing changes): the seq rule alone lets a page that has already rendered the
    first tap's snapshot send the second."""
    if kind == "roster":
        return ok(app, names=app.ctx().names)
    tap = tap_key(kind, p)
    if tap is not None:
        first = app.taps.get(tap)
        if first is not None and tap_clock(app) - first[0] < TAP_WINDOW:
            return refused(409, "double tap: ignored" + (f"; the first tap: {first[1]}"
                                                          if first[1] else ""))
    current = p.get("seq") == current_seq(app)  # the page showed the game as it was
    result = checked_request(app, kind, p)
    if tap is not None and result.get("ok"):
        # What this tap did, in words: a move. A tap that moved none (a Pause, which only
        # publishes the clock) did nothing to describe, not "the page is behind the box".
        did = moved_on(app, p["seq"], behind="") if current else ""
        if did:
            result["did"] = did
        remember_tap(app, tap, did)
    return result


def checked_request(app: App, kind: str, p: dict) -> dict:
    """web_request past the double-tap check: the seq check, then the change."""
    # A pause asks for a state, not a toggle: never stale (two phones that both tap Pause
    # leave the clock paused, the second one told so, not "the game moved on").
    stale = "" if kind == "pause" else moved_on(app, p.get("seq"))
    if kind == "press":
        return gate(app, p, stale)
    if stale:
        return refused(409, "the game moved on: " + stale)
    change = CHANGES.get(kind)
    if change is None:
        return refused(400, f"unknown request {kind!r}")
    return change(app, p)


def tap_key(kind: str, p: dict) -> tuple[str, str] | None:
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


def tap_clock(app: App) -> float:
    """The double-tap rule's clock: the web's (a test's fake one), else the app's."""
    return app.web.clock() if app.web is not None else app.clock()


def remember_tap(app: App, tap: tuple[str, str], did: str) -> None:
    """A page's tap was done: the same one again within TAP_WINDOW is a double tap."""
    now = tap_clock(app)
    for old in [k for k, (t, _) in app.taps.items() if now - t >= TAP_WINDOW]:
        del app.taps[old]
    app.taps[tap] = (now, did)


def ok(app: App, **more) -> dict:
    return {"ok": True, "seq": app.web_seq, **more}


def refused(status: int, error: str) -> dict:
    return {"ok": False, "error": error, "status": status}


def not_saved_words(app: App) -> str:
    """Why a change was not saved, in the words of the panel's toast ("Not saved: disk
    full", App.not_saved): a phone says the same as the box."""
    return app.save_failed or "Not saved"


# --- a phone's changes: the panel's own actions, after the checks only a phone needs ----------

def set_roster(app: App, p: dict) -> dict:
    from companion.session import roster
    roster.save(app.store, p["names"])
    app.roster = tuple(p["names"])
    return ok(app, names=list(app.roster))


def new_game(app: App, p: dict) -> dict:
    from companion.rules.game import Header
    from companion.session.journal import game_for
    header = Header(p["game"], tuple(p["players"]), p["first"],
                    {**app.config.house_rules(p["game"]), **p["rules"]})
    game_for(header).check_header(header)  # IllegalEvent (422) before anything changes
    refusal = refuse_unless_replaced(app, p)
    if refusal is not None:
        return refusal
    if not app.perform(A.NewGame(header)):
        return refused(422, "the game could not be started")
    app.perform(A.Home())  # the phone chose the first player: straight to the game
    return ok(app)


def resume(app: App, p: dict) -> dict:
    refusal = refuse_unless_replaced(app, p, resuming=p["game"])
    if refusal is not None:
        return refusal
    try:
        app.perform(A.ResumeGame(p["game"], from_phone=True))
    except CannotResume as e:
        return refused(e.status, str(e))
    return ok(app)


def refuse_unless_replaced(app: App, p: dict, *, resuming: int | None = None) -> dict | None:
    """A new game, or resuming another, sets aside the unfinished game in progress (or the
    one left for the start menu, still unfinished): refused (409) unless the phone said so,
    with "replaces": its id. None when nothing is in the way."""
    j = app.journal if app.journal is not None else app.left
    if j is None or j.state.over or (resuming is not None and app.store.game_id(j) == resuming):
        return None
    gid = app.store.game_id(j)
    if p.get("replaces") == gid:
        return None
    return refused(409, f"{j.game.title} #{gid} is not finished: send \"replaces\": {gid} to "
                   "set it aside (it can be resumed later)")


def play_again(app: App, p: dict) -> dict:
    """POST /api/play-again: the game-over view's one tap. Only a finished game is played
    again (an unfinished one is not replaced by it); `seq` is the snapshot it was
    pressed on."""
    j = app.journal
    if j is None:
        return {"ok": False, "status": 409, "error": "no game to play again: start one"}
    if not j.state.over:
        return {"ok": False, "status": 409, "error": "the game is not over: finish it, "
                "or start a new game"}
    if not app.perform(A.PlayAgain()):  # (a failed save raises: on_web answers it)
        return refused(503, "the new game was not started: "
                       + (app.toast[0] if app.toast else "error"))
    app.perform(A.Home())  # one tap: straight to the game, past "who goes first"
    assert app.journal is not None
    return {"ok": True, "seq": app.web_seq, "game_id": getattr(app.journal.sink,
                                                                "game_id", None)}


def game_action(app: App, p: dict) -> dict:
    """POST /api/action: one of the game's events, from the phone's form."""
    j = app.journal
    if j is None:
        return refused(409, NO_GAME)
    event = p["event"]
    from companion.web.snapshot import refusal
    why = refusal(j, event)  # a player's input left empty, who goes first too late
    if why:
        return refused(422, why)
    try:
        j.check(event)  # an illegal move changes nothing
    except IllegalEvent as e:  # 422 in a form's words; the engine's beside them
        from companion.web.words import plain
        kind = games.get(j.header.game)  # its own words first
        return {**refused(422, plain(str(e), event, j.header.players, kind)), "engine": str(e)}
    if not app.perform(A.Emit(event)):
        return refused(503, not_saved_words(app))
    app.perform(A.Home())  # back to the game's home (or end) screen
    if not j.state.over:  # and what the panel asks next (Chaos: the next dealer)
        app.perform(app.mode.after_web_action(event, app.ctx()))
    return ok(app)


def pause(app: App, p: dict) -> dict:
    """Stop (`"paused": true`) or start the turn clock: a state, not a toggle, so two phones
    that both tap Pause leave it paused."""
    j = app.journal
    if j is None:
        return refused(409, NO_GAME)
    if j.state.over:
        return refused(409, "the game is over: its clock has stopped")
    if not app.perform(A.PauseClock(bool(p["paused"]))):
        return refused(503, not_saved_words(app) or "the pause was not saved")
    return ok(app, paused=app.turn_clock.paused)


def undo(app: App, p: dict) -> dict:
    j = app.journal
    if j is None:
        return refused(409, NO_GAME)
    if not j.can_undo:
        return refused(409, "nothing to undo")
    if not app.perform(A.Undo()):
        return refused(503, "undo was not saved")
    return ok(app)


def redo(app: App, p: dict) -> dict:
    j = app.journal
    if j is None:
        return refused(409, NO_GAME)
    if not j.can_redo:
        return refused(409, "nothing to redo")
    if not app.perform(A.Redo()):
        return refused(503, "redo was not saved")
    return ok(app)


# The changes a paired phone may ask for (companion/web/api.py: POST /api/<kind>, and
# /api/roster for "roster-set"); "roster" (reading the names) and "press" (a button) are
# web_request's own.
CHANGES: dict[str, Callable[[App, dict], dict]] = {
    "roster-set": set_roster,
    "new-game": new_game,
    "resume": resume,
    "play-again": play_again,
    "action": game_action,
    "undo": undo,
    "redo": redo,
    "pause": pause,
}


# --- a phone's press --------------------------------------------------------------------------

def gate(app: App, p: dict, stale: str) -> dict:
    """A phone's press, exactly a button on the box, unless the phone's snapshot is stale
    (`stale` says what changed) and the press would commit something (COMMITS): then it
    is refused and the screens are put back as they were. `changed` says whether the
    press did anything: the game, the screens, or the frame."""
    gesture = Gesture.HOLD if p.get("hold") else Gesture.PRESS
    before = look(app)
    stack, toast = list(app.stack), app.toast
    app.stale_press = stale
    try:
        app.on_button(ButtonInput(Button(p["button"]), gesture))
    except StaleChange:
        app.stack[:], app.toast = stack, toast
        return {"ok": False, "error": "the game moved on: " + stale, "status": 409}
    finally:
        app.stale_press = ""
    if app.save_failed:  # the press met a full disk (the panel's toast says so): not "nothing"
        return refused(503, not_saved_words(app))
    return {"ok": True, "seq": app.web_seq, "changed": look(app) != before}


def look(app: App) -> tuple:
    """What a press may change: the game (the next snapshot), the screens, a roll, the
    frame the panel would show."""
    try:
        frame = app.frame().tobytes()
    except Exception:  # a screen that fails to draw: render() shows the error frame
        frame = b""
    return (current_seq(app), [id(s) for s in app.stack], app.roll_seq, frame)


# --- snapshots, and how far behind a phone's is -----------------------------------------------

def flush_snapshot(app: App) -> None:
    """Publish the snapshot a change made due. Called after the frame is drawn, so the
    web's work (building, encoding, sending) never delays the panel."""
    if app.snapshot_due:
        app.snapshot_due = False
        publish_snapshot(app)


def publish_snapshot(app: App) -> None:
    """Hand the web a snapshot of the game (after a commit, a new game, leave, resume)."""
    if app.publish is None:
        return
    from companion.web.snapshot import build
    app.web_seq += 1
    # On the start menu: the games its Resume offers (as the panel lists them).
    unfinished = [{"game_id": u.game_id, "title": u.title, "players": list(u.players),
                   "when": u.when} for u in app.unfinished] if app.journal is None else []
    j = app.journal
    app.seen[app.web_seq] = (None, "", 0, app.commits) if j is None else (
        app.store.game_id(j), j.game.title, len(j.events), app.commits)
    app.seen.pop(app.web_seq - SEEN, None)
    left = None
    if j is None and app.left is not None and not app.left.state.over:
        left = {"game_id": app.store.game_id(app.left), "title": app.left.game.title}
    from companion.app.clock import snapshot as clock_snapshot
    clock = clock_snapshot(app.turn_clock.reading(), app.turn_clock.limits,
                           at=app.turn_clock.now())
    from companion.app.calls import speech
    app.publish(build(app.journal, seq=app.web_seq, unfinished=unfinished, left=left,
                      clock=clock, calls=app.caller.snapshot(),
                      speech=speech(app.config, app.caller.run), ring=app.lights.snapshot()))


def current_seq(app: App) -> int:
    """The `seq` of the snapshot of the game as it is now: a change not yet published
    (the burst of inputs is still being handled) already counts."""
    return app.web_seq + (1 if app.snapshot_due and app.publish is not None else 0)


def moved_on(app: App, seq: int | None, *, behind: str = "the page is behind the box") -> str:
    """"" when a phone that acted on snapshot `seq` saw the game as it is (or sent
    `"seq": null`); else what changed since, in plain words: `behind` when no move did
    (a pause, a change of the box's screen; "": nothing to say then)."""
    if seq is None or seq == current_seq(app):
        return ""
    then = app.seen.get(seq)
    if then is None:
        # Older than the snapshots kept, or from another run (a restart): either way the
        # page is not showing the game as it is now.
        return (f"this page shows an old state of the game (snapshot {seq} is not one of "
                f"the box's latest; it is at {current_seq(app)}, perhaps after a "
                "restart); look again")
    gid0, title0, n0, commits0 = then
    j = app.journal
    if j is None:
        return f"{title0} #{gid0} was left for the start menu" if gid0 is not None else \
            "the start menu changed; look again"
    gid = app.store.game_id(j)
    if gid != gid0:
        return f"{j.game.title} #{gid} is the game now" + \
            (f", not {title0} #{gid0}" if gid0 is not None else "")
    n = len(j.events)
    if n > n0:
        words = j.describe(n0) + (f" and {n - n0 - 1} more" if n - n0 > 1 else "")
    elif n < n0:
        words = f"{n0 - n} move{'s' * (n0 - n != 1)} undone"
    elif app.commits != commits0:
        words = "moves were undone and made again"
    elif not behind:
        return ""
    else:
        words = behind
    if j.state.over:
        return words + "; the game is over"
    return words + f"; it is {j.name(j.state.table.current)}'s turn"


# --- pairing, and the web itself --------------------------------------------------------------

def on_phone_paired(app: App, item: PhonePaired) -> None:
    """Keep a paired phone's session in the journal database (the web asked; this thread
    is the one writer)."""
    from companion.session import phones
    from companion.web import pairing
    if app.web is not None and not app.web.pairing.knows(item.digest):
        kept = False  # forgotten (Forget all phones) before this got here: not kept
    else:
        try:
            phones.add(app.store, item.digest, item.created,
                       now=app.web.pairing.wall() if app.web is not None else item.created,
                       ttl=pairing.SESSION_TTL, keep=pairing.MAX_SESSIONS)
            kept = True
        except JournalError as e:
            log.warning("the paired phone is not kept across a restart: %s", e)
            kept = False
    if item.reply is not None:
        try:
            item.reply.set_result(kept)
        except Exception:  # the web gave up waiting
            pass


def attach_web(app: App, web) -> None:
    """Give the app its table web (companion.web.server.Web, started or not): snapshots
    and changed frames go to it from now on, the phones kept in the journal are paired
    again, and the menus offer "Table web"."""
    from companion.session import phones
    app.web, app.publish = web, web.publish
    app.on_frame = web.frame_changed
    if app.last_frame is not None:  # drawn before the web came: its number, for new streams
        web.frame_changed(app.last_frame[0])
    web.pairing.load(phones.load(app.store))
    # A code used or voided by wrong tries: redraw the pairing screen (and say so).
    web.pairing.on_change = lambda note: app.post(Notice(note) if note else Tick("web"))
    if app.journal is None and isinstance(app.stack[0], StartScreen):
        app.stack[0] = StartScreen(app.ctx())
    publish_snapshot(app)


def web_switch(app: App, on: bool) -> None:
    """The device menu's "Web on" / "Web off"."""
    if app.web is None:
        return
    if not on:
        if app.answering:  # stopping now would wait on the very request being answered
            app.web_off_due = True
        else:
            app.web.stop("web-off")  # the open pages are told why
        app.show_toast("Web off")
        return
    problem = app.web.start()
    if problem:
        log.warning("%s", problem)
        app.show_toast(problem.removeprefix("web: ").split(";")[0], 4.0)
    else:
        publish_snapshot(app)
        app.show_toast("Web on: " + app.web.url.removeprefix("http://").rstrip("/"), 3.0)
