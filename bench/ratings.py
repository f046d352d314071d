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
- press_new_game_5000_games_ms: the box started on a journal of 5,000 finished games of 20
  players (each game's record saved, as the app thread saves it at a game's end), the web
  on and who is favourite on: the app thread's time for the panel press that starts a new
  game, from taking it off the queue to the snapshot (with its favourite) published. Before
  issue 38 item 5 the favourite's first prediction folded every game there; now a
  background thread has folded them from the first frame on (companion/app/statscache.py).
"""

from __future__ import annotations

import random
import shutil
import statistics
import threading
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
    bench_new_game(tmp, figure, quick=quick)


# --- the press that starts a new game, with who is favourite on --------------------------------

def journal(path: Path, n: int, *, players: int = 20, seed: int = 38) -> None:
    """A box's journal after `n` finished Match Patch games of 2-6 seats drawn from `players`
    names (`Player 1`...), ten minutes apart, each game's statistics record saved as the app
    thread saves it when a game ends (the records are made here from each game's fold: the
    History's replay of 5,000 games takes over a minute)."""
    import json

    from companion.rules.game import Header
    from companion.session import roster
    from companion.session.journal import Journal
    from companion.session.rows import GameSink, insert_game
    from companion.session.stats import record_of
    from companion.session.store import Store
    from companion.session.tally import record_to_json, summary_key

    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    folded: dict[int, Journal] = {}
    with Store(path) as st:
        with st.transaction() as db:  # one transaction, not an fsync per event
            for i in range(n):
                header = Header("match-patch", tuple(rng.sample(names, rng.randint(2, 6))))
                events = [{"type": "pair", "player": rng.randrange(len(header.players))}
                          for _ in range(rng.randint(1, 4))] + [{"type": "end"}]
                gid = insert_game(db, header, "closed", 1_700_000_000.0 + 600 * i)
                sink = GameSink(st, gid)
                for seq, e in enumerate(events):
                    sink.insert(db, seq, e)
                folded[gid] = Journal(header, events)
        saved = []
        for row in st.history_rows():
            j = folded[row.id]
            record = record_of(row.id, j.header, j.state, events=row.events,
                               created=row.created, status=row.status)
            saved.append((row.id, summary_key(row), json.dumps(record_to_json(record))))
        st.save_summaries(saved)
        roster.save(st, names[:4])  # New game offers Player 1-4


def new_game_press_ms(path: Path) -> dict[str, float]:
    """The app thread's times (ms) on the box started on `path` (the app on its own thread,
    as `companion run`), the web on, who is favourite on (the default): "press", for the
    panel press that starts a new game (the OK on the number of players, Table), from taking
    it off the queue to the snapshot (with the prediction) published; "landing", for taking
    over the statistics thread's work (StatsFilled) to its snapshot published, and "ready",
    from the app thread's start to then (neither when there is no such thread). The presses
    before it are made a frame apart; before it the thread, if any, is let finish (a group
    takes seconds over the menus)."""
    from companion.app.core import run_safely
    from companion.inputs import Button, ButtonInput, Quit, StatsFilled
    from companion.testing import make_app
    from companion.web.server import Web

    app = make_app(path.parent, journal=path.name, clock=time.monotonic, strict=False)
    if app.journal is not None:
        raise RuntimeError(f"{path} has an open game: the box would resume it")
    web = Web(config=app.config, post=app.post, host="127.0.0.1", port=0,
              frame=lambda: app.last_frame, source=path)
    app.attach_web(web)
    if web.start():
        raise RuntimeError("the web did not start")
    snapshots: list[dict] = []
    publish = app.bridge.snapshots.publish
    assert publish is not None

    def kept(snapshot: dict) -> None:
        snapshots.append(snapshot)
        publish(snapshot)

    app.bridge.snapshots.publish = kept
    done, landed = threading.Event(), threading.Event()
    spans: dict[str, tuple[float, float]] = {}
    handle, flush = app.handle, app.flush_snapshot
    began: list[tuple[object, float]] = [(None, 0.0)]  # the item handled last, and when

    def timed_handle(item: object) -> None:
        began[0] = (item, time.perf_counter())
        handle(item)

    def timed_flush() -> None:
        flush()
        item, start = began[0]
        if isinstance(item, ButtonInput):
            spans["press"] = (start, time.perf_counter())
            done.set()
        elif isinstance(item, StatsFilled):
            spans["landing"] = (start, time.perf_counter())
            landed.set()

    app.handle = timed_handle  # type: ignore[method-assign]
    app.flush_snapshot = timed_flush  # type: ignore[method-assign]
    thread = threading.Thread(target=run_safely, args=(app,), daemon=True)
    t0 = time.perf_counter()
    thread.start()
    try:
        for i in range(3):  # New game, Table, 4 players (this OK starts the game)
            if i == 2 and app.statscache.filling and not landed.wait(120):
                raise RuntimeError("the statistics thread did not land")
            done.clear()
            app.post(ButtonInput(Button.OK))
            if not done.wait(60):
                raise RuntimeError("no frame after OK")
        if app.journal is None:
            raise RuntimeError("the third OK did not start a game")
        if snapshots[-1]["favourite"] is None:
            raise RuntimeError("the new game's snapshot has no favourite")
        out = {k: (end - start) * 1000 for k, (start, end) in spans.items()}
        if "landing" in spans:
            out["ready"] = (spans["landing"][1] - t0) * 1000
        return out
    finally:
        app.post(Quit())
        thread.join(60)
        web.stop()
        app.store.close()


def bench_new_game(tmp: Path, figure, *, quick: bool) -> None:
    n = 500 if quick else 5000
    path = tmp / f"favourite-{n}.db"
    journal(path, n)
    runs = []
    for i in range(1 if quick else 3):  # each on a copy: a start leaves its game open
        copy = tmp / f"favourite-{n}-{i}.db"
        shutil.copyfile(path, copy)
        runs.append(new_game_press_ms(copy))
    note = f"{n} finished games of 2-6 seats, 20 players, web on, favourite on"
    figure(f"press_new_game_{n}_games_ms", statistics.median(r["press"] for r in runs), "ms",
           None, note + ": the app thread's time for the press that starts a new game, to its "
           f"snapshot with the prediction (median of {len(runs)} starts)")
    if all("landing" in r for r in runs):
        figure(f"favourite_{n}_games_landing_ms", statistics.median(r["landing"] for r in runs),
               "ms", None, note + ": the app thread's time taking over the statistics "
               "thread's records and ratings, brought up to date, to its snapshot")
        figure(f"favourite_{n}_games_ready_ms", statistics.median(r["ready"] for r in runs),
               "ms", None, note + ": from the app thread's start to the ratings ready "
               "(folded by the statistics thread from the first frame on)")
