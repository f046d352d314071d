"""Chaos's screens for docs/screens (`companion screens`): sample games and the screen
stack each one shows, the top screen drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.chaos.panel import (
    ChaosCall,
    ChaosEnd,
    ChaosMode,
    ChaosScreen,
    DealerPicker,
    MarkMost,
    RoundPoints,
    color_picker,
    points_screen,
    swap_hands,
)
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = ChaosMode()
    names = tuple((config.names + ["Eve", "Fay"])[:5])
    header = Header("chaos", names)

    def journal(events: list[dict]) -> Journal:
        j = Journal(header)
        for e in events:
            j.append(e)
        return j

    def ctx_of(j: Journal, now: float = 0.0) -> Context:
        return Context(config=config, journal=j, now=now)

    plain = journal([{"type": "next"}, {"type": "skip"}])
    yield "home", plain, [ChaosScreen(mode)]
    called = journal([{"type": "pick_color", "color": "blue"}, {"type": "reverse"}])
    yield "home-color-reversed", called, [ChaosScreen(mode)]
    stack = journal([{"type": "draw_four", "color": "green"},
                     {"type": "draw_four", "color": "red"}])
    yield "home-draw-stack", stack, [ChaosScreen(mode)]
    train = journal([{"type": "two_train"}, {"type": "two_train"},
                     {"type": "pick_color", "color": "orange"}])
    yield "home-train", train, [ChaosScreen(mode)]
    c = ctx_of(plain)
    yield "menu", plain, [ChaosScreen(mode), mode.menu(c)]
    yield "menu-draw-stack", stack, [ChaosScreen(mode), mode.menu(ctx_of(stack))]
    yield "pick-color", plain, [ChaosScreen(mode), color_picker("Pick a color", "pick_color")]
    yield "dealer", plain, [DealerPicker(c)]
    most = MarkMost(c)
    most.marked = {0, 3}
    most.cursor = len(most.items) - 1
    yield "skip-to-most", plain, [ChaosScreen(mode), most]
    yield "swap-hands", plain, [ChaosScreen(mode), swap_hands(c)]
    running = ChaosCall(-0.35)
    yield "call-running", plain, [ChaosScreen(mode), running]
    ok = ChaosCall(-0.5)
    ok.press(-0.1)
    yield "call-made", plain, [ChaosScreen(mode), ok]
    late = ChaosCall(-2.0)
    late.on_tick("call", {}, c)
    yield "call-draw-3", plain, [ChaosScreen(mode), late]
    scored = journal([{"type": "round_points", "points": [0, 45, 120, 8, 230]},
                      {"type": "first", "player": 2}])
    entry = RoundPoints(ctx_of(scored))
    entry.points[:3] = [0, 37, 112]
    entry.seat = 2
    yield "round-points", scored, [ChaosScreen(mode), entry]
    yield "points", scored, [ChaosScreen(mode), points_screen(ctx_of(scored))]
    yield "house-rules", plain, [mode.house_rules_screen(c)]
    over = journal([{"type": "round_points", "points": [0, 245, 120, 80, 230]},
                    {"type": "round_points", "points": [310, 0, 96, 25, 270]}])
    yield "end", over, [ChaosEnd()]
