"""Skill ratings (issue 38, part 1; companion/session/ratings.py, docs/stats.md "Ratings"):
what a game's result is to the model, who is provisional, the order of the players, the
fold in game order (an import of older games, an undone end), the incremental update, and who
is favourite."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from companion import cli
from companion.rules.game import Header
from companion.session import ratings as R, tally
from companion.session.stats import GameRecord, compute
from companion.session.store import Store
from companion.testing import FakeClock

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")


def game(gid: int, players: tuple[str, ...], winners: tuple[int, ...], *, kind: str = "table",
         created: float | None = None, scores: tuple[int, ...] | None = None,
         finished: bool = True) -> GameRecord:
    return GameRecord(gid, kind, players, float(gid if created is None else created), finished,
                      winners, 3, None, scores)


def skills(r: R.Ratings) -> dict:
    """Every figure of a Ratings, ids aside: the scopes' skills and each trail's ratings."""
    scopes = {None: r.overall, **r.by_kind}
    return {kind: {k: (round(s.mu, 9), round(s.sigma, 9), s.games) for k, s in table.items()}
            for kind, table in scopes.items()}


# --- a game's result ----------------------------------------------------------------------------

def test_places_winners_first_then_by_the_kinds_score():
    # Pig Farm (higher is better): Cy won with 200; Ann 150 and Dee 150 share 2nd, Ben last.
    pig = game(1, ("Ann", "Ben", "Cy", "Dee"), (2,), kind="pig-farm", scores=(150, 90, 200, 150))
    assert R.places(pig) == {"ann": 1, "ben": 2, "cy": 0, "dee": 1}
    # Chaos (fewer bad points is better).
    chaos = game(2, ("Ann", "Ben", "Cy"), (1,), kind="chaos", scores=(300, 50, 100))
    assert R.places(chaos) == {"ann": 2, "ben": 0, "cy": 1}
    # Drop Rainbow: seven colours win whatever the cards; the winner is still first.
    drop = game(3, ("Ann", "Ben", "Cy"), (0,), kind="drop-rainbow", scores=(2, 9, 4))
    assert R.places(drop) == {"ann": 0, "ben": 1, "cy": 2}
    # No score: winners first, everyone else tied behind; a shared win shares the place.
    table = game(4, ("Ann", "Ben", "Cy", "Dee"), (0, 2))
    assert R.places(table) == {"ann": 0, "ben": 1, "cy": 0, "dee": 1}
    # One name at two seats (" ann " is Ann) takes the better seat's place.
    twice = game(5, ("Ann", "Ben", " ann "), (2,))
    assert R.places(twice) == {"ann": 0, "ben": 1}


def test_what_is_rated():
    assert R.rated(game(1, ("Ann", "Ben"), (0,)))
    assert not R.rated(game(2, ("Ann", "Ben"), (0,), finished=False))  # unfinished
    assert not R.rated(game(3, ("Ann", "Ben"), ()))  # ended by the group, no winner
    assert not R.rated(game(4, ("Ann", " ANN"), (0,)))  # one player at both seats
    r = R.Ratings.of([game(2, ("Ann", "Ben"), (0,), finished=False),
                      game(3, ("Ann", "Ben"), ())])
    assert r.overall == {} and r.skill("Ann") == R.NEW and r.trail("Ann") == []


def test_a_win_raises_the_winner_and_lowers_the_rest():
    r = R.Ratings.of([game(1, ("Ann", "Ben", "Cy"), (0,), kind="pig-farm",
                           scores=(200, 100, 50))])
    ann, ben, cy = (r.skill(n) for n in ("Ann", "Ben", "Cy"))
    assert ann.mu > R.NEW.mu > cy.mu and ann.mu > ben.mu > cy.mu  # Ben 2nd by the score
    assert all(s.sigma < R.NEW.sigma and s.games == 1 and s.provisional
               for s in (ann, ben, cy))
    assert r.skill("ANN", "pig-farm") == ann  # its only game: the same in its kind
    assert r.skill("Ann", "chaos") == R.NEW
    assert r.trail(" ann ") == [(1, ann.rating)] and ann.rating == round(ann.mu - 3 * ann.sigma, 1)


def test_provisional_until_enough_games():
    games = [game(i, ("Ann", "Ben"), (i % 2,)) for i in range(1, R.PROVISIONAL_GAMES + 1)]
    assert R.Ratings.of(games[:-1]).skill("Ann").provisional
    done = R.Ratings.of(games).skill("Ann")
    assert not done.provisional and done.games == R.PROVISIONAL_GAMES


# --- the players' order ---------------------------------------------------------------------------

def regulars_and_a_newcomer() -> list[GameRecord]:
    """The issue's case: a regular with 12 wins in 30 games, and a newcomer with 1 in 1."""
    rng = random.Random(38)
    games, gid = [], 0
    for i in range(30):
        gid += 1
        players = ("Ann", "Ben", "Cy")
        winner = 0 if i < 12 else rng.choice((1, 2))
        games.append(game(gid, players, (winner,)))
    gid += 1
    games.append(game(gid, ("Zed", "Ben", "Cy"), (0,)))
    return games


