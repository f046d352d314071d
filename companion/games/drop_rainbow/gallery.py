"""Drop Rainbow's screens for docs/screens (`companion screens`): sample games and the
screen stack each one shows, the top screen drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.drop_rainbow.panel import (
    CollectedScreen,
    DropEnd,
    DropRainbowMode,
    DropScreen,
    draw_picker,
    reveal_picker,
)
from companion.games.drop_rainbow.rules import RAINBOW
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui.screen import Context

if TYPE_CHECKING:
    from companion.ui.modes import Shot


def shots(config) -> Iterator[Shot]:
    mode = DropRainbowMode()
    names = tuple((config.names + ["Eve"])[:4])
    header = Header("drop-rainbow", names)

    def journal(events: list[dict]) -> Journal:
        j = Journal(header)
        for e in events:
            j.append(e)
        return j

    fresh = journal([])
    yield "reveal", fresh, [DropScreen(mode)]
    yield "reveal-picker", fresh, [DropScreen(mode),
                                   reveal_picker(Context(config=config, journal=fresh))]
    play = journal([
        {"type": "reveal", "color": "red"},
        {"type": "draw", "color": "blue"}, {"type": "draw", "color": "green"},
        {"type": "bank"},
        {"type": "draw", "color": "violet"}, {"type": "draw", "color": "green"},
        {"type": "draw", "color": "yellow"}, {"type": "draw", "color": "indigo"},
    ])
    yield "home", play, [DropScreen(mode)]
    ctx = Context(config=config, journal=play)
    fail = draw_picker(ctx)
    fail.cursor = fail.colors.index("green")
    yield "draw-fail", play, [DropScreen(mode), fail]
    ok = draw_picker(ctx)
    ok.cursor = ok.colors.index("orange")
    yield "draw-success", play, [DropScreen(mode), ok]
    rb = draw_picker(ctx)
    rb.cursor = rb.colors.index(RAINBOW)
    yield "draw-rainbow", play, [DropScreen(mode), rb]
    yield "colors", play, [DropScreen(mode), CollectedScreen()]
    yield "menu", play, [DropScreen(mode), mode.menu(ctx)]
    yield "house-rules", play, [mode.house_rules_screen(ctx)]
    two = Header("drop-rainbow", names[:2])
    seven = Journal(two)
    for e in [
        {"type": "reveal", "color": "red"},
        *({"type": "draw", "color": c} for c in
          ("orange", "yellow", "green", "blue", "indigo", "violet")),
        {"type": "bank"},
        {"type": "draw", "color": "red"}, {"type": "bank"},
        {"type": "draw", "color": "violet"}, {"type": "draw", "color": "yellow"},
        {"type": "bank"},
    ]:
        seven.append(e)
    yield "end-seven", seven, [DropEnd()]
    rainbow = journal([
        {"type": "reveal", "color": "red"}, {"type": "draw", "color": "blue"},
        {"type": "bank"}, {"type": "draw", "color": "green"},
        {"type": "draw", "color": RAINBOW},
    ])
    yield "end-rainbow", rainbow, [DropEnd()]
