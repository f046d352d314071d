"""Screenshots of the table web (`make web-shots`, docs/web/) and the running companion the
browser tests drive.

`Companion` is the real thing on a free port: an App on luma's dummy display, its own thread
handling the input queue, and the Web (uvicorn in its thread). `demos()` is a realistic game
in progress for every game kind, from the kinds' own declarations, and `design_demos()` one of
a few example designs (examples/designs/). `main()` opens each in Debian's chromium through
Playwright and saves the phone (390x844) and TV (1920x1080) layouts, the TV at the kind's most players
(companion/gallery/crowd.py), plus the pairing and control pages, and the turn clock (the TV
running, at the warning and at "Time!"; /control with Pause and each player's time).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.gallery import crowd
from companion.rules.game import Game

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

    from companion.app.core import App
    from companion.session.store import Store
    from companion.web.server import Web

PHONE: ViewportSize = {"width": 390, "height": 844}
TV: ViewportSize = {"width": 1920, "height": 1080}

def demos() -> dict[str, tuple[list[str], dict[str, Any], list[dict[str, Any]]]]:
    """A game in progress per kind that declares one (GameKind.demo): (players, rules,
    events). Every event is legal (the store's journal checks each one with the rules)."""
    from companion import games
    return {k: (list(v.demo.players), dict(v.demo.rules), [dict(e) for e in v.demo.events])
            for k, v in games.kinds().items() if v.demo is not None}


# The group's own designs the shots show (examples/designs/, in a checkout): a design game is
# drawn by the one generic web part of every design (companion/games/design/web.py).
DESIGNS = Path(__file__).resolve().parents[2] / "examples" / "designs"
DESIGN_DEMOS = ("penalty-pot", "ten-rounds")
DESIGN_PLAYERS = 4


def design_demos() -> dict[str, tuple[list[str], dict[str, Any], list[dict[str, Any]]]]:
    """A game in progress of each example design in DESIGN_DEMOS, by its kind name
    (`design:<hash>`, registered here): its random legal moves (companion/gallery/crowd.py)
    with DESIGN_PLAYERS players. None without the examples (an installed companion)."""
    import tomllib

    from companion import games
    out = {}
    for name in DESIGN_DEMOS:
        path = DESIGNS / f"{name}.toml"
        if path.is_file():
            kind = games.design_kind(tomllib.loads(path.read_text())).kind
            out[kind] = crowd.game(kind, DESIGN_PLAYERS)
    return out


def shot_name(kind: str) -> str:
    """A kind's name in its shots' file names: a design's as "design-" and its title
    ("design-penalty-pot"), never its hash."""
    from companion import games
    if not games.is_design(kind):
        return kind
    return "design-" + "-".join(games.title(kind).lower().split())


def chromium_path() -> str | None:
    """Debian's chromium (Playwright's own browser download needs the internet)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Companion:
    """The companion with its web on 127.0.0.1 (port 0: any free port), for tests and shots."""

    def __init__(self, journal: Path, *, port: int = 0, config=None, clock=None,
                 ring=None) -> None:
        """`clock`: the journal's wall clock (events' times, the turn clock), e.g. a
        companion.testing.FakeClock the test moves; None: the real one. `ring`: a seat light
        ring (companion.testing.RecordingRing) for /tv to show; None: none."""
        import time

        from companion.games import load_config as load
        self.journal = Path(journal)
        self.clock = clock if clock is not None else time.time
        self.config = config if config is not None else load(None)
        self.config.data["dice"]["animation"] = 0.0
        self.port = port
        self.ring = ring
        self.app: App | None = None
        self.web: Web | None = None
        self.store: Store | None = None
        self.thread: threading.Thread | None = None

    def seed(self, kind: str, players: list[str], rules: dict[str, Any],
             events: list[dict[str, Any]]) -> None:
        """Write a game in progress into the journal (before `start`)."""
        from companion.rules.game import Header
        from companion.session.store import Store
        with Store(self.journal, clock=self.clock) as store:
            j = store.new_game(Header(kind, tuple(players), 0, rules))
            for e in events:
                j.append(e)

    def start(self) -> "Companion":
        from companion.app.core import App
        from companion.drivers.display import dummy
        from companion.session.store import Store
        from companion.web.server import Web
        store = self.store = Store(self.journal, clock=self.clock)
        app = self.app = App(config=self.config, store=store, display=dummy(),
                             rng=random.Random(7), ring=self.ring)
        web = self.web = Web(config=self.config, post=app.post, host="127.0.0.1", port=self.port,
                             frame=lambda: app.last_frame, source=self.journal, wall=self.clock)
        app.attach_web(web)
        problem = web.start()
        if problem:
            self.close()
            raise RuntimeError(problem)
        self.port = web.port
        self.thread = threading.Thread(target=app.run, name="app", daemon=True)
        self.thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        from companion.inputs import Quit
        if self.thread is not None:
            assert self.app is not None  # started
            self.app.post(Quit())
            self.thread.join(timeout=10)
            self.thread = None
        if self.web is not None:
            self.web.stop()
        if self.app is not None:
            self.app.close()
        if self.store is not None:
            self.store.close()
            self.store = None

    def __enter__(self) -> "Companion":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def pair(page, companion: Companion) -> None:
    """Pair the browser `page` the way a phone does: the QR code's /J/{code} address."""
    assert companion.web is not None  # started
    code = companion.web.pairing.code()
    page.goto(f"{companion.url}/J/{code}")
    page.wait_for_url(f"{companion.url}/")
    page.wait_for_selector("#control-box:not([hidden])")


