"""A monkey at the table: random presses, holds, roller presses and passing time, in every game
kind, through the real app on the dummy display. No press sequence may raise (conftest makes
the app strict: a screen bug fails the test instead of becoming a toast), and whatever the
monkey did, the journal replays to exactly what the screen showed."""

from __future__ import annotations

import random

import pytest

from companion.games import games
from companion.inputs import Button, ButtonInput, Gesture, RollerPress, Tick
from companion.session.store import Store
from companion.testing import choose, drain, press

STEPS = 500


def monkey(app, rnd: random.Random) -> None:
    for _ in range(STEPS):
        r = rnd.random()
        if r < 0.86:
            gesture = Gesture.HOLD if rnd.random() < 0.08 else Gesture.PRESS
            item: object = ButtonInput(rnd.choice(list(Button)), gesture)
        elif r < 0.9:
            item = RollerPress()
        else:
            app.clock.advance(rnd.choice([0.1, 0.5, 1.0, 3.0]))
            item = Tick("toast")
        app.handle(item)
        drain(app)
        app.render()


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("kind", list(games()))
def test_random_presses_never_raise_and_the_journal_replays_to_the_screen(make_app, tmp_path,
                                                                           kind, seed):
    app = make_app(seed=seed)
    app.config.data["power"]["command"] = "true"  # the monkey may answer "Power off?" with OK
    press(app, Button.OK)  # "New game"
    choose(app, games()[kind].title)
    press(app, Button.OK)  # 4 players
    assert app.journal is not None and app.journal.header.game == kind
    monkey(app, random.Random(f"{kind}-{seed}"))
    with Store(tmp_path / "journal.db", read_only=True) as again:
        for info in again.games():
            replayed = again.load(info.id)  # every game the monkey touched still replays
            if app.journal is not None and app.store.game_id(app.journal) == info.id:
                assert replayed.state == app.journal.state
                assert replayed.events == app.journal.events
