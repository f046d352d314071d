"""Statistics over a journal of 1,000 finished games of 200 events each (issue 13, item 7).

The games are random legal games of the six scoring kinds (companion/gallery/sample.py):
60 distinct games, each stored under several headers (other names, same seat count), all
written by the store's own inserts (with checksums) in one transaction.

- stats_1000_cold_ms: the first statistics ever over such a journal (nothing saved yet, e.g.
  a journal from before the statistics): every game replayed. Once per journal, by a
  background thread on the box (companion/app/statscache.py, StatsCache); the app thread
  then saves each finished game's record.
- stats_1000_cold_app_thread_ms: what the app thread pays on such a journal before it hands
  the replay to that thread (the events left to replay are over its budget).
- stats_1000_ms: after a restart (a fresh History, the records saved): the goal, < 1 s.
- stats_1000_after_move_ms: on the box after one move in a new game (memory cache warm):
  one game replayed.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path


def build(path: Path, *, games: int, events: int) -> None:
    from companion import games as registry
    from companion.gallery import sample
    from companion.rules.game import Header
    from companion.session.journal import Journal
    from companion.session.rows import GameSink, insert_game
    from companion.session.store import Store

    rng = random.Random(13)
    # The built-in kinds only: the figure must not move when a group installs a house game
    # into the same venv (docs/adding-a-game.md tells them to).
    kinds = tuple(k for k in sample.sampled() if registry.builtin(registry.get(k)))
    distinct = []
    for i in range(min(games, 60)):
        j = Journal(sample.header(rng, kinds[i % len(kinds)]))
        sample.play(j, rng, events=events)
        distinct.append(j)
    with Store(path) as st:
        with st.transaction() as db:  # one transaction for the set-up, not 200,000 fsyncs
            for i in range(games):
                j = distinct[i % len(distinct)]
                n = len(j.header.players)
                header = Header(j.header.game, tuple(rng.sample(sample.NAMES, n)), 0,
                                dict(j.header.rules))
                gid = insert_game(db, header, "closed", float(st.clock()))
                sink = GameSink(st, gid)
                for seq, e in enumerate(j.events):
                    sink.insert(db, seq, e)


def bench_stats(tmp: Path, figure, *, quick: bool) -> None:
    from companion.rules.game import Header
    from companion.session.store import Store
    from companion.session.tally import History

    games = 100 if quick else 1000
    events = 200
    path = tmp / "stats.db"
    build(path, games=games, events=events)
    from companion.app.statscache import STATS_BUDGET
    with Store(path) as st:
        total = sum(g.events for g in st.games())
        t0 = time.perf_counter()  # what the app thread pays before handing the replay over
        assert History(st, save=True).stats(budget=STATS_BUDGET) is None
        handed = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        first = History(st, save=True).stats()
        cold = (time.perf_counter() - t0) * 1000
        assert first.totals["finished"] == games
        warm = []
        for _ in range(3 if quick else 5):
            t0 = time.perf_counter()
            again = History(st).stats()
            warm.append((time.perf_counter() - t0) * 1000)
        assert again.to_json() == first.to_json()
        h = History(st, save=True)
        h.stats()
        j = st.new_game(Header("table", ("Ann", "Ben", "Cy")))
        j.append({"type": "next"})
        t0 = time.perf_counter()
        h.stats()
        moved = (time.perf_counter() - t0) * 1000
    note = f"{games} finished games, {total} events"
    figure(f"stats_{games}_cold_ms", cold, "ms", None,
           note + ": all replayed (once per journal, by a background thread on the box; "
           "the records are then saved)")
    figure(f"stats_{games}_cold_app_thread_ms", handed, "ms", None,
           note + ": the app thread finds the replay over its budget and hands it over")
    figure(f"stats_{games}_ms", statistics.median(warm), "ms", 1000.0,
           note + ": a fresh History (a restart, the CLI, the web) with the saved records")
    figure(f"stats_{games}_after_move_ms", moved, "ms", None,
           note + ": on the box after one move (the one changed game replayed)")
