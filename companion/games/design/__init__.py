"""The games a group designs (docs/designing-a-game.md), each played as a kind of its own:
`kind_for(design_json)` builds the GameKind of one design, named `design:<hash>`
(`companion.games.design_name`). The registry finds this function through the entry point
group `chroma_companion.designs` and registers what it builds (`games.design_kind`); nothing
else imports this package.

Its parts are generic, read from the design: the engine (rules.py: `DesignGame` under the
kind's name, its header carrying the design), the panel's `Mode` (panel.py), the statistics'
score (the design's winning tally), a random legal move (sample.py), the panel's
screenshots (gallery.py) and the web part (web.py, set as `web` when it is there).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Mapping

from companion.games import GameKind, Scoring
from companion.games.design import sample
from companion.games.design.rules import DesignKindGame
from companion.games.design.web import web_for
from companion.rules.design import Design, DesignState, load

ORDER = 95  # New game: after the built-in kinds (10-90), before a house game's default 100


def score_tally(design: Design) -> int | None:
    """The tally the statistics score a design game by: the winning tally ("most" or
    "fewest" of it); for "the last player left", the money tally, else the first."""
    if design.winner.tally is not None:
        return design.tally_index(design.winner.tally)
    if design.money_tally is not None:
        return design.money_tally
    return 0 if design.tallies else None


def scoring(design: Design) -> Scoring | None:
    """The statistics' score of a design: its winning tally, per seat, at the game's end."""
    i = score_tally(design)
    if i is None:
        return None

    def score(state: DesignState) -> list[int]:
        return list(state.tallies[i])

    return Scoring(design.tallies[i].name, score, lowest=design.winner.by == "fewest")


def _panel(game: DesignKindGame) -> Any:
    from companion.games.design.panel import DesignMode

    return DesignMode(game)


def _gallery(game: DesignKindGame, config: Any) -> Any:
    from companion.games.design.gallery import shots

    return shots(game, config)


def _sample(game: DesignKindGame, rng: random.Random, n: int, state: Any) -> Any:
    return sample.move(game, rng, n, state)


def kind_for(design_json: Mapping[str, Any]) -> GameKind:
    """The GameKind of one design (its JSON, as `companion.rules.design.load` takes it): a
    DesignError in words naming the field when it is no design."""
    design = load(design_json)
    game = DesignKindGame(design)
    return GameKind(rules=game,
                    panel=partial(_panel, game),
                    scoring=scoring(design),
                    sample=partial(_sample, game),
                    gallery=partial(_gallery, game),
                    web=web_for(design),
                    order=ORDER,
                    color=design.color)
