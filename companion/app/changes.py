"""A paired phone's changes (companion/web/api.py: POST /api/<kind>): the panel's own actions,
after the checks only a phone needs.

`PhoneChanges` owns nothing but the list of changes (CHANGES). It is given the table it acts
on (the App, through the narrow `Table` below: its journal, store and screens' `perform`) and
`seq`, the snapshot a change's answer names. It may call `Table.perform` and what the journal
and store answer; the web bridge (bridge.py) calls it, on the app thread, once a request has
passed the double-tap and seq checks. The "Design a game" page's designs are kept here too
(`design-save`, `design-delete`, over companion/session/designs.py), and its two reads (the
designs kept, one design's file) answered, as the roster is, on the app thread.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion import games
from companion.errors import IllegalEvent
from companion.session.store import CannotResume
from companion.ui import actions as A

if TYPE_CHECKING:
    from companion.config import Config
    from companion.session.designs import SavedDesign
    from companion.session.journal import Journal
    from companion.session.store import Store
    from companion.ui.modes import Mode
    from companion.ui.screen import Context

log = logging.getLogger(__name__)

NO_GAME = "no game is open on the box: start one first"


class TurnClock(Protocol):
    @property
    def paused(self) -> bool: ...


class Table(Protocol):
    """What a phone's changes use of the App."""

    roster: tuple[str, ...] | None  # the names a phone keeps for new games (set_roster)
    toast: tuple[str, float] | None  # (text, until) on the panel
    save_failed: str  # what the last failed save said (App.not_saved)

    @property
    def config(self) -> Config: ...

    @property
    def store(self) -> Store: ...

    @property
    def journal(self) -> Journal | None: ...

    @property
    def left(self) -> Journal | None: ...

    @property
    def mode(self) -> Mode: ...

    @property
    def turn_clock(self) -> TurnClock: ...

    def ctx(self) -> Context: ...

    def perform(self, action: Any) -> bool: ...


def refused(status: int, error: str) -> dict:
    return {"ok": False, "error": error, "status": status}


def not_saved_words(table: Table) -> str:
    """Why a change was not saved, in the words of the panel's toast ("Not saved: disk
    full", App.not_saved): a phone says the same as the box."""
    return table.save_failed or "Not saved"


