"""The statistics cache (companion/app/statscache.py) built alone: a store and a list for a
queue, no App."""

from __future__ import annotations

import queue
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


# --- the skill ratings (who is favourite): the app thread never folds every game --------------

def folded_on(monkeypatch) -> list[str]:
    """The thread each game is folded into the ratings on, in order."""
    from companion.session.ratings import Ratings
    threads: list[str] = []
    real = Ratings._fold
    def fold(self, g) -> None:
        if threading.current_thread().name != "reference":  # all_ratings's: not counted
            threads.append(threading.current_thread().name)
        real(self, g)

    monkeypatch.setattr(Ratings, "_fold", fold)
    return threads


def all_ratings(store: Store) -> dict:
    """Every game's record folded afresh (on a thread of its own, not counted)."""
    from companion.session.ratings import Ratings
    records = tally.History(store).records()
    out: list[dict] = []
    thread = threading.Thread(target=lambda: out.append(same(Ratings.of(records))),
                              name="reference")
    thread.start()
    thread.join(30)
    return out[0]


def same(ratings) -> dict:
    return {k: (round(s.mu, 9), round(s.sigma, 9), s.games) for k, s in ratings.overall.items()}


def test_the_ratings_are_folded_off_the_app_thread_and_a_game_end_alone_on_it(tmp_path,
                                                                             monkeypatch):
    now = [1_700_000_000.0]  # when the store says a game starts (set back for an older one)
    with Store(tmp_path / "journal.db", clock=lambda: now[0]) as store:
        finished_games(store, 12)
        threads = folded_on(monkeypatch)
        posted: queue.SimpleQueue = queue.SimpleQueue()
        landings: list[int] = []
        cache = StatsCache(store, posted.put, lambda: landings.append(1), folds=3)
        assert cache.ratings() is None and cache.filling  # nothing read since the start
        assert cache.ratings() is None  # one background thread, not two
        item = posted.get(timeout=30)
        assert threads == ["stats"] * 12 and landings == []
        reads: list[int] = []
        rows = store.history_rows
        store.history_rows = lambda: reads.append(1) or rows()  # type: ignore[method-assign]
        cache.on_filled(item)  # taken over: the same ratings as folding every record
        assert landings == [1] and not cache.filling and posted.empty()
        assert reads == []  # no change since the thread started: nothing read again
        first = cache.ratings()
        assert first is not None and same(first) == all_ratings(store)
        assert cache.ratings() is first and threads == ["stats"] * 12  # kept
        # A game's end: folded alone, here.
        now[0] += 60
        finished_games(store, 1)
        cache.changed()
        assert cache.ratings() is first and same(first) == all_ratings(store)
        assert threads == ["stats"] * 12 + ["MainThread"]
        # The figures, asked now, fold nothing more.
        assert cache.stats().ratings is first and len(threads) == 13
        # An older game (before every other): every game again, more than 3: the thread's.
        now[0] = 1_600_000_000.0
        finished_games(store, 1)
        cache.changed()
        assert cache.ratings() is None and cache.stats() is None
        item = posted.get(timeout=30)
        assert threads[13:] == ["stats"] * 14
        cache.on_filled(item)
        assert same(cache.ratings()) == all_ratings(store) and len(threads) == 27
        assert landings == [1, 1]


def test_a_change_while_the_thread_folds_is_not_lost(tmp_path, monkeypatch):
    """The thread's ratings are of the games as it read them; a game that ended meanwhile is
    folded in here when they are taken over, alone; one that goes back further than the
    app thread may fold sends them back to the thread."""
    now = [1_700_000_000.0]
    with Store(tmp_path / "journal.db", clock=lambda: now[0]) as store:
        finished_games(store, 10)
        threads = folded_on(monkeypatch)
        posted: queue.SimpleQueue = queue.SimpleQueue()
        cache = StatsCache(store, posted.put, folds=3)
        cache.warm()
        item = posted.get(timeout=30)  # done, not taken over yet
        now[0] += 60
        finished_games(store, 2)  # two games end meanwhile
        cache.changed()
        assert cache.ratings() is None  # still the thread's until taken over
        cache.on_filled(item)
        assert threads == ["stats"] * 10 + ["MainThread"] * 2
        assert same(cache.ratings()) == all_ratings(store)
        # The box started again, and an older game is imported while the thread folds:
        # back to the thread, nothing folded here.
        now[0] = 1_600_000_000.0
        del threads[:]
        cache = StatsCache(store, posted.put, folds=3)
        cache.warm()
        item = posted.get(timeout=30)
        finished_games(store, 1)
        cache.changed()  # as the app calls it after a commit
        cache.on_filled(item)
        # Folded again, by the thread (which may be folding already: not "== 12")
        assert cache.filling and threads[:12] == ["stats"] * 12 and "MainThread" not in threads
        cache.on_filled(posted.get(timeout=30))
        assert threads == ["stats"] * 25 and "MainThread" not in threads
        assert same(cache.ratings()) == all_ratings(store)


def test_a_failed_thread_leaves_the_ratings_to_the_owner(store):
    finished_games(store, 4)
    cache = StatsCache(store, lambda item: None, folds=1)
    cache._fill = lambda: setattr(cache, "_filling", True)  # type: ignore[method-assign]
    assert cache.ratings() is None
    cache.on_filled(StatsFilled(None, None))  # the thread failed
    ratings = cache.ratings()  # folded here: no second thread after a failure
    assert ratings is not None and same(ratings) == all_ratings(store)


def test_warm_when_the_web_is_on_and_the_favourite_wanted(store):
    from types import SimpleNamespace

    from companion.app.webparts import warm

    started: list[int] = []
    cache = StatsCache(store, lambda item: None)
    cache._fill = lambda: started.append(1)  # type: ignore[method-assign]

    def owners(running: bool, favourite: bool, web: bool = True) -> SimpleNamespace:
        return SimpleNamespace(web=SimpleNamespace(running=running) if web else None,
                               config={"stats": {"favourite": favourite}}, statscache=cache)

    warm(owners(True, True))  # a journal with no game: nothing to rate
    store.new_game(Header("table", ("Ann", "Ben")))
    warm(owners(True, True))  # only the open game: nothing to rate yet
    store.close_game(store.new_game(Header("table", ("Ann", "Ben"))))
    warm(owners(False, True))  # the web off
    warm(owners(True, False))  # the favourite not wanted
    warm(owners(True, True, web=False))  # no web at all
    assert started == []
    warm(owners(True, True))
    assert started == [1]


def test_a_journal_of_the_open_game_alone_has_nobody_rated_and_no_thread(store):
    """The favourite asks for the ratings as a game starts: with the open game alone in the
    journal nobody is rated, so no background thread is started (its StatsFilled would land
    in the app's queue for nothing) and the answer is at once."""
    started: list[int] = []
    cache = StatsCache(store, lambda item: None)
    cache._fill = lambda: started.append(1)  # type: ignore[method-assign]
    store.new_game(Header("table", ("Ann", "Ben")))
    ratings = cache.ratings()
    assert ratings is not None and started == []
    store.close_game(store.new_game(Header("table", ("Ann", "Ben"))))
    cache.changed()
    assert cache.ratings() is None and started == [1]  # a second game: the thread folds