def test_a_newcomer_with_one_win_is_not_ranked_above_a_regular():
    st_ = compute(regulars_and_a_newcomer())
    order = list(st_.players)
    assert order.index("Ann") < order.index("Zed")
    zed, ann = st_.players["Zed"], st_.players["Ann"]
    assert (zed["won"], zed["played"], zed["provisional"]) == (1, 1, True)
    assert (ann["won"], ann["played"], ann["provisional"]) == (12, 30, False)
    # Established players first, by rating; then the provisional ones, by rating.
    flags = [p["provisional"] for p in st_.players.values()]
    assert flags == sorted(flags)
    for group in (False, True):
        ratings = [p["rating"] for p in st_.players.values() if p["provisional"] is group]
        assert ratings == sorted(ratings, reverse=True)


def test_the_json_fields():
    games = regulars_and_a_newcomer()
    games.append(game(100, ("Ann", "Ben"), (1,), kind="chaos", scores=(90, 10)))
    games.append(game(101, ("Ann", "Ben"), (), finished=True))  # no winner: played, not rated
    st_ = compute(games)
    r = st_.ratings
    ann = st_.players["Ann"]
    s = r.skill("Ann")
    assert {k: ann[k] for k in ("rating", "provisional", "mu", "sigma", "rated_games")} == {
        "rating": s.rating, "provisional": False, "mu": round(s.mu, 3),
        "sigma": round(s.sigma, 3), "rated_games": 31}
    assert ann["played"] == 32  # the game with no winner is played, not rated
    history = ann["rating_history"]
    assert [g for g, _ in history] == [g.id for g in games if R.rated(g) and "Ann" in g.players]
    assert history[-1][1] == ann["rating"]
    chaos = ann["by_game"]["chaos"]
    assert (chaos["rated_games"], chaos["provisional"]) == (1, True)
    assert chaos["rating"] == r.skill("Ann", "chaos").rating
    json.dumps(st_.to_json())  # JSON-ready
    # With --game: the kind's rating, its order and its history.
    only = compute(games, kind="chaos")
    assert list(only.players) == ["Ben", "Ann"]  # Ben beat Ann in their one game
    assert only.players["Ann"]["rating"] == chaos["rating"]
    assert only.players["Ann"]["rating_history"] == [[100, chaos["rating"]]]


def test_nemesis_and_victim_need_three_games_together():
    games = [game(1, ("Ann", "Ben", "Cy"), (1,)), game(2, ("Ann", "Ben", "Cy"), (1,)),
             game(3, ("Ann", "Ben"), (0,)),
             game(4, ("Ann", "Cy"), (1,)), game(5, ("Ann", "Dee"), (1,))]
    p = compute(games).players
    # Ann and Ben: 3 games, Ben beat Ann twice, Ann beat Ben once. Ann and Cy: 3 games, Cy
    # beat Ann once (in games 1-2 Ben won: neither beat the other).
    assert p["Ann"]["nemesis"] == {"name": "Ben", "games": 3, "won": 1, "lost": 2}
    assert p["Ann"]["victim"] == {"name": "Ben", "games": 3, "won": 1, "lost": 2}
    assert p["Ben"]["victim"] == {"name": "Ann", "games": 3, "won": 2, "lost": 1}
    assert p["Ben"]["nemesis"] == {"name": "Ann", "games": 3, "won": 2, "lost": 1}
    assert p["Cy"]["victim"] == {"name": "Ann", "games": 3, "won": 1, "lost": 0}
    assert p["Cy"]["nemesis"] is None  # Ben beat Cy twice, but in 2 games together only
    assert p["Dee"]["nemesis"] is None and p["Dee"]["victim"] is None  # one game together


