"""Rainbow Rush on the table web: a wild replacing a card and the winner from a phone; whether
the discard pile is locked."""

from __future__ import annotations

from companion.web.kinds import Action, Choice, Form, KindWeb, Quick, Seen, Send, Stat, View


def actions(s: Seen) -> list[Action]:
    return [
        Quick((Send("Wild replaced a card", {"type": "wild_replace"}),), main=True),
        Form("win", "Winner", (Choice("player", s.seats(), label="Player"),),
             submit=Send("Wins", {"type": "win"})),
    ]


def view(s: Seen) -> View:
    n = s.state["discard_lock"]
    if n:
        return View((Stat(f"the replaced card may not be picked up: {n} turn end"
                          f"{'s' if n > 1 else ''} to go", "discard locked", "alert"),))
    return View((Stat("no lock: the discard pile may be picked up", "discard free"),))


WEB = KindWeb(view=view, actions=actions,
              titles={"wild_replace": "Wild replaced a card", "win": "Winner"})
