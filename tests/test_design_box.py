"""The box keeps designs and plays them like any kind (issue 37, section 2): the journal's
designs table (companion/session/designs.py), the registry's design kinds
(companion/games/__init__.py: design_kind, for_header, offer_designs) and the generic kind
package (companion/games/design/: kind_for)."""

from __future__ import annotations

import json
import random
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from companion import games
from companion.errors import DesignError, IllegalEvent
from companion.rules.design import load
from companion.rules.game import Header
from companion.session import designs
from companion.session.store import Store

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples" / "designs").glob("*.toml"))


def example(stem: str) -> dict:
    with open(ROOT / "examples" / "designs" / f"{stem}.toml", "rb") as f:
        return tomllib.load(f)


@pytest.fixture(autouse=True)
def no_offered_designs():
    """Each test starts and ends with New game offering no design (the registry is global)."""
    games.offer_designs([])
    yield
    games.offer_designs([])


# --- the kind name and the registry ------------------------------------------------------------

def test_a_design_s_kind_name_is_the_hash_of_its_canonical_json():
    import hashlib
    d = load(example("penalty-pot"))
    text = json.dumps(d.to_json(), sort_keys=True, separators=(",", ":"))
    name = "design:" + hashlib.sha256(text.encode()).hexdigest()[:12]
    assert games.design_name(d.to_json()) == name
    k = games.design_kind(example("penalty-pot"))
    assert k.kind == name and k.rules.kind == name
    assert games.get(name) is k and games.find(name) is k
    assert games.design_kind(d.to_json()) is k  # idempotent, whatever form the JSON had
    edited = replace(d, version=2).to_json()
    assert games.design_kind(edited).kind != name  # each version is its own kind


def test_kind_for_builds_the_design_s_kind():
    from companion.games.design import kind_for
    k = kind_for(example("penalty-pot"))
    d = load(example("penalty-pot"))
    assert k.title == d.title and k.color == d.color and k.order == 95 and k.web is not None
    assert k.scoring is not None and k.sample is not None
    assert k.mode.kind == k.kind
    with pytest.raises(DesignError):
        kind_for({"title": "no"})


def test_the_design_entry_point_is_where_the_registry_looks():
    from importlib.metadata import entry_points
    eps = {ep.name: ep.value for ep in entry_points(group=games.DESIGN_GROUP)}
    assert eps == {"design": games.DESIGN_ENTRY}


def test_an_unregistered_design_name_is_unknown_and_design_is_no_kind():
    assert games.find("design:000000000000") is None
    assert games.find("design") is None


def test_kinds_lists_only_the_offered_designs_after_the_built_ins():
    names = [games.design_kind(example(p.stem)).kind for p in EXAMPLES]
    assert not any(games.is_design(k) for k in games.kinds())
    games.offer_designs(names[:2])
    listed = list(games.kinds())
    assert [k for k in listed if games.is_design(k)] == sorted(
        names[:2], key=lambda n: games.get(n).title.casefold())
    assert all(not games.is_design(k) for k in listed[:-2])
    games.offer_designs([])
    assert not any(games.is_design(k) for k in games.kinds())


# --- the header carries the design ------------------------------------------------------------

def test_the_header_carries_the_design_and_cannot_lie():
    k = games.design_kind(example("patch-pairs"))
    canonical = k.rules.design.to_json()
    h = k.rules.check_header(Header(k.kind, ("Ann", "Ben"), 0, {}))
    assert h.rules["design"] == canonical
    other = load(example("penalty-pot")).to_json()
    with pytest.raises(IllegalEvent, match="design"):
        k.rules.check_header(Header(k.kind, ("Ann", "Ben"), 0, {"design": other}))
    # the same design with its keys in another order is the same design
    shuffled = dict(reversed(list(canonical.items())))
    assert k.rules.check_header(Header(k.kind, ("Ann", "Ben"), 0, {"design": shuffled}))


def test_a_header_registers_its_design_before_the_game_is_folded():
    d = replace(load(example("ten-rounds")), title="Header only")
    canonical = d.to_json()
    name = games.design_name(canonical)
    assert games.find(name) is None
    header = Header(name, ("Ann", "Ben"), 0, {"design": canonical})
    from companion.session.journal import game_for
    assert game_for(header).kind == name
    assert games.get(name).title == "Header only"
    lying = Header("design:000000000000", ("Ann", "Ben"), 0, {"design": canonical})
    with pytest.raises(IllegalEvent, match="header's design"):
        games.for_header(lying)


