"""A design's engine as a kind: `DesignGame` named `design:<hash>`, whose header carries the
design itself (`rules["design"]`, its canonical dict) beside the house rules."""

from __future__ import annotations

from typing import Any, Mapping

from companion import games
from companion.errors import DesignError, IllegalEvent
from companion.rules.design import Design, DesignGame, load

DESIGN_RULE = "design"  # the header's rule that carries the design


class DesignKindGame(DesignGame):
    """`DesignGame(design)` under the design's kind name (`games.design_name`)."""

    def __init__(self, design: Design) -> None:
        super().__init__(design)
        self.canonical = design.to_json()
        self.kind = games.design_name(self.canonical)  # type: ignore[misc]

    def check_rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """The house rules, with the design the header carries: always this kind's own (a
        "design" given must be the same design, whatever its keys' order: a header cannot
        lie)."""
        given = rules.get(DESIGN_RULE)
        if given is not None and given != self.canonical:
            if not isinstance(given, Mapping):
                raise IllegalEvent("house rule design must be a design (a table)")
            try:
                name = games.design_name(load(given).to_json())
            except DesignError as e:
                raise IllegalEvent(f"house rule design: {e}") from None
            if name != self.kind:
                raise IllegalEvent(f"house rule design is {name}, not this game's design "
                                   f"({self.kind}): a game's header carries its own design")
        out = super().check_rules({k: v for k, v in rules.items() if k != DESIGN_RULE})
        out[DESIGN_RULE] = self.canonical
        return out
