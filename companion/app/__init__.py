"""The app: one input queue, one thread that owns the journal, the screens and the display.

Producers (buttons, keyboard, roller, timers, the web) only `post`. The app thread blocks on
the queue, so an idle companion uses no CPU. Each input goes: screen -> action -> journal
(committed to disk) -> re-render -> the display sends only what changed.

core.py is the App: the queue and the loop (`post`, `run`, `handle`: each input to what INPUTS
has for its type), the screen stack, `perform` (each action to its handler) and drawing. Every
other job is a part, built by the App and given what it needs: a part never imports core. Where
it needs much of the app, its module declares a narrow `typing.Protocol` of what it uses (its
"host"), which the App satisfies; where it needs little, it is given plain callables.
- timers.py: `Timers`, one-shot timers that post a `Tick` (given the queue's `post`)
- rolls.py: `Rolls`, a roll from ROLL to its result committed (host: `RollHost`)
- handlers.py: `Actions`, what each screen action does, with HANDLERS, the dispatch `perform`
  uses; the journal's appends, the game's home or end screen (host: `ActionHost`)
- presses.py: what a button, the roller's button or the power button asks for (`PressHost`)
- ticks.py: what each timer's `Tick` does, by its token (`TickHost`)
- clock.py: `TurnClock`, the open game's turn clock (host: `ClockHost`)
- calls.py: `Caller`, the spoken calls (given a journal getter, the speaker, a callback)
- lights.py: `Lights`, the seat light ring (host: `LightsHost`)
- firstframe.py: `Keeper`, the next start's first frame (host: `FrameHost`)
- bridge.py: `WebBridge`, the web bridge: a phone's requests answered, the web attached and
  switched (host: `Host`), with snapshots.py (`Snapshots`: the snapshots and their seqs, how
  far behind a phone is), taps.py (`Taps`: a phone's double taps), changes.py
  (`PhoneChanges`: a phone's changes) and publicframe.py (`PublicFrame`: the frame the web
  may show)
- statscache.py: `StatsCache`, the history figures for Records and the end screens and the
  skill ratings for who is favourite (given the store, `post` and `landed`)
- webparts.py: `pieces`, the web snapshot's clock, calls, speech and ring, read from the parts
  that own them when the bridge asks

This package imports nothing itself, so a part is imported without the App:
`from companion.app.core import App`.
"""
