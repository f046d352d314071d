"""Screenshots of the history pages for docs/web/: `python -m companion.gallery.history_shots [DIR]`.

A journal of sample games (companion/gallery/sample.py: each kind's own sample move) served by
the real companion; Debian's chromium at phone size (390x844, full page) and TV size
(1920x1080, `-tv`). The games shown one by one are those of the kinds whose statistics keep
records of their own (`Scoring.extras`: Penny Badger and Pig Farm today), chosen from the
kinds' declarations, not by name.
"""

from __future__ import annotations

import random
import sys
import tempfile
from itertools import product
from pathlib import Path
from typing import Any

from companion.gallery import sample
from companion.gallery.web_shots import PHONE, TV, Companion, chromium_path


def pages(ids: dict[str, int]) -> list[tuple[str, str]]:
    """(file name, path) of each page shot; `ids`: a game id of each featured kind."""
    shown = sample.featured()
    return [("history-games", "/games"),
            *((f"history-game-{k}", f"/games/{ids[k]}") for k in shown),
            ("history-stats", "/stats"),
            (f"history-stats-{shown[-1]}", f"/stats?game={shown[-1]}")]


# How long each sample player takes over a turn, against the table's usual pace: the turn
# charts show a quick player and a slow one, as a real group has.
PACE = {"Ann": 0.6, "Ben": 1.0, "Cy": 1.7, "Dee": 0.85, "Eve": 1.25}


class _Clock:
    """Event times a game apart: 15-60 seconds between events, times the pace of the player
    whose turn it is (`journal`: the game being played, its state before the event), from a
    fixed evening."""

    def __init__(self) -> None:
        self.t = 1_763_830_800.0  # 2025-11-22 17:00 UTC
        self.rng = random.Random(9)
        self.journal: Any = None  # a Journal while a game is played

    def __call__(self) -> float:
        pace = 1.0
        if self.journal is not None:
            state = self.journal.state
            if not state.over:
                pace = PACE.get(self.journal.header.players[state.table.current], 1.0)
        self.t += self.rng.uniform(15, 60) * pace
        return self.t


def seed(journal: Path) -> dict[str, int]:
    """Sample games into `journal`, the featured kinds' more often; a game id of each kind."""
    from companion.session.store import Store
    rng = random.Random(5)
    ids: dict[str, int] = {}
    names = ("Ann", "Ben", "Cy", "Dee", "Eve")
    clock = _Clock()
    shown = sample.featured()
    with Store(journal, clock=clock) as store:
        for kind in (*shown, *sample.sampled(), *shown):
            clock.journal = None
            j = store.new_game(sample.header(rng, kind, names=names))
            clock.journal = j
            sample.play(j, rng, events=rng.randint(30, 80))
            ids.setdefault(kind, j.sink.game_id)  # type: ignore[attr-defined]  # the store's GameSink
        clock.journal = None
        j = store.new_game(sample.header(rng, shown[-1], names=names))
        clock.journal = j
        sample.play(j, rng, events=25, finish=False)  # a game in progress
    return ids


def shoot(out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright
    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no chromium found (apt-get install chromium)")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        journal = Path(tmp) / "journal.db"
        ids = seed(journal)
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        with Companion(journal) as c:
            for (name, path), (suffix, size) in product(pages(ids), (("", PHONE), ("-tv", TV))):
                page = browser.new_page(viewport=size, device_scale_factor=1)
                page.goto(c.url + path)
                target = out / f"{name}{suffix}.png"
                page.screenshot(path=str(target), full_page=size is PHONE)
                page.close()
                written.append(target)
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    written = shoot(Path(argv[0] if argv else "docs/web"))
    print(f"wrote {len(written)} screenshots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
