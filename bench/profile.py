"""cProfile of presses on the Table, Penny Badger and Pig Farm screens (handle + render,
synchronous, on a fake clock): where press-to-frame time goes.

Run: `.venv/bin/python -W ignore -m bench.profile [presses per mode]`.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import tempfile
from pathlib import Path

from bench.presses import Clock, TimedDisplay, new_app, press_script, step


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 300
    prof = cProfile.Profile()
    with tempfile.TemporaryDirectory() as d:
        for kind in ("table", "penny-badger", "pig-farm"):
            app, store = new_app(Path(d), kind, ("Ann", "Ben", "Cy", "Dee"), TimedDisplay(),
                                 Clock())
            app.render()
            script = press_script(kind)
            prof.enable()
            for i in range(n):
                b = script[i % len(script)]
                step(app, b[1:], "hold") if b.startswith("!") else step(app, b)
            prof.disable()
            app.close()
            store.close()
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(14)
    stats.sort_stats("cumtime").print_stats("companion", 25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
