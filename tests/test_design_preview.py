"""/design's preview of a design's game (issue 37): the check answers with the snapshot /tv
would be sent as the game starts, made by the live snapshot's own code (web/snapshot.py and
the design's web part); neither it nor the panel's picture registers the design's kind
(`games.previewing`): a phone previewing design after design leaves the registry as it was."""

from __future__ import annotations

import base64
import copy
import threading

import pytest
from test_web_api import Served

from companion import games
from companion.rules.design import load
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.web import api, designs, snapshot
from companion.web.guard import Refused

POT = {"format_version": 1, "title": "Coin Pot", "players": {"min": 2, "max": 3},
       "tallies": [{"name": "coins", "start": 10, "money": True}], "pot": {"start": 5},
       "moves": [{"name": "Penalty", "effects": [
           {"do": "pay", "amount": 2, "from": "current", "to": "pot"}]}],
       "end": [{"when": "group"}], "winner": {"by": "most", "tally": "coins"}}


def distinct(i: int) -> dict:
    """Design number `i`: each its own kind (its pot starts at i)."""
    d = copy.deepcopy(POT)
    d["pot"]["start"] = i
    return d


def registry() -> tuple[int, ...]:
    """How much the registry holds of designs: registered, by text, previewed, offered, and
    the panels it keeps."""
    return (len(games._DESIGNS), len(games._DESIGN_TEXTS), len(games._PREVIEWS),
            len(games._OFFERED), len(games._MODES))


def test_the_check_answers_with_the_tv_snapshot_of_the_new_game():
    status, answer = designs.check({"design": POT})
    assert status == 200, answer
    tv = answer["tv"]
    assert tv["game"] == answer["kind"] and tv["title"] == "Coin Pot"
    assert tv["players"] == ["Ann", "Ben", "Cy"] and tv["seq"] == 0 and tv["events"] == 0
    assert tv["frame"] is None  # the box's screen now is another game's
    assert tv["view"]["columns"] == [{"name": "Coins", "cells": ["10", "10", "10"]}]
    assert {"kind": "stat", "label": "pot", "value": "5", "style": "huge"} in tv["view"]["stats"]
    assert tv["state"]["pot"] == 5 and tv["state"]["current"] == 0
    assert tv["actions"], "the phone's forms are in it too: the live snapshot's code made it"
    # The same as the live snapshot of a game of the design (its kind registered), but its
    # picture of the box.
    kind = games.design_kind(POT)
    try:
        live = snapshot.build(Journal(Header(kind.kind, ("Ann", "Ben", "Cy"), 0, {})), seq=0)
    finally:
        games._DESIGNS.pop(kind.kind)
        games._DESIGN_TEXTS.pop(games.canonical_text(POT))
    assert {**live, "frame": None} == tv


def test_the_preview_names_its_players_after_the_phones_names():
    body = api.check_design_body({"design": POT, "players": [" Zoe ", "Ann"]})
    status, answer = designs.check(body)
    assert status == 200, answer
    assert answer["players"] == ["Zoe", "Ann", "Ben"]  # the design's most: 3
    assert answer["tv"]["players"] == answer["players"]
    assert designs.sample_players(load(POT), ["A", "B", "C", "D", "E"]) == ["A", "B", "C"]
    four = load({**POT, "players": {"min": 2, "max": 8}})
    assert designs.sample_players(four) == ["Ann", "Ben", "Cy", "Dee"]
    six = load({**POT, "players": {"min": 6, "max": 8}})
    assert designs.sample_players(six, ["Cy"]) == ["Cy", "Ann", "Ben", "Dee", "Player 5",
                                                    "Player 6"]
    for bad in ("Zoe", [3], ["Zoe", "zoe"], [f"P{i}" for i in range(17)], [""]):
        with pytest.raises(Refused) as e:
            api.check_design_body({"design": POT, "players": bad})
        assert e.value.status == 400 and e.value.reason.startswith("players"), e.value.reason


