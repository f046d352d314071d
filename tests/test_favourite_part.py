"""Who is favourite (issue 38, part 2), the app's part alone (companion/app/favourite.py): each
seat's chance from the ratings before the game, made once per game, hidden by the config,
when most players are new or while the figures are replayed; at game over, how it went."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.app.favourite import Favourite, verdict
from companion.rules.game import Header
from companion.session.ratings import chances
from companion.session.store import Store
from companion.session.tally import History
from companion.testing import FakeClock
from tests.test_stats_web import noon, regulars_and_a_newcomer


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "journal.db"
    regulars_and_a_newcomer(path, dt.date.today() - dt.timedelta(days=1))
    with Store(path, clock=FakeClock(noon(dt.date.today()))) as s:
        yield s


def test_chances_at_the_start_and_an_upset_at_the_end(store):
    history = History(store)
    asked: list[int] = []

    def ratings():
        asked.append(1)
        return history.stats().ratings

    fav = Favourite(ratings, lambda: True)
    j = store.new_game(Header("match-patch", ("Reg", "Ann", "Ben")))
    gid = store.game_id(j)
    first = fav.snapshot(j, gid)
    assert first is not None
    assert len(first["chances"]) == 3 and abs(sum(first["chances"]) - 1) < 0.01
    assert first["favourites"] == [0]  # Reg: 12 wins in 30, Ann 10, Ben 8
    assert first["chances"][0] > first["chances"][1] > first["chances"][2]
    assert first["verdict"] is None and first["upset"] is None
    j.append({"type": "pair", "player": 2})
    assert fav.snapshot(j, gid) == first  # kept: the ratings are not asked again
    j.append({"type": "end"})
    end = fav.snapshot(j, gid)
    assert end is not None and asked == [1] and fav.predictions == 1
    ben = round(first["chances"][2] * 100)
    assert end["verdict"] == f"Upset! Ben won at {ben}%" and end["upset"] is True
    assert end["chances"] == first["chances"]
    # The box started again on the end screen: the prediction is made again from the ratings
    # as they stood before this game, not from those its own result moved.
    again = Favourite(lambda: History(store).stats().ratings, lambda: True).snapshot(j, gid)
    assert again == end
    after = History(store).stats()
    assert chances(after.ratings.scope(), ("Reg", "Ann", "Ben")) != pytest.approx(
        end["chances"], abs=1e-3)


def test_as_predicted(store):
    history = History(store)
    fav = Favourite(lambda: history.stats().ratings, lambda: True)
    j = store.new_game(Header("match-patch", ("Ben", "reg ")))
    j.append({"type": "pair", "player": 1})
    j.append({"type": "end"})
    out = fav.snapshot(j, store.game_id(j))
    assert out is not None and out["favourites"] == [1]
    assert out["verdict"] == "reg was the favourite: as predicted" and out["upset"] is False


def test_hidden_when_turned_off_new_or_not_ready(store):
    history = History(store)
    j = store.new_game(Header("match-patch", ("Reg", "Ann", "Ben")))
    gid = store.game_id(j)
    assert Favourite(history.ratings, lambda: False).snapshot(j, gid) is None
    assert Favourite(history.ratings, lambda: True).snapshot(None, None) is None
    # While the figures are replayed in the background: nothing, and nothing is kept.
    ready: list = []
    fav = Favourite(lambda: ready[0] if ready else None, lambda: True)
    assert fav.snapshot(j, gid) is None and fav.predictions == 0
    ready.append(history.ratings())
    assert fav.snapshot(j, gid) is not None and fav.predictions == 1
    # Most players new (Neo and two strangers): no prediction, kept as none.
    j2 = store.new_game(Header("match-patch", ("Neo", "Ann", "Zed")))
    assert fav.snapshot(j2, store.game_id(j2)) is None and fav.predictions == 2
    assert fav.snapshot(j2, store.game_id(j2)) is None and fav.predictions == 2


def test_verdict_words():
    names = ("Ann", "Ben", "Cy")
    assert verdict(names, [0.5, 0.3, 0.2], [0]) == "Ann was the favourite: as predicted"
    assert verdict(names, [0.5, 0.38, 0.12], [2]) == "Upset! Cy won at 12%"
    assert verdict(names, [0.5, 0.38, 0.12], [1, 2]) == "Upset! Ben (38%) & Cy (12%) won"
    assert verdict(names, [0.4, 0.4, 0.2], [1]) == "Ann & Ben were the favourites: as predicted"
    assert verdict(names, [0.5, 0.3, 0.2], []) == "No winner; Ann was the favourite"
    # More than two winners or favourites are counted, not named (a TV cannot scroll).
    many = tuple(f"Player{i:02d}" for i in range(8))
    spread = [0.3, 0.1, 0.05, 0.06, 0.08, 0.2, 0.11, 0.1]
    assert verdict(many, spread, [2, 3, 4]) == "Upset! 3 players won at 5% to 8% each"
    assert verdict(many, [0.125] * 8, [0, 1, 2]) == "8 players were the favourites: as predicted"
    assert verdict(many, [0.3, 0.3, 0.3] + [0.02] * 5, [3, 4, 5]) == \
        "Upset! 3 players won at 2% each"
    assert verdict(many, [0.3, 0.3, 0.3] + [0.02] * 5, []) == \
        "No winner; 3 players were the favourites"


def test_no_prediction_for_a_game_rated_too_long_ago_to_know_before(store, monkeypatch):
    """The ratings keep each game's "before" for the latest KEEP_BEFORE games only: a game
    first seen at its end, older than that, gets no prediction rather than one its own result
    moved."""
    from companion.session.ratings import Ratings
    j = store.new_game(Header("match-patch", ("Reg", "Ann", "Ben")))
    j.append({"type": "pair", "player": 2})
    j.append({"type": "end"})
    history = History(store)
    assert Favourite(history.ratings, lambda: True).snapshot(j, store.game_id(j)) is not None
    monkeypatch.setattr(Ratings, "before", lambda self, game_id, kind=None: None)
    assert Favourite(history.ratings, lambda: True).snapshot(j, store.game_id(j)) is None


def test_the_pages_are_due_a_snapshot_when_the_ratings_land_only_for_a_prediction(store):
    """StatsCache calls `landed` when the ratings a snapshot went out without are ready: the
    pages get a new snapshot only when the open game now has a prediction to show (most
    players new: none, and a snapshot the same but for its number would only make a tap at
    that instant "behind the box")."""
    from types import SimpleNamespace

    from companion.app.webparts import Pieces

    history = History(store)
    ready: list = []
    wanted: list[int] = []
    owners = SimpleNamespace(journal=None, store=store, last_frame=None,
                             config={"stats": {"favourite": True}},
                             statscache=SimpleNamespace(ratings=lambda: ready[0] if ready else None,
                                                        wanted=lambda: wanted.append(1)))
    pieces = Pieces(owners)  # type: ignore[arg-type]
    due: list[int] = []
    landed = pieces.landing(lambda: due.append(1))
    # Before the first frame (a game resumed at start): not asked, but wanted when they land.
    owners.journal = store.new_game(Header("match-patch", ("Reg", "Ann", "Ben")))
    assert pieces._favourite() is None and wanted == [1]
    owners.last_frame = (1, None)
    owners.journal = store.new_game(Header("match-patch", ("Neo", "Ann", "Zed")))
    assert pieces._favourite() is None  # not ready
    ready.append(history.ratings())
    landed()
    assert due == []  # ready, but most players are new: nothing to show, no snapshot
    owners.journal = store.new_game(Header("match-patch", ("Reg", "Ann", "Ben")))
    ready.clear()
    assert pieces._favourite() is None
    ready.append(history.ratings())
    landed()
    assert due == [1]
