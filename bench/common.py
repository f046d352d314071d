"""What the benchmarks share: the repository's root (the working directory of the processes
they start), the percentile their figures use, and the type of the `figure` callable
bench/run.py hands each of them. It imports none of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]

Figure = Callable[..., None]  # bench/run.py's figure(name, value, unit, goal, note, source)


def pct(xs: list[float], p: float) -> float:
    """The p-th percentile of `xs` (nearest rank)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