CLOCK_START = 1_700_000_000.0  # the shots' fake wall time at the game's start
CLOCK_LIMIT = 60  # seconds a turn, in the clock shots


def _seeded(journal: Path, kind: str, players: list[str], rules: dict[str, Any],
            events: list[dict[str, Any]], *, ring=None) -> Companion:
    """A companion over a game in progress whose clock is fake (companion.testing.FakeClock):
    its events 9 s apart, the current turn 3 s old, so every run draws the same times."""
    from companion.testing import FakeClock
    clock = FakeClock(CLOCK_START)
    c = Companion(journal, clock=clock, ring=ring)
    c.seed(kind, players, rules, [])
    from companion.session.store import Store
    with Store(c.journal, clock=clock) as store:
        j = store.resume()
        assert j is not None
        for e in events:
            clock.advance(9)
            j.append(e)
    clock.advance(3.4)
    return c


def _still_page(browser, size: ViewportSize):
    """A new browser (its own cookies) whose page clock stands still (Playwright's
    page.clock): the turn clock it counts on from the box's snapshot shows the same second
    on every run, so the shots are the same picture every time (docs/web.md)."""
    context = browser.new_context(viewport=size, device_scale_factor=1)
    page = context.new_page()
    page.clock.install(time=CLOCK_START * 1000)
    page.clock.pause_at(CLOCK_START * 1000 + 1000)
    return page


def shoot(out: Path, *, kinds: list[str] | None = None) -> list[Path]:
    """Phone and TV screenshots of every game kind, plus pairing and control, into `out`."""
    import tempfile

    from playwright.sync_api import sync_playwright
    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no chromium found (apt-get install chromium)")
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        shown = {**demos(), **design_demos()}
        # The pairing, control and new-game shots are taken once, during the busiest demo
        # (the most players: the fullest forms and tables), whichever kind that is.
        control = max(shown, key=lambda k: len(shown[k][0]))
        names = {shot_name(k): k for k in shown}
        for kind in [names.get(k, k) for k in kinds] if kinds else list(shown):
            players, rules, events = shown[kind]
            file = shot_name(kind)
            c = _seeded(Path(tmp) / f"{file}.db", kind, players, rules, events)
            with c:
                for label, size, path in (("phone", PHONE, "/"), ("tv", TV, "/tv")):
                    page = _still_page(browser, size)
                    page.goto(c.url + path)
                    page.wait_for_selector("#conn[data-state=live]")
                    if label == "tv":
                        page.wait_for_selector("body[data-fitted]")  # laid out to the screen
                    # The frame PNG loaded (a function the driver runs: no eval under the CSP).
                    page.locator("#frame-img").evaluate(
                        "img => img.complete || new Promise(r => { img.onload = r; })")
                    target = out / f"{file}-{label}.png"
                    page.screenshot(path=str(target), full_page=label == "phone")
                    written.append(target)
                    page.context.close()
                written.append(_actions_shot(browser, c, out / f"{file}-actions-phone.png"))
                if kind == control:
                    written += _control_shots(browser, c, out)
                    written += _design_shots(browser, c, out)
            if kind == control:
                written += _clock_shots(browser, Path(tmp), kind, out)
                written.append(_ring_shot(browser, Path(tmp), kind, out))
            written.append(_crowd_shot(browser, Path(tmp), kind, out))
        if not kinds:
            written += _standings_shots(browser, Path(tmp), out)
        browser.close()
    return written


