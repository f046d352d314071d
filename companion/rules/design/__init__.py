"""Games a group designs: the format (format.py: `load`, `Design`, `Design.to_json`), its
JSON Schema (schema.json, published as docs/design.schema.json) and the one engine that
plays every design (engine.py: `DesignGame`). docs/designing-a-game.md is the whole guide.

A rules-layer package: pure, it imports nothing of the companion but the rules layer,
`companion.errors` (`DesignError`) and `companion.names` (a title, a tally or a move is named
by the rule for a player's name).
"""

from companion.errors import DesignError
from companion.rules.design.engine import DesignGame, DesignState
from companion.rules.design.format import FORMAT_VERSION, Design, load, rule_keys

__all__ = ["FORMAT_VERSION", "Design", "DesignError", "DesignGame", "DesignState", "load",
           "rule_keys"]