def test_a_design_game_is_journaled_and_replays_on_a_box_that_never_saw_the_design(tmp_path):
    d = replace(load(example("penalty-pot")), title="Elsewhere")
    canonical = d.to_json()
    k = games.design_kind(canonical)
    rng = random.Random(3)
    with Store(tmp_path / "journal.db") as store:
        j = store.new_game(k.rules.check_header(Header(k.kind, ("Ann", "Ben", "Cy"), 0, {})))
        for _ in range(40):
            if j.state.over:
                break
            j.append(k.sample(rng, 3, j.state))
        want = j.state
        gid = store.game_id(j)
    # Another box: the registry has never seen the design
    games._DESIGNS.pop(k.kind)
    games._DESIGN_TEXTS.clear()
    with Store(tmp_path / "journal.db") as store:
        again = store.load(gid)
    assert again.state == want
    assert games.get(k.kind).title == "Elsewhere"


# --- the journal's designs ------------------------------------------------------------------

def test_save_list_get_hide(store):
    assert designs.listed(store) == []
    first = designs.save(store, load(example("penalty-pot")))
    other = designs.save(store, load(example("patch-pairs")))
    assert (first.id, first.version, other.id) == (1, 1, 2)
    edited = designs.save(store, replace(first.design, pot=12), replaces=first.id)
    assert (edited.id, edited.version, edited.design.version) == (1, 2, 2)
    assert edited.kind != first.kind and edited.kind == games.design_name(edited.design.to_json())
    assert [(s.id, s.version) for s in designs.listed(store)] == [(1, 2), (2, 1)]
    assert designs.get(store, 1) == edited
    assert designs.get(store, 1, 1) == first
    assert designs.get(store, 3) is None
    assert games.offered_designs() == [edited.kind, other.kind]
    assert games.find(first.kind) is not None  # an old version still plays its games
    designs.hide(store, 1)
    assert [s.id for s in designs.listed(store)] == [2]
    assert designs.get(store, 1).hidden and designs.get(store, 1, 1).hidden
    assert games.offered_designs() == [other.kind]
    assert not any(k == edited.kind for k in games.kinds())


def test_a_design_may_not_take_a_built_in_kind_s_title_or_name(store):
    d = load(example("penalty-pot"))
    for title in ("Pig Farm", "pig farm", "Chaos"):
        with pytest.raises(DesignError, match="title"):
            designs.save(store, replace(d, title=title))
    with pytest.raises(DesignError, match="no design 7"):
        designs.save(store, d, replaces=7)
    assert designs.listed(store) == []


def test_a_changed_row_is_left_out(store):
    saved = designs.save(store, load(example("penalty-pot")))
    store.db.execute("UPDATE designs SET design = replace(design, '\"pot\"', '\"pot\"')")
    assert designs.listed(store) == [saved]
    store.db.execute("UPDATE designs SET hidden = 1")  # by hand: the checksum says so
    assert designs.listed(store) == [] and designs.get(store, saved.id) is None


def test_an_older_journal_without_the_table_has_no_designs_and_gets_it_on_first_save(tmp_path):
    with Store(tmp_path / "journal.db") as store:
        assert store.db.execute("SELECT name FROM sqlite_master WHERE name='designs'"
                                ).fetchone() is None
        assert designs.listed(store) == [] and designs.get(store, 1) is None
        designs.save(store, load(example("flower-count")))
    with Store(tmp_path / "journal.db") as store:
        assert [s.design.title for s in designs.listed(store)] == [
            load(example("flower-count")).title]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_plays_a_sample_game_to_its_end(path):
    k = games.design_kind(example(path.stem))
    rng = random.Random(path.stem)
    header = k.rules.check_header(Header(k.kind, ("Ann", "Ben", "Cy", "Dee"), 0, {}))
    state = k.rules.initial(header)
    for _ in range(400):
        if state.over:
            break
        state = k.rules.apply(state, k.sample(rng, 4, state))
    assert k.scoring is not None
    assert len(k.scoring.score(state)) == 4
