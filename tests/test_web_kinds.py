"""Each game kind's web part is declared in its own package (issue 19): its phone forms and its
game view (companion/web/kinds.py is the vocabulary). The declarations of every installed kind
must hold together: every button sends an event the kind's rules take, with fields its move
takes; every tag is one the pages render; every view renders. And no file outside a kind's
package names a kind."""

from __future__ import annotations

import json
import logging
import random
import re
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

from companion import games
from companion.errors import IllegalEvent
from companion.games import GameKind
from companion.rules.game import Game, Header
from companion.session.journal import Journal
from companion.web import kinds as kw
from companion.web.snapshot import build

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "companion" / "web" / "static"

ACTION_TAGS = {"form", "quick"}
FIELD_TAGS = {"choice", "many", "radio", "tick", "per-seat", "seat-rows", "note", "row"}
CELL_TAGS = {"ints", "number"}
WIDGET_TAGS = {"stat", "chip-stat", "chips-stat", "dice", "garden", "rounds", "note"}


# --- checking declarations ---------------------------------------------------------------------

def _walk(items: Sequence[kw.Field]) -> list[kw.Field]:
    out: list[kw.Field] = []
    for f in items:
        out += _walk(f.fields) if isinstance(f, kw.Row) else [f]
    return out


def problems(found: Sequence[kw.Action], game: Game) -> list[str]:
    """What is wrong with these actions for `game`'s rules: an event type it has no move for,
    a field its move does not take, a field name used twice, an `only_if`/`follows` naming no
    field of the form, a form no button sends."""
    out: list[str] = []
    for a in found:
        sends = list(a.buttons) + ([a.submit] if isinstance(a, kw.Form) and a.submit else [])
        where = f"{a.tag} {getattr(a, 'name', '') or a.title!r}"
        if not sends:
            out.append(f"{where}: no button sends it")
        own = _walk(a.fields) if isinstance(a, kw.Form) else []
        names = [f.name for f in own if not isinstance(f, (kw.Note, kw.SeatRows))]
        if len(set(names)) != len(names):
            out.append(f"{where}: a field name is used twice: {names}")
        keys = {(getattr(f, "key", "") or getattr(f, "name", "")).split(".")[0]
                for f in own if not isinstance(f, kw.Note)}
        for f in own:
            for ref in (getattr(f, "only_if", ""), getattr(f, "follows", "")):
                if ref and ref not in names:
                    out.append(f"{where}: {f.name} refers to {ref!r}, not a field of the form")
        for s in sends:
            kind = s.event.get("type")
            move = game.moves.get(kind) if isinstance(kind, str) else None
            if move is None:
                out.append(f"{where}: {s.label!r} sends {kind!r}, not an event of {game.kind}")
                continue
            extra = (set(s.event) | keys) - {"type"} - move.fields
            if extra:
                out.append(f"{where}: {kind} takes no field {sorted(extra)[0]!r}")
    return out


def filled_event(form: kw.Form, base: dict[str, Any], seats: int) -> dict[str, Any]:
    """The event the form sends as control.js builds it once the players have filled in their
    inputs (the first option of a choice with no default, the lowest number), the rest as
    it first shows (its defaults)."""
    event = json.loads(json.dumps(base))
    values: dict[str, Any] = {}
    for f in _walk(form.fields):
        if isinstance(f, kw.Note) or (getattr(f, "only_if", "") and not values.get(f.only_if)):
            continue
        v: Any = None
        if isinstance(f, kw.Choice):
            opts = f.options_by.get(str(values.get(f.follows)), ()) if f.follows else f.options
            o = next((o for o in opts if o.value == f.default), opts[0])
            v = o.value if o.send is None else o.send
        elif isinstance(f, kw.Many):
            v = []
        elif isinstance(f, kw.PerSeat):
            v = [f.low] * seats
            if f.need is not None:
                v[0] = f.need
        elif isinstance(f, kw.SeatRows):
            v = [{c.key: [] if isinstance(c, kw.Ints) else c.low for c in f.cells}
                 for _ in range(seats)]
        values[getattr(f, "name", "")] = v
        if v is None:
            continue
        path = (f.key or f.name).split(".")
        at: Any = event
        for i, p in enumerate(path[:-1]):
            if isinstance(at, list):
                p = int(p)
                while len(at) <= p:
                    at.append(None)
            if (at[p] if isinstance(at, list) else at.get(p)) is None:
                at[p] = [] if path[i + 1].isdigit() else {}
            at = at[p]
        if isinstance(at, list):
            while len(at) <= int(path[-1]):
                at.append(None)
            at[int(path[-1])] = v
        else:
            at[path[-1]] = v
    return event


