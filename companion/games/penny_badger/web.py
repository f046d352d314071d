"""Penny Badger on the table web: pass and claim from a phone, the bank and the savings; a
refused claim in the words of its form."""

from __future__ import annotations

import re

from companion.web.kinds import (
    Action,
    Choice,
    Column,
    Form,
    KindWeb,
    Many,
    Option,
    Quick,
    Radio,
    Seen,
    Send,
    Stat,
    View,
    Words,
    options,
)

CARDS = (Option(1, "1 (wild)"), *options(2, 3, 4, 5, 6, 7), Option(8, "8 (the whole bank)"))


def actions(s: Seen) -> list[Action]:
    return [
        Quick((Send("Pass (1 penny to the bank)", {"type": "pass"}),)),
        Form("claim", "Claim", (
            Choice("cards", CARDS, 2, label="Cards claimed"),
            Many("challenger", "Challenged by", s.seats(others=True, active=True),
                 key="challengers", empty="nobody can challenge"),
            Radio("truthful", "The revealed cards (only when challenged)",
                  (Option(True, "true"), Option(False, "a bluff")), only_if="challenger",
                  required="Challenged: say whether the revealed cards were true or a bluff"),
        ), submit=Send("Settle the claim", {"type": "claim"})),
    ]


def view(s: Seen) -> View:
    st = s.state
    out = list(st.get("eliminated") or ())
    return View(
        (Stat("pennies in the bank", str(st["bank"]), "huge"),
         Stat("badgers out", ", ".join(s.name(k) for k in out) if out else "none")),
        (Column("Savings", tuple("out" if k in out else str(v)
                                 for k, v in enumerate(st["savings"]))),))


WEB = KindWeb(view=view, actions=actions, titles={"claim": "Claim", "pass": "Pass"}, words=(
    Words(re.compile(r"claim: a challenged claim needs \"truthful\".*"),
          lambda m, name: "Claim: say whether the revealed cards were true or a bluff"),
    Words(re.compile(r"claim: seat (\d+) is eliminated and cannot challenge"),
          lambda m, name: f"Challenged by: {name(m[1])} is out and cannot challenge"),
))
