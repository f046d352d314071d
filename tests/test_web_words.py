"""A refused move in plain words (companion/web/words.py) is said in the kind's own words: each
kind declares its forms' titles and its engine's messages in its web part (issue 19), so a kind
installed as a plugin words its refusals the way a built-in one does, and words.py keeps only
the moves every kind has."""

from __future__ import annotations

import logging
import re
from dataclasses import replace

import pytest

from companion import games
from companion.errors import IllegalEvent
from companion.games import GameKind
from companion.rules.game import Event, Game, State, move
from companion.testing import close, make_app
from companion.ui.modes import Mode
from companion.web import kinds as kw
from companion.web.words import FORMS, plain

PLAYERS = ("Ann", "Ben", "Cy")


class CoinFlip(Game):
    """A house game declared only here: a flip may land on its edge (the engine names the seat)."""

    kind = "coin-flip"
    title = "Coin Flip"

    @move(required=("side",))
    def move_flip(self, state: State, event: Event) -> State:
        if event["side"] == "edge":
            raise IllegalEvent(f"flip: seat {self.actor(state, event)} landed it on its edge")
        if event["side"] not in ("heads", "tails"):
            raise IllegalEvent(f"flip: side must be heads or tails, not {event['side']!r} "
                               f"(seat {state.table.current} flips)")
        return self.end_turn(state)


class FlipMode(Mode):
    kind = "coin-flip"


def flip_view(s: kw.Seen) -> kw.View:
    return kw.View()


FLIP_WEB = kw.KindWeb(
    view=flip_view,
    titles={"flip": "Flip the coin"},
    words=(kw.Words(re.compile(r"flip: seat (\d+) landed it on its edge"),
                    lambda m, name: f"{name(m[1])}'s coin stood on its edge: flip it again"),))
FLIP = GameKind(rules=CoinFlip(), panel=FlipMode, web=FLIP_WEB, order=200)


@pytest.fixture
def plugin(monkeypatch):
    """The coin flip installed beside the built-in kinds, as its entry point would add it."""
    monkeypatch.setattr(games, "_KINDS", {**games.kinds(), FLIP.kind: FLIP})


def refused(app, event: Event) -> dict:
    """POST /api/action's answer, as the app thread gives it to the web."""
    answer = app.bridge.changes.game_action({"event": event})
    assert answer["status"] == 422 and app.journal.events == []
    return answer


def test_a_kind_declared_only_in_python_gets_its_own_words(tmp_path, plugin):
    app = make_app(tmp_path, kind="coin-flip", players=PLAYERS, setup=False)
    try:
        answer = refused(app, {"type": "flip", "side": "edge"})
        assert answer["error"] == "Ann's coin stood on its edge: flip it again"
        assert answer["engine"] == "flip: seat 0 landed it on its edge"
        # A message it has no words for: its form's title, the seats by name.
        answer = refused(app, {"type": "flip", "side": "up"})
        assert answer["error"] == ("Flip the coin: side must be heads or tails, not 'up' "
                                   "(Ann flips)")
        # The common moves keep the common words.
        answer = refused(app, {"type": "skip_to", "player": 1, "x": 1})
        assert answer["error"] == "Skip to: unknown field 'x' (allowed: player)"
    finally:
        close(app)


def test_a_kinds_words_are_its_own():
    """Penny Badger's words do not reword another kind's message, nor Pig Farm's titles."""
    badger, table = games.get("penny-badger"), games.get(Game.kind)
    truthful = 'claim: a challenged claim needs "truthful" (true or false)'
    assert plain(truthful, {"type": "claim"}, PLAYERS, badger) == (
        "Claim: say whether the revealed cards were true or a bluff")
    assert plain(truthful, {"type": "claim"}, PLAYERS, table) == (
        'Claim: a challenged claim needs "truthful" (true or false)')
    sell = "sell: hand 1 (seat 1): a set has 2 or more pigs, not 1"
    assert plain(sell, {"type": "sell"}, PLAYERS, games.get("pig-farm")) == (
        "Ben's sets: a set has 2 or more pigs, not 1")
    assert plain(sell, {"type": "sell"}, PLAYERS, None) == (
        "Sell: hand 1 (Ben): a set has 2 or more pigs, not 1")
    assert plain(sell, {"type": "sell"}, PLAYERS, FLIP) == plain(sell, {"type": "sell"},
                                                                 PLAYERS, None)


def test_the_common_words_hold_for_every_kind_and_for_none():
    for kind in (*games.kinds().values(), FLIP, None):
        assert plain("skip: it is seat 2's turn, not seat 0's", {"type": "skip"}, PLAYERS,
                     kind) == "It is Cy's turn, not Ann's"
        assert plain("flip: the game is over", {"type": "flip"}, PLAYERS, kind) == (
            "The game is over: undo, or start a new game")
        assert plain("end: seat 5 is no seat", {"type": "end"}, PLAYERS, kind) == (
            "End the game: seat 5 is no seat")


def test_a_kinds_broken_words_are_logged_and_the_move_still_refused(caplog):
    def broken(m: re.Match[str], name: kw.Name) -> str:
        raise KeyError("no such group")

    web = replace(FLIP_WEB, words=(kw.Words(re.compile(r"flip: .*"), broken),))
    bad = replace(FLIP, web=web)
    with caplog.at_level(logging.ERROR):
        said = plain("flip: seat 1 landed it on its edge", {"type": "flip"}, PLAYERS, bad)
    assert said == "Flip the coin: Ben landed it on its edge"
    assert "its words for" in caplog.text

    def fails() -> kw.KindWeb:
        raise ImportError("no web part here")

    caplog.clear()
    with caplog.at_level(logging.ERROR):
        said = plain("flip: seat 1 landed it on its edge", {"type": "flip"}, PLAYERS,
                     replace(FLIP, web=fails))
    assert said == "Flip: Ben landed it on its edge" and "its web part failed" in caplog.text


def test_words_py_titles_only_the_moves_every_kind_has():
    """The forms of one kind are titled in its own web part, not in words.py."""
    assert set(FORMS) == set(Game().moves)


@pytest.mark.parametrize("kind", sorted(games.kinds()))
def test_each_kinds_titles_and_words_are_for_its_own_events(kind):
    k = games.get(kind)
    web = kw.part(k)
    assert web is not None
    assert set(web.titles) <= set(k.rules.moves), f"{kind} titles an event its rules lack"
    for w in web.words:
        assert isinstance(w.pattern, re.Pattern) and callable(w.say)
