"""axe-core on every page of the table web: no serious or critical violation.

axe-core comes from npm, pinned in tests/axe/package-lock.json (`make test` runs `npm ci`
there). The test injects its axe.min.js into the page through Playwright (the context bypasses
the page's Content-Security-Policy for that one script: the box's pages allow only their own)
and runs `axe.run` on the whole document once the page is live. Without node/npm or the
package the tests skip, saying why; under CI (CI=true) they fail instead.

Pages: `/`, `/tv`, `/control` (not paired and paired), `/games`, `/stats`, a game's `/games/{id}` and the pairing
landing `/J/{code}`, on the start menu (no game) and with a game running for a few kinds.
Also kept: the moderate rules of ALSO (one h1, everything in a landmark).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from companion.gallery.web_shots import PHONE, TV, demos, pair

pytestmark = pytest.mark.slow

AXE = Path(__file__).resolve().parent.parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
# Moderate rules the pages keep too: a page has one h1, and everything is in a landmark
# (header, nav, main, a named section), so a screen reader can jump between them.
ALSO = ("page-has-heading-one", "region", "landmark-one-main")
# A game running: a kind with a long form and a table of numbers, two whose facts are
# colours (Flower Power's flowers; Drop Rainbow's letter chips and colour buttons), and one
# with a bank and claims. (Every kind passed when this was written; these keep it cheap.)
KINDS = ["chaos", "flower-power", "penny-badger", "drop-rainbow"]


@pytest.fixture(scope="module")
def axe_source() -> str:
    why = None
    if not AXE.exists():
        why = ("axe-core is not installed (make test runs npm ci in tests/axe)"
               if shutil.which("npm") else
               "node/npm is not installed: axe-core cannot be installed (tests/axe)")
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the accessibility tests, but {why}")
        pytest.skip(why)
    return AXE.read_text(encoding="utf-8")


def violations(page, source: str) -> list[str]:
    """The serious and critical axe violations on the page (and those of ALSO), one line each: the rule, what it
    asks and the elements that break it."""
    page.evaluate(source)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.map(n => n.target.join(' '))}));
    }""")
    return [f"{v['id']} ({v['impact']}): {v['help']}: {', '.join(v['nodes'][:6])}"
            for v in found if v["impact"] in SERIOUS or v["id"] in ALSO]


def _open(browser, c, path: str, *, tv: bool = False, paired: bool = False):
    context = browser.new_context(viewport=TV if tv else PHONE, bypass_csp=True)
    page = context.new_page()
    if paired:
        pair(page, c)
    page.goto(c.url + path)
    if path in ("/", "/tv", "/control"):
        page.wait_for_selector("#conn[data-state=live]")
        if tv:
            page.wait_for_selector("body[data-fitted]")
    else:
        page.wait_for_load_state("load")
    if paired:  # the folded panels too (New game, the roster): axe skips what is not shown
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    return context, page


PAGES = [("/", False, False), ("/tv", True, False), ("/control", False, False),
         ("/control", False, True), ("/", False, True), ("/games", False, False),
         ("/stats", False, False), ("/J/123456", False, False)]


def _check(browser, c, axe_source: str, *, game: bool = False) -> list[str]:
    problems: list[str] = []
    # With a game: its own page in the history too (the seeded game is the journal's first).
    for path, tv, paired in PAGES + ([("/games/1", False, False)] if game else []):
        context, page = _open(browser, c, path, tv=tv, paired=paired)
        try:
            where = path + (" (paired)" if paired else "")
            problems += [f"{where}: {v}" for v in violations(page, axe_source)]
        finally:
            context.close()
    return problems


def test_no_serious_violation_on_the_start_menu(browser, companion, axe_source):
    c = companion()
    problems = _check(browser, c, axe_source)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("kind", KINDS)
def test_no_serious_violation_with_a_game_running(browser, companion, axe_source, kind):
    players, rules, events = demos()[kind]
    c = companion(kind, players, rules, events)
    problems = _check(browser, c, axe_source, game=True)
    assert not problems, "\n".join(problems)
