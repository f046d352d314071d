"""The "Design a game" page's routes (docs/web.md, "Designing a game on a phone") against a
real uvicorn thread and app thread: the check is read-only and open to a guest, saving and
deleting need a paired phone and go through the app's queue, a hostile body gets words and a
4xx (never a 500), and a saved design is a kind New game lists at once."""

from __future__ import annotations

import base64
import io
import json

import pytest
from hypothesis import given, settings, strategies as st
from PIL import Image
from test_web_api import Served

from companion import games
from companion.session import designs
from companion.web import api, designs as web_designs
from companion.web.guard import Refused

PAIRS = {"format_version": 1, "title": "Pairs to 6", "tallies": [{"name": "pairs"}],
         "moves": [{"name": "Pair", "effects": [{"do": "add", "tally": "pairs", "amount": 1}]}],
         "end": [{"when": "reach", "tally": "pairs", "target": 6}],
         "winner": {"by": "most", "tally": "pairs"}}
POT = {"format_version": 1, "title": "Coin Pot", "players": {"min": 2, "max": 3},
       "tallies": [{"name": "coins", "start": 10, "money": True}], "pot": {"start": 5},
       "moves": [{"name": "Penalty", "effects": [
           {"do": "pay", "amount": 2, "from": "current", "to": "pot"}]}],
       "end": [{"when": "group"}], "winner": {"by": "most", "tally": "coins"}}

_T = ["Abcdefghijklmno" + c for c in "ABCD"]
# The largest a design gets, near enough: 4 tallies, 12 moves of 6 effects, every field set
# (~7.5 KiB of JSON: more than any other route's 4 KiB, less than the design routes' 16).
BIG = {"format_version": 1, "title": "Big Big Big Game", "version": 1, "color": "#aabbcc",
       "players": {"min": 2, "max": 16},
       "tallies": [{"name": t, "start": -999, "floor": -9999, "out_at": None, "money": False}
                   for t in _T],
       "pot": None,
       "moves": [{"name": f"Movemovemovemo{i:02d}", "ask": {"min": 1, "max": 9999},
                  "effects": [{"do": "take", "tally": _T[j % 4], "amount": "ask",
                               "who": "chosen"} for j in range(6)]} for i in range(12)],
       "round_score": {"tally": _T[0], "min": -9999, "max": 9999, "when": "group"},
       "turn_order": {"moves": ["skip", "double_skip", "reverse", "reverse_skip", "skip_to"],
                      "first": "roll_off"},
       "dice": ["colors", "shapes", "d8", "d6"],
       "end": [{"when": "reach", "tally": _T[0], "target": 9999}, {"when": "rounds",
                                                                 "rounds": 999},
               {"when": "group"}],
       "winner": {"by": "most", "tally": _T[1]},
       "house_rules": [t + " start" for t in _T] + ["target", "rounds"]}


@pytest.fixture
def served(tmp_path, config, clock):
    s = Served(tmp_path, config, clock)
    yield s
    s.close()


def check(s: Served, body) -> tuple[int, dict]:
    """POST /api/design/check as the page sends it (no seq: it changes nothing)."""
    status, data, _ = s.request("POST", "/api/design/check", body)
    return status, data


def listed(s: Served) -> list[dict]:
    return s.get("/api/designs")["designs"]


def test_check_previews_the_start_for_a_guest_and_keeps_nothing(served):
    status, data = check(served, {"design": POT})
    assert status == 200, data
    assert data["ok"] and data["title"] == "Coin Pot"
    assert data["kind"] == games.design_name(data["design"])
    assert data["players"] == ["Ann", "Ben", "Cy"]  # 4 sample players, at most the design's max
    assert data["tallies"] == [{"name": "coins", "values": [10, 10, 10], "money": True}]
    assert data["pot"] == 5 and data["moves"] == ["Penalty"]
    assert listed(served) == []
    assert designs.listed(served.store) == []


def test_check_names_the_field_at_fault(served):
    bad = {**PAIRS, "tallies": [{"name": "pairs", "start": 1.5}]}
    status, data = check(served, {"design": bad})
    assert status == 422
    assert data["field"] == "tallies[0].start" and "whole number" in data["error"]
    status, data = check(served, {"design": {**PAIRS, "title": "Chaos"}})
    assert status == 422 and data["field"] == "title" and "Chaos" in data["error"]


