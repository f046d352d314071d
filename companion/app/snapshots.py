"""The snapshots the table web is handed after each change, and what says how far behind a
phone's snapshot is (its `seq`).

`Snapshots` owns the seq of the last snapshot published, the snapshots remembered lately (to
say in plain words what changed since one of them), whether a change is not published yet
(`due`), and the web's `publish` callback (None: no web). It is given the table it describes
(the open game, the one left for the start menu, the unfinished games, the count of commits:
the App, read only) and `parts`, a callable for the snapshot's pieces other parts own (the
turn clock, the calls and their speech, the ring). It calls only those and `publish`; it runs
on the app thread.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from companion.session.journal import Journal
    from companion.session.store import Store
    from companion.ui.start import ResumeEntry

SEEN = 256  # published snapshots remembered to say what changed since (moved_on)


class Table(Protocol):
    """What a snapshot describes (the App is one)."""

    @property
    def journal(self) -> Journal | None: ...  # the open game (None: the start menu)

    @property
    def left(self) -> Journal | None: ...  # the game left for the start menu

    @property
    def unfinished(self) -> Sequence[ResumeEntry]: ...  # what the start menu's Resume offers

    @property
    def commits(self) -> int: ...  # appends, undos and redos so far

    @property
    def store(self) -> Store: ...  # a game's id (game_id)


class Snapshots:
    """The snapshots published, and how far behind a phone's is."""

    def __init__(self, table: Table, parts: Callable[[], dict[str, Any]], *,
                 seq: int | None = None) -> None:
        self.table = table
        self.parts = parts
        self.publish: Callable[[dict], None] | None = None  # the web's (attach)
        # Increases with every snapshot published. It starts at a random point of each run, so
        # a page still holding a seq from before a restart (a power cut) is told it is behind,
        # never taken for a snapshot this run happens to have reached too.
        self.seq = random.randrange(1, 2**40) * 1000 if seq is None else seq
        # seq -> (game id, title, events, commits) of recently published snapshots, to say in
        # plain words what changed since the snapshot a phone acted on (moved_on).
        self.seen: dict[int, tuple[int | None, str, int, int]] = {}
        self.due = False  # a change is not published yet (flush)

    def flush(self) -> None:
        """Publish the snapshot a change made due. Called after the frame is drawn, so the
        web's work (building, encoding, sending) never delays the panel. Without a web there
        is nobody to publish to: the change is only no longer due."""
        if self.due:
            self.due = False
            self.publish_now()

    def publish_now(self) -> None:
        """Hand the web a snapshot of the game (after a commit, a new game, leave, resume)."""
        if self.publish is None:
            return
        from companion.web.snapshot import build
        t = self.table
        self.seq += 1
        # On the start menu: the games its Resume offers (as the panel lists them).
        unfinished = [{"game_id": u.game_id, "title": u.title, "players": list(u.players),
                       "when": u.when} for u in t.unfinished] if t.journal is None else []
        j = t.journal
        self.seen[self.seq] = (None, "", 0, t.commits) if j is None else (
            t.store.game_id(j), j.game.title, len(j.events), t.commits)
        self.seen.pop(self.seq - SEEN, None)
        left = None
        if j is None and t.left is not None and not t.left.state.over:
            left = {"game_id": t.store.game_id(t.left), "title": t.left.game.title}
        self.publish(build(t.journal, seq=self.seq, unfinished=unfinished, left=left,
                           **self.parts()))

    def current(self) -> int:
        """The `seq` of the snapshot of the game as it is now: a change not yet published
        (the burst of inputs is still being handled) already counts."""
        return self.seq + (1 if self.due and self.publish is not None else 0)

    def moved_on(self, seq: int | None, *, behind: str = "the page is behind the box") -> str:
        """"" when a phone that acted on snapshot `seq` saw the game as it is (or sent
        `"seq": null`); else what changed since, in plain words: `behind` when no move did
        (a pause, a change of the box's screen; "": nothing to say then)."""
        if seq is None or seq == self.current():
            return ""
        then = self.seen.get(seq)
        if then is None:
            # Older than the snapshots kept, or from another run (a restart): either way the
            # page is not showing the game as it is now.
            return (f"this page shows an old state of the game (snapshot {seq} is not one of "
                    f"the box's latest; it is at {self.current()}, perhaps after a "
                    "restart); look again")
        gid0, title0, n0, commits0 = then
        j = self.table.journal
        if j is None:
            return f"{title0} #{gid0} was left for the start menu" if gid0 is not None else \
                "the start menu changed; look again"
        gid = self.table.store.game_id(j)
        if gid != gid0:
            return f"{j.game.title} #{gid} is the game now" + \
                (f", not {title0} #{gid0}" if gid0 is not None else "")
        n = len(j.events)
        if n > n0:
            words = j.describe(n0) + (f" and {n - n0 - 1} more" if n - n0 > 1 else "")
        elif n < n0:
            words = f"{n0 - n} move{'s' * (n0 - n != 1)} undone"
        elif self.table.commits != commits0:
            words = "moves were undone and made again"
        elif not behind:
            return ""
        else:
            words = behind
        if j.state.over:
            return words + "; the game is over"
        return words + f"; it is {j.name(j.state.table.current)}'s turn"
