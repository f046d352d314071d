"""Journals for the benchmarks to resume: a table game of so many events, written as play
writes them.
"""

from __future__ import annotations

import random
from pathlib import Path


def table_events(n: int, rng: random.Random) -> list[dict]:
    out: list[dict] = []
    for _ in range(n):
        r = rng.random()
        if r < 0.6:
            out.append({"type": "next"})
        elif r < 0.75:
            out.append({"type": "roll", "dice": {"colors": "red", "d8": rng.randint(1, 8)}})
        elif r < 0.85:
            out.append({"type": "skip"})
        elif r < 0.95:
            out.append({"type": "reverse"})
        else:
            out.append({"type": "skip_to", "player": rng.randrange(4)})
    return out


def resumable_journal(tmp: Path, events: int) -> Path:
    from companion.rules.game import Header
    from companion.session.store import Store

    path = tmp / "resume.db"
    if not path.exists():
        with Store(path) as st:
            j = st.new_game(Header("table", ("Ann", "Ben", "Cy", "Dee")))
            for e in table_events(events, random.Random(3)):
                j.append(e)
    return path
