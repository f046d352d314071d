"""Money is neither created nor destroyed, in every kind (docs/architecture.md, "Table
invariants"; docs/rules.md, "Penny Badger"): a kind says where its money is (`State.money`)
and the one shared place, `Game.apply`, refuses any move that would change it, whatever
input made the move (the panel, a phone, a script, a replayed log: all fold through it).
Undo and redo restore it exactly. Checked over random games of every registered kind."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings, strategies as st

from companion.errors import IllegalEvent
from companion.gallery.sample import header
from companion.rules.game import Game, Header, State, move
from companion.rules.table import Table
from companion.session.journal import Journal
from tests.conftest import every_kind
from tests.test_table_asks import random_move

# The example designs are kinds too (issue 37): New game offers them in these tests.
pytestmark = pytest.mark.usefixtures("designs_offered")

KINDS = sorted(every_kind())


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32))
def test_no_move_of_any_kind_changes_the_money_and_undo_redo_restore_it(kind, seed):
    """Random legal games of every registered kind, with undos and redos among the moves:
    the money in the game (for a kind that keeps money) is what it was at the start after
    every move, every undo and every redo."""
    rng = random.Random(seed)
    j = Journal(header(rng, kind))
    start = j.state.money
    for _ in range(120):
        if j.state.over:
            break
        r = rng.random()
        try:
            if r < 0.1 and j.can_undo:
                j.undo()
            elif r < 0.15 and j.can_redo:
                j.redo()
            else:
                j.append(random_move(rng, kind, j))
        except IllegalEvent as e:
            # A move the kind's rules take but that would change the money is the kind's bug
            # (Game.apply refused it): a legal move keeps the money by itself.
            assert "money is neither created nor destroyed" not in str(e), (kind, str(e))
            continue
        assert j.state.money == start, (kind, j.events[-3:])


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_says_whether_it_keeps_money(kind):
    """A kind keeps money (an int, its whole amount) or none (None); nothing else."""
    j = Journal(Header(kind, ("Ann", "Ben", "Cy")))
    assert j.state.money is None or isinstance(j.state.money, int)


# A kind that gets it wrong: its "gift" makes a penny out of nothing, its "lose" burns one,
# its "pay" moves one (the only honest move). The shared layer refuses the first two.
@dataclass(frozen=True)
class PurseState(State):
    purses: tuple[int, ...] = ()

    @property
    def money(self) -> int:
        return sum(self.purses)


class Purses(Game[PurseState]):
    kind = "purses"

    def initial(self, header: Header) -> PurseState:
        return PurseState(table=Table(seats=len(header.players), current=header.first),
                          purses=(3,) * len(header.players))

    def _add(self, state: PurseState, seat: int, amount: int) -> PurseState:
        purses = list(state.purses)
        purses[seat] += amount
        return replace(state, purses=tuple(purses))

    @move()
    def move_gift(self, state: PurseState, event) -> PurseState:
        return self._add(state, state.table.current, 1)

    @move()
    def move_lose(self, state: PurseState, event) -> PurseState:
        return self._add(state, state.table.current, -2)

    @move()
    def move_pay(self, state: PurseState, event) -> PurseState:
        return self._add(self._add(state, state.table.current, -1), 0, 1)


def test_the_shared_engine_refuses_a_kind_s_move_that_creates_or_destroys_money():
    game = Purses()
    state = game.initial(Header("purses", ("Ann", "Ben", "Cy"), first=1))
    with pytest.raises(IllegalEvent, match="would create 1 .*9 before it, 10 after"):
        game.apply(state, {"type": "gift"})
    with pytest.raises(IllegalEvent, match="would destroy 2 .*9 before it, 7 after"):
        game.apply(state, {"type": "lose"})
    paid = game.apply(state, {"type": "pay"})
    assert paid.purses == (4, 2, 3) and paid.money == 9
    assert state.purses == (3, 3, 3)  # apply is pure: the state it was given is unchanged
