"""Typing fast in /design's fields (issue 37, a new user's second try): a tally's name is
done as the focus moves on, and the form is drawn again for it (its name in the lists); a
redraw made while the focus was on its way to the next field put a new, unfocused field in
its place, and what was typed next went nowhere ("Starts at" lost its value 4 times of 4 at
a machine's speed). Every field typed in keeps what was typed, and the box checks the same."""

from __future__ import annotations

from companion.gallery.web_shots import PHONE
from tests.web.helpers import WAIT_S, expect

# The page's last answer to POST /api/design/check (its fetch wrapped before the page runs).
LAST_CHECK = """(() => {
  const fetch = window.fetch;
  window.fetch = function (resource, options) {
    const p = fetch.apply(this, arguments);
    if (String(resource).endsWith("/api/design/check")) {
      p.then((r) => r.clone().json()).then((j) => { window.__lastCheck = j; }, () => {});
    }
    return p;
  };
})()"""

TYPED = {  # per tally: name, starts at, never below, out at
    0: ("coins", "10", "0", "0"),
    1: ("gems", "3", "1", ""),
}
FIELDS = ("name", "start", "floor", "out_at")


def _as_box(field: str, typed: str):
    if field == "name":
        return typed
    return int(typed) if typed else (0 if field == "start" else None)


def test_every_tally_field_filled_at_full_speed_keeps_its_value(browser, companion):
    c = companion()
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(LAST_CHECK)
    try:
        for attempt in range(3):  # a fresh tab each time: the race was a fresh tab's
            page = context.new_page()
            page.goto(c.url + "/design")
            page.get_by_label("Title").fill(f"Gems {attempt}")
            page.get_by_role("button", name="Add a tally").click()
            for i, values in TYPED.items():
                for field, value in zip(FIELDS, values):
                    page.locator(f'[data-path="tallies.{i}.{field}"]').fill(value)
            page.locator('[data-path="tallies.0.money"]').check()
            page.get_by_label("A shared pot in the middle of the table").check()
            page.locator('[data-path="pot.start"]').fill("5")
            for i, values in TYPED.items():
                for field, value in zip(FIELDS, values):
                    expect(page.locator(f'[data-path="tallies.{i}.{field}"]')).to_have_value(value)
            expect(page.locator('[data-path="pot.start"]')).to_have_value("5")
            # The box checked the design as the fields show it (its last answer, once it came).
            want = [{f: _as_box(f, v) for f, v in zip(FIELDS, values)}
                    for values in TYPED.values()]
            page.wait_for_function(
                """(want) => { const c = window.__lastCheck;
                    return !!c && c.ok && JSON.stringify(c.design.tallies.map((t) =>
                      ({name: t.name, start: t.start, floor: t.floor, out_at: t.out_at})))
                      === JSON.stringify(want) && c.design.pot && c.design.pot.start === 5; }""",
                arg=want, timeout=WAIT_S * 1000)
            expect(page.locator("#check-status")).to_have_text("The box can play this.")
            page.close()
    finally:
        context.close()