def test_rival_ties_go_to_the_larger_share_then_the_name():
    # Ann lost twice to Ben in 3 games and twice to Cy in 4, and twice to Dee in 3.
    games = [game(1, ("Ann", "Ben"), (1,)), game(2, ("Ann", "Ben"), (1,)),
             game(3, ("Ann", "Ben"), (0,)),
             game(4, ("Ann", "Cy"), (1,)), game(5, ("Ann", "Cy"), (1,)),
             game(6, ("Ann", "Cy"), (0,)), game(7, ("Ann", "Cy"), (0,)),
             game(8, ("Ann", "Dee"), (1,)), game(9, ("Ann", "Dee"), (1,)),
             game(10, ("Ann", "Dee"), (0,))]
    assert compute(games).players["Ann"]["nemesis"]["name"] == "Ben"  # 2 of 3 beats 2 of 4


# --- game order: imports and undone ends --------------------------------------------------------

@st.composite
def histories(draw):
    n = draw(st.integers(1, 25))
    games = []
    for i in range(n):
        players = tuple(draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=4,
                                      unique=True)))
        kind = draw(st.sampled_from(["table", "pig-farm", "chaos"]))
        scores = None if kind == "table" else tuple(
            draw(st.lists(st.integers(0, 5), min_size=len(players), max_size=len(players))))
        winners = tuple(sorted(draw(st.sets(st.integers(0, len(players) - 1), max_size=2))))
        games.append((1000.0 + 60 * i, players, kind, scores, winners,
                      draw(st.booleans()) or i % 3 > 0))
    return games


@settings(max_examples=60, deadline=None)
@given(histories(), st.randoms(use_true_random=False))
def test_imported_in_any_order_the_ratings_are_the_same(history, rng):
    """Games numbered in the order they were imported, whatever it was, are rated in the
    order they were played (their start): the same figures."""
    def records(ids):
        return [GameRecord(gid, kind, players, created, finished, winners, 3, None, scores)
                for gid, (created, players, kind, scores, winners, finished) in zip(ids, history)]
    ids = list(range(1, len(history) + 1))
    shuffled = ids[:]
    rng.shuffle(shuffled)
    a, b = records(ids), records(shuffled)
    rng.shuffle(b)
    assert skills(R.Ratings.of(a)) == skills(R.Ratings.of(b))
    # And incrementally, in the order they were imported: the same again.
    inc = R.Ratings()
    for i in range(len(b)):
        inc.update(sorted(b, key=lambda g: g.id)[:i + 1])
    assert skills(inc) == skills(R.Ratings.of(a))
    # Then some games gone or unfinished again, in one update: as if never played.
    kept = [g for g in b if rng.random() < 0.7]
    inc.update(kept)
    fresh = R.Ratings.of(kept)
    assert skills(inc) == skills(fresh)
    assert {n: inc.trail(n) for n in NAMES} == {n: fresh.trail(n) for n in NAMES}


def log_lines(players: tuple[str, ...], pairs: list[int], started: float) -> str:
    lines = [{"game": "match-patch", "players": list(players), "started": started}]
    lines += [{"type": "pair", "player": p, "at": started + 10 * (i + 1)}
              for i, p in enumerate(pairs)]
    lines.append({"type": "end", "at": started + 10 * (len(pairs) + 1)})
    return "".join(json.dumps(x) + "\n" for x in lines)


