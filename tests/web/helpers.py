"""What the browser tests share: Playwright's `expect` (imported when first used, so the
files load where Playwright is missing and their tests skip, saying why), the box's
current snapshot, and `settle`: a wait until the box's app thread has handled what was
posted to it (an event, not a duration: a loaded machine only makes it come later)."""

from __future__ import annotations

import json
import urllib.request
from concurrent.futures import Future

from companion.inputs import WebRequest

WAIT_S = 30  # how long the box may take to answer: a bound on a wait, never a pause


def expect(locator):
    """Playwright's `expect`, which waits for what it asserts, for up to WAIT_S (its own 5 s
    is a second or two of chromium's work that a loaded machine can stretch past)."""
    from playwright.sync_api import expect as pw_expect
    pw_expect.set_options(timeout=WAIT_S * 1000)
    return pw_expect(locator)


def state(c) -> dict:
    """GET /api/state of the running companion `c` (companion.gallery.web_shots.Companion)."""
    with urllib.request.urlopen(c.url + "/api/state", timeout=5) as r:
        return json.loads(r.read())


def settle(c) -> None:
    """Wait until the app thread of the running companion `c` has handled everything posted
    to it so far: its queue is first in, first out, so the answer to a request that changes
    nothing (the roster) comes after every input before it is done."""
    reply: Future = Future()
    c.app.post(WebRequest("roster", {}, reply))
    assert reply.result(timeout=WAIT_S).get("ok")
