"""`companion`: run the table companion, export and replay game logs, draw the screens.

User mistakes (a config typo, a bad log, a missing display) end with one line naming the
problem and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from contextlib import ExitStack
from pathlib import Path

from companion import __version__, config as configmod
from companion.errors import (CompanionError, ConfigError, DeviceError, JournalError,
                              LogFormatError)

EXIT_USAGE = 2


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
        print(f"companion: config: {e}", file=sys.stderr)
        return EXIT_USAGE
    except DeviceError as e:
        print(f"companion: {e}", file=sys.stderr)
        return EXIT_USAGE
    except LogFormatError as e:
        print(f"companion: {getattr(args, 'file', '')}: {e}", file=sys.stderr)
        return 1
    except CompanionError as e:
        print(f"companion: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


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

    exp = sub.add_parser("export", help="write a game as a JSON Lines log")
    _config_args(exp)
    exp.add_argument("--game", type=_game_id,
                     help="game id (default: the unfinished or latest game)")
    exp.add_argument("--list", action="store_true", help="list the games in the journal")
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
    p.add_argument("--config", help=f"config file (default: {configmod.default_config_path()})")
    p.add_argument("--journal", help="journal database (default: from the config, else the "
                                     "platform's state directory)")


def load_config(args) -> configmod.Config:
    cfg = configmod.load(args.config, required=args.config is not None)
    if getattr(args, "journal", None):
        cfg.data["storage"]["path"] = args.journal
    return cfg


def open_store(cfg: configmod.Config, *, read_only: bool = False, full_ok: bool = False):
    """The journal; JournalError (a CompanionError: one line, exit 1) when it cannot be used.
    `full_ok` (companion run): on a full disk, the journal opened read-only instead, so the
    game is shown and every press says it cannot be saved."""
    from companion.session.store import DiskFull, Store
    try:
        return Store(cfg.journal_path(), read_only=read_only)
    except DiskFull as e:
        path = cfg.journal_path()
        if read_only or not full_ok or not path.exists():
            raise
        try:
            store = Store(path, read_only=True)
        except JournalError:
            # No room for SQLite's shared-memory index: read the file as it is, which is
            # exact when no write-ahead log is pending (a clean stop leaves none).
            wal = path.with_name(path.name + "-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise e from None
            store = Store(path, immutable=True)
        store.unwritable = "the disk is full"
        store.notice = " ".join(filter(None, [
            "Disk full: nothing can be saved. The game is shown as it was last saved; free "
            "some space, then restart the companion.", store.notice]))
        logging.getLogger("companion").error("%s", e)
        return store


def cmd_run(args) -> int:
    import random
    from companion.app import App
    from companion.drivers import display as displaymod

    cfg = load_config(args)
    display_kind = args.display or ("terminal" if args.emulator else "oled")
    input_kind = args.input or ("keyboard" if args.emulator else "buttons")
    if input_kind == "keyboard":
        from companion.drivers.keyboard import terminal_fd
        terminal_fd()  # before anything draws: no terminal, no emulator
    _setup_logging(cfg, quiet=display_kind == "terminal")

    with ExitStack() as stack:
        # One companion per journal, for the life of this process (companion/session/lock.py):
        # a second `run` stops here with exit 1; export, stats and doctor only read.
        from companion.session.lock import JournalLock
        stack.enter_context(JournalLock(cfg.journal_path()))
        if display_kind == "oled":
            display = displaymod.oled(cfg)
        elif display_kind == "terminal":
            from companion.drivers.keyboard import KEY_HELP
            from companion.drivers.terminal import terminal
            term = terminal(footer=KEY_HELP)
            display = displaymod.Display(term)
        else:
            display = displaymod.dummy()
        stack.enter_context(display)
        store = stack.enter_context(open_store(cfg, full_ok=True))

        def on_commit(what: str, count: int, event) -> None:
            if args.ack:
                print(f"ack {what} {count} {json.dumps(event)}", flush=True)

        rng = random.Random(args.seed) if args.seed is not None else None
        app = App(config=cfg, store=store, display=display, on_commit=on_commit, rng=rng)
        app.dice = stack.enter_context(_dice(cfg, app.post, rng))
        stack.callback(app.close)
        if input_kind == "keyboard":
            from companion.ui import power
            from companion.drivers.keyboard import Keyboard
            app.power_runner = power.emulated(app.post)  # `p`: never this computer's poweroff
            stack.enter_context(Keyboard(post=app.post))
        elif input_kind == "stdin":
            from companion.drivers.keyboard import ScriptInput
            stack.enter_context(ScriptInput(sys.stdin, post=app.post))
        else:
            from gpiozero import Device
            from companion.drivers.buttons import ButtonPanel
            from companion.drivers.pins import choose
            if Device.pin_factory is None:  # the environment, the config, or gpiozero's order
                choice = choose(cfg["gpio"]["pin_factory"])
                logging.getLogger("companion").info("pin library: %s", choice.line())
                Device.pin_factory = choice.factory  # shared by every pin; closed at exit
            b = cfg["buttons"]
            stack.enter_context(ButtonPanel(cfg.pins(), post=app.post, debounce=b["debounce"],
                                            hold_time=b["hold_time"]))
            enc = cfg["encoder"]
            if enc["enabled"]:
                from companion.drivers.encoder import Encoder
                stack.enter_context(Encoder(a=enc["a"], b=enc["b"], push=enc["push"],
                                            post=app.post, debounce=b["debounce"],
                                            hold_time=b["hold_time"]))
            if cfg["buzzer"]["enabled"]:
                from companion.drivers.buzzer import Buzzer
                app.buzzer = stack.enter_context(Buzzer(cfg["buzzer"]["pin"]))
        # Last: a failure above (no display, no pins) never leaves a port bound. The panel
        # shows its first frame first: the web takes a quarter of a second to start.
        app.render()
        web_url = _web(args, cfg, app, stack)
        if web_url and display_kind == "terminal":
            term.footer = [*term.footer, f"Table web: {web_url}"]
            display.last = None  # draw again, with the address under the panel
            app.render()
        from companion.inputs import Quit, Tick
        signal.signal(signal.SIGTERM, lambda *_: app.post(Quit()))
        if display_kind == "terminal" and hasattr(signal, "SIGWINCH"):
            def redraw(*_) -> None:  # a resized window: the same frame again, for its new size
                display.last = None
                app.post(Tick("resize"))
            signal.signal(signal.SIGWINCH, redraw)
        if args.ack:
            app.render()  # the first frame, so that "ready" means the panel shows something
            print("ready", flush=True)
        app.run()
    return 0


def _web(args, cfg, app, stack) -> str:
    """Set up the table web for `app` and start it unless switched off; its address or ""."""
    from companion.web.server import Web
    w = cfg["web"]
    host, port = args.web or ("127.0.0.1" if args.emulator else w["host"], w["port"])
    web = Web(config=cfg, post=app.post, host=host, port=port,
              frame=lambda: app.last_frame, source=cfg.journal_path())
    app.attach_web(web)
    if args.ack:  # headless scripts and tests read the code here (the service never uses --ack)
        web.pairing.on_code = lambda code: print(f"pair {code}", flush=True)
    stack.callback(web.stop)
    if args.no_web or not (w["enabled"] or args.web):
        return ""
    problem = web.start()
    if problem:
        print(f"companion: {problem}", file=sys.stderr, flush=True)
        app.show_toast("Web off: " + problem.split("(")[-1].split(")")[0], 4.0)
        return ""
    if args.ack:
        print(f"web {web.url}", flush=True)
    return web.url


def _dice(cfg, post, rng):
    """The dice roller if one is configured and the driver is present, else software dice."""
    from companion.drivers.dice import SoftwareDice
    software = SoftwareDice(post=post, rng=rng)
    if cfg["roller"]["port"] == "none" or rng is not None:
        return software
    try:
        from companion.drivers.roller import open_roller
    except ImportError:
        return software
    return open_roller(cfg, post=post, fallback=software)


def _setup_logging(cfg, *, quiet: bool) -> None:
    handlers: list[logging.Handler] = []
    if quiet:  # the terminal shows the panel; log to a file beside the journal instead
        path = cfg.journal_path().with_name("companion.log")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handlers.append(logging.FileHandler(path))
        except OSError:
            pass
    else:
        handlers.append(logging.StreamHandler())
    logging.basicConfig(level=logging.INFO, handlers=handlers or [logging.NullHandler()],
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def cmd_export(args) -> int:
    from companion.session import log as logmod
    from companion.session.checksum import describe
    cfg = load_config(args)
    if not cfg.journal_path().exists():
        if args.list:
            return 0  # no journal yet: no games
        raise CompanionError(f"no games yet: there is no journal at {cfg.journal_path()}")
    with open_store(cfg, read_only=True) as store:  # export never changes the journal
        games = store.games()
        if args.list:
            for g in games:
                kind, players = ((g.header.game, f"{len(g.header.players)} players")
                                 if g.header else ("?", "unreadable header"))
                altered = "\tchecksum does not match" if store.verify(g.id) else ""
                print(f"{g.id}\t{kind}\t{players}\t{g.events} events{altered}")
            return 0
        if not games:
            raise CompanionError(f"no games in {cfg.journal_path()}")
        gid = args.game if args.game is not None else (store.open_id() or games[-1].id)
        if gid not in {g.id for g in games}:
            raise CompanionError(f"no game {gid} in the journal (companion export --list)")
        # The checksums first: an altered game is refused before anything is read into it.
        altered = store.verify(gid)
        if altered and not args.force:
            raise CompanionError(f"{describe(altered)}: the game was altered after it was "
                                 "recorded; companion export --force writes it anyway")
        broken = ""
        doubled = store.duplicates(gid) if store.schema >= 3 else 0
        if doubled:  # two companions wrote it: no one replay is the game
            broken = (f"game {gid} has {doubled} event{'s' * (doubled != 1)} recorded "
                      "twice at one place (two companions wrote the journal at once)")
        else:
            try:
                lines = list(logmod.dump(store.load(gid)))
            except (CompanionError, ValueError, KeyError, TypeError) as e:
                # A damaged row (not UTF-8, not JSON, not a legal event) or a rules change.
                broken = f"game {gid} no longer replays ({e})"
        if broken:
            if not args.force:
                raise CompanionError(f"{broken}; companion export --force writes its stored "
                                     "rows as they are")
            lines = store.stored_lines(gid)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.writelines(line + "\n" for line in lines)
        except OSError as e:
            raise CompanionError(f"cannot write {args.output}: {e.strerror or e}") from None
    else:
        sys.stdout.writelines(line + "\n" for line in lines)
    for m in altered:
        print(f"altered: {m}", file=sys.stderr)
    if broken:
        print(f"{broken}: its stored rows were written as they are", file=sys.stderr)
    if altered or broken:
        print(f"written anyway (--force): game {gid} is not as it was recorded", file=sys.stderr)
    return 0


def cmd_replay(args) -> int:
    from companion.session import log as logmod
    journal = logmod.read_file(args.file)
    if args.json:
        print(json.dumps(journal.summary()))
    else:
        print(journal.game.text(journal.state, journal.header))
    return 0


def cmd_stats(args) -> int:
    from companion.session import stats as statsmod
    from companion import games
    if args.game is not None and args.game not in games.kinds():
        print(f"companion: stats: --game: unknown game {args.game!r} "
              f"(known: {', '.join(games.kinds())})", file=sys.stderr)
        return EXIT_USAGE
    cfg = load_config(args)
    if cfg.journal_path().exists():
        with open_store(cfg, read_only=True) as store:  # stats never change the journal
            records = statsmod.History(store).records()
    else:
        records = []
    result = statsmod.compute(records, kind=args.game, player=args.player)
    if args.player is not None and not result.players:
        raise CompanionError(f"no finished games with a player called {args.player.strip()!r}")
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(statsmod.text(result))
    return 0


def cmd_import(args) -> int:
    from companion.session import log as logmod
    from companion.session.store import AlreadyImported
    from companion.session.stats import log_digest
    journal = logmod.read_file(args.file)  # the replay of `companion replay`: nothing written
    digest = log_digest(journal)
    cfg = load_config(args)
    with open_store(cfg) as store:
        if store.notice:  # a damaged journal was set aside: say so before anything else
            print(f"companion: {store.notice}", file=sys.stderr)
        try:
            gid = store.import_game(journal, digest)
        except AlreadyImported as e:
            print(f"{args.file}: {e}")
            return 0
        from companion.session.stats import History
        History(store, save=True).records()  # its statistics record, saved like the box's
    title, n = journal.game.title, len(journal.header.players)
    if journal.state.over:
        winners = " & ".join(journal.name(s) for s in journal.state.winners) or "no winner"
        print(f"imported game {gid}: {title}, {n} players, {len(journal.events)} events, "
              f"finished ({winners})")
    else:
        print(f"imported game {gid}: {title}, {n} players, {len(journal.events)} events, "
              "unfinished: the start menu offers to resume it")
    return 0


def cmd_screens(args) -> int:
    from companion.gallery.screens import write_all
    cfg = load_config(args)
    try:
        written = write_all(Path(args.outdir), cfg, scale=args.scale)
    except FileExistsError:  # mkdir's word for "a file is in the way"
        raise CompanionError(f"cannot write the screens to {args.outdir}: it exists and is "
                             "not a directory") from None
    except OSError as e:
        raise CompanionError(f"cannot write the screens to {args.outdir}: "
                             f"{e.strerror or e}") from None
    print(f"wrote {len(written)} screens to {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