def test_an_import_of_older_games_rates_them_where_they_were_played(tmp_path, capsys):
    """Logs with their times, imported in two orders into two journals: the same ratings
    (and the same ones as History's kept ratings, which fold every game after the older one
    again)."""
    t0 = 1_700_000_000.0
    logs = []
    for i, (players, pairs) in enumerate([
            (("Ann", "Ben"), [0, 0]), (("Ben", "Cy"), [0]), (("Ann", "Cy", "Dee"), [2, 2, 1]),
            (("Ann", "Ben", "Dee"), [1]), (("Cy", "Dee"), [1, 0, 1])]):
        path = tmp_path / f"g{i}.jsonl"
        path.write_text(log_lines(players, pairs, t0 + 3600 * i))
        logs.append(path)

    def figures(journal, order):
        for i in order:
            assert cli.main(["import", str(logs[i]), "--journal", str(journal)]) == 0
        capsys.readouterr()
        assert cli.main(["stats", "--json", "--journal", str(journal)]) == 0
        players = json.loads(capsys.readouterr().out)["players"]
        return {n: (p["rating"], p["mu"], p["sigma"], p["by_game"]["match-patch"]["mu"])
                for n, p in players.items()}, list(players)

    first = figures(tmp_path / "a.db", [0, 1, 2, 3, 4])
    assert figures(tmp_path / "b.db", [4, 2, 0, 3, 1]) == first
    # One History that saw the later games first, then the oldest imported: a refold.
    journal = tmp_path / "c.db"
    figures(journal, [1, 2, 3, 4])
    with Store(journal, read_only=True) as s:
        h = tally.History(s)
        assert (h.ratings().unfolds, h.ratings().folds) == (0, 4)
        assert cli.main(["import", str(logs[0]), "--journal", str(journal)]) == 0
        again = h.ratings()
        assert (again.unfolds, again.folds) == (4, 4 + 5)  # every game after it, again
        assert skills(again) == skills(R.Ratings.of(h.records()))
        assert again.trail("Ann")[0][0] == 5  # the oldest game, imported last


def test_an_undone_end_rates_as_if_the_game_never_ended(tmp_path):
    clock = FakeClock(1_700_000_000.0)
    with Store(tmp_path / "j.db", clock=clock) as s:
        h = tally.History(s)
        for players, pair in ((("Ann", "Ben"), 0), (("Ben", "Cy"), 1), (("Ann", "Cy"), 1)):
            j = s.new_game(Header("match-patch", players))
            clock.advance(30)
            j.append({"type": "pair", "player": pair})
            j.append({"type": "end"})
        earlier = skills(h.ratings())
        j = s.new_game(Header("match-patch", ("Ann", "Ben", "Cy")))
        j.append({"type": "pair", "player": 0})
        j.append({"type": "end"})
        ended = h.ratings()
        assert (ended.unfolds, ended.folds) == (0, 4)  # the new end folded in alone
        assert ended.skill("Ann").games == 3
        j.undo()  # the end taken back: the game is unfinished again
        undone = h.ratings()
        assert skills(undone) == earlier
        assert (undone.unfolds, undone.folds) == (1, 4)  # that game taken back, no other
        assert undone.trail("Ann")[-1][0] == 3 and undone.before(j.sink.game_id) is None
        j.redo()
        assert skills(h.ratings()) == skills(ended) and h.ratings().folds == 5


def test_incremental_folds_only_the_new_games():
    games = regulars_and_a_newcomer()
    r = R.Ratings.of(games[:10])
    assert (r.unfolds, r.folds) == (0, 10)
    r.update(games)
    assert (r.unfolds, r.folds) == (0, len(games))
    assert skills(r) == skills(R.Ratings.of(games))
    # A folded game changed (its winner): taken back with every game after it, and folded
    # again. The latest one dropped: that one taken back.
    changed = games[:5] + [game(6, ("Ann", "Ben", "Cy"), (2,))] + games[6:]
    r.update(changed)
    assert (r.unfolds, r.folds) == (26, 31 + 26) and skills(r) == skills(R.Ratings.of(changed))
    r.update(changed[:-1])
    assert (r.unfolds, r.folds) == (27, 57) and skills(r) == skills(R.Ratings.of(changed[:-1]))
    assert r.trail("Zed") == [] and "zed" not in r.overall  # his only game taken back


