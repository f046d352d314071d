"""Browser tests of the table web: Playwright for Python driving Debian's chromium.

Playwright's own browser download needs the internet, so the tests use the system chromium
(`apt-get install chromium`; `make test` installs it when run as root). Without a browser
they skip, saying why; under CI (CI=true) they fail instead, so CI cannot pass without them.
"""

from __future__ import annotations

import os

import pytest

from companion.gallery.web_shots import Companion, chromium_path


def _unavailable(why: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must run the browser tests, but {why}")
    pytest.skip(why)


def pytest_collection_modifyitems(items) -> None:
    """Every test that needs the browser is marked `browser` (`make test-fast` leaves them
    out); the tests here that only fetch pages or draw charts are not."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="package")
def browser():
    """One chromium for the browser tests of this folder. Package scope: Playwright's sync API
    keeps an event loop running in this thread while it is open, which would break the
    asyncio.run() of tests elsewhere, so it closes before they run."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    exe = chromium_path()
    if exe is None:
        _unavailable("no chromium on this machine (Debian: apt-get install chromium)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        except Exception as e:  # a broken install: say what chromium said, in one line
            _unavailable(f"chromium at {exe} does not start: {str(e).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh phone-sized browser (its own cookies: not paired)."""
    context = browser.new_context(viewport={"width": 360, "height": 800})
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def companion(tmp_path):
    """The real companion (App on luma's dummy display, uvicorn thread) on a free port."""
    made: list[Companion] = []

    def make(kind: str | None = None, players=("Ann", "Ben", "Cy", "Dee"), rules=None,
             events=(), *, port: int = 0, journal: str = "journal") -> Companion:
        c = Companion(tmp_path / f"{journal}.db", port=port)
        if kind is not None:
            c.seed(kind, list(players), dict(rules or {}), list(events))
        made.append(c)
        return c.start()

    yield make
    for c in made:
        c.close()