def tags(v: Any, key: str = "kind") -> set[str]:
    """Every "kind" tag in a JSON value."""
    if isinstance(v, dict):
        return ({v[key]} if isinstance(v.get(key), str) else set()) | \
            set().union(*(tags(x) for x in v.values()))
    if isinstance(v, list):
        return set().union(*(tags(x) for x in v))
    return set()


# --- the games the declarations are checked on -------------------------------------------------

def journals(kind: GameKind) -> list[Journal]:
    """A new game with the fewest and with 6 players (or the most), the demo, and states along
    a few random sample games."""
    g = kind.rules
    out = []
    for n in sorted({g.min_players, max(g.min_players, min(6, g.max_players))}):
        out.append(Journal(Header(kind.kind, tuple(f"P{i + 1}" for i in range(n)), 0, {})))
    if kind.demo is not None:
        out.append(Journal(Header(kind.kind, kind.demo.players, 0, dict(kind.demo.rules)),
                           [dict(e) for e in kind.demo.events]))
    if kind.sample is not None:
        out += along_samples(kind, seeds=3, moves=40, every=8, first=lambda seed: seed % 4)
    return out


def along_samples(kind: GameKind, *, seeds: int, moves: int, every: int,
                  first: Callable[[int], int]) -> list[Journal]:
    """States along `seeds` random sample games of 4 players (the kind's `sample` moves, up to
    `moves` tries each, seat `first(seed)` first): one every `every` events, and each end."""
    assert kind.sample is not None
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        j = Journal(Header(kind.kind, ("A", "B", "C", "D"), first(seed), {}))
        for _ in range(moves):
            if j.state.over:
                break
            try:
                j.append(kind.sample(rng, 4, j.state))
            except IllegalEvent:
                continue
            if len(j.events) % every == 0:
                out.append(Journal(j.header, list(j.events)))
        out.append(j)
    return out


def seen(j: Journal) -> kw.Seen:
    snap = build(j, seq=1)
    return kw.Seen(snap["state"], tuple(snap["players"]), snap["rules"], snap["ask"])


KINDS = list(games.kinds())


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_declares_a_web_part(kind):
    k = games.get(kind)
    assert isinstance(kw.part(k), kw.KindWeb), f"{kind} has no web part (GameKind(web=...))"


@pytest.mark.parametrize("kind", KINDS)
def test_every_form_sends_events_the_rules_take(kind):
    k = games.get(kind)
    for j in journals(k):
        s = seen(j)
        found = kw.actions(k, s)
        assert not problems(found, k.rules), (j.events, problems(found, k.rules))
        # Filled in, the forms' events are well formed for the engine: it may refuse a move
        # (a trade with oneself), never its shape; and the box lets them through to it.
        for a in found:
            sends = [a.submit] if isinstance(a, kw.Form) and a.submit else list(a.buttons)
            for b in sends:
                e = filled_event(a, dict(b.event), len(s.players)) if isinstance(a, kw.Form) \
                    else dict(b.event)
                assert kw.refusal(k, s, e) is None, (a, e, kw.refusal(k, s, e))
                try:
                    k.rules.apply(j.state, e)
                except IllegalEvent as why:
                    assert not re.match(r"(unknown event type|\w+: (unknown|missing) field)",
                                        str(why)), (a, e, str(why))


