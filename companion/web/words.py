"""A refused move in plain words for the phone's forms.

The rules engine speaks in seats and event fields ("sell: hand 0 (the seller): a seller needs
at least 3 sets to sell the farm, not 2"): right for a log and a script, but a form's user
needs the player's name and the field to fix ("Olu sold the farm, so Olu's sets need at
least 3 sets ..."). `plain()` rewrites the engine's message for the `/api/action` answer; the
engine's own words stay beside it (`"engine"`), for scripts.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

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


def plain(message: str, event: object, players: Sequence[str]) -> str:
    """The engine's `message` about `event` in a form's words: the players by name, the
    form by its title, the field to fix."""
    def name(seat: str) -> str:
        k = int(seat)
        return players[k] if 0 <= k < len(players) else f"seat {seat}"

    for pattern, words in _rules(name):
        m = pattern.fullmatch(message)
        if m:
            return words(m)
    kind = event.get("type") if isinstance(event, dict) else None
    prefix = f"{kind}: "
    if isinstance(kind, str) and message.startswith(prefix):
        return f"{FORMS.get(kind, kind.replace('_', ' ').capitalize())}: " \
               f"{_seats(message[len(prefix):], name)}"
    return _seats(message, name)
