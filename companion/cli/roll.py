"""`companion roll colors shapes ...`: roll dice from the command line.

Through the dice roller when one answers (the config's `[roller]` section, or `--port`),
else in software. Prints the result in words, one die a line, and who rolled it.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import sys

from companion import config as configmod
from companion.drivers.dice import SoftwareDice
from companion.errors import ConfigError, RollerError
from companion.inputs import RollResult
from companion.rules.dice import DICE, LOGO

EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="companion roll",
        description="Roll the Chroma Cards dice: on the dice roller if one is plugged in, "
                    "else in software.",
        epilog=f"dice: {', '.join(DICE)}. Example: companion roll colors shapes",
    )
    p.add_argument("dice", nargs="+", metavar="DIE", help="a die to roll (each at most once)")
    p.add_argument("--config", help=f"config file (default: {configmod.default_config_path()})")
    p.add_argument("--port", help='roller port: "auto", "none" or a device path '
                                  "(default: from the config)")
    p.add_argument("--timeout", type=float, help="seconds to wait for the roller (default: config)")
    p.add_argument("--seed", type=int, help="seeded software roll, for tests and replays")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def check_dice(names: list[str]) -> str | None:
    """A message for a bad list of dice, or None."""
    for name in names:
        if name not in DICE:
            return f"unknown die {name!r} (known: {', '.join(DICE)})"
    if len(set(names)) != len(names):
        return "name each die once"
    return None


def describe(result: RollResult, firmware: str | None) -> str:
    lines = []
    for name, face in result.dice.items():
        shown = f"{face} (wild)" if face == LOGO else str(face)
        lines.append(f"{DICE[name].label}: {shown}")
    if result.source == "roller":
        lines.append(f"rolled on the dice roller (firmware {firmware})" if firmware
                     else "rolled on the dice roller")
    else:
        lines.append("rolled in software" + (f" ({result.note})" if result.note else ""))
    return "\n".join(lines)


def roll(names: list[str], *, port: str, vid_pid: str, timeout: float,
         rng: random.Random | None) -> tuple[RollResult, str | None]:
    """Roll once; returns the result and the roller's firmware version (None: software)."""
    from companion.drivers.roller import DiceRoller

    inbox: queue.Queue = queue.Queue()
    software = SoftwareDice(post=inbox.put, rng=rng)
    if port == "none":
        software.roll(1, names)
        return inbox.get_nowait(), None
    with DiceRoller(post=inbox.put, fallback=software, port=port, vid_pid=vid_pid,
                    timeout=timeout) as roller:
        roller.wait_ready(timeout + 1.0)
        firmware = roller.firmware
        roller.roll(1, names)
        while True:  # notices (roller connected ...) and button presses are not for us
            item = inbox.get(timeout=timeout + 5.0)
            if isinstance(item, RollResult):
                return item, firmware if item.source == "roller" else None


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse printed the usage and the problem
        return int(e.code or 0)
    problem = check_dice(args.dice)
    if problem:
        print(f"companion roll: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        from companion.games import load_config  # house rules: checked by their kinds
        cfg = load_config(args.config, required=args.config is not None)
        port = args.port if args.port is not None else cfg["roller"]["port"]
        timeout = args.timeout if args.timeout is not None else float(cfg["roller"]["timeout"])
        if not 0 < timeout <= 60:
            raise ConfigError("--timeout", f"{timeout} s is outside 0-60 s")
        rng = None
        if args.seed is not None:  # a seed means a reproducible software roll
            port, rng = "none", random.Random(args.seed)
        result, firmware = roll(args.dice, port=port, vid_pid=cfg["roller"]["vid_pid"],
                                timeout=timeout, rng=rng)
    except ConfigError as e:
        print(f"companion roll: config: {e}", file=sys.stderr)
        return EXIT_USAGE
    except queue.Empty:  # an exception with no text: say what was waited for
        print(f"companion roll: no result from the dice within {timeout + 5.0:g} s (is the "
              "roller's port right? companion doctor checks it)", file=sys.stderr)
        return 1
    except RollerError as e:
        print(f"companion roll: no result from the dice: {str(e) or type(e).__name__}",
              file=sys.stderr)
        return 1
    if port != "none" and result.source != "roller" and not result.note:
        result = RollResult(result.seq, result.dice, result.source, "no dice roller found")
    if args.json:
        print(json.dumps({"dice": result.dice, "source": result.source, "note": result.note,
                          "firmware": firmware}))
    else:
        print(describe(result, firmware))
    return 0