@pytest.mark.parametrize("kind", KINDS)
def test_every_tag_is_one_the_pages_render(kind):
    control = (STATIC / "control.js").read_text()
    table = (STATIC / "table.js").read_text()
    k = games.get(kind)
    for j in journals(k):
        view, actions = kw.render(k, seen(j))
        assert view is not None
        for a in actions:
            assert a["kind"] in ACTION_TAGS
            for f in a.get("fields", []):
                assert tags(f) <= FIELD_TAGS | CELL_TAGS, tags(f)
        assert {w["kind"] for w in view.get("stats", [])} <= WIDGET_TAGS
    for tag in FIELD_TAGS | CELL_TAGS | ACTION_TAGS:
        assert f'"{tag}"' in control, f"control.js renders no {tag!r}"
    for tag in WIDGET_TAGS:
        assert f'case "{tag}"' in table, f"table.js renders no {tag!r}"


@pytest.mark.parametrize("kind", [k for k, v in games.kinds().items() if v.demo is not None])
def test_the_view_of_each_demo_game_renders(kind, caplog):
    k = games.get(kind)
    j = Journal(Header(kind, k.demo.players, 0, dict(k.demo.rules)),
                [dict(e) for e in k.demo.events])
    with caplog.at_level(logging.ERROR):
        snap = build(j, seq=1)
    assert not caplog.records
    view = snap["view"]
    assert view["stats"], "an empty game panel"
    for c in view.get("columns", []):
        assert len(c["cells"]) == len(k.demo.players), c["name"]
    json.dumps(snap)  # the whole snapshot is JSON


def test_the_question_the_game_asks_comes_first_as_its_own_form():
    k = next(k for k in games.kinds().values() if kw.part(k) and kw.part(k).asks and k.demo)
    j = Journal(Header(k.kind, k.demo.players, 0, dict(k.demo.rules)))
    for e in k.demo.events:
        j.append(dict(e))
        snap = build(j, seq=len(j.events))
        asked = snap["ask"] is not None and snap["ask"]["kind"] in kw.part(k).asks
        assert bool(snap["actions"] and snap["actions"][0].get("ask")) == asked
        if asked:
            break
    else:
        pytest.fail(f"{k.kind}'s demo never asks its question")


def test_api_kinds_has_the_forms_of_a_new_game_of_each_kind():
    for k in games.kinds().values():
        found = kw.fresh(k)
        assert isinstance(found, list)
        assert json.loads(json.dumps(found)) == found
    # A kind with forms shows them in /api/kinds (server.Web.kinds uses fresh()).
    assert any(kw.fresh(k) for k in games.kinds().values())


def test_a_failing_declaration_is_logged_and_the_snapshot_goes_on(monkeypatch, caplog):
    table = games.get(Game.kind)

    def broken(s):
        raise KeyError("no such field")

    bad = GameKind(rules=table.rules, panel=table.panel, web=kw.KindWeb(view=broken))
    monkeypatch.setattr(games, "_KINDS", {Game.kind: bad})
    with caplog.at_level(logging.ERROR):
        snap = build(Journal(Header(Game.kind, ("Ann", "Ben"), 0, {})), seq=3)
    assert snap["view"] is None and snap["actions"] == [] and snap["state"]["current"] == 0
    assert "its web view or actions failed" in caplog.text


def test_json_leaves_out_empty_optional_fields_and_keeps_required_ones():
    assert kw.to_json(kw.Option(False, "a bluff")) == {"value": False, "label": "a bluff"}
    assert kw.to_json(kw.Option("")) == {"value": ""}
    assert kw.to_json(kw.Stat("x", "0")) == {"kind": "stat", "label": "x", "value": "0"}
    assert kw.to_json(kw.PerSeat("p", "points", 0, 9, need=0))["need"] == 0
    assert kw.to_json(kw.ChipStat("color", None)) == {"kind": "chip-stat", "label": "color",
                                                      "color": None, "none": "none",
                                                      "style": "huge"}


