"""`companion stats`: per-player skill ratings, wins, win rates, scores and records
(docs/stats.md)."""

from __future__ import annotations

import json
import sys

from companion.cli.common import EXIT_USAGE, load_config, open_store
from companion.errors import CompanionError


def stats(args) -> int:
    from companion import games
    from companion.session import stats as statsmod, tally
    if args.game is not None and args.game not in games.kinds():
        print(f"companion: stats: --game: unknown game {args.game!r} "
              f"(known: {', '.join(games.kinds())})", file=sys.stderr)
        return EXIT_USAGE
    cfg = load_config(args)
    records: list[statsmod.GameRecord] = []
    left_out: list[statsmod.LeftOut] = []
    ratings = None
    if cfg.journal_path().exists():
        with open_store(cfg, read_only=True) as store:  # stats never change the journal
            history = tally.History(store)
            records, left_out = history.records(), history.left_out
            ratings = history.ratings(records)
    result = statsmod.compute(records, kind=args.game, player=args.player, left_out=left_out,
                              ratings=ratings)
    if args.player is not None and not result.players:
        raise CompanionError(f"no finished games with a player called {args.player.strip()!r}")
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(statsmod.text(result))
    return 0
