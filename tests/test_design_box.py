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


def test_the_designs_games_were_played_with_are_named_by_title_on_a_box_that_forgot_them(
        tmp_path):
    """/games, /stats and the panel's records name a game by its kind's title: a design the
    box's registry does not know (edited, deleted, never saved here; a new process) is
    registered from the games' own headers when the designs are offered (start-up), so it
    reads "Forgotten Pot", never "design:<hash>"."""
    d = replace(load(example("penalty-pot")), title="Forgotten Pot")
    k = games.design_kind(d.to_json())
    with Store(tmp_path / "journal.db") as store:
        store.new_game(k.rules.check_header(Header(k.kind, ("Ann", "Ben"), 0, {})))
        store.db.execute("INSERT INTO games (header, created) VALUES ('not json', 0)")
    games._DESIGNS.pop(k.kind)
    games._DESIGN_TEXTS.clear()
    assert games.title(k.kind) == k.kind  # as a box that never saw it had it
    with Store(tmp_path / "journal.db") as store:
        designs.offer(store)
    assert games.title(k.kind) == "Forgotten Pot"


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


def test_saving_a_kept_design_again_keeps_nothing_new(store):
    """The same design saved twice (a second Save; a draft saved again after a reload, as a
    new design or as a version of itself) is that design: no second row, its version back,
    `unchanged` (issue 37: "Your designs" listed "Steal 3" twice)."""
    first = designs.save(store, load(example("penalty-pot")))
    assert not first.unchanged
    for again in (designs.save(store, load(example("penalty-pot"))),
                  designs.save(store, replace(first.design, version=5)),
                  designs.save(store, first.design, replaces=first.id)):
        assert again.unchanged and (again.id, again.version, again.kind) == (1, 1, first.kind)
    assert store.db.execute("SELECT COUNT(*) FROM designs").fetchone()[0] == 1
    edited = designs.save(store, replace(first.design, pot=12), replaces=first.id)
    assert not edited.unchanged and edited.version == 2
    # Back to the first content: a new version (the newest is what New game plays).
    back = designs.save(store, replace(edited.design, pot=first.design.pot), replaces=1)
    assert not back.unchanged and back.version == 3 and back.kind != first.kind
    assert [(s.id, s.version) for s in designs.listed(store)] == [(1, 3)]


def test_a_new_design_may_not_take_a_kept_design_s_title(store):
    """Two designs of one title would be one line twice in New game: a new design with a
    kept one's title (in any case) is refused in words; Edit keeps a new version of it; a
    deleted design's title is free again."""
    first = designs.save(store, load(example("penalty-pot")))
    other = replace(first.design, pot=9)
    for title in ("Penalty Pot", "penalty pot"):
        with pytest.raises(DesignError, match="already one of your designs") as e:
            designs.save(store, replace(other, title=title))
        assert e.value.field == "title"
    assert designs.save(store, other, replaces=first.id).version == 2  # Edit: a new version
    second = designs.save(store, replace(other, title="Pot Two", pot=3))
    with pytest.raises(DesignError, match="'Penalty Pot' is already one of your designs"):
        designs.save(store, replace(second.design, title="Penalty Pot"), replaces=second.id)
    designs.hide(store, first.id)
    assert designs.save(store, replace(other, pot=4)).id == 3
    assert [s.design.title for s in designs.listed(store)] == ["Pot Two", "Penalty Pot"]


def test_an_edit_keeping_its_title_is_kept_where_an_older_journal_has_two_of_it(store):
    """A journal from before titles were told apart may list two designs of one title (the
    tryout's "Steal 3" twice): editing either, keeping its title, makes a new version; taking
    the title of a third is still refused."""
    first = designs.save(store, load(example("penalty-pot")))
    text = games.canonical_text(replace(first.design, pot=9, version=1).to_json())
    store.db.execute("INSERT INTO designs(id, version, design, checksum, hidden, created) "
                     "VALUES (2, 1, ?, ?, 0, 0)",
                     (text, designs.row_checksum(2, 1, text, False, 0.0)))  # as an older box
    store.db.commit()
    assert [s.design.title for s in designs.listed(store)] == ["Penalty Pot", "Penalty Pot"]
    for id in (1, 2):
        kept = designs.save(store, replace(first.design, pot=20 + id), replaces=id)
        assert (kept.id, kept.version, kept.unchanged) == (id, 2, False)
    third = designs.save(store, replace(first.design, title="Pot Three", pot=3))
    with pytest.raises(DesignError, match="already one of your designs"):
        designs.save(store, replace(third.design, title="Penalty Pot"), replaces=third.id)


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


# --- export, import and replay -----------------------------------------------------------------

def _forget(kind: str) -> None:
    """As on a box that never saw the design: the registry forgets it."""
    games._DESIGNS.pop(kind, None)
    games._DESIGN_TEXTS.clear()


