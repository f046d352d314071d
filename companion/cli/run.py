"""`companion run`: the companion itself, on real devices or in the terminal emulator.

Only what the first frame needs is imported before it is drawn; the web starts after it.
"""

from __future__ import annotations

import json
import logging
import queue
import signal
import sys
from contextlib import ExitStack

from companion.cli.common import load_config, open_store
from companion.errors import shown


def run(args) -> int:
    import random

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
        lock = stack.enter_context(JournalLock(cfg.journal_path()))
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
        # The frame the last run kept for this start, if the journal, the config and the code
        # are as they were then: shown before the app, the game's rules and its screens are
        # imported (most of a start on a Pi Zero 2 W). The app's own first frame below is the
        # same picture, so the display sends nothing for it.
        from companion.session import startframe
        frame_path = startframe.path_for(cfg.journal_path())
        kept = startframe.read(frame_path, cfg.journal_path(), cfg.data)
        inbox: queue.SimpleQueue = queue.SimpleQueue()  # the app's input queue, made here
        if kept is not None:
            from PIL import Image
            display.show(Image.frombytes("1", startframe.SIZE, kept))
            # The table sees its game: its presses count from now on. They wait in the app's
            # queue until the app is up, a few tenths of a second later on a Pi Zero 2 W.
            _inputs(stack, cfg, input_kind, inbox.put)
        store = stack.enter_context(open_store(cfg, full_ok=True))
        lock.hold_file()  # the file the store opened (made now, or new after a damaged one)
        from companion.app.core import App

        def on_commit(what: str, count: int, event) -> None:
            if args.ack:
                print(f"ack {what} {count} {json.dumps(event)}", flush=True)

        rng = random.Random(args.seed) if args.seed is not None else None
        # The seat light ring ([lights]): dark again when the companion stops (the stack
        # closes it after the app). One that cannot be opened is one line and a toast: the
        # game goes on without it (companion doctor says what to fix). The emulator opens no
        # hardware: it draws the ring around its panel.
        ring, ring_problem = _ring(cfg, stack) if display_kind != "terminal" else (None, "")
        lit = {"ring": ring} if ring is not None else {}
        # The box's voice ([speech]; docs/speech.md): closed after the app (the stack unwinds
        # in reverse), so a call the app makes as it closes still finds it.
        speaker = _speaker(cfg, stack)
        voice = {"speaker": speaker} if speaker is not None else {}
        app = App(config=cfg, store=store, display=display, on_commit=on_commit, rng=rng,
                  start_frame=frame_path, inbox=inbox, **lit, **voice)
        stack.callback(app.close)
        if ring_problem:
            app.show_toast("Lights off: see doctor", 4.0)
        if display_kind == "terminal":  # the emulator draws the seat lights round the panel
            app.lights.attach(_emulator_ring(term, cfg), visible=True)
        # The first frame now (unless the kept one is up): the dice roller, the pins and the
        # web are set up after it (nothing reaches the app before app.run(), so nothing is
        # missed in between).
        app.render()
        if kept is not None and app.panel_frame.tobytes() != kept:
            # Not the kept picture after all (a notice the journal's checks raised, a screen
            # that failed): presses made meanwhile were meant for what the table saw.
            _drop_presses(inbox)
        app.dice = stack.enter_context(_dice(cfg, app.post, rng))
        if input_kind == "keyboard":
            from companion.ui import power
            app.power_runner = power.emulated(app.post)  # `p`: never this computer's poweroff
        if kept is None:
            _inputs(stack, cfg, input_kind, app.post)
        if input_kind == "buttons" and cfg["buzzer"]["enabled"]:  # on the buttons' pin library
            from companion.drivers.buzzer import Buzzer
            app.buzzer = stack.enter_context(Buzzer(cfg["buzzer"]["pin"]))
        # Last: a failure above (no display, no pins) never leaves a port bound.
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


