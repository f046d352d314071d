"""Shared fixtures: a default config, a temporary journal, an app on the dummy display.

The helpers that drive an app (press, choose, drain, FakeClock) are companion/testing.py's:
tests import them from there."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# In tests a bug in a screen must fail the test, not become a toast (see App.strict).
from companion import testing  # noqa: E402
from companion.app import App  # noqa: E402
from companion.testing import FakeClock  # noqa: E402

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


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_app(tmp_path, config):
    """`make_app()` -> an App on the dummy display with a fake clock, rolls settling without
    animation, a journal in tmp_path (companion.testing.make_app); closed after the test."""
    made = []

    def make(*, path=None, animation: float = 0.0, seed: int = 1):
        app = testing.make_app(tmp_path, journal=path or "journal.db", config=config,
                               animation=animation, seed=seed)
        made.append(app)
        return app

    yield make
    for app in made:
        testing.close(app)
