"""What the web shows: a snapshot of the game, built on the app thread after each change.

`build()` runs on the app thread (the only reader of the journal while it may change) and
returns a plain JSON-ready dict that nobody changes afterwards; the game's view and the phone's
forms in it are the kind's own declarations (companion/web/kinds.py), worked out for the game
as it is. `Hub` lives on the web loop: it keeps the newest snapshot (encoded once) and a
one-slot mailbox per SSE client, so a slow phone skips to the newest snapshot instead of
queueing old ones.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

from companion import games
from companion.web import kinds
from companion.web.kinds import Seen, render

if TYPE_CHECKING:  # asyncio is the web loop's: imported when the web starts, not before
    import asyncio

HISTORY = 30  # events listed in `history`


def build(journal, *, seq: int, unfinished: list[dict[str, Any]] | None = None,
          left: dict[str, Any] | None = None,
          clock: dict[str, Any] | None = None, calls: list[dict[str, Any]] | None = None,
          speech: dict[str, Any] | None = None,
          ring: dict[str, Any] | None = None,
          favourite: dict[str, Any] | None = None) -> dict[str, Any]:
    """The snapshot for `journal` (None: the start menu). `seq` increases on every change.
    On the start menu, `unfinished`: the games its Resume offers, newest move first
    ({"game_id", "title", "players", "when"}); `left`: the unfinished game left for it
    ({"game_id", "title"}), which a new game would set aside. `clock`: the turn clock
    (companion/app/clock.py `snapshot`; None without a game). `calls`: the last few spoken
    calls ({"kind", "text", "n"}, oldest first) and `speech` how the pages say them
    (companion/app/calls.py; docs/speech.md). `ring`: the seat lights at rest
    (companion/app/lights.py `Lights.snapshot`; None: the box has no ring). `favourite`:
    each seat's chance to win and, at game over, how it went (companion/app/favourite.py;
    None: not shown)."""
    snap: dict[str, Any] = {
        "seq": seq, "game": None, "game_id": None, "title": "", "players": [], "rules": {},
        "first": 0, "state": None, "events": 0, "history": [], "roll": None,
        "can_undo": False, "can_redo": False, "unfinished": list(unfinished or []),
        "ask": None,
        "view": None, "actions": [], "turns": [], "left": left,
        "frame": f"/api/frame.png?seq={seq}", "clock": None, "ring": ring,
        "calls": list(calls or []), "speech": speech, "next": None, "dice": None,
        "favourite": None, "picks_first": False,
    }
    if journal is None:
        return snap
    h = journal.header
    n = len(journal.events)
    seen = seen_in(journal)
    view, actions = render(games.find(h.game), seen)
    snap.update({
        "game": h.game, "game_id": getattr(journal.sink, "game_id", None),
        "title": journal.game.title, "players": list(h.players),
        "rules": seen.rules, "first": h.first, "state": seen.state,
        "events": n,
        "history": [{"n": i + 1, "text": journal.describe(i)} for i in range(max(0, n - HISTORY), n)],
        "roll": last_roll(journal), "can_undo": journal.can_undo, "can_redo": journal.can_redo,
        "ask": seen.ask, "view": view, "actions": actions, "turns": turns(h.game),
        "clock": clock, "next": next_needs(journal), "dice": dice_now(journal),
        "favourite": favourite,
        "picks_first": journal.game.picks_first,  # Play again asks who goes first
    })
    return snap


def next_needs(journal) -> dict[str, Any] | None:
    """What the phone's NEXT does now (Game.next_needs; docs/web.md): None, it ends the
    turn; else {"moves": the event types that answer it, "words": why a bare NEXT waits},
    and the phone's NEXT takes the player to those controls instead of sending `next`."""
    needs = None if journal.state.over else journal.game.next_needs(journal.state)
    return None if needs is None else {"moves": list(needs.moves), "words": needs.words}


