"""Every control of the phone's forms has a real label in words (docs/web.md, Accessibility).

The forms are data (companion/web/kinds.py) that control.js renders: a field's label, legend or
"what" is what a person sees beside it and what a screen reader says. Checked for every kind
registered, on a new game (/api/kinds) and in its demo game (the snapshot's `actions`): no field
without one, and nothing shown that is a raw key ("challengers", "dice.colors", "roll_off").
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from companion import games
from companion.gallery.web_shots import demos
from companion.rules.game import Header
from companion.web.kinds import Seen, fresh, render, to_json

# What each field tag shows as its label (the per-seat inputs are "<What>, <name>").
LABEL = {"choice": "label", "many": "legend", "radio": "legend", "tick": "label",
         "per-seat": "what", "ints": "what", "number": "what", "count": "what"}
KEYLIKE = re.compile(r"_|^[a-z]+\.[a-z0-9]|^[a-z]+[A-Z]")  # snake_case, dotted, camelCase


def _fields(items: list[Any]) -> Iterator[dict[str, Any]]:
    for f in items:
        if f.get("kind") in ("row",):
            yield from _fields(f["fields"])
        elif f.get("kind") == "seat-rows":
            yield f
            yield from _fields(f.get("cells", []))
        else:
            yield f


def problems(actions: list[Any]) -> list[str]:
    out = []
    for a in actions:
        shown = [(a.get("title") or "", "title")]
        shown += [(b["label"], "button") for b in a.get("buttons", [])]
        if a.get("submit"):
            shown.append((a["submit"]["label"], "button"))
        if a["kind"] == "form":
            for f in _fields(a["fields"]):
                tag = f["kind"]
                if tag not in LABEL:
                    continue
                text = f.get(LABEL[tag]) or ""
                # A lone select may be named by its form's title (kinds.Choice says so).
                lone = tag == "choice" and len(list(_fields(a["fields"]))) == 1
                if not text.strip() and not lone:
                    out.append(f"{a['title']}: field {f['name']!r} has no label")
                shown.append((text, f"field {f['name']!r}"))
                for o in f.get("options", []):
                    label = o.get("label") or (o["value"] if isinstance(o["value"], str) else "")
                    shown.append((label, f"an option of {f['name']!r}"))
        for text, what in shown:
            if text and KEYLIKE.search(text):
                out.append(f"{a.get('title', 'quick')}: {what} shows a key: {text!r}")
    return out


@pytest.mark.parametrize("kind", sorted(games.kinds()))
def test_a_new_games_controls_have_labels_in_words(kind):
    k = games.kinds()[kind]
    assert not problems(fresh(k, None)), problems(fresh(k, None))


@pytest.mark.parametrize("kind", sorted(demos()))
def test_a_game_in_progress_has_controls_with_labels_in_words(kind):
    k = games.kinds()[kind]
    players, rules, events = demos()[kind]
    g = k.rules
    header = g.check_header(Header(kind, tuple(players), 0, rules))
    state = g.fold(header, events)
    seen = Seen(to_json(g.summary(state)), header.players, to_json(dict(header.rules)),
                g.question(state, events[-1] if events else None))
    actions = render(k, seen)[1]  # the table kind has none of its own: the common buttons
    assert not problems(actions), problems(actions)


def test_the_check_finds_a_raw_key_and_a_missing_label():
    """The checker itself: a field with no label and a key shown as an option both fail."""
    bad = [{"kind": "form", "title": "Claim", "submit": {"label": "Settle"},
            "fields": [{"kind": "many", "name": "challenger", "legend": "", "options": []},
                       {"kind": "choice", "name": "x", "label": "Die",
                        "options": [{"value": "roll_off"}]}]}]
    found = problems(bad)
    assert any("no label" in p for p in found) and any("roll_off" in p for p in found), found


def test_every_house_rule_has_a_label_in_words():
    """New game's house rule fields (/api/kinds `rule_labels`): every kind's rules and the
    common deck owner; a key a kind leaves unlabelled is made into words, not shown raw."""
    from companion.web.kinds import rule_labels
    for kind, k in games.kinds().items():
        keys = [*k.rules.default_rules, "deck_owner", "max_hand"]
        labels = rule_labels(k, keys)
        assert set(labels) == set(keys)
        for key, words in labels.items():
            assert words != key and not KEYLIKE.search(words), (kind, key, words)
    assert rule_labels(games.kinds()["table"], ["max_hand"]) == {"max_hand": "Max hand"}
