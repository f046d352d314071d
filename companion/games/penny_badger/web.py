"""Penny Badger on the table web: pass and claim from a phone, the bank and the savings; a
refused claim in the words of its form. As on the panel's turn screen, each number of cards
says what the claim takes from the bank and what a called bluff costs (from the functions the
engine settles with, so what the phone shows at stake is what is paid)."""

from __future__ import annotations

import re

from companion.games.penny_badger.rules import MAX_CARDS, penalty, short_bank, withdrawal
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
)

LABELS = {1: "1 (wild)", MAX_CARDS: f"{MAX_CARDS} (the whole bank)"}


def stake(s: Seen, cards: int) -> str:
    """What a claim of `cards` takes and what a called bluff costs, now (the panel's turn
    screen says the same in fewer words)."""
    bank = s.state["bank"]
    who = s.name(s.current)
    w = withdrawal(cards, bank)
    if cards == MAX_CARDS:
        take = f"Takes the whole bank: {w}."
    elif short_bank(cards, bank):
        take = f"Takes {w} from the bank: all there is."
    else:
        take = f"Takes {w} from the bank."
    if cards == MAX_CARDS:
        savings = s.state["savings"][s.current]
        bluff = (f"A called bluff costs {who} all savings ({savings}); a wrong challenger "
                 f"pays all of theirs.")
    else:
        p = penalty(cards, bluffer=True, savings=0)  # as the engine settles it
        paid = penalty(cards, bluffer=False, savings=0)
        bluff = (f"A called bluff costs {who} {p} to the bank + {p} to each challenger; a "
                 f"wrong challenger pays {paid} to the bank + {paid} to {who}.")
    return f"{take}\n{bluff}"


def actions(s: Seen) -> list[Action]:
    cards = tuple(Option(n, LABELS.get(n, str(n)), note=stake(s, n))
                  for n in range(1, MAX_CARDS + 1))
    return [
        Quick((Send("Pass (1 penny to the bank)", {"type": "pass"}),), main=True),
        Form("claim", "Claim", (
            Choice("cards", cards, label="Cards claimed"),
            Many("challenger", "Challenged by", s.seats(others=True, active=True),
                 key="challengers", empty="nobody can challenge"),
            Radio("truthful", "The revealed cards (only when challenged)",
                  (Option(True, "true"), Option(False, "a bluff")), only_if="challenger",
                  required="Challenged: say whether the revealed cards were true or a bluff"),
        ), submit=Send("Settle the claim", {"type": "claim"}), main=True),
    ]


def view(s: Seen) -> View:
    st = s.state
    out = list(st.get("eliminated") or ())
    return View(
        (Stat("pennies in the bank", str(st["bank"]), "huge"),
         Stat("badgers out", ", ".join(s.name(k) for k in out) if out else "none")),
        (Column("Savings", tuple("out" if k in out else str(v)
                                 for k, v in enumerate(st["savings"]))),))


WEB = KindWeb(view=view, actions=actions, titles={"claim": "Claim", "pass": "Pass"},
              rules={"bank": "Pennies in the bank at the start",
                     "savings": "Each badger's savings at the start"}, words=(
    Words(re.compile(r"claim: a challenged claim needs \"truthful\".*"),
          lambda m, name: "Claim: say whether the revealed cards were true or a bluff"),
    Words(re.compile(r"claim: seat (\d+) is eliminated and cannot challenge"),
          lambda m, name: f"Challenged by: {name(m[1])} is out and cannot challenge"),
))
