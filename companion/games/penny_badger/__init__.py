"""Penny Badger (docs/rules.md, "Penny Badger")."""

from __future__ import annotations

from companion.games import GameKind, Part, Scoring
from companion.games.penny_badger import sample
from companion.games.penny_badger.rules import PENALTY_PAID, PennyBadger


def biggest_claim(s) -> list[int | None]:
    out: list[int | None] = [None] * s.table.seats
    for r in s.history:
        if r.kept > 0 and (out[r.seat] is None or r.kept > out[r.seat]):
            out[r.seat] = r.kept
    return out


def best_catch(s) -> list[int | None]:
    """What a seat earned as an accuser of one caught bluff, at best."""
    out: list[int | None] = [None] * s.table.seats
    for r in s.history:
        if not r.caught:
            continue
        for seat in r.challengers:
            got = sum(t.amount for t in r.transfers if t.payee == seat
                      and t.reason == PENALTY_PAID)
            if out[seat] is None or got > out[seat]:
                out[seat] = got
    return out


KIND = GameKind(rules=PennyBadger(),
                panel=Part("companion.games.penny_badger.panel:PennyMode"),
                gallery=Part("companion.games.penny_badger.gallery:shots"),
                scoring=Scoring("savings", lambda s: s.savings,
                                extras={"biggest_claim": biggest_claim, "best_catch": best_catch},
                                labels={"biggest_claim": "top claim", "best_catch": "top catch"}),
                sample=sample.move,
                demo=sample.DEMO,
                web=Part("companion.games.penny_badger.web:WEB"),
                order=50,
                color="#ffd400")
