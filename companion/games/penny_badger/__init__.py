"""Penny Badger (docs/rules.md, "Penny Badger")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind, Scoring
from companion.games.penny_badger import sample
from companion.games.penny_badger.rules import PENALTY_PAID, PennyBadger

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.penny_badger.panel import PennyMode
    return PennyMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.penny_badger.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.penny_badger.web import WEB
    return WEB


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
                panel=panel,
                gallery=gallery,
                scoring=Scoring("savings", lambda s: s.savings,
                                extras={"biggest_claim": biggest_claim, "best_catch": best_catch},
                                labels={"biggest_claim": "top claim", "best_catch": "top catch"}),
                sample=sample.move,
                demo=sample.DEMO,
                web=web,
                order=50,
                color="#ffd400")