def test_check_reads_a_toml_design_file(served):
    text = ('format_version = 1\ntitle = "Toml Pairs"\nend = [{ when = "group" }]\n'
            'winner = { by = "most", tally = "pairs" }\nmoves = []\n'
            '[[tallies]]\nname = "pairs"\n')
    status, data = check(served, {"toml": text})
    assert status == 200, data
    assert data["design"]["title"] == "Toml Pairs"
    status, data = check(served, {"toml": "title = ["})
    assert status == 422 and "TOML" in data["error"]


@pytest.mark.parametrize("body", [
    {"design": "Pairs"}, {"design": None}, {"design": [1, 2]}, {}, {"toml": 3},
    {"design": PAIRS, "toml": "x"}, {"design": PAIRS, "seq": None},
    {"design": {**PAIRS, "tallies": "pairs"}}, {"design": {**PAIRS, "moves": [None] * 13}},
    {"design": {**PAIRS, "players": {"min": True}}},
    {"design": {**PAIRS, "end": [{"when": "reach", "tally": "pairs", "target": 10**30}]}},
    {"design": {**PAIRS, "title": "x" * 5000}},
    {"design": {**PAIRS, "house_rules": [{"a": [{"b": [{"c": [1]}]}]}]}},
])
def test_a_hostile_check_gets_words_and_a_4xx(served, body):
    status, data = check(served, body)
    assert 400 <= status < 500, data
    assert isinstance(data["error"], str) and data["error"]


def test_a_huge_or_deep_body_is_refused_before_it_is_read(served):
    huge = {"design": {**PAIRS, "house_rules": ["x" * 30] * 2000}}
    status, data = check(served, huge)
    assert status == 413 and "too large" in data["error"]
    deep = b'{"design": ' + b"[" * 40 + b"]" * 40 + b"}"
    status, data, _ = served.request("POST", "/api/design/check", raw=deep)
    assert status == 400 and "nested" in data["error"]
    status, data, _ = served.request("POST", "/api/design/check", raw=b'{"design": {')
    assert status == 400 and "JSON" in data["error"]


def test_the_largest_design_is_checked_and_saved(served):
    assert len(json.dumps({"design": BIG, "seq": None})) > 7000
    status, data = check(served, {"design": BIG})
    assert status == 200, data
    served.pair()
    status, data = served.post("/api/design/save", {"design": BIG})
    assert status == 200, data
    status, data = served.post("/api/design/picture", {"design": BIG})
    assert status == 200, data
    # Every other route keeps its 4 KiB.
    status, data = served.post("/api/roster", {"names": ["x" * 16] * 300})
    assert status == 413, data


def test_check_comes_from_the_box_own_pages(served):
    status, data, _ = served.request("POST", "/api/design/check", {"design": PAIRS},
                                     headers={"Origin": "http://evil.example"})
    assert status == 403


def test_a_guest_cannot_save_or_delete(served):
    status, data = served.post("/api/design/save", {"design": PAIRS})
    assert status == 401 and "pair" in data["error"]
    status, data = served.post("/api/design/delete", {"id": 1})
    assert status == 401
    assert designs.listed(served.store) == []


def test_a_paired_phone_saves_and_new_game_lists_it(served):
    served.pair()
    status, data = served.post("/api/design/save", {"design": PAIRS})
    assert status == 200, data
    saved = data["design"]
    assert saved["id"] == 1 and saved["version"] == 1 and saved["title"] == "Pairs to 6"
    assert saved["kind"] in games.kinds()
    assert saved["kind"] in [k["kind"] for k in served.get("/api/kinds")]
    assert listed(served) == [saved]
    # The design file, for another box: the design as it is kept.
    status, body, resp = served.request("GET", "/api/designs/1.json")
    assert status == 200 and body["title"] == "Pairs to 6" and body["version"] == 1
    assert "attachment" in resp.getheader("Content-Disposition")
    assert resp.getheader("Access-Control-Allow-Origin") == "*"
    status, png, resp = served.request("GET", "/api/designs/1.png")
    assert status == 200 and png.startswith(b"\x89PNG")
    # An edit is a new version of the same design.
    status, data = served.post("/api/design/save", {
        "design": {**PAIRS, "end": [{"when": "reach", "tally": "pairs", "target": 8}]},
        "replaces": 1})
    assert status == 200, data
    assert (data["design"]["id"], data["design"]["version"]) == (1, 2)
    assert [d["version"] for d in listed(served)] == [2]


