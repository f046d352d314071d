"""Dice Factor on the table web: the roll-off, the targets, the 8-sided die, trades, hand
limits and the winner from a phone; the targets and the hand limits."""

from __future__ import annotations

from companion.rules.dice import COLORS, D8, SHAPES
from companion.web.kinds import (
    Action,
    Choice,
    Column,
    DiceStat,
    Die,
    Form,
    KindWeb,
    PerSeat,
    Row,
    Seen,
    Send,
    View,
    first_open,
    options,
)


def actions(s: Seen) -> list[Action]:
    # The faces rolled are the players' input: every field starts empty (issue 34, item 9:
    # a target kept filled in recorded a roll nobody made when "Set the targets" was tapped).
    # The dice card re-rolls one die and leaves the other target as it is: each die is
    # optional, one at least. The roll-off decides who goes first: offered before the first
    # turn ends only (the engine refuses it after, docs/rules.md).
    first: list[Action] = [
        Form("roll_off", "Roll-off (8-sided, one per player)",
             (PerSeat("roll", "roll", 1, 8, key="rolls"),),
             submit=Send("Record the roll-off", {"type": "roll_off"}), main=True,
             short="Roll-off")] if first_open(s) else []
    return [
        *first,
        Form("targets", "Targets", (Row((
            Choice("colors", options(*COLORS.faces), key="dice.colors", label="Colors die",
                   optional=True),
            Choice("shapes", options(*SHAPES.faces), key="dice.shapes", label="Shapes die",
                   optional=True))),),
             submit=Send("Set the targets", {"type": "roll"}),
             one_of="Targets: choose the face of the die rolled (one die, or both)", main=True),
        Form("d8", "8-sided die (turn option 3)", (Choice("d8", options(*D8.faces),
                                                          key="dice.d8", label="Rolled"),),
             submit=Send("Record", {"type": "roll"}), main=True, short="8-sided die"),
        Form("trade", "Trade hands with", (Choice("player", s.seats(others=True)),),
             submit=Send("Trade", {"type": "trade_hands"})),
        Form("add_card", "Add a card to the hand limit of",
             (Choice("player", s.seats(), label="Player"),),
             submit=Send("Add a card", {"type": "add_card"})),
        Form("win", "Winner", (Choice("player", s.seats(), label="Player"),),
             submit=Send("Wins", {"type": "win"})),
    ]


def view(s: Seen) -> View:
    t = s.state.get("targets") or {}
    return View(
        (DiceStat("targets", (Die("colors", t.get("colors"), "color"),
                              Die("shapes", t.get("shapes"), "shape"))),),
        (Column("Hand limit", tuple(str(n) for n in s.state["hand_limits"])),))


WEB = KindWeb(view=view, actions=actions, titles={
    "roll_off": "Roll-off", "trade_hands": "Trade hands", "add_card": "Add a card",
    "win": "Winner"})
