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


# The page's own count of the POSTs it sent and of those answered (its fetch wrapped where it
# runs). A tap's request starts in the tap's click handler, so once the tap has landed the
# count holds it: nothing is still on its way to the test, as a Playwright "request" event
# can be.
COUNT_POSTS = """() => {
  if (window.__posts) return;
  const count = window.__posts = {sent: 0, answered: 0};
  const fetch = window.fetch;
  window.fetch = function (resource, options) {
    if (!options || String(options.method || 'GET').toUpperCase() !== 'POST') {
      return fetch.apply(this, arguments);
    }
    count.sent++;
    return fetch.apply(this, arguments).finally(() => { count.answered++; });
  };
}"""


def count_posts(page) -> None:
    """Count the POSTs `page` sends from now on (see `posts_answered`)."""
    page.evaluate(COUNT_POSTS)


def posts_answered(page) -> int:
    """How many POSTs `page` sent since `count_posts`, once the box has answered every one:
    the event that proves a second request, had a tap sent one, was seen through (not a
    pause that a loaded machine can outlast)."""
    page.wait_for_function("() => window.__posts.sent === window.__posts.answered",
                           timeout=WAIT_S * 1000)
    return page.evaluate("window.__posts.sent")
