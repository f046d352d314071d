"""The table web: Starlette app on uvicorn, in its own thread of the companion process.

`Web` is what the rest of the companion sees: `start()` binds the port (a port in use is a
one-line message, and the companion runs on without the web), `publish(snapshot)` is called
by the app thread after every committed change, `stop()` ends it. The web thread never
touches the journal: `ask()` posts a `WebRequest` to the app's queue and awaits the reply.
Starlette and uvicorn are imported on `start()` only, so `--no-web` costs nothing.
"""

from __future__ import annotations

import errno
import importlib
import io
import logging
import socket
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from companion.errors import IllegalEvent
from companion.inputs import PhonePaired, WebRequest
from companion.web import guard, lograte
from companion.web.gate import Gate
from companion.web.guard import parse_hostport  # noqa: F401  (for callers)
from companion.web.pairing import Pairing
from companion.web.snapshot import Hub, build

if TYPE_CHECKING:
    import asyncio

    import uvicorn

log = logging.getLogger(__name__)

# The page modules mounted after the API; each `routes(web)` takes the Web (tests that need
# only the API mount none).
PAGE_MODULES: tuple[str, ...] = ("companion.web.history", "companion.web.exports",
                                  "companion.web.pages")
FRAME_SCALE = 4
BACKLOG = 1024  # connections the kernel holds for us: a flood of connects must not make a
# phone's wait for a SYN resent after 1 s (Linux caps it at net.core.somaxconn, 4096)
FILES = 4096  # open files the web asks the process for (a service starts with 1024; the gate
# holds up to MAX_HELD refused connections besides its open ones)
FILES_SPARE = 256  # open files left for the journal, the speech, the pages' own reads
REPLY_TIMEOUT = 5.0  # seconds the app thread has to take a request (then 503, nothing done)
# Connections and requests: companion/web/gate.py decides (connections time out, idle ones are
# evicted first, then those with no complete request after a few seconds; bodies are read
# before a slot is taken; paired phones keep connections and slots, pairing keeps slots).