def _crowd_shot(browser, tmp: Path, kind: str, out: Path) -> Path:
    """The TV at the kind's most players, well into a game (companion/gallery/crowd.py):
    every column, the history's newest events and the box, all on the one screen."""
    n = crowd.counts(kind)[-1]
    c = _seeded(tmp / f"{shot_name(kind)}-{n}.db", kind, *crowd.game(kind, n))
    return _tv_shot(browser, c, out / f"{shot_name(kind)}-tv-{n}-players.png")


def _tv_shot(browser, c: Companion, target: Path) -> Path:
    """`c`'s /tv once fitted to the screen and its box's picture loaded, to `target`."""
    with c:
        page = _still_page(browser, TV)
        page.goto(c.url + "/tv")
        page.wait_for_selector("#conn[data-state=live]")
        page.wait_for_selector("body[data-fitted]")
        page.locator("#frame-img").evaluate(
            "img => img.complete || new Promise(r => { img.onload = r; })")
        page.screenshot(path=str(target))
        page.context.close()
    return target


# The standings shots' seasons (docs/stats.md): one over, one going on (so it is the current
# season whatever the day the shots are taken), and their games before CLOCK_START.
SHOT_SEASONS = [{"name": "Summer 2023", "from": "2023-06-01", "to": "2023-08-31"},
                {"name": "Autumn 2023", "from": "2023-09-01"}]


def _scored_kind() -> str:
    """The kind of the standings shots: the first in New game order that keeps a score (its
    games, ended by the group, have winners), named by no file outside its package."""
    from companion import games
    return next(k for k in games.kinds() if games.scoring(k) is not None)


def _played_seasons(journal: Path, kind: str, names: list[str]) -> None:
    """Twenty games of `kind` a season between `names` (the same every run: a seeded draw of
    who sits where and of the sample moves; each ended by the group after a long history,
    so the score names its winners), for /stats's ratings, seasons and champions."""
    import datetime as dt
    import time

    from companion.rules.game import Header
    from companion.session.journal import Journal
    from companion.session.store import Store
    from companion.testing import FakeClock
    rng = random.Random(38)
    clock = FakeClock(time.mktime((2023, 6, 5, 19, 0, 0, 0, 0, -1)))
    with Store(journal, clock=clock) as store:
        for start, every in ((dt.date(2023, 6, 5), 4), (dt.date(2023, 9, 2), 3)):
            for i in range(20):
                day = start + dt.timedelta(days=every * i)
                clock.advance(time.mktime((day.year, day.month, day.day, 19, 0, 0, 0, 0, -1))
                              - clock())
                seats = rng.sample(names, min(len(names), rng.choice((3, 4))))
                _, rules, events = crowd.game(kind, len(seats), over=True,
                                              seed=rng.randrange(10**6))
                j = Journal(Header(kind, tuple(seats), 0, rules))
                for e in events:
                    j.append(e)
                store.import_game(j, f"standings {day} {i}")


def _standings_shots(browser, tmp: Path, out: Path) -> list[Path]:
    """/stats ranked by rating with its seasons (phone, full page; and 1920x1080), and who is
    favourite as a game starts (the TV and the phone): stats-phone.png, stats-wide.png,
    favourite-tv.png, favourite-phone.png."""
    from companion.games import load_config
    kind = _scored_kind()
    players, rules, events = demos()[kind]
    journal = tmp / "standings.db"
    _played_seasons(journal, kind, list(players))
    c = _seeded(journal, kind, players, rules, events)
    c.config = load_config(None)
    c.config.data["dice"]["animation"] = 0.0
    c.config.data["stats"]["seasons"] = SHOT_SEASONS
    written = []
    with c:
        for name, size, path, full in (("stats-phone", PHONE, "/stats", True),
                                       ("stats-wide", TV, "/stats", False),
                                       ("favourite-tv", TV, "/tv", False),
                                       ("favourite-phone", PHONE, "/", False)):
            page = _still_page(browser, size)
            page.goto(c.url + path)
            if path != "/stats":
                page.wait_for_selector("#favourite:not([hidden])")
                page.locator("#frame-img").evaluate(
                    "img => img.complete || new Promise(r => { img.onload = r; })")
            if path == "/tv":
                page.wait_for_selector("body[data-fitted]")
            target = out / f"{name}.png"
            page.screenshot(path=str(target), full_page=full)
            written.append(target)
            page.context.close()
    return written


