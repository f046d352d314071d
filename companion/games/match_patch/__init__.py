"""Match Patch (docs/rules.md, "Match Patch")."""

from __future__ import annotations

from companion.games import GameKind, Part, Scoring
from companion.games.match_patch import sample
from companion.games.match_patch.rules import MatchPatch

KIND = GameKind(rules=MatchPatch(),
                panel=Part("companion.games.match_patch.panel:MatchPatchMode"),
                gallery=Part("companion.games.match_patch.gallery:shots"),
                scoring=Scoring("pairs", lambda s: s.scores),
                sample=sample.move,
                demo=sample.DEMO,
                web=Part("companion.games.match_patch.web:WEB"),
                order=40,
                color="#d98cff")
