"""A game kind declared only in Python (as a plugin installed beside the companion would be)
gets working phone forms on /control and a game view on / from its declarations alone: the
pages have no JS of any kind's own (issue 19)."""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, replace
from typing import Any

import pytest

from companion import games
from companion.errors import IllegalEvent
from companion.gallery.web_shots import pair
from companion.games import GameKind
from companion.rules.game import Event, Game, Header, State, move
from companion.rules.table import Table
from companion.ui.modes import Mode
from companion.web.kinds import (
    ChipsStat,
    Choice,
    Column,
    Form,
    KindWeb,
    Many,
    Option,
    PerSeat,
    Quick,
    Radio,
    Row,
    Seen,
    Send,
    Stat,
    Tick,
    View,
)
from tests.web.helpers import expect, state

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class TossState(State):
    heads: tuple[int, ...] = ()
    sides: tuple[str, ...] = ()  # every side called, in order
    flips: int = 0
    lean: str = "tails"


class CoinToss(Game):
    kind = "coin-toss"
    title = "Coin Toss"
    min_players = 2
    max_players = 8

    def initial(self, header: Header) -> TossState:
        n = len(header.players)
        return TossState(table=Table(seats=n, current=header.first), heads=(0,) * n)

    @move("sure", "witnesses", "fair", required=("side", "guesses"))
    def move_call(self, state: TossState, event: Event) -> State:
        if event["side"] not in ("heads", "tails"):
            raise IllegalEvent("call: side must be heads or tails")
        heads = list(state.heads)
        heads[state.table.current] += event["side"] == "heads"
        return self.end_turn(replace(state, heads=tuple(heads),
                                     sides=state.sides + (event["side"],)))

    @move()
    def move_flip(self, state: TossState, event: Event) -> State:
        return replace(state, flips=state.flips + 1)

    @move(required=("side",))
    def move_lean(self, state: TossState, event: Event) -> State:
        """The table leans to a side: the call form's default, the turn stays."""
        return replace(state, lean=event["side"])

    def summary(self, state: TossState) -> dict[str, Any]:
        return {**super().summary(state), "heads": list(state.heads), "sides": list(state.sides),
                "flips": state.flips, "lean": state.lean}


class TossMode(Mode):
    kind = "coin-toss"


def toss_actions(s: Seen) -> list:
    flips = s.state["flips"]
    return [
        Quick((Send(f"Flip the coin ({flips})", {"type": "flip"}),)),
        Form("call", f"{s.name(s.current)} calls", (
            Row((Choice("side", (Option("heads", "Heads"), Option("tails", "Tails")),
                        s.state["lean"], label="Side"),)),
            PerSeat("guess", "guess", 0, 9, key="guesses", need=0,
                    need_message="Call: someone guesses {value}"),
            Tick("sure", "sure of it"),
            Many("witness", "Seen by", s.seats(others=True), key="witnesses", empty="nobody"),
            Radio("fair", "Was it fair? (only when seen)", (Option(True, "fair"),
                                                            Option(False, "rigged")),
                  only_if="witness", required="Seen: say whether it was fair"),
        ), submit=Send("Call it", {"type": "call"})),
    ]


def toss_view(s: Seen) -> View:
    return View((Stat("flips", str(s.state["flips"]), "huge"),
                 ChipsStat("calls", tuple("yellow" if c == "heads" else "blue"
                                          for c in s.state["sides"]))),
                (Column("Heads", tuple(str(n) for n in s.state["heads"])),))


TOSS = GameKind(rules=CoinToss(), panel=TossMode,
                web=KindWeb(view=toss_view, actions=toss_actions), order=200)


@pytest.fixture
def plugin(monkeypatch):
    """The coin toss installed beside the built-in kinds, as its entry point would add it."""
    monkeypatch.setattr(games, "_KINDS", {**games.kinds(), TOSS.kind: TOSS})


