"""Pure game engines: state + event -> new state. No I/O, no clock, no randomness.

`GAMES` maps each game kind of the log-format contract to its engine. A new game kind adds
one module and one line below.
"""

from __future__ import annotations

from companion.rules.game import Game

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    GAMES[game.kind] = game
    return game


register(Game())

# Game modes register themselves here, one line each (the order of "New game"):
from companion.rules import dice_factor  # noqa: E402,F401
from companion.rules import flower_power  # noqa: E402,F401
from companion.rules import match_patch  # noqa: E402,F401
from companion.rules import penny_badger  # noqa: E402,F401
from companion.rules import pig_farm  # noqa: E402,F401
from companion.rules import rainbow_rush  # noqa: E402,F401
from companion.rules import chaos  # noqa: E402,F401
from companion.rules import drop_rainbow  # noqa: E402,F401
