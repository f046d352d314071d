"""Screenshots of every screen, drawn by the code itself, for docs/screens."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

from PIL import Image

from companion import games
from companion.gallery import clock, device, records
from companion.rules.game import Game
from companion.ui import draw
from companion.ui.screen import Context
from companion.ui.toast import draw_toast, error_frame


def write_all(outdir: Path, config, *, scale: int = 4) -> list[Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, img in screens(config):
        p = outdir / f"{name}.png"
        draw.scale(img, scale).save(p)
        written.append(p)
    from companion.gallery import ring
    for name, img in ring.shots(config):  # the panel in colour, its seat lights round it
        p = outdir / f"{name}.png"
        img.save(p)
        written.append(p)
    return written


# The design shown on docs/screens (a group's own game, issue 37): one of the examples.
EXAMPLE_DESIGN = Path(__file__).resolve().parents[2] / "examples" / "designs" / "penalty-pot.toml"


def example_designs() -> list[games.GameKind]:
    """The example design drawn beside the kinds, unless New game offers it already (and
    none when the checkout's examples are not there)."""
    if not EXAMPLE_DESIGN.is_file():
        return []
    import tomllib
    with open(EXAMPLE_DESIGN, "rb") as f:
        k = games.design_kind(tomllib.load(f))
    return [] if k.kind in games.kinds() else [k]


def shot_prefix(kind: games.GameKind) -> str:
    """A kind's screenshots' names start with its name; a design's, which is a hash, with
    "design-" and its title ("design-penalty-pot")."""
    if not games.is_design(kind.kind):
        return kind.kind
    return "design-" + "-".join("".join(c if c.isalnum() else " " for c in
                                         kind.title.lower()).split())


def screens(config) -> Iterator[tuple[str, Image.Image]]:
    """(name, image) of every screen, drawn with the config's names (the tests draw them all
    with the longest names the config allows: tests/test_screen_texts.py)."""
    from companion.ui.start import (
        ResumeEntry,
        ResumeScreen,
        StartScreen,
        choose_game,
        choose_players,
        default_names,
        help_screen,
    )

    names = default_names(config.names, 5)
    waiting = (ResumeEntry(3, "Chaos", names[:4], "14:05"),
               ResumeEntry(2, "Pig Farm", names[:3], "12 Mar"),
               ResumeEntry(1, "Table", names[:5], "2 Mar"))
    start_ctx = Context(config=config,
                        unfinished=(ResumeEntry(1, "Table", names[:4], "14:05"),))
    yield "start", StartScreen(start_ctx).render(start_ctx)
    yield "resume", ResumeScreen(waiting).render(start_ctx)  # "Resume (3 games)" chosen
    yield "new-game", choose_game(start_ctx).render(start_ctx)
    yield "new-game-players", choose_players(start_ctx, Game.kind).render(start_ctx)
    yield "help", help_screen().render(start_ctx)
    yield "error", error_frame()
    yield from device.shots(config)
    for kind in [*games.kinds().values(), *example_designs()]:
        if kind.gallery is None:
            continue
        prefix = "" if kind.kind == Game.kind else f"{shot_prefix(kind)}-"  # the base kind's: none
        try:
            for name, journal, stack in kind.gallery(config):
                ctx = Context(config=config, journal=journal, dice_note="")
                yield prefix + name, stack[-1].render(ctx)
        except Exception as e:  # a house game's screens: say which, draw the others
            if games.builtin(kind):
                raise
            print(f"companion screens: {kind.title}'s screens could not be drawn: {e}",
                  file=sys.stderr)
    yield from clock.shots(config)  # the turn clock: its corner on each home, the Time screen
    yield from records.shots(config)  # Records and the end screens' history line
    # The undo toast, over the base kind's first screen (its home screen).
    table = games.get(Game.kind).gallery
    for _name, journal, stack in table(config) if table else ():
        ctx = Context(config=config, journal=journal)
        img = stack[-1].render(ctx)
        draw_toast(img, "Undone: Skip")
        yield "toast-undo", img
        break
