"""Match Patch (docs/rules.md, "Match Patch")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games import GameKind, Scoring
from companion.games.match_patch import sample
from companion.games.match_patch.rules import MatchPatch

if TYPE_CHECKING:
    from companion.config import Config
    from companion.games import Shot
    from companion.ui.modes import Mode
    from companion.web.kinds import KindWeb


def panel() -> Mode:
    from companion.games.match_patch.panel import MatchPatchMode
    return MatchPatchMode()


def gallery(config: Config) -> Iterator[Shot]:
    from companion.games.match_patch.gallery import shots
    return shots(config)


def web() -> KindWeb:
    from companion.games.match_patch.web import WEB
    return WEB


KIND = GameKind(rules=MatchPatch(),
                panel=panel,
                gallery=gallery,
                scoring=Scoring("pairs", lambda s: s.scores),
                sample=sample.move,
                demo=sample.DEMO,
                web=web,
                order=40,
                color="#d98cff")