class PhoneChanges:
    """The changes a paired phone may ask for, each done by the actions the panel's own
    buttons perform."""

    def __init__(self, table: Table, seq: Callable[[], int]) -> None:
        self.table = table
        self.seq = seq  # the last snapshot published (Snapshots.seq)

    def do(self, kind: str, p: dict) -> dict:
        """The change `kind` (CHANGES) with its payload `p`; 400 for an unknown one."""
        change = CHANGES.get(kind)
        if change is None:
            return refused(400, f"unknown request {kind!r}")
        return change(self, p)

    def ok(self, **more: Any) -> dict:
        return {"ok": True, "seq": self.seq(), **more}

    def set_roster(self, p: dict) -> dict:
        from companion.session import roster
        t = self.table
        roster.save(t.store, p["names"])
        t.roster = tuple(p["names"])
        return self.ok(names=list(t.roster))

    def new_game(self, p: dict) -> dict:
        from companion.rules.game import Header
        from companion.session.journal import game_for
        t = self.table
        header = Header(p["game"], tuple(p["players"]), p["first"],
                        {**t.config.house_rules(p["game"]), **p["rules"]})
        game_for(header).check_header(header)  # IllegalEvent (422) before anything changes
        refusal = self.refuse_unless_replaced(p)
        if refusal is not None:
            return refusal
        if not t.perform(A.NewGame(header)):
            return refused(422, "the game could not be started")
        t.perform(A.Home())  # the phone chose the first player: straight to the game
        return self.ok()

    def resume(self, p: dict) -> dict:
        refusal = self.refuse_unless_replaced(p, resuming=p["game"])
        if refusal is not None:
            return refusal
        try:
            self.table.perform(A.ResumeGame(p["game"], from_phone=True))
        except CannotResume as e:
            return refused(e.status, str(e))
        return self.ok()

    def refuse_unless_replaced(self, p: dict, *, resuming: int | None = None) -> dict | None:
        """A new game, or resuming another, sets aside the unfinished game in progress (or
        the one left for the start menu, still unfinished): refused (409) unless the phone
        said so, with "replaces": its id. None when nothing is in the way."""
        t = self.table
        j = t.journal if t.journal is not None else t.left
        if j is None or j.state.over or (resuming is not None
                                         and t.store.game_id(j) == resuming):
            return None
        gid = t.store.game_id(j)
        if p.get("replaces") == gid:
            return None
        return refused(409, f"{j.game.title} #{gid} is not finished: send \"replaces\": {gid} "
                       "to set it aside (it can be resumed later)")

    def play_again(self, p: dict) -> dict:
        """POST /api/play-again: the game-over view's one tap. Only a finished game is played
        again (an unfinished one is not replaced by it); `seq` is the snapshot it was
        pressed on. Where the game says the group picks who goes first (`Game.picks_first`),
        the phone asks it first, as New game does, and sends `"first"`: the seat, recorded
        as the panel's "Who goes first?" records it; refused (422) without it."""
        t = self.table
        j = t.journal
        if j is None:
            return {"ok": False, "status": 409, "error": "no game to play again: start one"}
        if not j.state.over:
            return {"ok": False, "status": 409, "error": "the game is not over: finish it, "
                    "or start a new game"}
        first = p.get("first")
        players = j.header.players
        if first is None and j.game.picks_first:
            return refused(422, f"Who goes first? In {j.game.title} the group picks: "
                           "choose who, then Play again")
        if first is not None and not 0 <= first < len(players):
            return refused(422, f"Who goes first: choose one of the {len(players)} players")
        if not t.perform(A.PlayAgain()):  # (a failed save raises: the bridge answers it)
            return refused(503, "the new game was not started: "
                           + (t.toast[0] if t.toast else "error"))
        if first is not None:  # the group's pick, as the panel's "Who goes first?" records it
            if not t.perform(A.Emit({"type": "first", "player": first})):
                # The new game is on (as the panel's would be), its first player the rules':
                # said, not answered as if the pick were recorded.
                return refused(409, "The new game started, but who goes first was not "
                               "recorded: " + (t.toast[0] if t.toast else "the game refused it"))
        t.perform(A.Home())  # one tap: straight to the game, past "who goes first"
        assert t.journal is not None
        return {"ok": True, "seq": self.seq(), "game_id": getattr(t.journal.sink,
                                                                  "game_id", None)}

    def game_action(self, p: dict) -> dict:
        """POST /api/action: one of the game's events, from the phone's form."""
        t = self.table
        j = t.journal
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
            return {**refused(422, plain(str(e), event, j.header.players, kind)),
                    "engine": str(e)}
        if not t.perform(A.Emit(event)):
            return refused(503, not_saved_words(t))
        t.perform(A.Home())  # back to the game's home (or end) screen
        if not j.state.over:  # and what the panel asks next (Chaos: the next dealer)
            t.perform(t.mode.after_web_action(event, t.ctx()))
        return self.ok()

    def pause(self, p: dict) -> dict:
        """Stop (`"paused": true`) or start the turn clock: a state, not a toggle, so two
        phones that both tap Pause leave it paused."""
        t = self.table
        j = t.journal
        if j is None:
            return refused(409, NO_GAME)
        if j.state.over:
            return refused(409, "the game is over: its clock has stopped")
        if not t.perform(A.PauseClock(bool(p["paused"]))):
            return refused(503, not_saved_words(t) or "the pause was not saved")
        return self.ok(paused=t.turn_clock.paused)

    # --- the "Design a game" page (companion/web/api.py: /api/design/*, /api/designs) --------

    def design_save(self, p: dict) -> dict:
        """POST /api/design/save: keep a design (a new one, or a new version of the design
        "replaces"); session/designs.py registers its kind, so New game lists it at once.
        Refused (422) in the words naming the field when it is no design, or takes a
        built-in game's name."""
        from companion.errors import DesignError
        from companion.rules.design import load
        from companion.session import designs
        try:
            saved = designs.save(self.table.store, load(p["design"]), replaces=p.get("replaces"))
        except DesignError as e:
            return {**refused(422, e.words), "field": e.field}
        return self.ok(design=design_entry(saved), unchanged=saved.unchanged)

    def design_delete(self, p: dict) -> dict:
        """POST /api/design/delete: New game stops offering design "id"; every version is
        kept (hidden), so the games played with it replay as before."""
        from companion.session import designs
        saved = designs.get(self.table.store, p["id"])
        if saved is None or saved.hidden:
            return refused(404, f"there is no design {p['id']} to delete")
        designs.hide(self.table.store, p["id"])
        return self.ok(deleted=p["id"])

    def design_picture(self, p: dict) -> dict:
        """POST /api/design/picture (a paired phone's: the app thread alone draws): the
        panel's first screen of a new game of the design, for the sample players (named by
        "players", the page's), as a PNG (4x, base64), drawn here as the app draws every
        frame."""
        import base64
        import io

        from companion.errors import DesignError
        from companion.rules.design import load
        from companion.rules.game import Header
        from companion.session.journal import Journal
        from companion.ui.draw import scale
        from companion.ui.screen import Context
        from companion.web.designs import sample_players
        try:
            design = load(p["design"])
        except DesignError as e:
            return {**refused(422, e.words), "field": e.field}
        try:  # previewed, not registered: dropped once drawn (games.previewing)
            with games.previewing(design.to_json()) as kind:
                players = tuple(sample_players(design, p.get("players", ())))
                journal = Journal(Header(kind.kind, players, 0, {}))
                ctx = Context(config=self.table.config, journal=journal)
                img = kind.mode.home(ctx).render(ctx)
        except Exception:  # a picture only: the page shows the table without it
            log.exception("the panel could not draw design %s", design.title)
            return refused(500, "the box could not draw this design's screen")
        buf = io.BytesIO()
        scale(img, 4).save(buf, format="PNG")
        return self.ok(png=base64.b64encode(buf.getvalue()).decode("ascii"))

    def designs_listed(self, p: dict) -> dict:
        """GET /api/designs (read-only: a guest may ask): the designs New game offers."""
        from companion.session import designs
        return self.ok(designs=[design_entry(s) for s in designs.listed(self.table.store)])

    def design_file(self, p: dict) -> dict:
        """GET /api/designs/<id>.json (read-only): the newest version of a design not
        deleted, as its canonical JSON."""
        from companion.session import designs
        saved = designs.get(self.table.store, p["id"])
        if saved is None or saved.hidden:
            return refused(404, f"there is no design {p['id']}")
        return self.ok(title=saved.design.title, design=saved.design.to_json())

    def undo(self, p: dict) -> dict:
        """POST /api/undo; its answer's `words` say what was undone, as the panel's toast
        does: "Undone: Ann: Steal, takes 1 from Cy; it is Ann's turn"."""
        j = self.table.journal
        if j is None:
            return refused(409, NO_GAME)
        if not j.can_undo:
            return refused(409, "nothing to undo")
        before, event = j.previous_state, j.events[-1]
        if not self.table.perform(A.Undo()):
            return refused(503, "undo was not saved")
        return self.ok(words=taken("Undone", j, event, before, before))

    def redo(self, p: dict) -> dict:
        """POST /api/redo; its answer's `words`: "Redone: ..." (as `undo`)."""
        j = self.table.journal
        if j is None:
            return refused(409, NO_GAME)
        if not j.can_redo:
            return refused(409, "nothing to redo")
        before, event = j.state, j.redo_stack[-1]
        if not self.table.perform(A.Redo()):
            return refused(503, "redo was not saved")
        return self.ok(words=taken("Redone", j, event, before, j.game.apply(before, event)))


