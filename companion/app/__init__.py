"""The app: one input queue, one thread that owns the journal, the screens and the display.

Producers (buttons, keyboard, roller, timers, the web) only `post`. The app thread blocks on
the queue, so an idle companion uses no CPU. Each input goes: screen -> action -> journal
(committed to disk) -> re-render -> the display sends only what changed.

Modules, by job:
- core.py: the App (its state, the input queue and loop, `handle`, `perform`, drawing)
- rolls.py: rolls and timers (Timers, a roll from ROLL to its result committed, each Tick)
- handlers.py: the screen actions (HANDLERS: what `perform` does for each type of action)
- bridge.py: the web bridge (WebBridge: a phone's requests answered, the web attached and
  switched), with snapshots.py (the snapshots and their seqs, how far behind a phone is),
  taps.py (a phone's double taps) and changes.py (a phone's changes)
- statscache.py: the history figures for Records and the end screens (StatsCache)
- calls.py: the spoken calls (made after each commit and at "Time!", kept for the snapshot,
  handed to the box's speaker)
"""

from companion.app.core import App, run_safely
from companion.app.statscache import STATS_BUDGET

__all__ = ["App", "STATS_BUDGET", "run_safely"]
