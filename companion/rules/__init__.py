"""Pure game engines: state + event -> new state. No I/O, no clock, no randomness.

`game.py` holds the base engine (the shared table, the common moves, the `table` kind) that
every kind's rules subclass; each kind's own engine lives in its package under
companion/games/ and is found through the registry there. `design/` is the format of a game a
group designs as data and the one engine that plays every design (docs/designing-a-game.md).
"""
