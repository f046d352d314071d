"""The statistics cache (companion/app/statscache.py) built alone: a store and a list for a
queue, no App."""

from __future__ import annotations

import threading

from companion.app.statscache import StatsCache
from companion.inputs import StatsFilled
from companion.rules.game import Header
from companion.session import tally
from companion.session.store import Store


def finished_games(store: Store, n: int) -> None:
    for _ in range(n):
        j = store.new_game(Header("match-patch", ("Ann", "Ben")))
        j.append({"type": "pair", "player": 1})
        j.append({"type": "end"})


def test_figures_are_kept_until_a_change(store, monkeypatch):
    finished_games(store, 2)
    calls = []
    real = tally.compute
    monkeypatch.setattr(tally, "compute", lambda *a, **k: calls.append(1) or real(*a, **k))
    posted: list[object] = []
    cache = StatsCache(store, posted.append)
    assert calls == []  # nothing at construction
    first = cache.stats()
    assert first is not None and first.totals["finished"] == 2
    assert cache.stats() is first and calls == [1]  # kept
    finished_games(store, 1)
    assert cache.stats() is first  # not told yet: the kept figures
    cache.changed()
    assert cache.stats().totals["finished"] == 3 and calls == [1, 1]
    assert posted == []  # within the budget: never a background replay


def test_past_the_budget_one_background_replay_and_the_owner_saves(tmp_path, monkeypatch):
    path = tmp_path / "journal.db"
    with Store(path) as s:
        finished_games(s, 3)  # 6 events, no saved record (save=False here)
    replayed_on: list[str] = []
    real = tally.History._replay
    monkeypatch.setattr(tally.History, "_replay", lambda self, row: replayed_on.append(
        threading.current_thread().name) or real(self, row))
    with Store(path) as store:
        posted: list[object] = []
        done = threading.Event()
        cache = StatsCache(store, lambda item: (posted.append(item), done.set()), budget=3)
        assert cache.stats() is None and cache.stats() is None  # one replay, not two
        assert done.wait(30)
        [item] = posted
        assert isinstance(item, StatsFilled) and len(item.records) == 3
        assert set(replayed_on) == {"stats"} and store.summaries() == {}
        assert cache.stats() is None  # still counting until the owner hands it back
        cache.on_filled(item)
        assert sorted(store.summaries()) == [1, 2, 3]  # saved by the owner's thread
        replayed_on.clear()
        figures = cache.stats()
        assert figures is not None and figures.totals["finished"] == 3
        assert replayed_on == [] and len(posted) == 1  # from the saved records, no new replay


def test_a_failed_replay_leaves_the_counting_to_the_owner(store):
    finished_games(store, 2)
    cache = StatsCache(store, lambda item: None, budget=1)
    cache._fill = lambda: setattr(cache, "_filling", True)  # type: ignore[method-assign]
    assert cache.stats() is None
    cache.on_filled(StatsFilled(None))  # the replay failed: nothing to save
    figures = cache.stats()  # replayed here, past the budget: it ran once already
    assert figures is not None and figures.totals["finished"] == 2