# --- who is favourite ---------------------------------------------------------------------------

def test_chances_and_upsets():
    games = regulars_and_a_newcomer()[:30]  # Ann, Ben, Cy: 30 games each
    r = R.Ratings.of(games)
    c = R.chances(r.overall, ["Ann", "Ben", "Cy"])
    assert c is not None and sum(c) == pytest.approx(1.0)
    assert R.chances(r, ["Ann", "Ben", "Cy"]) == c  # a Ratings: its overall skills
    strongest = max(("Ann", "Ben", "Cy"), key=lambda n: r.skill(n).mu)
    assert R.favourites(c) == {["Ann", "Ben", "Cy"].index(strongest)}
    # One name at two seats: one rating at both, the same chance.
    twice = R.chances(r.overall, ["Ann", "Ben", " ann "])
    assert twice is not None and twice[0] == pytest.approx(twice[2])
    # Most players provisional (two new of three): no prediction; half of them: one.
    assert R.chances(r.overall, ["Ann", "Zed", "Yan"]) is None
    assert R.chances(r.overall, ["Ann", "Ben", "Zed", "Yan"]) is not None
    assert R.chances(r.overall, ["Ann"]) is None
    fav = R.favourites(c).pop()
    assert not R.upset(c, [fav])
    assert R.upset(c, [(fav + 1) % 3])
    assert not R.upset(c, [(fav + 1) % 3, fav])  # a shared win with the favourite
    assert not R.upset(c, [])  # no winner: no upset
    assert R.favourites([0.4, 0.4, 0.2]) == {0, 1}


def test_ratings_before_a_game():
    games = regulars_and_a_newcomer()
    r = R.Ratings.of(games)
    last = games[-1]
    kept = r.before(last.id)
    assert kept is not None
    fresh = R.before(games, last.id)
    assert {k: fresh.get(k, R.NEW) for k in kept} == kept  # the same, from the records alone
    assert fresh == dict(R.Ratings.of(games[:-1]).overall)
    assert kept["zed"] == R.NEW  # his first game
    # Per kind, and for a game not in the records (one starting now): the ratings now.
    assert r.before(last.id, "table") == kept  # every game a Table game
    assert R.before(games, 9999) == dict(r.overall)
    # The prediction made before the game, against its result.
    c = R.chances(R.before(games, 30), games[29].players)
    assert c is not None and isinstance(R.upset(c, games[29].winners), bool)