def test_a_paired_phone_gets_the_panel_picture_of_the_start(served):
    status, data = served.post("/api/design/picture", {"design": PAIRS})
    assert status == 401  # a guest: the table preview only
    served.pair()
    status, data = served.post("/api/design/picture", {"design": PAIRS})
    assert status == 200, data
    png = base64.b64decode(data["png"])
    assert png.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(png)).size == (512, 256)
    status, data = served.post("/api/design/picture", {"design": {**PAIRS, "moves": 3}})
    assert status == 422 and data["error"]
    assert listed(served) == []  # nothing kept


def test_save_refuses_in_words(served):
    served.pair()
    status, data = served.post("/api/design/save", {"design": {**PAIRS, "title": "Penny Badger"}})
    assert status == 422 and "Penny Badger" in data["error"]
    status, data = served.post("/api/design/save", {"design": {**PAIRS, "moves": {}}})
    assert status == 422 and data["error"]
    status, data = served.post("/api/design/save", {"design": PAIRS, "replaces": 9})
    assert status == 422 and "no design 9" in data["error"]
    status, data = served.post("/api/design/save", {"design": PAIRS, "replaces": "1"})
    assert status == 400
    status, data = served.post("/api/design/save", {"design": PAIRS, "colour": "#fff"})
    assert status == 400 and "colour" in data["error"]
    assert designs.listed(served.store) == []


def test_delete_hides_and_keeps(served):
    served.pair()
    status, data = served.post("/api/design/save", {"design": PAIRS})
    kind = data["design"]["kind"]
    status, data = served.post("/api/design/delete", {"id": 1})
    assert status == 200, data
    assert listed(served) == [] and kind not in games.kinds()
    assert designs.get(served.store, 1).hidden  # kept, for the games played with it
    status, data, _ = served.request("GET", "/api/designs/1.json")
    assert status == 404
    status, data = served.post("/api/design/delete", {"id": 1})
    assert status == 404
    for bad in ({"id": "1"}, {"id": True}, {"id": 0}, {"id": 2**70}, {}):
        status, data = served.post("/api/design/delete", bad)
        assert status == 400, (bad, data)


def test_unknown_design_file_is_404(served):
    for path in ("/api/designs/7.json", f"/api/designs/{2**70}.json"):
        status, data, _ = served.request("GET", path)
        assert status == 404 and json.dumps(data)


# --- any body at all: words and a 4xx, or a preview; never an exception ----------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=4),
    max_leaves=20)
_KEYS = st.sampled_from(["format_version", "title", "tallies", "moves", "end", "winner", "pot",
                         "players", "round_score", "turn_order", "dice", "house_rules",
                         "color", "version"])


@settings(max_examples=300, deadline=None)
@given(st.one_of(_JSON, st.dictionaries(_KEYS, _JSON, max_size=8),
                 st.builds(lambda k, v: {**PAIRS, k: v}, _KEYS, _JSON)))
def test_any_design_is_checked_in_words(design):
    try:
        api.check_design_body({"design": design})
    except Refused as e:
        assert 400 <= e.status < 500 and e.reason
        return
    status, answer = web_designs.check({"design": design})
    assert status in (200, 422)
    assert answer["ok"] if status == 200 else answer["error"]


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_any_toml_text_is_checked_in_words(text):
    status, answer = web_designs.check({"toml": text})
    assert status in (200, 422) and (answer["ok"] or answer["error"])


def test_only_the_design_routes_take_a_larger_body():
    from companion.web import guard
    assert guard.body_limit("/api/design/check") == guard.DESIGN_BODY
    assert guard.body_limit("/api/design/save", 100) == guard.DESIGN_BODY
    assert guard.body_limit("/api/roster") == guard.MAX_BODY
    assert guard.body_limit("/api/designs", 100) == 100  # a GET's, as any other route's