def taken(what: str, j: Journal, event: dict, before: Any, now: Any) -> str:
    """An undo's or a redo's words for the phone, as the panel's toast says them ("Redone: "
    and the move's history line, from `before`, the state before the move), then where the
    game is `now` (after the undo: `before`; after the redo: the move's state after)."""
    line = f"{what}: {j.game.describe(event, j.header, before)}"
    if now.over:
        return line + "; the game is over"
    return line + f"; it is {j.name(now.table.current)}'s turn"


def design_entry(saved: SavedDesign) -> dict:
    """A kept design as the page lists it."""
    d = saved.design
    return {"id": saved.id, "version": saved.version, "title": d.title, "color": d.color,
            "kind": saved.kind}


# The changes a paired phone may ask for (companion/web/api.py: POST /api/<kind>, and
# /api/roster for "roster-set"); "roster" (reading the names) and "press" (a button) are the
# bridge's own (bridge.py, WebBridge.web_request).
CHANGES: dict[str, Callable[[PhoneChanges, dict], dict]] = {
    "roster-set": PhoneChanges.set_roster,
    "new-game": PhoneChanges.new_game,
    "resume": PhoneChanges.resume,
    "play-again": PhoneChanges.play_again,
    "action": PhoneChanges.game_action,
    "undo": PhoneChanges.undo,
    "redo": PhoneChanges.redo,
    "pause": PhoneChanges.pause,
    "design-save": PhoneChanges.design_save,
    "design-delete": PhoneChanges.design_delete,
    "design-picture": PhoneChanges.design_picture,
    # Read-only, asked by any page (GET /api/designs, /api/designs/<id>.json): the app
    # thread reads the journal's designs, as it reads the roster.
    "designs": PhoneChanges.designs_listed,
    "design-file": PhoneChanges.design_file,
}