def test_export_import_replay_round_trip_of_a_design_never_saved(tmp_path, capsys):
    from companion import cli
    d = replace(load(example("penalty-pot")), title="Travelling")
    k = games.design_kind(d.to_json())
    rng = random.Random(5)
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    with Store(here) as store:
        j = store.new_game(k.rules.check_header(Header(k.kind, ("Ann", "Ben", "Cy"), 1, {})))
        for _ in range(60):
            if j.state.over:
                break
            j.append(k.sample(rng, 3, j.state))
        want = j.game.text(j.state, j.header)
        gid = store.game_id(j)
        assert designs.listed(store) == []  # never saved: only the header has it
    log = tmp_path / "game.jsonl"
    _forget(k.kind)
    assert cli.main(["export", "--journal", str(here), "--game", str(gid), "-o",
                     str(log)]) == 0
    first = json.loads(log.read_text().splitlines()[0])
    assert first["game"] == k.kind and first["rules"]["design"] == d.to_json()
    _forget(k.kind)
    capsys.readouterr()
    assert cli.main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.strip() == want
    _forget(k.kind)
    assert cli.main(["import", "--journal", str(there), str(log)]) == 0
    assert "Travelling" in capsys.readouterr().out
    _forget(k.kind)
    with Store(there) as store:
        (info,) = store.games()
        again = store.load(info.id)
    assert again.game.text(again.state, again.header) == want


# --- the panel: a design game pressed like any kind ----------------------------------------------

def test_a_design_game_on_the_panel_moves_undo_redo_and_calls(tmp_path):
    from companion.inputs import Button
    from companion.session import calls
    from companion.testing import RecordingSpeaker, choose, close, make_app, press
    k = games.design_kind(example("penalty-pot"))
    speaker = RecordingSpeaker()
    app = make_app(tmp_path, kind=k.kind, players=("Ann", "Ben", "Cy"), setup=False,
                   speaker=speaker)
    try:
        j = app.journal
        assert j.header.rules["design"] == k.rules.design.to_json()
        press(app, Button.UP)  # the first move: Penalty
        assert j.events[-1] == {"type": "move", "name": "Penalty"}
        assert j.state.pot == 7 and j.state.tallies[0][0] == 8 and j.state.table.current == 1
        line = j.describe(len(j.events) - 1)
        assert line == "Ann: Penalty, pays 2 to the pot"
        said = [c.text for c in calls.of_change(j, "append", j.events[-1], 0)]
        assert said[0] == "Ann: Penalty, pays 2 to the pot", said
        assert "Ann: Penalty, pays 2 to the pot" in speaker.texts
        press(app, Button.OK)
        choose(app, "Steal…")
        choose(app, "Cy")
        assert j.events[-1] == {"type": "move", "name": "Steal", "player": 2}
        press(app, Button.OK)
        choose(app, "Jackpot…")
        press(app, Button.UP, Button.UP, Button.OK)
        assert j.events[-1] == {"type": "move", "name": "Jackpot", "amount": 3}
        n = len(j.events)
        press(app, Button.BACK, hold=True)
        assert len(j.events) == n - 1
        press(app, Button.OK)
        choose(app, "Redo")
        assert len(j.events) == n
        press(app, Button.NEXT)
        assert j.events[-1] == {"type": "next"}
        press(app, Button.ROLL)
        assert set(j.events[-1]["dice"]) == {"d6"}
    finally:
        close(app)


def test_a_roll_off_and_a_round_score_on_the_panel(tmp_path):
    from companion.inputs import Button
    from companion.testing import close, make_app, press
    k = games.design_kind(example("ten-rounds"))
    app = make_app(tmp_path, kind=k.kind, players=("Ann", "Ben"), setup=False)
    try:
        j = app.journal
        assert j.state.rolling
        while j.state.rolling:
            press(app, Button.ROLL)
        assert not j.state.rolling
        press(app, Button.OK)  # the roll's screen, back to the game
        assert type(app.top).__name__ == "DesignScreen"
        press(app, Button.OK)
        from companion.testing import choose
        choose(app, "Round scores…")
        press(app, Button.UP, Button.UP, Button.OK, Button.UP, Button.OK)
        assert j.events[-1] == {"type": "score", "scores": [2, 1]}
        assert j.state.tallies[0] == (2, 1) and j.state.round == 1
    finally:
        close(app)


def test_new_game_lists_the_kept_designs_after_the_nine_marked_ours(tmp_path):
    from companion.inputs import Button
    from companion.testing import choose, close, make_app, press
    with Store(tmp_path / "journal.db") as store:
        saved = designs.save(store, load(example("patch-pairs")))
        hidden = designs.save(store, load(example("flower-count")))
        designs.hide(store, hidden.id)
    games.offer_designs([])  # as at a new start: the app registers them
    app = make_app(tmp_path)
    try:
        assert games.offered_designs() == [saved.kind]
        press(app, Button.OK)  # the start menu's New game
        labels = [i.text(app.ctx()) for i in app.top.items]
        assert labels[-1] == "Patch Pairs (ours)" and "Flower Count (ours)" not in labels
        assert len(labels) == 10
        choose(app, "Patch Pairs (ours)")
        press(app, Button.OK)
        j = app.journal
        assert j.header.game == saved.kind
        assert j.header.rules["design"] == saved.design.to_json()
    finally:
        close(app)


