"""The table kind's screens for docs/screens (`companion screens`), named without a prefix:
sample games and the screen stack each one shows, the top screen drawn. They are also the
screens every kind shares (the menu, the dice, the history, the end)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterator

from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.actions import Roll
from companion.ui.again import end_menu
from companion.ui.dice import RollScreen, dice_menu
from companion.ui.modes import Mode, history_screen
from companion.ui.screen import Context
from companion.ui.table import EndScreen, TableScreen

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = Mode()
    names = tuple(config.names[:4])
    j = Journal(Header("table", names))
    for e in ({"type": "next"}, {"type": "roll", "dice": {"colors": "green", "shapes": "star"}},
              {"type": "skip"}):
        j.append(e)
    ctx = Context(config=config, journal=j)
    yield "table", j, [TableScreen(mode)]
    yield "menu", j, [TableScreen(mode), mode.menu(ctx)]
    yield "dice-menu", j, [TableScreen(mode), dice_menu(ctx)]
    rolling = RollScreen(Roll(("colors", "shapes")), rng=random.Random(3))
    yield "dice-rolling", j, [TableScreen(mode), rolling]
    for name, dice in (("dice-both", {"colors": "green", "shapes": "star"}),
                       ("dice-colors-logo", {"colors": "logo"}),
                       ("dice-shapes", {"shapes": "pentagon"}),
                       ("dice-d8", {"d8": 7})):
        r = RollScreen(Roll(tuple(dice)), rng=random.Random(1))
        r.settle(dice)
        yield name, j, [TableScreen(mode), r]
    j2 = Journal(Header("table", names))
    for e in ({"type": "reverse"}, {"type": "double_skip"}):
        j2.append(e)
    yield "table-reversed-skips", j2, [TableScreen(mode)]
    ctx2 = Context(config=config, journal=j2)
    yield "house-rules", j2, [mode.house_rules_screen(ctx2)]
    yield "first-player", j2, [mode.first_player_screen(ctx2)]
    yield "history", j, [history_screen(ctx)]
    j3 = Journal(Header("table", names))
    j3.append({"type": "end"})
    yield "end", j3, [EndScreen()]
    yield "end-menu", j3, [EndScreen(), end_menu(Context(config=config, journal=j3))]
