"""`companion`: run the table companion, export and replay game logs, draw the screens.

User mistakes (a config typo, a bad log, a missing display) end with one line naming the
problem and a non-zero exit status, never a traceback.

This module is the parser: each command is in a module of its own (imported when it runs),
and what the commands share is in companion/cli/common.py, which they import instead of this.
"""

from __future__ import annotations

import argparse
import sys

from companion import __version__
from companion.cli.common import EXIT_USAGE
from companion.errors import CompanionError, ConfigError, DeviceError, LogFormatError, shown


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:  # Ctrl-C while the roller or the doctor waits: a quiet stop, as for `run`
        if argv[:1] == ["roll"]:
            from companion.cli import roll as rollcli
            return rollcli.main(argv[1:])
        if argv[:1] == ["doctor"]:
            from companion.cli import doctor
            return doctor.main(argv[1:])
    except KeyboardInterrupt:
        return 130
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args)
    except ConfigError as e:
        print(shown(f"companion: config: {e}"), file=sys.stderr)
        return EXIT_USAGE
    except DeviceError as e:
        print(shown(f"companion: {e}"), file=sys.stderr)
        return EXIT_USAGE
    except LogFormatError as e:
        print(shown(f"companion: {getattr(args, 'file', '')}: {e}"), file=sys.stderr)
        return 1
    except CompanionError as e:
        print(shown(f"companion: {e}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


# Each command's code is imported when it runs: `companion run` reads none of the others.
def cmd_run(args) -> int:
    from companion.cli.run import run
    return run(args)


def cmd_export(args) -> int:
    from companion.cli.logs import export
    return export(args)


def cmd_replay(args) -> int:
    from companion.cli.logs import replay
    return replay(args)


def cmd_import(args) -> int:
    from companion.cli.logs import import_log
    return import_log(args)


def cmd_stats(args) -> int:
    from companion.cli.stats import stats
    return stats(args)


def cmd_screens(args) -> int:
    from companion.cli.screens import screens
    return screens(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    p.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = p.add_subparsers(metavar="COMMAND")

    run = sub.add_parser("run", help="start the companion (real devices, or --emulator)")
    _config_args(run)
    run.add_argument("--emulator", action="store_true",
                     help="draw the OLED in this terminal and use the keyboard as buttons")
    run.add_argument("--display", choices=("oled", "terminal", "dummy"),
                     help="where to draw (default: oled, or terminal with --emulator)")
    run.add_argument("--input", choices=("buttons", "keyboard", "stdin"),
                     help="where presses come from (default: buttons, or keyboard with "
                          "--emulator; stdin reads button names one per line)")
    run.add_argument("--ack", action="store_true",
                     help="print \"ready\" once running, then one line per committed "
                          "change on stdout (for scripts)")
    run.add_argument("--seed", type=int, help="seed the dice (tests and demos only)")
    web = run.add_mutually_exclusive_group()
    web.add_argument("--web", metavar="HOST:PORT", type=_hostport,
                     help="serve the table web here (default: [web] in the config, "
                          "0.0.0.0:8080; 127.0.0.1:8080 with --emulator)")
    web.add_argument("--no-web", action="store_true", help="do not serve the table web "
                     "(the device menu can still turn it on)")
    run.set_defaults(func=cmd_run)

    exp = sub.add_parser("export", help="write a game as a JSON Lines log, or finished games "
                                        "as plays (CSV, BG Stats)")
    _config_args(exp)
    exp.add_argument("--format", choices=("jsonl", "csv", "bgstats"), default="jsonl",
                     help="jsonl: the game's log (default); csv: one row per player per "
                          "finished game; bgstats: BG Stats' play format (docs/stats.md)")
    which = exp.add_mutually_exclusive_group()
    which.add_argument("--game", type=_game_id,
                       help="game id (default: the unfinished or latest game; for csv and "
                            "bgstats the latest finished game)")
    which.add_argument("--all", action="store_true",
                       help="every finished game (csv and bgstats)")
    which.add_argument("--season", metavar="NAME",
                       help="the finished games of a season of the config (csv and bgstats)")
    which.add_argument("--list", action="store_true", help="list the games in the journal")
    exp.add_argument("-o", "--output", help="file to write (default: stdout)")
    exp.add_argument("--force", action="store_true",
                     help="write a game whose rows no longer match their checksums (it was "
                          "altered after it was recorded) and say on stderr what was altered")
    exp.set_defaults(func=cmd_export)

    rep = sub.add_parser("replay", help="fold a JSON Lines log and print the final state")
    rep.add_argument("file", help="the log (JSON Lines: header, then one event per line)")
    rep.add_argument("--json", action="store_true", help="print the state as JSON")
    rep.set_defaults(func=cmd_replay)

    st = sub.add_parser("stats", help="per-player wins, win rates, scores and records")
    _config_args(st)
    st.add_argument("--json", action="store_true", help="print the figures as JSON "
                                                        "(docs/stats.md)")
    st.add_argument("--game", metavar="KIND", help="only this game kind (e.g. pig-farm)")
    st.add_argument("--player", metavar="NAME", help="only this player's figures")
    st.set_defaults(func=cmd_stats)

    imp = sub.add_parser("import", help="add a game to the journal from a JSON Lines log")
    imp.add_argument("file", help="the log (as `companion export` writes it)")
    _config_args(imp)
    imp.set_defaults(func=cmd_import)

    scr = sub.add_parser("screens", help="draw every screen as a PNG (for docs/screens)")
    scr.add_argument("outdir", nargs="?", default="docs/screens")
    scr.add_argument("--scale", type=_scale, default=4, help="pixels per panel pixel (1-16)")
    _config_args(scr)
    scr.set_defaults(func=cmd_screens)

    sub.add_parser("roll", help="roll dice from the command line: companion roll colors shapes")
    sub.add_parser("doctor", help="check the hardware, the config and the journal")
    return p


def _game_id(text: str) -> int:
    """A game number as `export --list` prints it (SQLite's ids are 64-bit: a longer number
    would be an OverflowError deep in the store)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number (companion export "
                                         "--list shows them)")
    return value


def _scale(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 16:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to 16")
    return value


def _hostport(text: str) -> tuple[str, int]:
    from companion.web.guard import parse_hostport  # light: asyncio & co. load later
    try:
        return parse_hostport(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _config_args(p: argparse.ArgumentParser) -> None:
    # The default's place is not worked out here: that would import platformdirs at every
    # start (`companion doctor` prints the place it finds).
    p.add_argument("--config", help="config file (default: config.toml in the user config "
                                    "folder, ~/.config/chroma-companion/ on Linux; "
                                    "`companion doctor` names the one it finds)")
    p.add_argument("--journal", help="journal database (default: from the config, else the "
                                     "platform's state directory)")


if __name__ == "__main__":
    sys.exit(main())
