"""What the browser tests share: Playwright's `expect` (imported when first used, so the
files load where Playwright is missing and their tests skip, saying why) and the box's
current snapshot."""

from __future__ import annotations

import json
import urllib.request


def expect(locator):
    from playwright.sync_api import expect as pw_expect
    return pw_expect(locator)


def state(c) -> dict:
    """GET /api/state of the running companion `c` (companion.gallery.web_shots.Companion)."""
    with urllib.request.urlopen(c.url + "/api/state", timeout=5) as r:
        return json.loads(r.read())