def dice_now(journal) -> list[str] | None:
    """The dice the phone offers for ROLL and "Record a roll" now (Game.dice_now): a list, or
    None where the kind does not say (every die); [] for a game with none."""
    dice = journal.game.dice_now(journal.state)
    return None if dice is None else list(dice)


def with_now(text: str, now: float) -> str:
    """A snapshot's JSON text as sent: with `"now"`, the box's wall time as it goes out.
    The hub encodes each snapshot once and sends it to every page; one that opens later gets
    the same text, made maybe minutes ago, and its turn clock (`clock.at`) is that old: a page
    counts on from `now - clock.at` (docs/web.md). Spliced in, not encoded again."""
    return text[:-1] + ',"now":' + json.dumps(round(now, 3)) + "}"


def seen_in(journal) -> Seen:
    """The game as a kind's web part reads it (its forms and view are worked out on it)."""
    h = journal.header
    return Seen(_plain(journal.summary()), tuple(h.players), _plain(dict(h.rules)), ask(journal))


def refusal(journal, event: dict[str, Any]) -> str | None:
    """Why the box refuses a phone's `event` before its rules engine sees it (a player's
    input left empty, who goes first after the first turn): kinds.refusal on the game now;
    first, a bare NEXT where the kind's rules need a choice (Game.next_refusal, which the
    panel's NEXT meets too: "Pass or claim first")."""
    return journal.game.next_refusal(journal.state, event) \
        or kinds.refusal(games.find(journal.header.game), seen_in(journal), event)


def turns(kind: str) -> list[str]:
    """The turn moves the kind's panel menu offers (its Mode.turn_actions: skip, reverse,
    skip_to...), for the phone's Turn buttons: a phone offers what the panel offers, no more
    (a kind whose menu has no Reverse has none on the phone either). Empty when its screens
    do not load."""
    try:
        return list(games.mode_for(kind).turn_actions)
    except Exception:  # a house game's broken panel: the game is not on the box either
        return []


def ask(journal) -> dict[str, Any] | None:
    """The question the game's flow asks now (Game.question), for the phone to ask too, until
    the next event: after a Chaos round is scored, who deals the next round; the panel asks
    it at the same time. {"kind": "dealer", "suggested": seat} or None."""
    return journal.game.question(journal.state, journal.events[-1] if journal.events else None)


def last_roll(journal) -> dict[str, Any] | None:
    """The newest event that recorded dice: its faces, whose roll it was and its number."""
    if not journal.state.last_roll:
        return None
    for i in range(len(journal.events) - 1, -1, -1):
        e = journal.events[i]
        if journal.game.records_roll(e):
            before = journal.state_at(i)
            player = e.get("player") if isinstance(e.get("player"), int) \
                else before.table.current
            return {"dice": _plain(dict(journal.state.last_roll)), "player": player, "n": i + 1}
    return {"dice": _plain(dict(journal.state.last_roll)), "player": None, "n": None}


def _plain(v: Any) -> Any:
    """Tuples and mappings as JSON lists and objects (summaries hold frozen types)."""
    if isinstance(v, dict) or hasattr(v, "items"):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_plain(x) for x in v]
    return v


FRAME_EVERY = 0.1  # seconds: at most 10 frame pushes a second (the newest wins)


class Frame(int):
    """A slot's item for "the panel's frame changed": its frame number."""


# What an open page is told before the box ends its event stream (an SSE `bye` event; the
# pages say `text`): why -> text.
BYES = {
    "web-off": "The web was switched off on the box",
    "forgotten": "This phone was forgotten on the box: pair again",
}


class Bye(dict):
    """A slot's last item: {"why", "text"}, sent as the `bye` event before the stream ends."""


