"""What NEXT means (issue 34.3; docs/architecture.md, "What NEXT means"): a kind declares
where its NEXT needs a choice first (Game.next_needs: Penny Badger's pass or claim), and the
shared layer refuses a bare NEXT there from every live input, the panel and a phone's
/api/action alike, in the rules' words; a log's bare `next` still folds (the log format's
common events). Tested across every registered kind, on random legal games of each."""

from __future__ import annotations

import random
import re
from concurrent.futures import Future
from pathlib import Path

import pytest

from companion import games
from companion.errors import IllegalEvent
from companion.inputs import WebRequest
from companion.rules.game import COMMON_TURN_MOVES, TURN_MOVE_NAMES, Header
from companion.session.journal import Journal
from companion.testing import close, drain, make_app, press
from companion.ui import actions as A
from companion.web import snapshot
from tests.conftest import every_kind

# The example designs are kinds too (issue 37): New game offers them in these tests.
pytestmark = pytest.mark.usefixtures("designs_offered")

NAMES = ("Ann", "Ben", "Cy", "Dee")
NEXT = {"type": "next"}
DOCS = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def phone(app, event: dict) -> dict:
    """A phone's POST /api/action of `event`, done by the app thread: its answer."""
    answer: Future = Future()
    app.post(WebRequest("action", {"event": event, "seq": None}, answer))
    drain(app)
    return answer.result(timeout=5)


def players(kind: str) -> tuple[str, ...]:
    """The kind's demo game's players (docs/web's screenshots), else four."""
    k = games.kinds()[kind]
    if k.demo is not None:
        return tuple(k.demo.players)
    g = k.rules
    return NAMES[:max(g.min_players, min(len(NAMES), g.max_players))]


def random_game(kind: str, seed: int, moves: int = 24):
    """The states of a legal game of `kind`, one after each move, as (events so far, state):
    its demo game's moves (every built-in kind's demo reaches where its NEXT needs a choice),
    then random ones (its sample moves, the common turn moves mixed in)."""
    k = games.kinds()[kind]
    g = k.rules
    names = players(kind)
    rules = dict(k.demo.rules) if k.demo is not None else {}
    state = g.initial(g.check_header(Header(kind, names, 0, rules)))
    rng = random.Random(seed)
    events: list[dict] = []
    out = [(list(events), state)]
    script = list(k.demo.events) if k.demo is not None else []
    for _ in range(moves * 10):
        if len(out) > moves + len(script):
            break
        if script:
            event = script.pop(0)
        elif k.sample is not None and rng.random() < .8:
            event = k.sample(rng, len(names), state)
        else:
            event = rng.choice(({"type": "skip"}, {"type": "reverse"}, NEXT))
        try:
            after = g.apply(state, event)
        except IllegalEvent:
            continue
        if after.over:
            continue
        state = after
        events.append(event)
        out.append((list(events), state))
    return out


@pytest.mark.parametrize("kind", sorted(every_kind()))
def test_a_bare_next_where_the_rules_need_a_choice_is_refused_from_every_input(tmp_path,
                                                                             kind):
    g = games.game(kind)
    seen_needs = seen_free = 0
    k = games.kinds()[kind]
    rules = dict(k.demo.rules) if k.demo is not None else {}
    for seed in range(2):
        for events, state in random_game(kind, seed)[seed::2]:
            needs = g.next_needs(state)
            app = make_app(tmp_path / f"{seed}-{len(events)}", kind=kind, players=players(kind),
                           rules=rules, setup=False)
            try:
                for e in events:
                    assert app.emit(e)
                j = app.journal
                n = len(j.events)
                if needs is None:
                    seen_free += 1
                    assert snapshot.refusal(j, NEXT) is None
                    assert snapshot.build(j, seq=1)["next"] is None
                    continue
                seen_needs += 1
                assert needs.moves and all(m in g.moves for m in needs.moves), needs
                assert needs.words.endswith(" first") and "\n" not in needs.words
                # The phone: 422 in the rules' words, nothing written.
                answer = phone(app, NEXT)
                assert (answer["ok"], answer["status"], answer["error"]) == \
                    (False, 422, needs.words), answer
                assert len(j.events) == n
                # The panel: every screen's NEXT that emits a bare next meets the same rule.
                assert app.perform(A.Emit(NEXT)) is False
                assert app.toast is not None and app.toast[0] == needs.words
                assert len(j.events) == n
                # The phone learns it in its snapshot, to take the player to the answers.
                assert snapshot.build(j, seq=1)["next"] == {"moves": list(needs.moves),
                                                            "words": needs.words}
            finally:
                close(app)
    assert seen_free or seen_needs
    if kind == "penny-badger":
        assert seen_needs and not seen_free  # every badger's turn ends by a pass or a claim
    if kind in ("chaos", "drop-rainbow"):  # a Draw 4 stack owed; side cards waiting
        assert seen_needs and seen_free


