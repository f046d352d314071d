"""Skill ratings over 5,000 finished games of 20 players (issue 38, item 5; docs/stats.md).

The games are statistics records (companion/session/stats.py's GameRecord, what the History
caches and the ratings are folded from): 2 to 6 seats drawn from 20 names, the built-in kinds
with and without a score, one or two winners, a minute apart.

- ratings_5000_ms: every game folded (`Ratings.of`): a restart, `companion stats`, or the
  refold after an undone end or an older game imported. Goal: < 2 s.
- ratings_5000_incremental_ms: one more finished game brought into the kept ratings
  (`Ratings.update` with every record, the new one last): what the app thread pays for the
  ratings when a game ends. The median over 20 games.
- ratings_5000_stats_after_end_ms: the whole figures after that game (`compute` with the
  kept ratings), as StatsCache computes them when a screen next asks.
- ratings_5000_undone_end_ms: the latest game's end undone (its game no longer finished):
  that game taken back from the kept ratings. The median over 20 games.
- ratings_5000_older_import_ms: a game older than all the others imported: every game
  taken back and folded again after it.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace
from pathlib import Path


def records(n: int, *, players: int = 20, seed: int = 38) -> list:
    from companion.session.stats import GameRecord

    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    kinds = ("pig-farm", "chaos", "penny-badger", "match-patch", "table", "rainbow-rush")
    out = []
    for i in range(n):
        seats = tuple(rng.sample(names, rng.randint(2, 6)))
        kind = rng.choice(kinds)
        scores = None if kind in ("table", "rainbow-rush") else tuple(
            rng.randint(0, 300) for _ in seats)
        winners = tuple(sorted(rng.sample(range(len(seats)), 1 if rng.random() < 0.9 else 2)))
        out.append(GameRecord(i + 1, kind, seats, 1_700_000_000.0 + 60 * i, True, winners,
                              40, None, scores))
    return out


def bench_ratings(tmp: Path, figure, *, quick: bool) -> None:
    from companion.session.ratings import Ratings
    from companion.session.stats import compute

    n = 500 if quick else 5000
    games = records(n + 20)
    base, extra = games[:n], games[n:]
    full = []
    for _ in range(1 if quick else 3):
        t0 = time.perf_counter()
        kept = Ratings.of(base)
        full.append((time.perf_counter() - t0) * 1000)
    assert kept.folds == n and kept.unfolds == 0
    steps, after = [], []
    for i in range(len(extra)):
        now = base + extra[:i + 1]
        t0 = time.perf_counter()
        kept.update(now)
        steps.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        compute(now, ratings=kept)
        after.append((time.perf_counter() - t0) * 1000)
    assert kept.unfolds == 0 and kept.folds == n + len(extra)  # each folded alone
    undone = []
    for i in range(len(extra), 0, -1):
        t0 = time.perf_counter()
        kept.update(base + extra[:i - 1])
        undone.append((time.perf_counter() - t0) * 1000)
    assert kept.unfolds == len(extra) and kept.folds == n + len(extra)  # one each
    older = replace(extra[0], id=n + 1000, created=base[0].created - 60)
    t0 = time.perf_counter()
    kept.update([older, *base])
    imported = (time.perf_counter() - t0) * 1000
    assert kept.folds == 2 * n + len(extra) + 1  # every game again, after the older one
    note = f"{n} finished games of 2-6 seats, 20 players"
    figure(f"ratings_{n}_ms", statistics.median(full), "ms", 2000.0,
           note + ": every game folded (a restart, companion stats, a refold)")
    figure(f"ratings_{n}_incremental_ms", statistics.median(steps), "ms", None,
           note + ": one more finished game into the kept ratings (median of 20)")
    figure(f"ratings_{n}_stats_after_end_ms", statistics.median(after), "ms", None,
           note + ": the whole figures after it, with the kept ratings (median of 20)")
    figure(f"ratings_{n}_undone_end_ms", statistics.median(undone), "ms", None,
           note + ": the latest end undone, that game taken back (median of 20)")
    figure(f"ratings_{n}_older_import_ms", imported, "ms", None,
           note + ": a game older than all imported, every game folded again after it")