def _ring_shot(browser, tmp: Path, kind: str, out: Path) -> Path:
    """The TV of a box with seat lights (docs/lights.md): the ring round the box's picture,
    each seat's dot marked and the ring in words under it."""
    from companion.testing import RecordingRing
    players, rules, events = demos()[kind]
    c = _seeded(tmp / f"{kind}-ring.db", kind, players, rules, events, ring=RecordingRing(16))
    return _tv_shot(browser, c, out / "tv-ring.png")


def _clock_shots(browser, tmp: Path, kind: str, out: Path) -> list[Path]:
    """The turn clock (issue 28) on the busiest demo with a limit of CLOCK_LIMIT s a turn:
    the TV with the clock running, at the warning (amber) and at "Time!" (red), and a paired
    phone's /control with the Pause button and each player's time. Every player has taken
    turns of their own length, so the table's times and averages differ. The box's clock
    and the page's are fake (companion.testing.FakeClock, Playwright's page.clock), so the
    shots are the same on every run."""
    from companion.testing import FakeClock
    players, rules, events = demos()[kind]
    clock = FakeClock(CLOCK_START)
    c = Companion(tmp / f"{kind}-clock.db", clock=clock)
    c.seed(kind, players, {**rules, "turn_limit": CLOCK_LIMIT}, [])
    from companion.session.store import Store
    with Store(c.journal, clock=clock) as store:  # the demo, then two rounds of 20-55 s turns
        j = store.resume()
        assert j is not None
        for e in events:
            clock.advance(9)
            j.append(e)
        for i in range(2 * len(players)):
            clock.advance(20 + (i * 13) % 36)
            j.append({"type": "next"})
    clock.advance(32.4)  # the current turn: 32 s of 60
    written = []
    with c:
        page = browser.new_page(viewport=TV, device_scale_factor=1)
        page.clock.install(time=CLOCK_START * 1000)
        page.clock.pause_at(CLOCK_START * 1000 + 1000)
        page.goto(c.url + "/tv")
        page.wait_for_selector("#conn[data-state=live]")
        page.wait_for_selector("body[data-fitted]")
        page.locator("#frame-img").evaluate(
            "img => img.complete || new Promise(r => { img.onload = r; })")
        for name, ms in (("clock", 0), ("clock-warning", 20_000), ("clock-time", 9_000)):
            if ms:
                page.clock.run_for(ms)
            target = out / f"tv-{name}.png"
            page.screenshot(path=str(target))
            written.append(target)
        page.close()
        context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        phone = context.new_page()
        pair(phone, c)
        phone.goto(c.url + "/control")
        phone.wait_for_selector("#pause:not([hidden])")
        target = out / "control-clock-phone.png"
        box = phone.locator("#pause").bounding_box()  # from the top down to the Pause button
        assert box is not None
        bottom = box["y"] + box["height"] + 16 + phone.evaluate("scrollY")
        phone.screenshot(path=str(target), clip={"x": 0, "y": 0, "width": PHONE["width"],
                                                 "height": bottom}, full_page=True)
        written.append(target)
        context.close()
    return written


def _actions_shot(browser, c: Companion, target: Path) -> Path:
    """The kind's own action forms on a paired phone."""
    page = _still_page(browser, PHONE)
    pair(page, c)
    page.wait_for_selector("#actions h3")
    page.locator("#actions").screenshot(path=str(target))
    page.context.close()
    return target


def _design_shots(browser, c: Companion, out: Path) -> list[Path]:
    """The Design a game page (/design) on a paired phone: an example design imported from
    its file (examples/designs/penalty-pot.toml), its form, and the game's start as the box
    checked it; then the top of the page and the preview with Save, as a phone shows them."""
    page = _still_page(browser, PHONE)
    pair(page, c)
    page.goto(c.url + "/design")
    page.locator("#import-file").set_input_files(str(DESIGNS / "penalty-pot.toml"))
    page.wait_for_selector("#import-status:has-text('Imported')")
    page.clock.run_for(1000)  # past the page's wait before it asks the box to check
    page.wait_for_selector(".preview-pot")
    page.locator("#preview-frame").evaluate(
        "img => img.complete || new Promise(r => { img.onload = r; img.onerror = r; })")
    # The TV preview is /tv's own page in a frame: drawn once the design's snapshot is in.
    page.frame_locator("#tv-frame").locator("#players table.seats tbody tr").first.wait_for()
    written = []
    target = out / "design-phone.png"
    page.screenshot(path=str(target), full_page=True)
    written.append(target)
    target = out / "design-preview-phone.png"
    page.locator("#preview-box").scroll_into_view_if_needed()
    page.screenshot(path=str(target))
    written.append(target)
    page.context.close()
    return written


