"""A refused move in plain words for the phone's forms.

The rules engine speaks in seats and event fields ("sell: hand 0 (the seller): a seller needs
at least 3 sets to sell the farm, not 2"): right for a log and a script, but a form's user
needs the player's name and the field to fix ("Olu sold the farm, so Olu's sets need at
least 3 sets ..."). `plain()` rewrites the engine's message for the `/api/action` answer; the
engine's own words stay beside it (`"engine"`), for scripts.

What only one kind says is that kind's own (its web part's `titles` and `words`,
companion/web/kinds.py); here are the words of the moves every kind has (companion/rules/game.py).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Mapping, Sequence

from companion.web.kinds import Words, named, part

if TYPE_CHECKING:
    from companion.games import GameKind

log = logging.getLogger(__name__)

# The phone's form (or button) each common event type comes from, as its title reads; a kind
# names its own forms (KindWeb.titles).
FORMS = {
    "next": "Next player", "skip": "Skip", "double_skip": "Double skip", "reverse": "Reverse",
    "reverse_skip": "Reverse + skip", "skip_to": "Skip to", "first": "Who goes first",
    "roll": "Record a roll", "end": "End the game",
}

# The common moves' messages, tried after the kind's own.
WORDS = (
    Words(re.compile(r"\w+: it is seat (\d+)'s turn, not seat (\d+)'s"),
          lambda m, name: f"It is {name(m[1])}'s turn, not {name(m[2])}'s"),
    Words(re.compile(r"(\w+): the game is over"),
          lambda m, name: "The game is over: undo, or start a new game"),
)


def _own(kind: GameKind | None) -> tuple[Mapping[str, str], Sequence[Words]]:
    """The kind's titles and words; none for a kind without a web part, or one whose web part
    fails to load (logged: the move is still refused, in the common words)."""
    try:
        web = part(kind) if kind is not None else None
    except Exception as e:
        log.error("game kind %s: its web part failed: %r", kind.kind if kind else None, e)
        return {}, ()
    return (web.titles, web.words) if web is not None else ({}, ())


def plain(message: str, event: object, players: Sequence[str], kind: GameKind | None) -> str:
    """The engine's `message` about `event` in a form's words: the players by name, the
    form by its title, the field to fix. `kind` (the game's) says its own messages first."""
    def name(seat: str | int) -> str:
        k = int(seat)
        return players[k] if 0 <= k < len(players) else f"seat {seat}"

    titles, words = _own(kind)
    for w in (*words, *WORDS):
        m = w.pattern.fullmatch(message)
        if m:
            try:
                return w.say(m, name)
            except Exception as e:  # a kind's own bug: the engine's message, names put in
                log.error("game kind %s: its words for %r failed: %r",
                          kind.kind if kind else None, message, e)
                break
    etype = event.get("type") if isinstance(event, dict) else None
    prefix = f"{etype}: "
    if isinstance(etype, str) and message.startswith(prefix):
        title = titles.get(etype) or FORMS.get(etype) or etype.replace("_", " ").capitalize()
        return f"{title}: {named(message[len(prefix):], name)}"
    return named(message, name)
