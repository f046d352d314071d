"""Software dice: the OS's randomness (no modulo bias), reported like the roller's."""

from __future__ import annotations

import random
from typing import Callable

from companion.inputs import RollResult
from companion.rules.dice import roll


class SoftwareDice:
    """Rolls at once and posts a `RollResult`. `rng` is injectable for tests and replays."""

    name = "Software dice"

    def __init__(self, *, post: Callable[[object], None],
                 rng: random.Random | None = None) -> None:
        self.post = post
        self.rng = rng or random.SystemRandom()

    def roll(self, seq: int, names: list[str], *, note: str = "") -> None:
        self.post(RollResult(seq, roll(names, self.rng), source="software", note=note))

    def close(self) -> None:
        pass

    def __enter__(self) -> SoftwareDice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
