"""Dice Factor's screens for docs/screens (`companion screens`): sample games and the
screen stack each one shows, the top screen drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.dice_factor.panel import (
    D8Outcome,
    DiceFactorMode,
    DiceFactorScreen,
    RollOff,
    hand_limits_screen,
    reroll_menu,
    trade_hands_menu,
    win_menu,
)
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context
from companion.ui.table import EndScreen

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = DiceFactorMode()
    names = tuple(config.names[:4])

    def journal(*events: dict) -> Journal:
        j = Journal(Header(mode.kind, names))
        for e in events:
            j.append(e)
        return j

    fresh = journal()
    yield "roll-off", fresh, [RollOff()]
    yield "roll-off-winner", journal({"type": "roll_off", "rolls": [8, 8, 6, 3]}), \
        [RollOff()]
    yield "roll-off-tie", journal({"type": "roll_off", "rolls": [5, 5, 2, 2]}), [RollOff()]
    yield "no-targets", fresh, [DiceFactorScreen(mode)]
    playing = journal({"type": "roll_off", "rolls": [8, 8, 6, 3]},
                      {"type": "roll", "dice": {"colors": "green", "shapes": "pentagon"}},
                      {"type": "add_card"})
    yield "main", playing, [DiceFactorScreen(mode)]
    logos = journal({"type": "roll", "dice": {"colors": "logo", "shapes": "logo"}},
                    {"type": "skip"})
    yield "main-logos", logos, [DiceFactorScreen(mode)]
    mixed = journal({"type": "roll", "dice": {"colors": "yellow", "shapes": "logo"}})
    yield "main-shape-logo", mixed, [DiceFactorScreen(mode)]
    ctx = Context(config=config, journal=playing)
    yield "menu", playing, [DiceFactorScreen(mode), mode.menu(ctx)]
    for face in (3, 6, 7, 8):
        j = journal({"type": "roll", "dice": {"colors": "red", "shapes": "star"}},
                    {"type": "roll", "dice": {"d8": face}})
        yield f"d8-{face}", j, [DiceFactorScreen(mode), D8Outcome()]
    yield "reroll", playing, [DiceFactorScreen(mode), reroll_menu()]
    yield "trade-hands", playing, [DiceFactorScreen(mode), trade_hands_menu(ctx)]
    yield "hand-limits", playing, [DiceFactorScreen(mode), hand_limits_screen(ctx)]
    yield "win", playing, [DiceFactorScreen(mode), win_menu(ctx)]
    won = journal({"type": "roll", "dice": {"colors": "red", "shapes": "star"}},
                  {"type": "win", "player": 2})
    yield "end", won, [EndScreen()]