# --- statistics: a design's games together, by its title ------------------------------------

def test_stats_count_every_version_of_a_design_together_by_its_title(tmp_path, capsys):
    from companion import cli
    from companion.session.tally import History
    path = tmp_path / "journal.db"
    with Store(path) as store:
        v1 = designs.save(store, load(example("patch-pairs")))
        v2 = designs.save(store, replace(v1.design, color="#123456"), replaces=v1.id)
        for saved, winner in ((v1, 0), (v2, 1), (v2, 1)):
            k = games.get(saved.kind)
            j = store.new_game(k.rules.check_header(Header(saved.kind, ("Ann", "Ben"), 0, {})))
            j.append({"type": "move", "name": "Pair for", "player": winner})
            j.append({"type": "end"})
            store.close_game(j)
        stats = History(store, save=True).stats()
    assert stats.totals["by_game"] == {v2.kind: 3}
    assert stats.players["Ben"]["by_game"][v2.kind]["won"] == 2
    assert stats.players["Ben"]["by_game"][v2.kind]["score"] == "pairs"
    # Another start, the old version never registered: its saved record still counts with it
    _forget(v1.kind)
    games.offer_designs([])
    _forget(v2.kind)
    capsys.readouterr()
    assert cli.main(["stats", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Patch Pairs" in out and "design:" not in out
    with Store(path) as store:
        stats = History(store).stats()
    assert list(stats.totals["by_game"].values()) == [3]


def test_the_next_seat_each_game_goes_first_in_a_new_game(tmp_path):
    from companion.testing import close, make_app
    from companion.ui import actions as A
    k = games.design_kind(example("penalty-pot"))  # first = "next_seat"
    other = games.design_kind(example("patch-pairs"))  # the group picks
    app = make_app(tmp_path)
    try:
        names = ("Ann", "Ben", "Cy")
        assert app.perform(A.NewGame(Header(k.kind, names, 0, {})))
        assert app.journal.header.first == 0  # no game of it yet
        assert app.perform(A.NewGame(Header(other.kind, names, 0, {})))
        assert app.journal.header.first == 0
        assert app.perform(A.NewGame(Header(k.kind, names, 0, {})))
        assert app.journal.header.first == 1  # the seat after the last game's of this design
        assert app.perform(A.NewGame(Header(k.kind, names, 0, {})))
        assert app.journal.header.first == 2
    finally:
        close(app)


def test_an_unfinished_design_game_resumes_after_a_restart_that_forgot_the_design(tmp_path):
    from companion.inputs import Button
    from companion.testing import close, make_app, press
    d = replace(load(example("patch-pairs")), title="Resumed")
    k = games.design_kind(d.to_json())
    app = make_app(tmp_path, kind=k.kind, players=("Ann", "Ben"), setup=False)
    try:
        press(app, Button.UP, Button.NEXT, Button.UP)
        want = app.journal.state
    finally:
        close(app)
    _forget(k.kind)  # a restart: the design was never saved, only the game's header has it
    app = make_app(tmp_path)
    try:
        assert app.journal is not None and app.journal.header.game == k.kind
        assert app.journal.state == want and app.store.notice == ""
        assert type(app.top).__name__ == "DesignScreen"
    finally:
        close(app)


def test_the_turn_clock_and_the_seat_lights_follow_a_design_game(tmp_path):
    from companion.inputs import Button
    from companion.testing import FakeClock, RecordingRing, close, drain, make_app, press
    k = games.design_kind(example("penalty-pot"))
    clock, ring = FakeClock(), RecordingRing()
    app = make_app(tmp_path, kind=k.kind, players=("Ann", "Ben", "Cy"), setup=False,
                   clock=clock, ring=ring, rules={"turn_limit": 10})
    try:
        app.render()
        clock.advance(4)
        drain(app)
        assert app.turn_clock.reading().seat == 0
        press(app, Button.UP)  # Penalty ends Ann's turn
        clock.advance(3)
        drain(app)
        r = app.turn_clock.reading()
        assert r.seat == 1 and r.totals[0] == 4 and r.elapsed == 3
        lights = app.lights.snapshot()
        assert lights is not None and "Ben" in lights["words"]
        press(app, Button.BACK, hold=True)  # undo: Ann's turn again
        assert app.turn_clock.reading().seat == 0
        assert "Ann" in app.lights.snapshot()["words"]
    finally:
        close(app)
