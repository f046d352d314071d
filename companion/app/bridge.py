"""The web bridge: a paired phone's requests (companion/web posts them as `WebRequest`s) done
on the app thread and answered, and the table web itself (attached, switched on and off, its
phones kept).

`WebBridge` owns the web (None until `attach`), what it answers a request with, the double
taps (taps.py, `Taps`), the snapshots and their seqs (snapshots.py, `Snapshots`), a phone's
changes (changes.py, `PhoneChanges`), the frame the web may show (publicframe.py,
`PublicFrame`: never a secret screen), and the state of a request being answered
(`answering`, `stale_press`, `web_off_due`). It is given the App as a `Host` (declared below:
only what it uses) and `parts`, the snapshot's pieces other parts own. It may call the Host's
`on_button`, `perform` (through the changes), `ctx`, `frame`, `not_saved`, `show_toast` and
`post`, and the web's own methods; the App calls it for each web input, each frame drawn
(`drawn`) and each action performed (`check_stale`).

The web's threads only post; every method below runs on the app thread (the one thread that
changes the App's state).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.app.changes import PhoneChanges, Table as Changed, not_saved_words, refused
from companion.app.publicframe import PublicFrame
from companion.app.snapshots import Snapshots, Table as Described
from companion.app.taps import Taps, tap_key
from companion.errors import IllegalEvent, JournalError
from companion.inputs import Button, ButtonInput, Gesture, Notice, PhonePaired, Tick, WebRequest
from companion.ui import actions as A
from companion.ui.start import StartScreen

if TYPE_CHECKING:
    from companion.ui.screen import Screen
    from companion.web.server import Web

log = logging.getLogger(__name__)

# What a press from a phone may not do on a stale snapshot (gate, App.perform): each commits to
# the journal, changes the game shown, or starts a roll that will.
# The device menu's switches (forget phones, web on/off, quit) count too: a page
# that is behind may not be pressing what its user thinks.
COMMITS = (A.Emit, A.Undo, A.Redo, A.NewGame, A.PlayAgain, A.ResumeGame, A.LeaveGame, A.Roll,
           A.ForgetPhones, A.WebSwitch, A.QuitApp)


class StaleChange(Exception):
    """A phone's press would commit something on a snapshot that is no longer the game's."""


class Rolling(Protocol):
    """The rolls' count (Rolls.seq): a press that started a roll changed something."""

    @property
    def seq(self) -> int: ...


class Host(Changed, Described, Protocol):
    """What the bridge uses of the App, besides what a phone's changes (changes.Table) and
    the snapshots (snapshots.Table) do."""

    stack: list[Screen]  # the screens (a refused press puts them back)
    strict: bool  # a bug fails loudly (App.strict)

    @property
    def rolls(self) -> Rolling: ...  # a roll started (what a press may change)

    @property
    def clock(self) -> Callable[[], float]: ...

    def on_button(self, b: ButtonInput) -> Any: ...

    def frame(self) -> Any: ...  # the frame the panel would show now

    def not_saved(self, e: JournalError) -> None: ...

    def show_toast(self, text: str, seconds: float = ...) -> None: ...

    def post(self, item: object) -> None: ...