class Slot:
    """One SSE client's mailbox: holds only the newest snapshot not yet sent, and the newest
    frame number not yet sent (a slow phone skips to the newest of each)."""

    def __init__(self, token: str | None = None) -> None:
        self.item: tuple[int, str] | None = None
        self.frame: int | None = None
        self.closed = False
        self.bye: Bye | None = None
        self.token = token  # the session it was opened with (paired), else None
        import asyncio
        self.ready = asyncio.Event()

    def put(self, item: tuple[int, str] | None) -> None:
        if item is None:
            self.closed = True
        else:
            self.item = item
        self.ready.set()

    def put_bye(self, why: str) -> None:
        """Tell the page why its stream ends (BYES), then end it."""
        self.bye = Bye(why=why, text=BYES[why])
        self.closed = True
        self.ready.set()

    def put_frame(self, n: int) -> None:
        self.frame = n
        self.ready.set()

    async def get(self) -> tuple[int, str] | Frame | Bye | None:
        """The newest snapshot, else the newest frame number (a `Frame`); once the hub
        closed, its `Bye` if it said why, then None."""
        while True:
            if self.bye is not None:
                bye, self.bye = self.bye, None
                return bye
            if self.closed:
                return None
            if self.item is not None:
                item, self.item = self.item, None
                return item
            if self.frame is not None:
                n, self.frame = self.frame, None
                return Frame(n)
            self.ready.clear()
            await self.ready.wait()


class Hub:
    """Web-loop side of publishing. `set`, `frame` and `close` run on the web loop only."""

    def __init__(self, *, frame_every: float = FRAME_EVERY) -> None:
        self.latest: tuple[int, str] | None = None  # (seq, JSON text)
        self.slots: set[Slot] = set()
        self.closed = False
        self.why = ""  # why it closed (BYES), for a stream that opens while it closes
        self.frame_n = 0  # the newest frame number (0: none drawn yet)
        self.frame_every = frame_every
        self._frame_due: asyncio.TimerHandle | None = None
        self._frame_sent = float("-inf")  # loop time of the last push

    def set(self, snapshot: dict[str, Any]) -> None:
        if self.latest is not None and snapshot["seq"] <= self.latest[0]:
            return  # an older snapshot arriving late
        self.latest = (snapshot["seq"], json.dumps(snapshot, separators=(",", ":")))
        for slot in self.slots:
            slot.put(self.latest)

    def frame(self, n: int) -> None:
        """The panel's frame changed: push its number now, or when 1/10 s has passed since
        the last push (changes meanwhile are folded into that one: the newest wins)."""
        if n <= self.frame_n:
            return
        self.frame_n = n
        if self._frame_due is not None or self.closed:
            return
        import asyncio
        loop = asyncio.get_running_loop()
        wait = self._frame_sent + self.frame_every - loop.time()
        if wait <= 0:
            self._push_frame()
        else:
            self._frame_due = loop.call_later(wait, self._push_frame)

    def _push_frame(self) -> None:
        import asyncio
        self._frame_due = None
        self._frame_sent = asyncio.get_running_loop().time()
        for slot in self.slots:
            slot.put_frame(self.frame_n)

    def subscribe(self, token: str | None = None) -> Slot:
        """A new stream's mailbox; `token`: the session of a paired phone's stream."""
        slot = Slot(token)
        if self.closed:  # stopping: the stream ends at once
            if self.why:
                slot.put_bye(self.why)
            slot.put(None)
            return slot
        self.slots.add(slot)
        if self.latest is not None:
            slot.put(self.latest)
        if self.frame_n:
            slot.put_frame(self.frame_n)
        return slot

    def unsubscribe(self, slot: Slot) -> None:
        self.slots.discard(slot)

    def close(self, why: str = "") -> None:
        """End every stream; `why` (BYES: "web-off") is told to each page first."""
        self.closed = True
        self.why = why
        if self._frame_due is not None:
            self._frame_due.cancel()
            self._frame_due = None
        for slot in self.slots:
            if why:
                slot.put_bye(why)
            slot.put(None)

    def forget(self, valid: Callable[[str | None], bool]) -> None:
        """The phones were forgotten (Forget all phones): each stream a phone opened with a
        session that is no longer `valid` is told so, and ends (the page opens a new one,
        as the guest it now is)."""
        for slot in list(self.slots):
            if slot.token is not None and not valid(slot.token):
                slot.put_bye("forgotten")
                self.slots.discard(slot)
