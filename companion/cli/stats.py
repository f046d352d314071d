"""`companion stats`: per-player skill ratings, wins, win rates, scores and records
(docs/stats.md): the JSON of `compute`, or the terminal table (`text`)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from companion.cli.common import EXIT_USAGE, load_config, open_store
from companion.errors import CompanionError
from companion.games import scoring as kind_scoring, title as kind_title
from companion.session.clock import clock_text
from companion.session.ratings import PROVISIONAL_GAMES
from companion.session.stats import not_counted_lines

if TYPE_CHECKING:
    from companion.session.stats import Stats


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
        print(text(result))
    return 0


def text(stats: Stats) -> str:
    """`companion stats` without --json: a table per player, then the records."""
    t = stats.totals
    lines = [f"{t['finished']} finished game{'s' * (t['finished'] != 1)}"
             + (f", {t['unfinished']} unfinished" if t["unfinished"] else "")]
    lines += not_counted_lines(t)
    if not stats.players:
        lines.append("No finished games yet.")
        return "\n".join(lines)
    width = max(6, *(len(n) for n in stats.players))
    timed = any(p["turns"] for p in stats.players.values())
    lines.append("")
    lines.append(f"{'player':<{width}}  {'rating':>11}  played  won  win rate"
                 + ("  avg turn  slowest  time share" if timed else ""))
    for name, p in stats.players.items():
        line = (f"{name:<{width}}  {rating_text(p):>11}  {p['played']:>6}  {p['won']:>3}"
                f"  {_pct(p['win_rate']):>8}")
        if timed:
            line += (f"  {_clock(p['average_turn']):>8}  {_clock(p['slowest_turn']):>7}"
                     f"  {_pct(p['time_share']):>10}")
        lines.append(line)
    if any(p["provisional"] for p in stats.players.values()):
        lines.append(f"(new): fewer than {PROVISIONAL_GAMES} games with a winner; ranked "
                     "below every player with a settled rating")
    for name, p in stats.players.items():
        lines.append("")
        lines.append(f"{name}:")
        for kind, k in p["by_game"].items():
            title = kind_title(kind)
            line = f"  {title}: won {k['won']} of {k['played']} ({_pct(k['win_rate'])})"
            if k.get("scored"):
                line += f"; {k['score']} average {k['average']:g}, best {k['best']}"
                for extra in _extras(kind):
                    if k.get(extra) is not None:
                        line += f", {extra.replace('_', ' ')} {k[extra]}"
            if k["turns"]:
                line += (f"; turns average {_clock(k['average_turn'])}, slowest "
                         f"{_clock(k['slowest_turn'])} (game {k['slowest_turn_game']}), "
                         f"{_pct(k['time_share'])} of the table's time")
            line += f"; rating {rating_text(k)}"
            lines.append(line)
        rivals = [f"{o} {h['won']}-{h['lost']}" for o, h in p["head_to_head"].items()]
        if rivals:
            lines.append("  head to head (won-lost): " + ", ".join(rivals))
        for label, r, n in (("loses most to", p["nemesis"], "lost"),
                            ("beats most", p["victim"], "won")):
            if r is not None:
                lines.append(f"  {label} {r['name']} ({r[n]} of {r['games']} games together)")
    r = stats.records
    lines.append("")
    lines.append("Records:")
    for label, k, unit in (("Biggest win", "biggest_margin", "margin"),
                           ("Closest game", "closest_game", "margin"),
                           ("Longest game", "longest_events", "events"),
                           ("Longest in time", "longest_minutes", "minutes"),
                           ("Slowest turn", "slowest_turn", "seconds")):
        rec = r.get(k)
        if rec is None:
            continue
        kind = kind_title(rec["kind"])
        who = " & ".join(rec["winners"])
        what = f"by {rec[unit]} ({rec['score']})" if unit == "margin" else \
            f"{_clock(rec[unit])} by {rec['player']}" if unit == "seconds" else \
            f"{rec[unit]} {unit}"
        won = f"won by {who}" if rec["winners"] else "no winner"
        lines.append(f"  {label}: {what}, game {rec['game']}, {kind}, {won}")
    return "\n".join(lines)


def rating_text(figures: dict[str, Any]) -> str:
    """A rating as the terminal shows it: "18.4", or "3.1 (new)" while provisional."""
    return f"{figures['rating']:.1f}" + (" (new)" if figures["provisional"] else "")


def _extras(kind: str) -> tuple[str, ...]:
    sc = kind_scoring(kind)
    return tuple(sc.extras) if sc else ()


def _clock(seconds: float | None) -> str:
    """A turn's seconds as the clocks show them (`0:42`, `2:05`); "-" for none."""
    return "-" if seconds is None else clock_text(seconds)


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{round(rate * 100)}%"
