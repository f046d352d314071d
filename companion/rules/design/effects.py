"""A design move's number effects, applied to a tally's values or to the money, each with its
words from what was actually moved (docs/designing-a-game.md, "How the engine reads a
design"). Pure functions over tuples: the engine (engine.py) picks the seats and keeps the
state.

A take stops at the tally's floor; a payment moves the smaller of the amount and what the
payer has above its floor (the pot: all it holds), so money is only ever moved.
"""

from __future__ import annotations

from typing import Callable, Sequence

from companion.rules.design.format import Effect, Tally
from companion.rules.game import and_list
from companion.rules.table import Table

Namer = Callable[[int], str]  # a seat's name, for the words
Moved = list[tuple[int, int]]  # (seat, change) for each seat a change reached
POT = None  # a payment's side that is the pot
Transfer = tuple[int | None, int | None, int]  # (payer, payee, amount paid); None: the pot


def others(table: Table, current: int) -> list[int]:
    """Every other player still in, clockwise from the current player's left."""
    return [s for s in ((current + k) % table.seats for k in range(1, table.seats))
            if s not in table.eliminated]


def change(values: tuple[int, ...], tally: Tally, add: bool, amount: int,
           seats: Sequence[int]) -> tuple[tuple[int, ...], Moved]:
    """Add `amount` to (or take it from) each of `seats`' values; a take stops at the floor
    (a value already below it stays)."""
    out, moved = list(values), []
    for seat in seats:
        new = out[seat] + amount if add else out[seat] - amount
        if tally.floor is not None:
            new = max(new, min(tally.floor, out[seat]))
        moved.append((seat, new - out[seat]))
        out[seat] = new
    return tuple(out), moved


def _signed(d: int) -> str:
    return f"+{d}" if d >= 0 else str(d)


# A tally is named by the group's own plural ("pairs", "lives"); one of it is said in the
# singular. The plain rule (drop the final "s"; "-ies" -> "-y") is wrong for these words,
# where the singular is spelt otherwise or the word is the same in both.
_SINGULAR = {"lives": "life", "knives": "knife", "wives": "wife", "halves": "half",
             "leaves": "leaf", "wolves": "wolf", "thieves": "thief", "shelves": "shelf",
             "cookies": "cookie", "zombies": "zombie", "movies": "movie", "goalies": "goalie",
             "birdies": "birdie", "brownies": "brownie", "rookies": "rookie",
             "calories": "calorie", "species": "species", "series": "series"}


def unit(tally: str, amount: int) -> str:
    """The tally's name for `amount` of it: "+1 pair", "-1 life", "+2 pairs", "0 pairs".
    Only the last word changes ("+1 victory point"); a word not ending in one "s" is kept."""
    if abs(amount) != 1:
        return tally
    head, _, last = tally.rpartition(" ")
    head += " " if head else ""
    low = last.lower()
    if low in _SINGULAR:
        one = _SINGULAR[low]
        return head + (one.capitalize() if last[:1].isupper() else one)
    if low.endswith("ies") and len(low) > 4:  # "pennies", not "pies"
        return head + last[:-3] + "y"
    if low.endswith("s") and not low.endswith("ss"):
        return head + last[:-1]
    return tally


def change_words(e: Effect, moved: Moved, name: Namer) -> str:
    """"+1 pair", "Ben -2 points", "everyone else -1 point", "Ben -2 and Cy -1 points"."""
    def by(d: int) -> str:
        return f"{_signed(d)} {unit(str(e.tally), d)}"

    if e.who == "current":
        return by(moved[0][1])
    if e.who == "chosen":
        return f"{name(moved[0][0])} {by(moved[0][1])}"
    if not moved:
        return f"nobody else {e.tally}"
    if len({d for _, d in moved}) == 1:
        return f"everyone else {by(moved[0][1])}"
    return and_list([f"{name(s)} {_signed(d)}" for s, d in moved]) + f" {e.tally}"


def pay(purses: tuple[int, ...], floor: int, pot: int | None, amount: int,
        payers: Sequence[int | None], payees: Sequence[int | None],
        ) -> tuple[tuple[int, ...], int | None, list[Transfer]]:
    """Each payer pays each payee `amount`, or what it has above `floor` if less (the pot:
    all it holds), in order. The purses, the pot and the transfers made."""
    out, transfers = list(purses), []
    for payer in payers:
        for payee in payees:
            have = (pot or 0) if payer is POT else out[payer] - floor
            paid = max(0, min(amount, have))
            if payer is POT:
                pot = (pot or 0) - paid
            else:
                out[payer] -= paid
            if payee is POT:
                pot = (pot or 0) + paid
            else:
                out[payee] += paid
            transfers.append((payer, payee, paid))
    return tuple(out), pot, transfers


def pay_words(e: Effect, transfers: list[Transfer], name: Namer) -> str:
    """Said from the current player's side: "pays 2 to the pot", "takes 3 from the pot",
    "takes 1 from Ben", "everyone else pays 1 to the pot", "Ben pays 2 to the pot"."""
    def who(seat: int | None) -> str:
        return "the pot" if seat is POT else name(seat)

    src, dst = e.source, e.target
    if not transfers:
        return "nobody else pays"
    same = len({p for _, _, p in transfers}) == 1
    first = transfers[0]
    if src == "current":
        if dst == "others" and not same:
            return "pays " + and_list([f"{p} to {who(b)}" for _, b, p in transfers])
        return f"pays {first[2]} to {'everyone else' if dst == 'others' else who(first[1])}"
    if dst == "current":
        if src == "others":
            if same:
                return f"everyone else pays {first[2]}"
            return and_list([f"{who(a)} pays {p}" for a, _, p in transfers])
        return f"takes {first[2]} from {who(first[0])}"
    if "others" in (src, dst) and same:
        return (f"everyone else pays {first[2]} to the pot" if src == "others"
                else f"the pot pays {first[2]} to everyone else")
    return and_list([f"{who(a)} pays {p} to {who(b)}" for a, b, p in transfers])
