"""Match Patch on the table web: mini-pip totals and pairs from a phone; the pairs."""

from __future__ import annotations

from companion.games.match_patch.rules import MAX_PIPS
from companion.web.kinds import (
    Action,
    Choice,
    Column,
    Form,
    KindWeb,
    PerSeat,
    Seen,
    Send,
    Stat,
    View,
    first_open,
)


def actions(s: Seen) -> list[Action]:
    # The mini-pips decide who goes first: offered before the first turn ends only (the
    # engine refuses them after, docs/rules.md).
    first: list[Action] = [
        Form("pips", "Mini-pip totals", (PerSeat("pips", "mini-pip total", 0, MAX_PIPS),),
             submit=Send("Record the pips", {"type": "pips"}), main=True,
             short="Mini-pips")] if first_open(s) else []
    return [
        *first,
        Form("pair", "A pair for", (Choice("player", s.seats(), label="Player"),),
             submit=Send("Pair", {"type": "pair"}), main=True),
    ]


def view(s: Seen) -> View:
    return View((Stat("turns played", str(s.state["turns"])),),
                (Column("Pairs", tuple(str(n) for n in s.state["scores"])),))


WEB = KindWeb(view=view, actions=actions, titles={"pips": "Mini-pip totals", "pair": "A pair"})
