"""Pig Farm on the table web: sell the farm (every hand) and the butcher from a phone; the
target, the rounds table and the totals; a refused sale in the words of the hand to fix."""

from __future__ import annotations

import re

from companion.games.pig_farm.rules import MIN_SELL_SETS, MIN_SET_SIZE
from companion.rules.dice import COLORS, SHAPES
from companion.web.kinds import (
    Action,
    Choice,
    Column,
    Count,
    Form,
    Ints,
    KindWeb,
    Name,
    Note,
    Number,
    Option,
    RoundRow,
    Rounds,
    Row,
    SeatRows,
    Seen,
    Send,
    Stat,
    Tick,
    View,
    Widget,
    Words,
    named,
    options,
)

FACES = {"colors": options(*COLORS.faces), "shapes": options(*SHAPES.faces)}


def actions(s: Seen) -> list[Action]:
    cur = s.current
    seller = s.name(cur)
    return [
        Form("sell", f"Sell the farm: {seller} sells", (
            Note("Each hand: pigs in each set (e.g. 3 3 2) and pigs in no set."),
            SeatRows("hands", ("Player", "Sets", "Unmatched"),
                     tuple(n + (" (sells)" if k == cur else "") for k, n in enumerate(s.players)),
                     (Ints("sets", "sets", "sets",
                           tuple("3 3 2" if k == cur else "2 2" for k in range(len(s.players))),
                           least=MIN_SET_SIZE,
                           bad="{name}'s sets: the pigs in each set as whole numbers, e.g. 3 3 2",
                           small="{name}'s sets: a set has {least} or more pigs, not {value}"),
                      Number("unmatched", "unmatched", "unmatched pigs", 0, 99,
                             missing="Enter {name}'s unmatched pigs (0 if none)")),
                     count=Count("sets", cur, MIN_SELL_SETS,
                                 f"{seller} sold the farm (it is {seller}'s turn), so {seller}'s "
                                 f"sets need at least {MIN_SELL_SETS} sets, e.g. 3 3 2. If "
                                 f"someone else sold, give them the turn first (Skip to)")),
        ), submit=Send("Score the round", {"type": "sell"}), main=True, short="Sell the farm"),
        Form("butcher", "Butcher", (
            Row((Choice("die", (Option("colors", "Colors die"), Option("shapes", "Shapes die")),
                        label="Die"),
                 Choice("face", (), follows="die", options_by=FACES,
                        label="Face"))),
            Tick("deal", "dealt at the start of the round"),
            Choice("player", s.seats(), only_if="deal", label="Dealt to"),
        ), submit=Send("Record the butcher", {"type": "butcher"}), main=True),
    ]


def view(s: Seen) -> View:
    st = s.state
    target = "open-ended" if st["target"] is None else str(st["target"])
    kids: list[Widget] = [Stat("target", target), Stat("rounds sold", str(st["rounds"]))]
    b = st.get("last_butcher")
    if b:
        kids.append(Note(f"Butcher (round {b['round']}, {s.name(b['player'])}): {b['verdict']}"))
    if st.get("round_points"):
        sellers = st.get("sellers") or []
        rows = tuple(RoundRow(str(r + 1), tuple(str(p) for p in pts),
                              sellers[r] if r < len(sellers) else None)
                     for r, pts in enumerate(st["round_points"]))
        kids.append(Rounds("Round", s.players, rows,
                           RoundRow("Total", tuple(str(p) for p in st["scores"])),
                           mark_class="seller", mark_title="sold the farm", mark_glyph="▸",
                           note="▸ sold the farm that round",
                           cut="rounds 1-{n} are in the totals"))
    return View(tuple(kids), (Column("Total", tuple(str(p) for p in st["scores"])),))


def refused_sell(m: re.Match[str], name: Name) -> str:
    """The engine names the hand ("sell: hand 0 (the seller): ..."); the phone, its player and
    the field to fix."""
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
    return f"{who}'s hand: {named(inner, name)}"


WEB = KindWeb(view=view, actions=actions,
              titles={"sell": "Sell the farm", "butcher": "Butcher"},
              rules={"target": "Points to win (off: no end)"},
              words=(Words(re.compile(r"sell: hand (?P<seat>\d+) \([^)]*\): (?P<rest>.*)"),
                           refused_sell),))