def test_penny_badger_the_phones_next_player_is_refused_and_no_penny_is_lost(tmp_path):
    """Issue 34.3: the phone's "Next player" ended a badger's turn with no pass or claim (no
    penny paid); the box's NEXT asks "pass or claim". docs/rules.md, "Penny Badger": a turn
    ends by a pass (1 penny to the bank) or a claim."""
    app = make_app(tmp_path, kind="penny-badger", players=NAMES, setup=False)
    try:
        answer = phone(app, NEXT)
        assert answer == {"ok": False, "error": "Pass or claim first", "status": 422}
        assert app.journal.events == [] and app.journal.state.table.current == 0
        assert phone(app, {"type": "pass"})["ok"]  # the answer: a penny to the bank
        assert app.journal.state.bank == 101 and app.journal.state.table.current == 1
    finally:
        close(app)


def test_penny_badger_the_panels_next_after_a_roll_asks_too(tmp_path):
    """The dice result screen's NEXT (shared by every kind) emitted a bare next: in Penny
    Badger it ended the turn with no penny paid. It is refused in the same words."""
    app = make_app(tmp_path, kind="penny-badger", players=NAMES, setup=False)
    try:
        press(app, "ROLL", "OK")  # the dice menu: the first dice, rolled at once
        n = len(app.journal.events)
        assert n == 1 and app.journal.events[0]["type"] == "roll"
        press(app, "NEXT")
        assert len(app.journal.events) == n and app.journal.state.table.current == 0
        assert app.toast is not None and app.toast[0] == "Pass or claim first"
        # The home screen's NEXT still opens the pass-or-claim screen.
        press(app, "BACK", "NEXT", "OK")  # home, the turn screen on PASS, OK
        assert app.journal.events[-1] == {"type": "pass"}
    finally:
        close(app)


def test_a_logs_bare_next_still_replays_in_penny_badger():
    """docs/log-format.md: `next` is a common event, accepted in every kind in a log; an
    old log's bare next in Penny Badger folds as before (the turn ends, nothing is paid)."""
    j = Journal(Header("penny-badger", NAMES, 0, {"bank": 100, "savings": 20}))
    j.append(NEXT)
    assert j.state.table.current == 1 and j.state.bank == 100
    assert j.game.next_refusal(j.state, NEXT) == "Pass or claim first"  # live inputs only


def test_the_docs_list_what_next_means_in_every_built_in_kind():
    text = DOCS.read_text()
    m = re.search(r"\n## What NEXT means\n(.*?)(\n## |\Z)", text, re.S)
    assert m, "docs/architecture.md has no section 'What NEXT means'"
    for kind, k in games.kinds().items():
        if games.builtin(k):
            assert f"**{k.title}**" in m.group(1), kind


@pytest.mark.parametrize("kind", sorted(every_kind()))
def test_a_turn_move_the_kind_does_not_offer_is_refused_from_every_input(tmp_path, kind):
    """A script's {"type": "skip_to", "player": k} to /api/action ended a badger's turn with
    no penny paid, though no Penny Badger menu offers it: a common turn move the kind does not
    offer (Game.turn_moves, what its panel menu and the snapshot's `turns` offer) is refused
    from every live input in the same place as a bare NEXT, in words; a log's still folds."""
    g = games.game(kind)
    assert set(g.turn_moves + g.own_turn_moves) <= set(COMMON_TURN_MOVES)
    assert games.mode_for(kind).turn_actions == g.turn_moves  # the panel offers the rules'
    names = players(kind)
    k = games.kinds()[kind]
    rules = dict(k.demo.rules) if k.demo is not None else {}
    app = make_app(tmp_path, kind=kind, players=names, setup=False)
    try:
        j = app.journal
        assert snapshot.build(j, seq=1)["turns"] == list(g.turn_moves)
        for move in COMMON_TURN_MOVES:
            event = {"type": move, **({"player": 1} if move == "skip_to" else {})}
            why = g.next_refusal(j.state, event)
            if move in g.turn_moves + g.own_turn_moves:  # the menu's, or its own screens'
                assert why is None and snapshot.refusal(j, event) is None, (kind, move)
                continue
            assert why == f"{g.title} has no {TURN_MOVE_NAMES[move]}", why
            assert phone(app, event) == {"ok": False, "status": 422, "error": why}
            assert app.perform(A.Emit(event)) is False
            assert app.toast is not None and app.toast[0] == why
            assert j.events == [] and j.state.table.current == 0
            # An imported or replayed log's still folds (docs/log-format.md: common events).
            log = Journal(Header(kind, names, 0, rules))
            # A game that starts by asking the table (a design's roll-off, which takes only
            # roll, first and end: docs/designing-a-game.md) is settled by the group's pick.
            settled = [{"type": "first", "player": 0}] if log.state.asks_table else []
            for e in settled:
                log.append(e)
            log.append(event)
            assert log.events == [*settled, event]
    finally:
        close(app)


def test_penny_badger_a_scripts_skip_to_pays_no_penny_and_ends_no_turn(tmp_path):
    app = make_app(tmp_path, kind="penny-badger", players=NAMES, setup=False)
    try:
        answer = phone(app, {"type": "skip_to", "player": 2})
        assert answer == {"ok": False, "status": 422,
                          "error": "Penny Badger has no Skip to player"}
        assert app.journal.events == [] and app.journal.state.table.current == 0
        assert phone(app, {"type": "skip"})["ok"]  # what its menu offers still goes through
    finally:
        close(app)
