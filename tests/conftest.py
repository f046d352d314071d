"""Shared fixtures: a default config, a temporary journal, an app on the dummy display."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# In tests a bug in a screen must fail the test, not become a toast (see App.strict).
from companion.app import App  # noqa: E402

App.strict = True


@pytest.fixture
def config():
    from companion.config import load
    return load(None)


@pytest.fixture
def store(tmp_path):
    from companion.session.store import Store
    with Store(tmp_path / "journal.db") as s:
        yield s


class FakeClock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_app(tmp_path, config):
    """An App on the dummy display with a fake clock; rolls settle without animation."""
    from companion.app import App
    from companion.drivers.display import dummy
    from companion.session.store import Store
    import random

    made = []

    def make(*, path=None, animation: float = 0.0, seed: int = 1):
        config.data["dice"]["animation"] = animation
        st = Store(path or tmp_path / "journal.db")
        app = App(config=config, store=st, display=dummy(), rng=random.Random(seed),
                  clock=FakeClock())
        from companion.drivers.dice import SoftwareDice
        app.dice = SoftwareDice(post=app.post, rng=random.Random(seed))
        made.append((app, st))
        return app

    yield make
    for app, st in made:
        app.close()
        st.close()


def drain(app) -> None:
    """Handle everything queued (roll results, ticks) the way the app thread would."""
    import queue
    while True:
        try:
            item = app.queue.get_nowait()
        except queue.Empty:
            return
        app.handle(item)


def press(app, button, gesture=None) -> None:
    """A button press (or hold) handled the way the app thread would, then a render."""
    from companion.inputs import ButtonInput, Gesture
    app.handle(ButtonInput(button, gesture or Gesture.PRESS))
    drain(app)
    app.render()


def choose(app, label: str) -> None:
    """Move the menu on top to the item called `label` with DOWN, then press OK."""
    from companion.inputs import Button
    menu = app.top
    labels = [item.text(app.ctx()) for item in menu.items]
    assert label in labels, labels
    while menu.items[menu.cursor].text(app.ctx()) != label:
        press(app, Button.DOWN)
    press(app, Button.OK)