def test_a_kind_declared_only_in_python_gets_its_view_and_working_forms(page, companion,
                                                                        plugin):
    c = companion("coin-toss", ["Ann", "Ben", "Cy"])
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(c.url + "/")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    game = page.locator("#game")
    expect(game).to_be_visible()
    expect(game.locator(".stat.huge .stat-v")).to_have_text("0")
    expect(game.locator(".stat-l").nth(1)).to_have_text("calls")
    expect(page.locator("#players thead th").nth(1)).to_have_text("Heads")

    pair(page, c)
    page.goto(c.url + "/control")
    acts = page.locator("#actions")
    expect(acts.locator("h2")).to_have_text("Coin Toss: Ann's turn")
    acts.get_by_role("button", name="Flip the coin (0)").click()
    expect(acts.get_by_role("button", name="Flip the coin (1)")).to_be_visible()
    expect(page.locator("#game .stat.huge .stat-v")).to_have_text("1")

    form = acts.locator("form[data-form=call]")
    expect(form.locator("h3")).to_have_text("Ann calls")
    expect(form.locator("select[name=side]")).to_have_value("tails")
    # The declared checks, in their declared words, before anything is sent.
    form.locator("input[name=guess0]").fill("1")
    form.locator("input[name=guess1]").fill("1e0")  # a number to the browser, not a whole one
    form.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text("Enter Ben's guess (a whole number)")
    expect(form.locator("input[name=guess1]")).to_be_focused()
    form.locator("input[name=guess1]").fill("3")
    form.locator("input[name=guess2]").fill("1")
    form.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text("Call: someone guesses 0")
    form.locator("input[name=guess2]").fill("0")
    form.locator("label", has_text="Cy").locator("input").check()
    form.locator("button[type=submit]").click()
    expect(page.locator("#error")).to_have_text("Seen: say whether it was fair")
    assert state(c)["events"] == 1
    form.locator("select[name=side]").select_option("heads")
    form.locator("input[name=sure]").check()
    form.locator("input[name=fair][value=false]").check()
    form.locator("button[type=submit]").click()
    expect(page.locator("#who")).to_have_text("Ben")
    expect(page.locator("#error")).to_be_hidden()
    assert c.app.journal.events[-1] == {"type": "call", "side": "heads", "guesses": [1, 3, 0],
                                        "sure": True, "witnesses": [2], "fair": False}
    # The view follows: Ann's heads, the call as a chip.
    expect(page.locator("#players tbody tr").first.locator("td.num:not(.clock-col)")).to_have_text("1")
    expect(page.locator("#game .stat-v.chips .chip")).to_have_count(1)
    # Ben's form: the fields left out when their condition is not met are not sent.
    expect(form.locator("h3")).to_have_text("Ben calls")
    for k, v in enumerate((0, 1, 1)):
        form.locator(f"input[name=guess{k}]").fill(str(v))
    form.locator("button[type=submit]").click()
    expect(page.locator("#who")).to_have_text("Cy")
    assert c.app.journal.events[-1] == {"type": "call", "side": "tails", "guesses": [0, 1, 1],
                                        "witnesses": []}
    assert not errors

    with urllib.request.urlopen(c.url + "/api/kinds", timeout=5) as r:
        listed = {k["kind"]: k for k in json.loads(r.read())}
    assert [a["name"] for a in listed["coin-toss"]["actions"] if a["kind"] == "form"] == ["call"]


def test_a_default_taken_from_the_state_does_not_redraw_a_form_being_filled_in(page, companion,
                                                                              plugin):
    c = companion("coin-toss", ["Ann", "Ben", "Cy"])
    pair(page, c)
    page.goto(c.url + "/control")
    form = page.locator("#actions form[data-form=call]")
    form.locator("input[name=guess2]").fill("0")
    # Another phone: the table leans to heads (the form's default); the turn stays Ann's.
    r = page.evaluate("""async () => (await fetch('/api/action', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({event: {type: 'lean', side: 'heads'}, seq: null})})).status""")
    assert r == 200
    expect(page.locator("#history li")).to_have_count(1)
    expect(form.locator("input[name=guess2]")).to_have_value("0")
    expect(form.locator("select[name=side]")).to_have_value("tails")
    # A label that changes (the flips) draws the forms again, with the new default.
    page.locator("#actions").get_by_role("button", name="Flip the coin (0)").click()
    expect(page.locator("#actions").get_by_role("button", name="Flip the coin (1)")).to_be_visible()
    expect(page.locator("#actions form[data-form=call] select[name=side]")).to_have_value("heads")
