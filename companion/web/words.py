"""A refused move in plain words for the phone's forms.

The rules engine speaks in seats and event fields ("sell: hand 0 (the seller): a seller needs
at least 3 sets to sell the farm, not 2"): right for a log and a script, but a form's user
needs the player's name and the field to fix ("Olu sold the farm, so Olu's sets need at
least 3 sets ..."). `plain()` rewrites the engine's message for the `/api/action` answer; the
engine's own words stay beside it (`"engine"`), for scripts. A kind's own words (its web
part's `titles` and `words`, companion/web/kinds.py) are tried first.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from companion.web.kinds import Words, part

if TYPE_CHECKING:
    from companion.games import GameKind

log = logging.getLogger(__name__)

# The phone's form (or button) each event type comes from, as its title reads.
FORMS = {
    "sell": "Sell the farm", "butcher": "Butcher", "claim": "Claim", "pass": "Pass",
    "round_points": "Round points", "swap_hands": "Swap Hands", "pick_color": "Pick a Color",
    "draw_four": "Draw 4", "color_dump": "Color Dump", "take_draw_four": "Take the Draw 4 stack",
    "two_train": "Two Train", "take_train": "Take the train", "reveal": "Reveal the first card",
    "draw": "Draw", "bank": "Bank the side cards", "roll_off": "Roll-off", "roll": "Record a roll",
    "trade_hands": "Trade hands", "add_card": "Add a card", "win": "Winner", "petals": "Petals",
    "pips": "Mini-pip totals", "pair": "A pair", "wild_replace": "Wild replaced a card",
    "next": "Next player", "skip": "Skip", "double_skip": "Double skip", "reverse": "Reverse",
    "reverse_skip": "Reverse + skip", "skip_to": "Skip to", "first": "Who goes first",
    "end": "End the game",
}

Rule = tuple[re.Pattern, Callable[..., str]]


def _rules(name: Callable[[str], str]) -> list[Rule]:
    """(pattern, words) pairs, tried in order; `name("2")` is seat 2's name."""
    def sell(m: re.Match) -> str:
        who = name(m["seat"])
        inner = m["rest"]
        if (n := re.fullmatch(r"a seller needs at least (\d+) sets to sell the farm, not (\d+)",
                              inner)):
            return (f"{who} sold the farm (it is {who}'s turn), so {who}'s sets need at least "
                    f"{n[1]} sets, e.g. 3 3 2 (not {n[2]}). If someone else sold, give them "
                    f"the turn first (Skip to)")
        if (n := re.fullmatch(r"a set has (\d+) or more pigs, not (-?\d+)", inner)):
            return f"{who}'s sets: a set has {n[1]} or more pigs, not {n[2]}"
        if inner.startswith("unmatched pigs cannot be negative"):
            return f"{who}'s unmatched pigs: 0 or more"
        if inner.startswith("missing field 'unmatched'"):
            return f"{who}'s unmatched pigs: enter how many (0 if none)"
        return f"{who}'s hand: {_seats(inner, name)}"

    return [
        (re.compile(r"sell: hand (?P<seat>\d+) \([^)]*\): (?P<rest>.*)"), sell),
        (re.compile(r"claim: a challenged claim needs \"truthful\".*"),
         lambda m: "Claim: say whether the revealed cards were true or a bluff"),
        (re.compile(r"claim: seat (\d+) is eliminated and cannot challenge"),
         lambda m: f"Challenged by: {name(m[1])} is out and cannot challenge"),
        (re.compile(r"\w+: seat (\d+) must first take the (\d+) cards of the Draw 4 stack.*"),
         lambda m: f"{name(m[1])} must first take the {m[2]} cards of the Draw 4 stack "
                   f"(Take the Draw 4 stack), or answer with a Draw 4"),
        (re.compile(r"round_points: the round ends when a player is out of cards.*"),
         lambda m: "Round points: enter 0 for the player who went out (the round ends when "
                   "someone is out of cards)"),
        (re.compile(r"round_points: seat (\d+)'s points must be a whole number 0 or more, "
                    r"not (.*)"),
         lambda m: f"Round points: {name(m[1])}'s points must be a whole number 0 or more, "
                   f"not {m[2]}"),
        (re.compile(r"\w+: it is seat (\d+)'s turn, not seat (\d+)'s"),
         lambda m: f"It is {name(m[1])}'s turn, not {name(m[2])}'s"),
        (re.compile(r"(\w+): the game is over"),
         lambda m: "The game is over: undo, or start a new game"),
    ]


def _seats(text: str, name: Callable[[str], str]) -> str:
    """"seat 2's" and "seat 2" as the player's name."""
    return re.sub(r"\bseat (\d+)", lambda m: name(m[1]), text)


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

    titles, own = _own(kind)
    for w in own:
        m = w.pattern.fullmatch(message)
        if m:
            try:
                return w.say(m, name)
            except Exception as e:  # a kind's own bug: the common words, names put in
                log.error("game kind %s: its words for %r failed: %r",
                          kind.kind if kind else None, message, e)
                break
    for pattern, words in _rules(name):
        m = pattern.fullmatch(message)
        if m:
            return words(m)
    etype = event.get("type") if isinstance(event, dict) else None
    prefix = f"{etype}: "
    if isinstance(etype, str) and message.startswith(prefix):
        title = titles.get(etype) or FORMS.get(etype) or etype.replace("_", " ").capitalize()
        return f"{title}: {_seats(message[len(prefix):], name)}"
    return _seats(message, name)