def test_the_terminal_table_marks_new_players(tmp_path, capsys):
    clock = FakeClock(1_700_000_000.0)
    path = tmp_path / "j.db"
    with Store(path, clock=clock) as s:
        for i in range(R.PROVISIONAL_GAMES):
            j = s.new_game(Header("match-patch", ("Ann", "Ben", "Cy" if i else "Dee")))
            clock.advance(30)
            j.append({"type": "pair", "player": 0})
            j.append({"type": "end"})
    assert cli.main(["stats", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines()
            if line.split() and line.split()[0] in ("Ann", "Ben", "Cy", "Dee")}
    assert "(new)" not in rows["Ann"] and "(new)" in rows["Cy"] and "(new)" in rows["Dee"]
    assert f"(new): fewer than {R.PROVISIONAL_GAMES} games with a winner" in out
    assert "; rating " in out  # each kind's clause


def test_the_stats_cache_folds_a_new_end_alone(store):
    import queue

    from companion.app.statscache import StatsCache
    posted: queue.SimpleQueue = queue.SimpleQueue()
    cache = StatsCache(store, posted.put)
    for players in (("Ann", "Ben"), ("Ben", "Cy"), ("Ann", "Cy")):
        j = store.new_game(Header("match-patch", players))
        j.append({"type": "pair", "player": 1})
        j.append({"type": "end"})
    assert cache.ratings() is None  # the first time after a start: the background thread's
    cache.on_filled(posted.get(timeout=30))
    first = cache.ratings()
    assert first is not None and (first.unfolds, first.folds) == (0, 3)
    j = store.new_game(Header("match-patch", ("Ann", "Ben", "Cy")))
    j.append({"type": "pair", "player": 2})
    j.append({"type": "end"})
    cache.changed()
    now = cache.ratings()
    assert now is first and (now.unfolds, now.folds) == (0, 4)  # the one new game folded
    assert cache.stats().players["Cy"]["rated_games"] == 3
    assert list(cache.stats().players)[0] == "Cy"  # three wins of three


def test_the_bench_prints_the_ratings_figures(capsys):
    from bench import run
    run.FIGURES.clear()
    assert run.main(["--quick", "--only", "ratings"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()
            if line.startswith("{")]
    by = {r["figure"]: r for r in rows}
    assert set(by) == {"ratings_500_ms", "ratings_500_incremental_ms",
                       "ratings_500_stats_after_end_ms", "ratings_500_undone_end_ms",
                       "ratings_500_older_import_ms", "press_new_game_500_games_ms",
                       "favourite_500_games_landing_ms", "favourite_500_games_ready_ms"}
    assert by["ratings_500_ms"]["goal"] == 2000.0
    assert all(r["value"] > 0 for r in rows)


def test_docs_stats_md_documents_every_rating_field():
    from pathlib import Path
    docs = (Path(__file__).resolve().parents[1] / "docs" / "stats.md").read_text()
    p = compute(regulars_and_a_newcomer()).players["Ann"]
    new = set(p) - {"played", "won", "win_rate", "by_game", "head_to_head", "timed_games",
                    "turns", "turn_seconds", "average_turn", "slowest_turn",
                    "slowest_turn_game", "time_share"}
    assert new == {"rating", "provisional", "mu", "sigma", "rated_games", "rating_history",
                   "nemesis", "victim"}
    assert [k for k in new if f"`players.N.{k}`" not in docs] == []
    assert "`players.N.by_game.KIND.rating`, `.provisional`, `.mu`, `.sigma`, `.rated_games`" \
        in docs
    assert set(R.Skill(25.0, 8.0).to_json()) <= set(p["by_game"]["table"])


def test_within_a_budget_or_not_at_all():
    """`Ratings.within`: brought up to the records as `update` does when that folds at most
    so many games, else nothing changes (the app thread's guard: statscache.py)."""
    games = regulars_and_a_newcomer()
    r = R.Ratings()
    assert not r.within(games, len(games) - 1) and (r.folds, r.unfolds) == (0, 0)
    assert r.overall == {}
    assert r.within(games[:-1], len(games)) and r.folds == len(games) - 1
    assert r.within(games, 1) and r.folds == len(games)  # the one new game
    assert skills(r) == skills(R.Ratings.of(games))
    older = game(99, ("Ann", "Ben"), (0,), created=-1.0)  # sorts before every game
    assert not r.within([*games, older], len(games))  # all again: one more than that
    assert skills(r) == skills(R.Ratings.of(games)) and r.folds == len(games)
    assert r.within([*games, older], len(games) + 1)
    assert skills(r) == skills(R.Ratings.of([*games, older]))


def test_only_the_latest_games_keep_their_skills_before(monkeypatch):
    monkeypatch.setattr(R, "KEEP_BEFORE", 3)
    games = regulars_and_a_newcomer()[:10]
    r = R.Ratings.of(games)
    assert r.before(10) is not None and r.before(8) is not None and r.before(7) is None
    # A change among the kept games: those from it taken back.
    late = games[:8] + [game(9, ("Ann", "Ben", "Cy"), (1,))] + games[9:]
    r.update(late)
    assert (r.unfolds, r.folds) == (2, 12) and skills(r) == skills(R.Ratings.of(late))
    # Further back than the kept ones: every game again.
    early = late[:1] + [game(2, ("Ann", "Ben", "Cy"), (2,))] + late[2:]
    r.update(early)
    assert (r.unfolds, r.folds) == (12, 22) and skills(r) == skills(R.Ratings.of(early))
    assert len(r._before) == 3 and r.before(7) is None and r.before(8) is not None
