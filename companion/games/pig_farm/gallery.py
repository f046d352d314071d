"""Pig Farm's screens for docs/screens (`companion screens`): sample games and the screen
stack each one shows, the top screen drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.pig_farm.panel import (
    ButcherScreen,
    HandEntry,
    PigEndScreen,
    PigFarmMode,
    RoundsTable,
    RoundSummary,
    Scoreboard,
    SellFlow,
    butcher_menu,
)
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = PigFarmMode()
    names = tuple(config.names[:4])
    fresh = Journal(Header("pig-farm", names))
    ctx0 = Context(config=config, journal=fresh)
    yield "scoreboard-start", fresh, [Scoreboard(mode)]
    yield "butcher-menu-deal", fresh, [Scoreboard(mode), butcher_menu(ctx0)]
    j = Journal(Header("pig-farm", names))
    j.append({"type": "butcher", "die": "shapes", "face": "star", "deal": True})
    yield "butcher-deal", j, [Scoreboard(mode), ButcherScreen()]
    j.append({"type": "next"})
    j.append({"type": "butcher", "die": "colors", "face": "red"})
    yield "butcher-red", j, [Scoreboard(mode), ButcherScreen()]
    j.append({"type": "butcher", "die": "colors", "face": "logo"})
    yield "butcher-logo", j, [Scoreboard(mode), ButcherScreen()]
    j.append({"type": "butcher", "die": "shapes", "face": "pentagon"})
    yield "butcher-pentagon", j, [Scoreboard(mode), ButcherScreen()]
    ctx = Context(config=config, journal=j)
    yield "butcher-menu", j, [Scoreboard(mode), butcher_menu(ctx)]
    yield "menu", j, [Scoreboard(mode), mode.menu(ctx)]

    flow = SellFlow.start(ctx)
    yield "sell-seller-empty", j, [Scoreboard(mode), HandEntry(flow, 0)]
    flow.drafts[flow.seller].sets[:] = [3, 3]
    short = HandEntry(flow, 0)
    short.cursor = 2
    yield "sell-seller-two-sets", j, [Scoreboard(mode), short]
    flow.drafts[flow.seller].sets[:] = [3, 3, 2]
    flow.drafts[flow.seller].unmatched = 1
    seller = HandEntry(flow, 0)
    seller.cursor = 2
    yield "sell-seller-130", j, [Scoreboard(mode), seller]
    flow.drafts[flow.seller].sets[:] = [3, 4, 5, 2, 2, 2, 2, 3]
    flow.drafts[flow.seller].unmatched = 0
    rich = HandEntry(flow, 0)
    rich.cursor = rich.unmatched_cell
    yield "sell-seller-all-bonuses", j, [Scoreboard(mode), rich]
    other = flow.order[1]
    yield "sell-other-empty", j, [Scoreboard(mode), HandEntry(flow, 1)]
    flow.drafts[other].sets[:] = [3, 2, 2, 2, 3]
    flow.drafts[other].unmatched = 2
    yield "sell-other-minus-30", j, [Scoreboard(mode), HandEntry(flow, 1)]

    j.append({"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 1},
                                        {"sets": [2, 2, 2, 2, 2], "unmatched": 0},
                                        {"sets": [2, 2], "unmatched": 3},
                                        {"sets": [3, 3, 3], "unmatched": 0}]})
    yield "round-summary", j, [Scoreboard(mode), RoundSummary()]
    yield "scoreboard", j, [Scoreboard(mode)]
    j.append({"type": "next"})
    j.append({"type": "sell", "hands": [{"sets": [2], "unmatched": 4},
                                        {"sets": [2, 2], "unmatched": 1},
                                        {"sets": [4, 3, 2, 2], "unmatched": 0},
                                        {"sets": [], "unmatched": 5}]})
    yield "rounds-table", j, [Scoreboard(mode), RoundsTable()]
    yield "house-rules", j, [mode.house_rules_screen(ctx)]

    big = Journal(Header("pig-farm", tuple(config.names[:6]) + ("Ivy",), rules={"target": None}))
    big.append({"type": "skip_to", "player": 4})
    yield "scoreboard-seven", big, [Scoreboard(mode)]
    two = Journal(Header("pig-farm", names[:2]))
    yield "scoreboard-two", two, [Scoreboard(mode)]

    end = Journal(Header("pig-farm", names, rules={"target": 600}))
    end.append({"type": "sell", "hands": [{"sets": [4, 4, 3], "unmatched": 0},
                                          {"sets": [2, 2], "unmatched": 1},
                                          {"sets": [2, 2, 2, 2], "unmatched": 0},
                                          {"sets": [2, 2, 2], "unmatched": 2}]})
    end.append({"type": "sell", "hands": [{"sets": [2, 2, 2], "unmatched": 1},
                                          {"sets": [5, 4, 3, 2, 2, 2], "unmatched": 0},
                                          {"sets": [], "unmatched": 3},
                                          {"sets": [2], "unmatched": 2}]})
    yield "end", end, [PigEndScreen()]
    yield "end-rounds", end, [PigEndScreen(), RoundsTable()]
