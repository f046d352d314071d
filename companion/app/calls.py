"""The spoken calls of the open game (docs/speech.md): made on the app thread after each
committed change and at the turn clock's "Time!", kept (the last few, for the web's snapshot)
and handed to the box's speaker, which queues them on its own thread and never blocks."""

from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING, Any, Sequence

from companion.session import calls as words
from companion.session.calls import Call

if TYPE_CHECKING:
    from companion.app.core import App

log = logging.getLogger(__name__)

KEEP = 8  # calls kept for the snapshot: a page that missed more has fallen too far behind


class Caller:
    def __init__(self, app: App) -> None:
        self.app = app
        self.recent: deque[Call] = deque(maxlen=KEEP)
        self.last = 0  # the number of the last call made (Call.n)

    def committed(self, what: str, event: Any) -> None:
        """An append, undo or redo was just committed to the open game."""
        if self.app.journal is not None:
            self.say(words.of_change(self.app.journal, what, event, self.last))

    def started(self) -> None:
        """A new game's setup is done (or it had none): whose turn it is, unless a move
        ("Cy goes first") has said it."""
        if self.app.journal is not None:
            self.say(words.start_call(self.app.journal, self.last))
            self.app.snapshot_due = True

    def time_up(self) -> None:
        """The turn clock's alarm reached "time": a call, and the pages learn it."""
        self.say([words.time_call(self.last)])
        self.app.snapshot_due = True

    def say(self, new: Sequence[Call]) -> None:
        if not new:
            return
        self.last = new[-1].n
        self.recent.extend(new)
        speaker = self.app.speaker
        if speaker is not None:
            try:
                speaker.say(new)
            except Exception:  # the speaker's own trouble never stops the game
                log.exception("speech: the speaker refused %d call(s)", len(new))

    def snapshot(self) -> list[dict[str, object]]:
        return [c.to_json() for c in self.recent]


def speech(config: Any) -> dict[str, Any]:
    """The snapshot's "speech": how the pages speak (docs/speech.md): the kinds of call to
    say, espeak-ng's words a minute and volume (0-200), and the voice's language."""
    sp = config["speech"]
    return {"calls": list(sp["calls"]), "rate": sp["rate"], "volume": sp["volume"],
            "lang": sp["voice"]}