class Web:
    """The table web of one companion: its server thread, its pairing and its snapshots."""

    def __init__(self, *, config, post: Callable[[object], None], host: str = "127.0.0.1",
                 port: int = 8080, frame: Callable[[], Any] = lambda: None,
                 source: Any = None, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 gate_options: dict[str, Any] | None = None,
                 route_modules: tuple[str, ...] = PAGE_MODULES,
                 extra_routes: list | None = None) -> None:
        self.config = config
        self.post = post
        self.host = host
        self.port = port  # the bound port once started (port 0 = any free port)
        self.frame = frame  # () -> (frame number, PIL image) | None: App.last_frame, never
        # a secret screen (the app draws a stand-in for the pairing code)
        self.source = source  # what the history pages read (the journal database path)
        self.clock = clock  # pairing's waits, and a double tap's 0.7 s (app/taps.py)
        self.pairing = Pairing(clock=clock, wall=wall)
        # The box's wall clock (the journal's): each copy of a snapshot sent carries its
        # `now`, so a page counts the turn clock on from when the snapshot was made.
        self.wall = wall
        self.gate_options = dict(gate_options or {})  # Gate's limits (tests make them small)
        self.gate = Gate(**self.gate_options)
        self.lograte = lograte.RateLimit()  # one log line per cause per minute (real time)
        self.route_modules = route_modules
        self.extra_routes = list(extra_routes or [])  # mounted last (tests, tools)
        self.hub = Hub()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.allowed_hosts: frozenset[str] = frozenset()
        self.addresses: list[str] = []
        self._snapshot: dict[str, Any] | None = None
        self._png: tuple[int, bytes] | None = None
        self._png_lock = threading.Lock()
        self._frame_n = 0  # the newest frame number the app drew (frame_changed)

    # --- lifecycle (called from the app or the main thread) -----------------------------------

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def start(self, *, timeout: float = 10.0) -> str:
        """Bind and serve. Returns "" when listening, else one line saying why not."""
        if self.running:
            return ""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(BACKLOG)
        except OSError as e:
            sock.close()
            why = "the port is in use" if e.errno == errno.EADDRINUSE else (e.strerror or str(e))
            return f"web: cannot listen on {self.host}:{self.port} ({why}); running without the web"
        self.port = sock.getsockname()[1]
        self.addresses = guard.box_addresses(self.host) if self.host in ("0.0.0.0", "::") \
            else [self.host]
        self.allowed_hosts = guard.allowed_hosts(self.addresses)

        import asyncio

        import uvicorn

        from companion.web import gate as gatemod
        from companion.web.api import COOKIE
        paired = self.gate.paired  # the paired phones' addresses outlive a restart of the web
        g = self.gate = Gate(**self.gate_options)  # fresh counts for each start
        if "max_held" not in self.gate_options:
            g.max_held = max(0, min(g.max_held, open_files() - FILES_SPARE - g.max_sockets
                                    - g.spare - g.paired_room))
        g.paired.update(paired)
        app = gatemod.Admission(build_app(self, extra=self.extra_routes), g,
                                self.pairing.valid, cookie=COOKIE)
        # The gate is the one admission policy: no limit_concurrency of uvicorn's (a second
        # cap, counting connections the gate had closed, and answering in plain text).
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=1, ws="none",
                                http=gatemod.protocol(g), limit_concurrency=None,
                                loop="asyncio", server_header=False,
                                h11_max_incomplete_event_size=gatemod.MAX_HEADERS)
        # A limit of this start's own: a server thread of an earlier start that outlived its
        # stop takes only its own filter off when it ends.
        limit = self.lograte = lograte.RateLimit()
        lograte.install(limit)
        server = self.server = uvicorn.Server(config)
        self.hub = Hub()
        started = threading.Event()

        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            if self._snapshot is not None:
                self.hub.set(self._snapshot)
            self.hub.frame_n = self._frame_n
            await server.serve(sockets=[sock])

        def run() -> None:
            try:
                asyncio.run(serve())
            except BaseException:  # SystemExit from uvicorn included: log it, never raise
                log.exception("the web server stopped")
            finally:
                sock.close()
                self.loop = None
                lograte.remove(limit)
                started.set()

        self.thread = threading.Thread(target=run, name="web", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not server.started and self.thread.is_alive() and time.monotonic() < deadline:
            started.wait(0.01)
        if not server.started:
            self.stop()
            return f"web: the server on {self.host}:{self.port} did not start; running without the web"
        return ""

    def stop(self, why: str = "") -> None:
        """Stop serving. `why` ("web-off": snapshot.BYES) is told to every open page first,
        so it says so instead of reconnecting forever."""
        loop = self.loop
        if loop is not None:
            # End the event streams first: they never end by themselves, and uvicorn waits
            # for open responses before it exits.
            try:
                loop.call_soon_threadsafe(self.hub.close, why)
            except RuntimeError:  # the loop has just closed
                pass
        if self.server is not None:
            self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=5)
        self.thread = None

    @property
    def urls(self) -> list[str]:
        return [f"http://{'[' + a + ']' if ':' in a else a}:{self.port}/" for a in self.addresses]

    @property
    def url(self) -> str:
        """The address to give people: the LAN address when listening on all interfaces."""
        a = self.addresses[0] if self.addresses else self.host
        return f"http://{'[' + a + ']' if ':' in a else a}:{self.port}/"

    def pair_url(self, code: str) -> str:
        """The pairing address for the QR code: upper case (QR alphanumeric mode)."""
        return f"{self.url}J/{code}".upper()

    # --- from the app thread ------------------------------------------------------------------

    def publish(self, snapshot: dict[str, Any]) -> None:
        self._snapshot = snapshot
        self._on_loop(self.hub.set, snapshot)

    def phones_forgotten(self) -> None:
        """Forget all phones (the app thread, after Pairing.forget_all): the streams of the
        phones forgotten are told so and end."""
        self._on_loop(self.hub.forget, self.pairing.valid)
        if self.loop is None:  # the web is off: its next start must not carry them over
            self.gate.forget_paired()
        else:  # the gate's own loop, which alone changes it while the web runs
            self._on_loop(self.gate.forget_paired, None)

    def frame_changed(self, n: int) -> None:
        """The app drew a changed frame `n` (App.render): push it to the event streams."""
        self._frame_n = n
        self._on_loop(self.hub.frame, n)

    def _on_loop(self, fn: Callable[[Any], None], arg: Any) -> None:
        """Run `fn(arg)` on the web loop (the hub is the loop's), if the web runs."""
        loop = self.loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(fn, arg)
            except RuntimeError:  # the loop closed meanwhile (stopping)
                pass

    def initial_snapshot(self) -> dict[str, Any]:
        return self._snapshot or build(None, seq=0)

    # --- for the routes (web thread) ----------------------------------------------------------

    async def ask(self, kind: str, payload: dict[str, Any]):
        """Post a request to the app thread and turn its reply into a response."""
        import asyncio
        import concurrent.futures

        from starlette.responses import JSONResponse
        reply: concurrent.futures.Future = concurrent.futures.Future()
        self.post(WebRequest(kind, payload, reply))
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(reply), timeout=REPLY_TIMEOUT)
        except asyncio.TimeoutError:
            # Cancelled before the app thread took it, it is never done (App.on_web skips a
            # cancelled request); once taken, it is done, and its answer is on the way.
            if reply.cancel():
                return JSONResponse({"error": "the box did not answer in time; nothing "
                                     "changed, try again"}, status_code=503)
            try:
                result = await asyncio.wait_for(asyncio.wrap_future(reply),
                                                timeout=REPLY_TIMEOUT)
            except asyncio.TimeoutError:
                return JSONResponse({"error": "the box is still busy with this; look at the "
                                     "game before trying again"}, status_code=503)
        if result.get("ok"):
            return JSONResponse({k: v for k, v in result.items() if k != "status"})
        return JSONResponse({"error": result.get("error", "refused"),  # and "engine", if any
                             **{k: v for k, v in result.items() if k == "engine"}},
                            status_code=result.get("status", 409))

    async def keep_phone(self, digest: str, created: float) -> bool:
        """Have the app thread keep a new session in the journal (the one writer); True once
        saved, False when it could not be (the phone stays paired until a restart)."""
        import asyncio
        import concurrent.futures

        reply: concurrent.futures.Future = concurrent.futures.Future()
        self.post(PhonePaired(digest, created, reply))
        try:
            return bool(await asyncio.wait_for(asyncio.wrap_future(reply),
                                                timeout=REPLY_TIMEOUT))
        except asyncio.TimeoutError:
            log.warning("the app did not keep the paired phone in time")
            return False

    def frame_png(self) -> bytes | None:
        current = self.frame()
        if current is None:
            return None
        n, img = current
        with self._png_lock:
            if self._png is not None and self._png[0] == n:
                return self._png[1]
            from companion.ui.draw import scale
            buf = io.BytesIO()
            scale(img, FRAME_SCALE).save(buf, format="PNG", optimize=False)
            self._png = (n, buf.getvalue())
            return self._png[1]

    def kinds(self) -> list[dict[str, Any]]:
        """/api/kinds: each kind's facts for New game, and its action forms as a new game of
        it shows them (the snapshot's `actions` has them for the game as it is), and its colour; a
        group's own design (`ours`) is titled with " (ours)". `rules` has
        a turn clock house rule only when the config sets it; `clock_rules` gives the
        ranges of all three."""
        from companion import games
        from companion.rules.game import CLOCK_RULES
        from companion.web.kinds import fresh, rule_labels
        # The turn clock's house rules, the same for every kind (docs/clock.md): New game's
        # "Turn clock" fields, with the ranges the box checks.
        clock = {key: {"low": lo, "high": hi} for key, (lo, hi) in CLOCK_RULES.items()}
        out = []
        for kind, k in games.kinds().items():
            if games.panel_problem(kind):  # a house game whose screens fail: not offered
                continue
            g = k.rules
            try:
                rules = g.check_rules(self.config.house_rules(kind))
            except IllegalEvent:  # the config was checked at load; this is only a guard
                rules = dict(g.default_rules)
            # A group's own design (docs/designing-a-game.md): "(ours)", in its colour. The
            # design its header carries is no house rule to type: the box puts it in.
            ours = games.is_design(kind)
            if ours:
                rules.pop("design", None)
            out.append({"kind": kind, "title": f"{g.title} (ours)" if ours else g.title,
                        "ours": ours, "color": games.color(kind),
                        "min_players": g.min_players,
                        "max_players": g.max_players, "rules": rules,
                        "house_rules": list(k.mode.house_rules_text),
                        "clock_rules": clock, "actions": fresh(k, rules),
                        "rule_labels": rule_labels(k, [*rules, *g.default_rules])})
        return out


def open_files(want: int = FILES) -> int:
    """The process's limit of open files, raised toward `want` where the hard limit allows
    (a refused connection the gate holds is an open file)."""
    try:
        import resource
    except ImportError:  # not a Unix: the gate's limits as they are
        return want
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    return want if soft == resource.RLIM_INFINITY else soft


def build_app(web: Web, *, extra: list | None = None):
    """The Starlette app: the API, then the page modules, then `extra` routes."""
    from starlette.applications import Starlette

    from companion.web import api

    route_list = list(api.routes(web))
    for module in web.route_modules:
        route_list += importlib.import_module(module).routes(web)
    route_list += extra or []
    return Starlette(routes=route_list, exception_handlers={
        404: _json_error, 405: _json_error, 500: _json_error})


async def _json_error(request, exc):
    from starlette.responses import JSONResponse
    status = getattr(exc, "status_code", 500)
    reason = {404: "no such page", 405: "method not allowed here"}.get(
        status, "internal error (the game is safe)")
    if status == 500:
        log.error("web error on %s: %r", request.url.path, exc)
    return JSONResponse({"error": reason}, status_code=status)