class WebBridge:
    """A paired phone's requests, and the table web, for the App it is given."""

    def __init__(self, app: Host, parts: Callable[[], dict[str, Any]]) -> None:
        self.app = app
        # The table web (companion/web): the Web object the device menu switches (attach).
        self.web: Web | None = None
        self.snapshots = Snapshots(app, parts)
        self.changes = PhoneChanges(app, lambda: self.snapshots.seq)
        # (phone, request) -> (when, what it did) of the pages' taps done within the last
        # taps.TAP_WINDOW: the same tap again from that phone is a double tap.
        self.taps = Taps(self.tap_clock)
        # While a phone's press on a stale snapshot is handled: what changed since (gate).
        self.stale_press = ""
        self.answering = False  # handling a WebRequest (on_web)
        self.web_off_due = False  # "Web off" from a phone: stop once it has its answer
        self.public = PublicFrame()  # the frame the web may show (drawn)
        self._secret_up = False  # a secret screen (Pair a phone) was on the stack last frame

    # --- a request, from its arrival to its answer --------------------------------------------

    def on_web(self, req: WebRequest) -> None:
        """Do what a paired browser asked (companion/web/api.py checked its shape) and
        answer."""
        app = self.app
        if req.reply is not None and not req.reply.set_running_or_notify_cancel():
            return  # the browser was told "nothing changed" (Web.ask gave up waiting)
        self.answering = True
        app.save_failed = ""
        try:
            result = self.web_request(req.kind, req.payload)
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
            self.answering = False
        self.snapshots.flush()  # the reply's seq is the snapshot with this change
        if result.get("ok"):
            result["seq"] = self.snapshots.seq
        reply(req, result)
        if self.web_off_due:  # "Web off" chosen from a phone: it has its answer, now stop
            self.web_off_due = False
            assert self.web is not None
            self.web.stop("web-off")

    def web_request(self, kind: str, p: dict) -> dict:
        """Do a paired browser's request. A change carries `seq`, the snapshot the phone
        acted on (None: a script that skips the check). On a stale one it is refused (409,
        what changed, in plain words) and nothing changes, except a press that commits
        nothing (UP/DOWN in a menu, BACK out of a screen): that is never stale (`gate`).
        Each change (changes.CHANGES) is done by the actions the panel's own buttons
        perform. Before all that, a page's tap done less than TAP_WINDOW ago from the same
        phone is a double tap (409, nothing changes): the seq rule alone lets a page that
        has already rendered the first tap's snapshot send the second."""
        if kind == "roster":
            return self.changes.ok(names=self.app.ctx().names)
        tap = tap_key(kind, p)
        if tap is not None:
            first = self.taps.repeated(tap)
            if first is not None:
                return refused(409, "double tap: ignored" + (f"; the first tap: {first}"
                                                              if first else ""))
        current = p.get("seq") == self.snapshots.current()  # the page showed the game as is
        result = self.checked_request(kind, p)
        if tap is not None and result.get("ok"):
            # What this tap did, in words: a move. A tap that moved none (a Pause, which only
            # publishes the clock) did nothing to describe, not "the page is behind the box".
            did = self.snapshots.moved_on(p["seq"], behind="") if current else ""
            if did:
                result["did"] = did
            self.taps.remember(tap, did)
        return result

    def checked_request(self, kind: str, p: dict) -> dict:
        """web_request past the double-tap check: the seq check, then the change."""
        # A pause asks for a state, not a toggle: never stale (two phones that both tap Pause
        # leave the clock paused, the second one told so, not "the game moved on").
        stale = "" if kind == "pause" else self.snapshots.moved_on(p.get("seq"))
        if kind == "press":
            return self.gate(p, stale)
        if stale:
            return refused(409, "the game moved on: " + stale)
        return self.changes.do(kind, p)

    def tap_clock(self) -> float:
        """The double-tap rule's clock: the web's (a test's fake one), else the app's."""
        return self.web.clock() if self.web is not None else self.app.clock()

    # --- a phone's press ----------------------------------------------------------------------

    def gate(self, p: dict, stale: str) -> dict:
        """A phone's press, exactly a button on the box, unless the phone's snapshot is stale
        (`stale` says what changed) and the press would commit something (COMMITS): then it
        is refused and the screens are put back as they were. `changed` says whether the
        press did anything: the game, the screens, or the frame."""
        app = self.app
        gesture = Gesture.HOLD if p.get("hold") else Gesture.PRESS
        before = self.look()
        stack, toast = list(app.stack), app.toast
        self.stale_press = stale
        try:
            app.on_button(ButtonInput(Button(p["button"]), gesture))
        except StaleChange:
            app.stack[:], app.toast = stack, toast
            return {"ok": False, "error": "the game moved on: " + stale, "status": 409}
        finally:
            self.stale_press = ""
        if app.save_failed:  # the press met a full disk (the panel's toast says so)
            return refused(503, not_saved_words(app))
        return {"ok": True, "seq": self.snapshots.seq, "changed": self.look() != before}

    def check_stale(self, action: Any) -> None:
        """Raise StaleChange when `action` commits something (COMMITS) while a phone's press
        on a stale snapshot is handled (App.perform asks before each action)."""
        if self.stale_press and isinstance(action, COMMITS):
            raise StaleChange(self.stale_press)

    def look(self) -> tuple:
        """What a press may change: the game (the next snapshot), the screens, a roll, the
        frame the panel would show."""
        app = self.app
        try:
            frame = app.frame().tobytes()
        except Exception:  # a screen that fails to draw: render() shows the error frame
            frame = b""
        return (self.snapshots.current(), [id(s) for s in app.stack], app.rolls.seq, frame)

    # --- the frame the web may show -----------------------------------------------------------

    def drawn(self, frame: Any, stack: list[Screen]) -> None:
        """The panel drew `frame` with `stack` up (App.render): the web's frame follows, never
        a secret screen's (the pairing code and its QR: a stand-in instead)."""
        # The pairing screen gone by any path (a phone's action, undo, a new game, the game's
        # end, not only its own OK/BACK): its code closes with it, as the screen's would.
        secret_up = any(getattr(s, "secret", False) for s in stack)
        if self._secret_up and not secret_up and self.web is not None:
            self.web.pairing.close()
        self._secret_up = secret_up
        public = frame
        if getattr(stack[-1], "secret", False):
            from companion.ui.device import standin_frame
            public = standin_frame()
        self.public.show(public)

    # --- pairing, and the web itself ----------------------------------------------------------

    def on_phone_paired(self, item: PhonePaired) -> None:
        """Keep a paired phone's session in the journal database (the web asked; this thread
        is the one writer)."""
        from companion.session import phones
        from companion.web import pairing
        web = self.web
        if web is not None and not web.pairing.knows(item.digest):
            kept = False  # forgotten (Forget all phones) before this got here: not kept
        else:
            try:
                phones.add(self.app.store, item.digest, item.created,
                           now=web.pairing.wall() if web is not None else item.created,
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

    def attach(self, web: Web) -> None:
        """Give the app its table web (companion.web.server.Web, started or not): snapshots
        and changed frames go to it from now on, the phones kept in the journal are paired
        again, and the menus offer "Table web"."""
        from companion.session import phones
        app = self.app
        self.web, self.snapshots.publish = web, web.publish
        self.public.on_frame = web.frame_changed
        if self.public.last is not None:  # drawn before the web came: its number, for streams
            web.frame_changed(self.public.last[0])
        web.pairing.load(phones.load(app.store))
        # A code used or voided by wrong tries: redraw the pairing screen (and say so).
        web.pairing.on_change = lambda note: app.post(Notice(note) if note else Tick("web"))
        if app.journal is None and isinstance(app.stack[0], StartScreen):
            app.stack[0] = StartScreen(app.ctx())
        self.snapshots.publish_now()

    def switch(self, on: bool) -> None:
        """The device menu's "Web on" / "Web off"."""
        app, web = self.app, self.web
        if web is None:
            return
        if not on:
            if self.answering:  # stopping now would wait on the very request being answered
                self.web_off_due = True
            else:
                web.stop("web-off")  # the open pages are told why
            app.show_toast("Web off")
            return
        problem = web.start()
        if problem:
            log.warning("%s", problem)
            app.show_toast(problem.removeprefix("web: ").split(";")[0], 4.0)
        else:
            self.snapshots.publish_now()
            app.show_toast("Web on: " + web.url.removeprefix("http://").rstrip("/"), 3.0)


    def forget_phones(self) -> bool:
        """The device menu's "Forget all phones": every paired phone forgotten, its open pages
        told (they stop showing controls), and the kept list cleared. False: not saved (the
        phones are forgotten now; the kept ones come back after a restart)."""
        app, web = self.app, self.web
        if web is None:
            return True
        from companion.session import phones
        n = web.pairing.forget_all()
        web.phones_forgotten()
        try:
            phones.clear(app.store)
        except JournalError as e:
            app.not_saved(e)
            return False
        app.show_toast(f"Forgot {n} phone{'s' * (n != 1)}")
        return True


def reply(req: WebRequest, result: dict) -> None:
    if req.reply is not None:
        try:
            req.reply.set_result(result)
        except Exception:  # cancelled: the browser gave up waiting
            pass
