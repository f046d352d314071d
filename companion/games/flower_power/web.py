"""Flower Power on the table web: petals from a phone; the garden and the flowers."""

from __future__ import annotations

from companion.games.flower_power.rules import COLORS, PETALS
from companion.web.kinds import (
    Action,
    Bed,
    Choice,
    Column,
    Form,
    Garden,
    KindWeb,
    Row,
    Seen,
    Send,
    View,
    options,
)


def actions(s: Seen) -> list[Action]:
    return [Form("petals", "Petals", (Row((Choice("color", options(*COLORS), label="Color"),
                                           Choice("count", options(*range(1, PETALS + 1)),
                                                  label="Petals"))),),
                 submit=Send("Place the petals", {"type": "petals"}), main=True)]


def view(s: Seen) -> View:
    return View((Garden(tuple(Bed(c, n) for c, n in (s.state.get("garden") or {}).items()),
                        PETALS),),
                (Column("Flowers", tuple(str(n) for n in s.state["scores"])),))


WEB = KindWeb(view=view, actions=actions, titles={"petals": "Petals"})
