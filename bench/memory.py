"""Memory over a long game played live (issue 35.4), for `make bench ARGS="--only memory"`.

bench/run.py's `rss_after` resumes a journal written beforehand and then presses 200 times, so
what the live path keeps for each press it handles is hardly in its figure. Here a game is
played press by press, in a fresh process of its own (so nothing of the benchmark's own is in
its VmRSS): the real `App` on the test driver's fake clock (companion/testing.py), each NEXT
posted to the app's queue and handled from it, with the turn clock ticking as in a game (the
clock moved on 1.5 s, its tick handled and drawn, 1.5 s more, then the press and its frame),
each press committed to a journal on disk (synchronous=FULL, as on the box). VmRSS is read
after `--at` presses each.

`--trace`: instead of VmRSS, tracemalloc snapshots taken at the first and the last `--at`,
compared grouped by traceback: what the live path keeps per event, biggest first (how 35.4's
growth was found; docs/performance.md).

Run on its own: `.venv/bin/python -m bench.memory --at 5000 10000 20000 [--trace]`.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def play(directory: Path, at: list[int], *, trace: bool = False) -> dict[str, object]:
    """Presses NEXT live in a four-player table game; the VmRSS (kB) after each count in
    `at`, or with `trace` the growth tracemalloc saw between the first and the last."""
    import tracemalloc

    from companion.testing import FakeClock, close, drain, make_app, press

    clock = FakeClock()
    app = make_app(directory, kind="table", setup=False, clock=clock, strict=False)
    rss: dict[int, int] = {}
    first = None
    done = 0
    try:
        for target in sorted(at):
            while done < target:
                clock.advance(1.5)  # the turn clock's tick falls due: handled and drawn
                drain(app)
                app.render()
                clock.advance(1.5)
                press(app, "NEXT")
                done += 1
            gc.collect()
            if trace:
                if first is None:
                    tracemalloc.start(25)
                    first = tracemalloc.take_snapshot()
                continue
            rss[target] = _rss_kb()
        if trace and first is not None:
            last = tracemalloc.take_snapshot()
            stats = last.compare_to(first, "traceback")
            lo, hi = min(at), max(at)
            per_1k = sum(s.size_diff for s in stats) / ((hi - lo) / 1000)
            top = [{"bytes": s.size_diff, "blocks": s.count_diff,
                    "where": s.traceback.format()[-6:]} for s in stats[:8]]
            return {"traced_bytes_per_1k_events": per_1k, "top": top}
        return {"rss_kb": rss}
    finally:
        if trace:
            tracemalloc.stop()  # (a test that traced must not slow every test after it)
        close(app)


def live_rss(tmp: Path, at: tuple[int, ...], *, trace: bool = False) -> dict[str, Any]:
    """`play` in a fresh Python process, its journal in `tmp`."""
    tmp.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "bench.memory", "--dir", str(tmp), "--at", *map(str, at)]
    out = subprocess.run(cmd + (["--trace"] if trace else []), cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--at", type=int, nargs="+", default=[5000, 10000, 20000])
    ap.add_argument("--dir", type=Path, default=None, help="where the journal goes")
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args(argv)
    if args.dir is None:
        with tempfile.TemporaryDirectory() as d:
            result = play(Path(d), args.at, trace=args.trace)
    else:
        result = play(args.dir, args.at, trace=args.trace)
    if args.trace:
        for row in result["top"]:  # type: ignore[attr-defined]
            print(row["bytes"], "bytes in", row["blocks"], "blocks", file=sys.stderr)
            print("\n".join("    " + w for w in row["where"]), file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