def _control_shots(browser, c: Companion, out: Path) -> list[Path]:
    written = []
    page = _still_page(browser, PHONE)
    context = page.context
    page.goto(f"{c.url}/J/000000")  # a wrong code: the pairing page says so
    page.wait_for_selector(".pair-status[data-state=error]")
    page.screenshot(path=str(out / "pairing-wrong-code-phone.png"))
    written.append(out / "pairing-wrong-code-phone.png")
    pair(page, c)
    page.goto(c.url + "/control")
    page.wait_for_selector("#actions form")
    controls = page.locator("#controls")
    controls.scroll_into_view_if_needed()
    page.screenshot(path=str(out / "control-phone.png"), full_page=True)
    written.append(out / "control-phone.png")
    page.click("#new-game summary")
    page.wait_for_selector("#ng-kind option", state="attached")
    page.locator("#new-game").screenshot(path=str(out / "new-game-phone.png"))
    written.append(out / "new-game-phone.png")
    # Over an unfinished game the first tap asks; the form's button says what it will end.
    for i, name in enumerate(("Ann", "Ben")):
        page.locator("#ng-players input").nth(i).fill(name)
    page.click("#new-game-form button[type=submit]")
    page.wait_for_selector("#new-game-form button[data-armed]")
    page.locator("#new-game").screenshot(path=str(out / "new-game-confirm-phone.png"))
    written.append(out / "new-game-confirm-phone.png")
    context.close()
    unpaired = _still_page(browser, PHONE)
    unpaired.goto(c.url + "/control")
    unpaired.wait_for_selector("#pair-box:not([hidden])")
    unpaired.screenshot(path=str(out / "control-unpaired-phone.png"))
    written.append(out / "control-unpaired-phone.png")
    unpaired.context.close()
    return written


def measure(*, presses: int = 60) -> dict[str, Any]:
    """Page weight, page-ready time and press-to-page latency on a phone page (a Table game;
    presses alternate NEXT and HOLD BACK on the box's input queue, each one a committed change)."""
    import statistics
    import tempfile
    import time
    import urllib.request

    from playwright.sync_api import sync_playwright

    from companion.inputs import Button, ButtonInput, Gesture
    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no chromium found (apt-get install chromium)")
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        c = Companion(Path(tmp) / "measure.db")
        c.seed(Game.kind, *demos()[Game.kind])
        with c:
            for path in ("/", "/static/table.js", "/static/control.js", "/static/table.css"):
                with urllib.request.urlopen(c.url + path, timeout=5) as r:
                    out[f"bytes {path}"] = len(r.read())
            browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
            page = browser.new_page(viewport=PHONE)
            page.goto(c.url + "/")
            page.wait_for_selector("#conn[data-state=live]")
            out["dom_ready_ms"] = round(page.evaluate(
                "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"), 1)
            lat = []
            assert c.app is not None  # started
            for i in range(presses):
                seq = int(page.evaluate("() => document.body.dataset.seq"))
                t = time.perf_counter()
                c.app.post(ButtonInput(Button.BACK if i % 2 else Button.NEXT,
                                       Gesture.HOLD if i % 2 else Gesture.PRESS))
                page.wait_for_function(f"() => +document.body.dataset.seq > {seq}",
                                       polling="raf")
                lat.append((time.perf_counter() - t) * 1000)
            browser.close()
    lat.sort()
    out.update({"press_to_page_ms_p50": round(statistics.median(lat), 1),
                "press_to_page_ms_p95": round(lat[int(len(lat) * 0.95) - 1], 1),
                "press_to_page_ms_max": round(lat[-1], 1), "presses": presses})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.gallery.web_shots",
                                 description="screenshots of the table web into a folder")
    ap.add_argument("out", nargs="?", default="docs/web", type=Path)
    ap.add_argument("--kind", action="append",
                    choices=list(demos()) + [shot_name(k) for k in design_demos()],
                    help="only this game kind (repeatable)")
    ap.add_argument("--measure", action="store_true",
                    help="print the page weight and press-to-page latency (JSON) instead")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.measure:
        import json
        try:
            print(json.dumps(measure()))
        except RuntimeError as e:
            print(f"web-shots: {e}", file=sys.stderr)
            return 1
        return 0
    try:
        for path in shoot(args.out, kinds=args.kind):
            print(path)
    except RuntimeError as e:
        print(f"web-shots: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
