"""Penny Badger's screens for docs/screens (`companion screens`): sample games and the
screen stack each one shows, the top screen drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.penny_badger.panel import (
    Accusers,
    Ledger,
    PennyEnd,
    PennyMode,
    Reveal,
    SettlementScreen,
    TurnPicker,
    history_screen,
)
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context
from companion.ui.start import default_names

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = PennyMode()
    rules = config.house_rules("penny-badger")  # the config's bank and savings, if set
    names4 = tuple(config.names[:4])
    j = Journal(Header("penny-badger", names4, 0, rules))
    for e in ({"type": "claim", "cards": 2, "challengers": []}, {"type": "pass"},
              {"type": "claim", "cards": 3, "challengers": [0, 3], "truthful": True}):
        j.append(e)
    ctx = Context(config=config, journal=j)
    yield "ledger", j, [Ledger(mode)]
    yield "menu", j, [Ledger(mode), mode.menu(ctx)]
    yield "turn-pass", j, [Ledger(mode), TurnPicker(0)]
    yield "turn-claim-3", j, [Ledger(mode), TurnPicker(3)]
    yield "turn-claim-wild", j, [Ledger(mode), TurnPicker(1)]
    yield "turn-claim-8", j, [Ledger(mode), TurnPicker(8)]
    acc = Accusers(3)
    yield "accusers-none", j, [Ledger(mode), acc]
    yield "accusers-claim-8", j, [Ledger(mode), Accusers(8)]  # the whole bank: "+103"
    acc2 = Accusers(3)
    acc2.chosen = [0, 1]
    acc2.cursor = 2
    yield "accusers-two", j, [Ledger(mode), acc2]
    yield "reveal", j, [Ledger(mode), Reveal(3, [0, 1])]
    yield "settled-true", j, [Ledger(mode), SettlementScreen()]
    jb = Journal(Header("penny-badger", names4, 0, rules))
    for e in ({"type": "claim", "cards": 2, "challengers": []}, {"type": "pass"},
              {"type": "claim", "cards": 3, "challengers": [0, 3], "truthful": False},
              {"type": "skip"}):
        jb.append(e)
    yield "settled-bluff", jb, [Ledger(mode), SettlementScreen()]
    yield "ledger-skip", jb, [Ledger(mode)]
    yield "history", jb, [history_screen(Context(config=config, journal=jb))]
    yield "house-rules", jb, [mode.house_rules_screen(Context(config=config, journal=jb))]
    yield "first-player", jb, [mode.first_player_screen(Context(config=config, journal=jb))]
    # Eight badgers, two of them out, played counter-clockwise.
    names8 = tuple(config.names[:8])
    j8 = Journal(Header("penny-badger", names8, 0, rules))
    for e in ({"type": "claim", "cards": 5, "challengers": [1, 2], "truthful": True},
              {"type": "reverse"}, {"type": "pass"}):
        j8.append(e)
    yield "ledger-8", j8, [Ledger(mode)]
    # Five badgers with short names, as a group hit it ("O..." for "Olu" before).
    j5 = Journal(Header("penny-badger", ("Olu", "Ann", "Ben", "Cy", "Dee"), 0, rules))
    for e in ({"type": "claim", "cards": 3, "challengers": [2, 3], "truthful": True},
              {"type": "pass"}):
        j5.append(e)
    yield "ledger-5", j5, [Ledger(mode)]
    # Sixteen badgers: pages of nine.
    j16 = Journal(Header("penny-badger", default_names(config.names, 16), 0, rules))
    for e in ({"type": "claim", "cards": 4, "challengers": [3], "truthful": False},
              {"type": "pass"}, {"type": "claim", "cards": 2, "challengers": []}):
        j16.append(e)
    yield "ledger-16", j16, [Ledger(mode)]
    page2 = Ledger(mode)
    page2.page = 1
    yield "ledger-16-page2", j16, [page2]
    acc16 = Accusers(2)
    acc16.chosen = [4, 5]
    acc16.cursor = 3
    yield "accusers-16", j16, [Ledger(mode), acc16]
    # The end: the bank emptied by a claim of eight.
    je = Journal(Header("penny-badger", names4, 0, rules))
    for e in ({"type": "claim", "cards": 4, "challengers": [2, 3], "truthful": False},
              {"type": "claim", "cards": 5, "challengers": []}, {"type": "pass"},
              {"type": "claim", "cards": 8, "challengers": []}):
        je.append(e)
    yield "settled-end", je, [PennyEnd(mode), SettlementScreen()]
    yield "end", je, [PennyEnd(mode)]
    scrolled = PennyEnd(mode)
    scrolled.first = 2
    yield "end-standings", je, [scrolled]
