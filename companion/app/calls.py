"""The spoken calls of the open game (docs/speech.md): made on the app thread after each
committed change and at the turn clock's "Time!", kept (the last few, for the web's snapshot)
and handed to the box's speaker, which queues them on its own thread and never blocks.

`Caller` owns the calls made (`recent`, `last`) and this run's token. It is given a getter of
the open game's journal, the speaker (None: silent) and `changed`, called when the pages'
snapshot is due (a call they have not had yet)."""

from __future__ import annotations

import logging
import re
import secrets
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Sequence

from companion.session import calls as words
from companion.session.calls import Call

if TYPE_CHECKING:
    from companion.session.journal import Journal

log = logging.getLogger(__name__)

KEEP = 8  # calls kept for the snapshot: a page that missed more has fallen too far behind


class Caller:
    """The calls of the open game: `committed`, `started` and `time_up` make them, `say`
    hands them to the speaker, `snapshot` is the last few for the pages."""

    def __init__(self, journal: Callable[[], Journal | None], speaker: Any = None,
                 changed: Callable[[], None] = lambda: None) -> None:
        self.journal = journal
        self.speaker = speaker  # say(calls), never blocks (None: silent)
        self.changed = changed
        self.recent: deque[Call] = deque(maxlen=KEEP)
        self.last = 0  # the number of the last call made (Call.n)
        # This run's token: numbering starts again at 1 when the companion restarts, so a
        # page tells a new run by this, not by the numbers (snapshot's speech.run).
        self.run = secrets.token_hex(6)

    def committed(self, what: str, event: Any) -> None:
        """An append, undo or redo was just committed to the open game."""
        j = self.journal()
        if j is not None:
            self.say(words.of_change(j, what, event, self.last))

    def started(self) -> None:
        """A new game's setup is done (or it had none): whose turn it is, unless a move
        ("Cy goes first") has said it."""
        j = self.journal()
        if j is not None:
            self.say(words.start_call(j, self.last))
            self.changed()

    def time_up(self) -> None:
        """The turn clock's alarm reached "time": a call, and the pages learn it."""
        self.say([words.time_call(self.last)])
        self.changed()

    def say(self, new: Sequence[Call]) -> None:
        if not new:
            return
        self.last = new[-1].n
        self.recent.extend(new)
        speaker = self.speaker
        if speaker is not None:
            try:
                speaker.say(new)
            except Exception:  # the speaker's own trouble never stops the game
                log.exception("speech: the speaker refused %d call(s)", len(new))

    def snapshot(self) -> list[dict[str, object]]:
        return [c.to_json() for c in self.recent]


def speech(config: Any, run: str) -> dict[str, Any]:
    """The snapshot's "speech": how the pages speak (docs/speech.md): the kinds of call to
    say, espeak-ng's words a minute and volume (0-200), the voice's language (a browser's
    language tag, "" when the voice name is not one) and the run the calls' numbers belong
    to (`Caller.run`)."""
    sp = config["speech"]
    return {"calls": list(sp["calls"]), "rate": sp["rate"], "volume": sp["volume"],
            "lang": lang_tag(sp["voice"]), "run": run}


_PRIMARY = re.compile(r"[a-z]{2,3}")
_SUBTAG = re.compile(r"[a-z]{2,8}|[0-9]{3}")


def lang_tag(voice: str) -> str:
    """The browser language tag (BCP 47's shape) of an espeak-ng voice name: its language
    before any "+variant" ("en+f3" -> "en"), the region in capitals ("en-us" -> "en-US"),
    a private-use tail left out ("en-gb-x-rp" -> "en-GB"); "" when the name is not a
    language tag ("mb-en1", an MBROLA voice), so the page leaves the language to the
    browser rather than give it a name it cannot match."""
    name = voice.split("+", 1)[0].strip().lower()
    name = name.split("-x-", 1)[0]
    first, *rest = name.split("-")
    if not _PRIMARY.fullmatch(first) or not all(_SUBTAG.fullmatch(t) for t in rest):
        return ""
    shaped = [t.upper() if len(t) == 2 else t.title() if len(t) == 4 else t for t in rest]
    return "-".join([first, *shaped])