def test_200_previewed_designs_leave_the_registry_as_it_was():
    before = registry()
    for i in range(200):
        status, answer = designs.check({"design": distinct(i)})
        assert status == 200 and answer["tv"]["state"]["pot"] == i, answer
        assert games.find(answer["kind"]) is None  # dropped once the snapshot is made
    assert registry() == before


def test_a_previewed_design_is_found_only_while_previewed():
    before = registry()
    with games.previewing(distinct(7)) as kind:
        assert games.get(kind.kind) is kind
        assert kind.kind not in games._DESIGNS
        with games.previewing(distinct(7)) as again:  # another thread's preview: the same
            assert again is kind
        mode = kind.mode
        assert mode.kind == kind.kind and kind.mode is not mode  # its panel is not kept
    name = kind.kind
    del kind, again, mode
    assert games.find(name) is None
    assert registry() == before


def test_a_kept_design_previews_as_its_registered_kind():
    kind = games.design_kind(distinct(3))
    try:
        with games.previewing(distinct(3)) as previewed:
            assert previewed is kind
        assert games.get(kind.kind) is kind
    finally:
        games._DESIGNS.pop(kind.kind)
        games._DESIGN_TEXTS.pop(games.canonical_text(distinct(3)))


def test_previews_on_two_threads_at_once_find_their_kinds():
    before = registry()
    errors: list[BaseException] = []

    def preview(start: int) -> None:
        try:
            for i in range(start, start + 40):
                for j in (i, i + 1):  # overlapping designs: some previewed on both threads
                    status, answer = designs.check({"design": distinct(j)})
                    assert status == 200, answer
        except BaseException as e:  # pragma: no cover - the failure is reported below
            errors.append(e)

    threads = [threading.Thread(target=preview, args=(0,)), threading.Thread(target=preview, args=(1,))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert registry() == before


def test_a_game_of_a_design_another_thread_previews_is_registered_from_its_header():
    """A game of a design this box does not keep (imported from another box), replayed on
    the app thread while a phone previews the same design on the web thread, gets the
    design registered from its header: not the preview's kind, dropped once the preview
    ends (the statistics then knew neither its title nor its score)."""
    design = distinct(11)
    started, done = threading.Event(), threading.Event()
    name: list[str] = []

    def preview() -> None:
        with games.previewing(design) as kind:
            name.append(kind.kind)
            started.set()
            done.wait(30)

    t = threading.Thread(target=preview)
    t.start()
    try:
        assert started.wait(30)
        kind = name[0]
        assert kind not in games._DESIGNS  # previewed only, on the other thread
        header = Header(kind, ("Ann", "Ben"), 0, {"design": design})
        Journal(header)  # the replay's start: the kind from its header (journal.game_for)
        assert kind in games._DESIGNS
        assert games.for_header(header) is games._DESIGNS[kind]
    finally:
        done.set()
        t.join(30)
        games._DESIGNS.pop(name[0], None)
        games._DESIGN_TEXTS.pop(games.canonical_text(design), None)


@pytest.fixture
def served(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    yield s
    s.close()


def test_200_pictures_of_distinct_designs_leave_the_registry_as_it_was(served):
    """The panel's picture of a paired phone's design, drawn on the app thread: registered
    nowhere (it used to register every design it drew, for as long as the box ran)."""
    served.pair()
    before = registry()
    for i in range(200):
        status, data = served.post("/api/design/picture", {"design": distinct(i)})
        assert status == 200, data
        assert base64.b64decode(data["png"]).startswith(b"\x89PNG")
    assert registry() == before
    status, data = served.post("/api/design/picture", {"design": POT, "players": ["Zoe"]})
    assert status == 200, data
    status, data = served.post("/api/design/picture", {"design": POT, "players": ["Zoe", "zoe"]})
    assert status == 400 and "twice" in data["error"]
    status, data = served.post("/api/design/picture", {"design": POT, "who": 1})
    assert status == 400 and "who" in data["error"]
