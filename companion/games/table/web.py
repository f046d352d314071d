"""The table kind on the table web: the turns played (its actions are the common ones every
kind has: next, skip, reverse, roll, end)."""

from __future__ import annotations

from companion.web.kinds import KindWeb, Seen, Stat, View


def view(s: Seen) -> View:
    return View((Stat("turns played", str(s.state["turns"])),))


WEB = KindWeb(view=view)
