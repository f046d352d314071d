"""Shared fixtures: a default config, a temporary journal, an app on the dummy display.

The helpers that drive an app (press, choose, drain, FakeClock) are companion/testing.py's:
tests import them from there."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# In tests a bug in a screen must fail the test, not become a toast (see App.strict).
from companion import testing  # noqa: E402
from companion.app.core import App  # noqa: E402
from companion.testing import FakeClock  # noqa: E402

App.strict = True


# The places a companion finds a user's config file and journal (companion/config.py:
# platformdirs' XDG folders, and systemd's $STATE_DIRECTORY for the service).
USER_DIRS = ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME")


@pytest.fixture(autouse=True)
def own_folders(tmp_path_factory, monkeypatch):
    """Every test gets its own empty config and state folders (a fresh XDG home, which the
    companions a test starts inherit), so that nothing a user has saved or running (a config
    file, a journal, `make run` on 127.0.0.1:8080 publishing its web beside that journal)
    changes a result, and no test can touch a user's journal. Not inside tmp_path: tests
    that list tmp_path see only their own files."""
    home = tmp_path_factory.mktemp("home")
    for name in USER_DIRS:
        monkeypatch.setenv(name, str(home / name.removeprefix("XDG_").removesuffix("_HOME")
                                     .lower()))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return home


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


# --- designs as kinds (issue 37) -------------------------------------------------------------

def example_designs() -> list[str]:
    """The example designs (examples/designs/*.toml) registered as kinds: their names."""
    import tomllib
    from pathlib import Path

    from companion import games
    out = []
    for path in sorted((Path(__file__).resolve().parents[1] / "examples" / "designs")
                       .glob("*.toml")):
        with open(path, "rb") as f:
            out.append(games.design_kind(tomllib.load(f)).kind)
    return out


def every_kind() -> dict:
    """Every registered kind, the example designs included: what the tests holding every
    kind to the table invariants and the panel's layout rules iterate (with
    `designs_offered`, games.kinds() is the same inside each test)."""
    from companion import games
    kinds = dict(games.kinds())
    kinds.update((name, games.get(name)) for name in example_designs())
    return kinds


@pytest.fixture(scope="module")
def designs_offered():
    """New game offers the example designs (games.kinds() includes them) for the module's
    tests, beside the designs a journal keeps (an app's start-up offers its journal's:
    designs.offer); nothing after."""
    from companion import games
    from companion.session import designs
    examples = example_designs()
    journal_s = designs.offer

    def offer(store):
        out = journal_s(store)
        games.offer_designs([*games.offered_designs(), *examples])
        return out

    before = games.offered_designs()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(designs, "offer", offer)
        games.offer_designs([*before, *examples])
        yield
    games.offer_designs(before)