def _inputs(stack: ExitStack, cfg, input_kind: str, post) -> None:
    """The buttons (and the encoder), the keyboard or stdin, posting to `post`."""
    if input_kind == "keyboard":
        from companion.drivers.keyboard import Keyboard
        stack.enter_context(Keyboard(post=post))
    elif input_kind == "stdin":
        from companion.drivers.keyboard import ScriptInput
        stack.enter_context(ScriptInput(sys.stdin, post=post))
    else:
        from gpiozero import Device

        from companion.drivers.buttons import ButtonPanel
        from companion.drivers.pins import choose
        if Device.pin_factory is None:  # the environment, the config, or gpiozero's order
            choice = choose(cfg["gpio"]["pin_factory"])
            logging.getLogger("companion").info("pin library: %s", choice.line())
            Device.pin_factory = choice.factory  # shared by every pin; closed at exit
        b = cfg["buttons"]
        stack.enter_context(ButtonPanel(cfg.pins(), post=post, debounce=b["debounce"],
                                        hold_time=b["hold_time"]))
        enc = cfg["encoder"]
        if enc["enabled"]:
            from companion.drivers.encoder import Encoder
            stack.enter_context(Encoder(a=enc["a"], b=enc["b"], push=enc["push"],
                                        post=post, debounce=b["debounce"],
                                        hold_time=b["hold_time"]))


def _drop_presses(inbox: queue.SimpleQueue) -> None:
    """Take the button presses out of `inbox` (everything else stays, in order)."""
    from companion.inputs import ButtonInput
    items = []
    while not inbox.empty():
        items.append(inbox.get_nowait())
    presses = [i for i in items if isinstance(i, ButtonInput)]
    for item in items:
        if not isinstance(item, ButtonInput):
            inbox.put(item)
    if presses:
        logging.getLogger("companion").info("%d press(es) made on the kept start frame "
                                            "dropped: the app's first frame differs", len(presses))


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
    # Where the web listens (or will, from the device menu's Web on), for `companion doctor`,
    # which reads the config, not this --web (companion/session/webinfo.py).
    from companion.session import webinfo
    stack.callback(webinfo.withdraw, cfg.journal_path())
    if args.no_web or not (w["enabled"] or args.web):
        webinfo.publish(cfg.journal_path(), web.host, web.port, web.url)
        return ""
    problem = web.start()
    webinfo.publish(cfg.journal_path(), web.host, web.port, web.url)
    if problem:
        print(shown(f"companion: {problem}"), file=sys.stderr, flush=True)
        app.show_toast("Web off: " + problem.split("(")[-1].split(")")[0], 4.0)
        return ""
    if args.ack:
        print(f"web {web.url}", flush=True)
    return web.url


def _ring(cfg, stack: ExitStack):
    """The light ring `[lights]` configures (None when off) and the problem that kept it
    dark ("" when none)."""
    from companion.drivers.lights import open_ring
    from companion.errors import LightsError
    try:
        ring = open_ring(cfg)
    except LightsError as e:
        problem = f"lights off: {e}"
        print(shown(f"companion: {problem}"), file=sys.stderr, flush=True)
        return None, problem
    if ring is not None:
        stack.enter_context(ring)
    return ring, ""


def _emulator_ring(term, cfg):
    """The emulator's ring round its panel: the LEDs the players see, without the ones
    `[lights] first` keeps dark inside the box."""
    return term.ring(cfg["lights"]["count"] - cfg["lights"]["first"])


def _speaker(cfg, stack: ExitStack):
    """The box's voice `[speech]` configures (None when off), closed when `stack` closes. It
    opens no device: a missing espeak-ng or sound card is one log line when the first call
    is said (companion/drivers/speech.py), and `companion doctor` says what to fix."""
    from companion.drivers.speech import open_speaker
    speaker = open_speaker(cfg)
    if speaker is not None:
        stack.enter_context(speaker)
    return speaker


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