# --- the players' inputs (issue 26, items 3 and 6) --------------------------------------------

def _fields(actions: list[Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Every field of the forms (as JSON), by (form name, field name or key)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}

    def walk(form: str, items: list[Any]) -> None:
        for f in items:
            if f["kind"] == "row":
                walk(form, f["fields"])
            elif f["kind"] != "note":
                out[(form, f.get("name") or f["key"])] = f
    for a in actions:
        if a["kind"] == "form":
            walk(a["name"], a.get("fields", []))
    return out


# What the players read off their cards and dice: no default, so an untouched form sends
# nothing (Chaos scored [0, 0, 0]; Match Patch 0 0 0; a Dice Factor roll-off 1 1 1).
PLAYERS_INPUTS = {
    "chaos": [("round_points", "points"), ("color", "color"), ("swap", "b")],
    "match-patch": [("pips", "pips")],
    "dice-factor": [("roll_off", "roll"), ("targets", "colors"), ("targets", "shapes"),
                    ("d8", "d8"), ("trade", "player"), ("win", "player")],
    # Who won: one tap on Wins with the current player already chosen ended the game.
    "rainbow-rush": [("win", "player")],
    "penny-badger": [("claim", "cards")],
    "pig-farm": [("butcher", "face")],
    "flower-power": [("petals", "color"), ("petals", "count")],
    "drop-rainbow": [("reveal", "color")],
}


@pytest.mark.parametrize("kind", sorted(PLAYERS_INPUTS))
def test_the_players_inputs_start_empty(kind):
    fields = _fields(kw.fresh(games.get(kind)))
    for where in PLAYERS_INPUTS[kind]:
        assert "default" not in fields[where], (where, fields[where])
    # No number a player types has a default, in any kind (a plugin's cannot declare one).
    for f in fields.values():
        assert "default" not in f or f["kind"] == "choice", f
        for c in f.get("cells", []):
            assert "default" not in c, c


def test_every_input_is_named_in_words_not_by_its_key():
    """Labels and messages name a field as the phone reads it ("Points, Ann"; "Color: choose
    one"), never by its key (issue 26, item 6): every choice has a label or a form title,
    every number a `what`."""
    for kind, k in games.kinds().items():
        for a in kw.fresh(k):
            if a["kind"] != "form":
                continue
            for (_, name), f in _fields([a]).items():
                if f["kind"] == "choice":
                    assert f.get("label") or a["title"], (kind, name)
                if f["kind"] == "per-seat":
                    assert f["what"], (kind, f)
                for c in f.get("cells", []):
                    assert c["what"], (kind, c)


def _journal(kind: str, events=(), players=("Ann", "Ben", "Cy")) -> Journal:
    return Journal(Header(kind, tuple(players), 0, {}), [dict(e) for e in events])


@pytest.mark.parametrize("kind,event,said", [
    ("chaos", {"type": "round_points"}, "Enter Ann's points (a whole number)"),
    ("chaos", {"type": "round_points", "points": [0, None, 3]},
     "Enter Ben's points (a whole number)"),
    ("chaos", {"type": "round_points", "points": [0, 2, 1000]}, "Cy's points: 0 to 999, not 1000"),
    ("chaos", {"type": "pick_color"}, "Color: choose one"),
    ("chaos", {"type": "draw_four", "color": ""}, "Color: choose one"),
    ("chaos", {"type": "swap_hands", "players": [0]}, "Swaps hands with: choose one"),
    ("match-patch", {"type": "pips", "pips": []}, "Enter Ann's mini-pip total (a whole number)"),
    ("dice-factor", {"type": "roll_off", "rolls": [3, "", 2]}, "Enter Ben's roll (a whole number)"),
    ("dice-factor", {"type": "trade_hands"}, "Trade hands with: choose one"),
    ("dice-factor", {"type": "win"}, "Player: choose one"),
    ("rainbow-rush", {"type": "win"}, "Player: choose one"),
    ("penny-badger", {"type": "claim", "challengers": []}, "Cards claimed: choose one"),
    ("pig-farm", {"type": "sell", "hands": [{"sets": [3, 3, 2], "unmatched": 0},
                                            {"sets": [2, 2]}, {"sets": [], "unmatched": 1}]},
     "Enter Ben's unmatched pigs (0 if none)"),
    ("pig-farm", {"type": "butcher", "die": "shapes"}, "Face: choose one"),
    ("flower-power", {"type": "petals", "color": "red"}, "Petals: choose one"),
])
def test_the_box_refuses_an_empty_players_input_naming_it_by_its_label(kind, event, said):
    j = _journal(kind)
    assert kw.refusal(games.get(kind), seen(j), event) == said


def test_who_goes_first_only_before_the_first_turn_ends():
    """The panel asks who goes first when a game starts; the phone offered it all game long
    and recorded a new first player mid-game (issue 26, item 6)."""
    first = {"type": "first", "player": 2}
    for kind in games.kinds():
        k = games.get(kind)
        assert kw.refusal(k, seen(_journal(kind)), first) is None, kind
        assert kw.first_open(seen(_journal(kind)))
    j = _journal("table", [{"type": "next"}])
    assert not kw.first_open(seen(j))
    assert kw.refusal(games.get("table"), seen(j), first) == kw.FIRST_LATE
    # Moves inside the first turn leave it open (Match Patch's tie pick follows its pips).
    j = _journal("match-patch", [{"type": "pips", "pips": [5, 5, 1]}])
    assert kw.refusal(games.get("match-patch"), seen(j), {"type": "first", "player": 1}) is None
    # A kind's own form that sends "first" when its game asks (Chaos: the next dealer).
    j = _journal("chaos", [{"type": "next"}, {"type": "round_points", "points": [0, 4, 9]}])
    assert kw.refusal(games.get("chaos"), seen(j), first) is None
    j.append({"type": "first", "player": 1})
    assert kw.refusal(games.get("chaos"), seen(j), first) == kw.FIRST_LATE


@pytest.mark.parametrize("kind,form", [("dice-factor", "roll_off"), ("match-patch", "pips")])
def test_a_kinds_own_who_goes_first_is_offered_only_before_the_first_turn_ends(kind, form):
    """The roll-off and the mini-pips decide who goes first: the phone offered them all game
    long, for the engine to refuse."""
    k = games.get(kind)
    j = _journal(kind)
    assert form in [a.name for a in kw.actions(k, seen(j)) if isinstance(a, kw.Form)]
    j.append({"type": "next"})
    assert form not in [a.name for a in kw.actions(k, seen(j)) if isinstance(a, kw.Form)]


# --- no kind named outside its package -----------------------------------------------------------

# Where a kind's name is its definition: the base `Game` is the table kind's rules.
DEFINES = {"companion/rules/game.py"}


def kind_names(path: Path, names: Sequence[str]) -> list[str]:
    """The lines of `path` that name one of `names` as a quoted string. "table" is also an
    HTML element: h("table", ...) in the pages' JS is not the kind."""
    hits = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for name in names:
            for m in re.finditer(rf"""["']{re.escape(name)}["']""", line):
                if name == Game.kind and re.search(r"(\bh|createElement)\($", line[:m.start()]):
                    continue
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return hits


def test_no_file_outside_a_kinds_package_names_a_kind():
    names = sorted(games.kinds())
    packages = {p for p in (ROOT / "companion" / "games").iterdir()
                if p.is_dir() and (p / "__init__.py").exists()}
    hits: dict[str, list[str]] = {}
    for path in sorted((ROOT / "companion").rglob("*")):
        if path.suffix not in (".py", ".js", ".html") or any(p in path.parents for p in packages):
            continue
        rel = str(path.relative_to(ROOT))
        found = kind_names(path, names)
        if found and rel not in DEFINES:
            hits[rel] = found
    assert not hits, "\n".join(h for v in hits.values() for h in v)


def test_start_up_reads_no_web_part():
    """The panel's first frame comes before the web starts: loading the kinds imports none of
    their web parts (they are imported when the first snapshot is built)."""
    import subprocess
    import sys
    code = ("import sys; from companion import games; games.kinds(); "
            "print(sorted(m for m in sys.modules if m.startswith('companion.web')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_a_companion_without_its_web_does_not_load_asyncio():
    """The Web object is made at start (the device menu can turn it on later), but the web
    loop's asyncio is imported when it starts: `--no-web` costs no memory for it."""
    import subprocess
    import sys
    code = ("import sys\nfrom companion.config import load\nfrom companion.web.server import Web\n"
            "Web(config=load(None), post=lambda item: None)\n"
            "print('asyncio' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_an_option_that_sends_false_keeps_its_value_in_the_json():
    """Empty optional fields are left out only at their default: an option whose value to
    send is false must reach the phone as false, not be dropped (the page would send "no")."""
    from companion.web.kinds import Option, to_json
    assert to_json(Option("no", "No", send=False)) == {"value": "no", "label": "No",
                                                       "send": False}
    assert "send" not in to_json(Option("no", "No"))


def test_the_phone_offers_the_turn_moves_the_panel_offers():
    """snapshot.turns: each kind's panel menu (Mode.turn_actions), so a phone cannot record a
    Reverse in Pig Farm or a skip in Drop Rainbow, which the panel does not offer either."""
    from companion.rules.game import Header
    from companion.session.journal import Journal
    from companion.web.snapshot import build

    for kind, k in games.kinds().items():
        snap = build(Journal(Header(kind, ("Ann", "Ben", "Cy"))), seq=1)
        assert snap["turns"] == list(k.mode.turn_actions), kind
    assert build(Journal(Header("pig-farm", ("Ann", "Ben"))), seq=1)["turns"] == ["skip_to"]
    assert build(Journal(Header("drop-rainbow", ("Ann", "Ben"))), seq=1)["turns"] == []
    assert build(None, seq=1)["turns"] == []


# --- nothing chosen for the players (issue 34, item 9) -----------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_an_untouched_form_of_every_kind_commits_nothing_in_any_state(kind):
    """Every field a player fills starts empty, selects included, in every state along the
    games of `journals`: no choice of a kind's form has a default (Dice Factor's targets kept
    the last roll and "Set the targets" recorded a roll nobody made; "Add a card" raised the
    current player's hand limit untouched; Chaos's dealer, Swap Hands' first player, Pig
    Farm's butcher die and dealt-to player, Match Patch's pair were chosen for them), and the
    event an untouched form would send is refused in words by the box's own check."""
    k = games.get(kind)
    for j in journals(k):
        s = seen(j)
        for a in kw.actions(k, s):
            if not isinstance(a, kw.Form):
                continue
            for f in _walk(a.fields):
                if isinstance(f, kw.Choice):
                    assert f.default is None, (kind, a.name, f.name, f.default)
            for send in ([a.submit] if a.submit else []) + list(a.buttons):
                said = kw._missing(a, s, dict(send.event))
                assert said and re.search(r"[A-Za-z]{3}", said), (kind, a.name, send.label)


def test_dice_factor_targets_take_one_die_or_both_and_never_none():
    """The dice card re-rolls one die: one chosen is enough; none is refused in words."""
    k = games.get("dice-factor")
    s = seen(_journal("dice-factor"))
    targets = next(a for a in kw.actions(k, s) if getattr(a, "name", "") == "targets")
    assert kw._missing(targets, s, {"type": "roll"}) == \
        "Targets: choose the face of the die rolled (one die, or both)"
    assert kw._missing(targets, s, {"type": "roll", "dice": {"shapes": "star"}}) is None
    assert kw._missing(targets, s, {"type": "roll", "dice": {"colors": "red",
                                                              "shapes": "star"}}) is None
