"""The table web's figures for `make bench` (issue 12), printed by bench/run.py as JSON lines.

- web_snapshot_latency_p50/p99_ms: the real `companion run --web` process, a table game
  resumed; a NEXT written to its stdin -> the snapshot with that event read by each of 5 SSE
  clients (another process, so they do not share the companion's interpreter). Times are
  CLOCK_MONOTONIC (time.perf_counter) in both processes.
- press_to_frame_*_web5: bench/run.py's press-to-frame with a web attached to the app and 5
  SSE clients connected (each commit builds and publishes a snapshot).
- web_startup_ms: process start to the first frame with the web on; web_listening_ms: to the
  `web URL` line (--ack), when phones can connect.
- web_idle_cpu_percent / web_rss_mb: `companion run` with the web on and 3 SSE clients
  connected, left alone.
- web_frame_push_p50/p99_ms (issue 18): the same process; a NEXT on stdin -> the SSE "frame"
  event with the new frame number read by each of 5 clients, which then fetch the PNG (as
  the pages do). Presses 150 ms apart, so each change is pushed at once (changes within 1/10 s
  of a push are folded into the next one: by design up to 100 ms later).
- press_to_frame_*_web5: the clients fetch each pushed frame's PNG too (the web thread
  encodes it while the app thread handles the next press).
- web_flood_press_p50/p99_ms, web_flood_press_failed (issue 29): a paired phone's presses
  (POST /api/press NEXT, a new connection each, 50 ms apart) while another process floods
  the box from 19 loopback addresses (127.0.0.2-20) with 600 idle sockets, 80 request bodies
  that stop after one byte and 150 event streams, each reopened as soon as the box closes
  it, for a bounded time. The box is an app and its web in a child process (as `companion
  run`), the flood a second child, the phone this process. `flood_presses(..., server=
  "hypercorn", python=AN_INTERPRETER_WITH_HYPERCORN)` runs the same flood against the same
  app under hypercorn (not a dependency: docs/web.md's comparison).
- web_guestsN_press_p50/p99_ms, web_guestsN_press_failed, web_guestsN_viewer_p50/p99_ms,
  web_guestsN_viewer_failed (issue 35 item 3), for N = 32, 64 and 128 addresses: 8 idle
  sockets from each of N loopback addresses (127.0.0.2 on), each opened again as soon as the
  box closes it, for a bounded time, while a phone paired just before (its first paired
  request is under the flood) presses NEXT on a new connection each, 200 ms apart, and
  viewers on 4 other addresses (127.0.1.x) read /api/state on a new connection each, one at
  a time. A press or read not answered 200 within 10 s is failed. web_guestsN_rss_mb and
  web_guestsN_cpu_percent: the box's RSS and CPU with the flood on (N = 0: no flood, the
  yardstick on a busy machine). Alone: `python -m bench.web guests [--quick]`.
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.common import ROOT, pct

# A child process holding N event streams; prints "client seq events perf_counter" per
# snapshot and "F client n perf_counter" per frame event (then fetches that PNG, as a page does).
CLIENTS = r"""
import http.client, json, selectors, socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
sel = selectors.DefaultSelector()
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    sel.register(s, selectors.EVENT_READ, [i, b"", "", None])
print("connected", flush=True)
while True:
    for key, _ in sel.select():
        data = key.fileobj.recv(65536)
        if not data:
            sys.exit(0)
        t = time.perf_counter()
        key.data[1] += data
        *lines, key.data[1] = key.data[1].split(b"\n")
        for line in lines:
            line = line.rstrip(b"\r")
            if line.startswith(b"event:"):
                key.data[2] = line[6:].strip().decode()
            elif line.startswith(b"data:") and key.data[2] == "frame":
                f = json.loads(line[5:])
                print("F", key.data[0], f["n"], t, flush=True)
                if key.data[3] is None:
                    key.data[3] = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                key.data[3].request("GET", f["src"])
                key.data[3].getresponse().read()
            elif line.startswith(b"data:"):
                snap = json.loads(line[5:])
                print(key.data[0], snap["seq"], snap["events"], t, flush=True)
            elif not line:
                key.data[2] = ""
"""


# The box for the flood: an app (a table game) and its web, in their own process, as
# `companion run` has them. Prints "PORT CODE" (a pairing code) and serves until stdin closes.
# argv: directory, server ("uvicorn": the companion's own web; "hypercorn": the same app
# under hypercorn with its own limits, for docs/web.md's comparison).
BOX = r"""
import asyncio, sys, threading, time
from pathlib import Path
from companion.testing import make_app
from companion.web.server import Web
tmp, server = Path(sys.argv[1]), sys.argv[2]
app = make_app(tmp, kind="table", players=("Ann", "Ben", "Cy", "Dee"), clock=time.monotonic)
web = Web(config=app.config, post=app.post, host="127.0.0.1", port=0,
          frame=lambda: app.last_frame, route_modules=())
app.attach_web(web)
if server == "uvicorn":
    assert web.start() == ""
else:
    import socket
    from hypercorn.asyncio import serve
    from hypercorn.config import Config
    from companion.web import gate as gatemod
    from companion.web.api import COOKIE
    from companion.web.server import build_app
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    web.port = sock.getsockname()[1]
    sock.close()
    cfg = Config()
    cfg.bind = [f"127.0.0.1:{web.port}"]
    cfg.keep_alive_timeout = 5
    cfg.read_timeout = 5
    cfg.backlog = 1024  # as the companion's own web
    cfg.errorlog = None
    web.allowed_hosts = frozenset({"127.0.0.1"})
    asgi = gatemod.Admission(build_app(web), web.gate, web.pairing.valid, cookie=COOKIE)
    async def main():
        web.loop = asyncio.get_running_loop()
        await serve(asgi, cfg, shutdown_trigger=asyncio.Event().wait)  # no signal handlers
    threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
    time.sleep(1.0)
threading.Thread(target=app.run, daemon=True).start()
print(web.port, web.pairing.open(), flush=True)
sys.stdin.read()
"""

# The flood: argv port, seconds, idle, slow, streams, pause. Every socket is reopened `pause`
# seconds after the box closes it, until the time is up; prints "ready" once all are open,
# then a JSON summary of how many it opened.
FLOOD_PAUSE = 0.5
FLOOD = r"""
import json, resource, selectors, socket, sys, time
port, seconds, n_idle, n_slow, n_streams = int(sys.argv[1]), float(sys.argv[2]), *map(int, sys.argv[3:6])
pause = float(sys.argv[6])  # seconds before a closed socket is opened again
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
addresses = [f"127.0.0.{k}" for k in range(2, 21)]
head = f"Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
send = {"idle": b"",
        "slow": ("POST /api/pair HTTP/1.1\r\n" + head + "Content-Type: application/json\r\n"
                 "Content-Length: 4000\r\n\r\n{").encode(),
        "stream": ("GET /api/events HTTP/1.1\r\n" + head + "\r\n").encode()}
sel = selectors.DefaultSelector()
opened = {"idle": 0, "slow": 0, "stream": 0, "failed": 0}
def open_one(kind, i):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=1,
                                     source_address=(addresses[i % 19], 0))
        s.sendall(send[kind])
        s.setblocking(False)
    except OSError:
        opened["failed"] += 1
        return
    opened[kind] += 1
    sel.register(s, selectors.EVENT_READ, (kind, i))
for kind, n in (("slow", n_slow), ("stream", n_streams), ("idle", n_idle)):
    for i in range(n):
        open_one(kind, i)
print("ready", flush=True)
deadline = time.monotonic() + seconds
later = []  # (when, kind, i): sockets to open again
sel.register(sys.stdin, selectors.EVENT_READ, None)  # closed: stop now
while time.monotonic() < deadline:
    events = sel.select(0.05)
    if any(key.data is None for key, _ in events):
        break
    for key, _ in events:
        try:
            data = key.fileobj.recv(65536)
        except OSError:
            data = b""
        if not data:  # closed by the box: open another, as a flood does
            sel.unregister(key.fileobj)
            key.fileobj.close()
            later.append((time.monotonic() + pause, *key.data))
    now = time.monotonic()
    for item in [x for x in later if x[0] <= now]:
        later.remove(item)
        open_one(*item[1:])
print(json.dumps(opened), flush=True)
"""


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Clients:
    """N SSE clients in a child process; `wait_events(k)` blocks until all saw `events >= k`."""

    def __init__(self, port: int, n: int) -> None:
        self.n = n
        self.proc = subprocess.Popen([sys.executable, "-c", CLIENTS, str(port), str(n)],
                                     stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "connected":
            raise RuntimeError("the SSE clients did not connect")
        self.cond = threading.Condition()
        self.seen: dict[int, tuple[int, float]] = {}  # client -> (events, first time seen)
        self.frames: dict[int, tuple[int, float]] = {}  # client -> (frame n, time seen)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("F "):
                _, client, n, t = line.split()
                with self.cond:
                    self.frames[int(client)] = (int(n), float(t))
                    self.cond.notify_all()
                continue
            client, _seq, events, t = line.split()
            with self.cond:
                if int(events) != self.seen.get(int(client), (None,))[0]:
                    self.seen[int(client)] = (int(events), float(t))
                self.cond.notify_all()

    def wait_events(self, k: int, timeout: float = 10.0) -> list[float]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not (len(self.seen) == self.n and all(e >= k for e, _ in self.seen.values())):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"the clients did not see event {k}: {self.seen}")
                self.cond.wait(left)
            return [t for _, t in self.seen.values()]

    def frame_now(self, timeout: float = 10.0) -> int:
        """The newest frame number every client has seen (waits until each has seen one)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.frames) < self.n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"the clients saw no frame: {self.frames}")
                self.cond.wait(left)
            return min(n for n, _ in self.frames.values())

    def wait_frame(self, above: int, timeout: float = 10.0) -> list[float]:
        """When each client first saw a frame numbered above `above`."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not (len(self.frames) == self.n and all(n > above for n, _ in
                                                          self.frames.values())):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"the clients saw no frame after {above}: {self.frames}")
                self.cond.wait(left)
            return [t for _, t in self.frames.values()]

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(10)


def companion(tmp: Path, journal: Path, port: int, env: dict[str, str], *extra: str):
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--display", "dummy", "--web",
         f"127.0.0.1:{port}", "--journal", str(journal), *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT,
        env=env, text=True)


@contextmanager
def stdin_companion(tmp: Path, journal: Path, env: dict[str, str], clients: int):
    """`companion run --input stdin --ack` with the web on a free port, ready, and `clients`
    event streams open on it: (process, clients, port)."""
    port = free_port()
    p = companion(tmp, journal, port, env, "--input", "stdin", "--ack")
    try:
        for line in p.stdout:
            if line.startswith("ready"):
                break
        c = Clients(port, clients)
        try:
            yield p, c, port
        finally:
            c.close()
    finally:
        p.stdin.close()
        p.wait(30)


def press_next(p: subprocess.Popen) -> float:
    """NEXT on the companion's stdin; the perf_counter time it was sent."""
    t0 = time.perf_counter()
    p.stdin.write("NEXT\n")
    p.stdin.flush()
    return t0


def bench_latency(tmp: Path, figure, journal: Path, env: dict[str, str], *, presses: int,
                  clients: int = 5) -> None:
    lat: list[float] = []
    with stdin_companion(tmp, journal, env, clients) as (p, c, port):
        import urllib.request
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state") as r:
            events = json.loads(r.read())["events"]
        c.wait_events(events)
        for _ in range(presses):
            events += 1
            t0 = press_next(p)
            lat += [(t - t0) * 1000 for t in c.wait_events(events)]
            time.sleep(0.01)
    note = f"{presses} presses x {clients} clients, companion run on stdin"
    figure("web_snapshot_latency_p50_ms", pct(lat, 50), "ms", None, note)
    figure("web_snapshot_latency_p99_ms", pct(lat, 99), "ms", 50.0, note)


def bench_frames(tmp: Path, figure, journal: Path, env: dict[str, str], *, presses: int,
                 clients: int = 5) -> None:
    """A panel change -> the "frame" event read by each client (which then fetch the PNG)."""
    lat: list[float] = []
    with stdin_companion(tmp, journal, env, clients) as (p, c, _):
        n = c.frame_now()
        for _ in range(presses):
            t0 = press_next(p)
            lat += [(t - t0) * 1000 for t in c.wait_frame(n)]
            n = c.frame_now()
            time.sleep(0.15)  # past the 1/10 s fold: each change is pushed at once
    note = f"{presses} presses x {clients} clients (each fetches the PNG), 150 ms apart"
    figure("web_frame_push_p50_ms", pct(lat, 50), "ms", None, note)
    figure("web_frame_push_p99_ms", pct(lat, 99), "ms", 100.0, note)


def attach_web(clients: int):
    """For bench/run.py's press-to-frame: a web on the app with `clients` SSE streams."""
    def attach(app):
        from companion.web.server import Web
        web = Web(config=app.config, post=app.post, host="127.0.0.1", port=0,
                  frame=lambda: app.last_frame)
        app.attach_web(web)
        if web.start():
            raise RuntimeError("the web did not start")
        c = Clients(web.port, clients)
        c.wait_events(0)

        def stop() -> None:
            c.close()
            web.stop()
        return stop
    return attach


def startup_once(journal: Path, env: dict[str, str]) -> tuple[float, float]:
    from bench.processes import STARTUP_CHILD
    port = free_port()
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", STARTUP_CHILD, "run", "--web",
                          f"127.0.0.1:{port}", "--ack", "--display", "dummy", "--input",
                          "stdin", "--journal", str(journal)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    frame = listening = None
    while frame is None or listening is None:
        line = p.stdout.readline()
        if not line:
            break
        if line.startswith(b"FRAME") and frame is None:
            frame = time.perf_counter()
        elif line.startswith(b"web ") and listening is None:
            listening = time.perf_counter()
    p.stdin.close()
    p.wait(30)
    if frame is None or listening is None:
        raise RuntimeError("no first frame or no web line")
    return (frame - t0) * 1000, (listening - t0) * 1000


def bench_startup(tmp: Path, figure, journal: Path, env: dict[str, str], *, runs: int) -> None:
    warm = {**env, "PYTHONPYCACHEPREFIX": str(tmp / "pycache")}
    startup_once(journal, warm)  # fills the bytecode cache
    runs_ = [startup_once(journal, warm) for _ in range(runs)]
    figure("web_startup_ms", statistics.median(r[0] for r in runs_), "ms", 450.0,
           f"median of {runs}, web on: to the first frame, bytecode cached")
    figure("web_listening_ms", statistics.median(r[1] for r in runs_), "ms", None,
           f"median of {runs}: to the `web URL` line (phones can connect)")


def bench_idle(tmp: Path, figure, journal: Path, env: dict[str, str], *, seconds: float,
               clients: int = 3) -> None:
    from bench.processes import proc_cpu_seconds, proc_rss_mb
    port = free_port()
    p = companion(tmp, journal, port, {**env, "GPIOZERO_PIN_FACTORY": "mock"})
    c = None
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or p.poll() is not None:
                    raise RuntimeError("companion run --web did not listen") from None
                time.sleep(0.1)
        c = Clients(port, clients)
        c.wait_events(0)
        time.sleep(1.0)
        c0, t0 = proc_cpu_seconds(p.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = proc_cpu_seconds(p.pid), time.monotonic()
        rss = proc_rss_mb(p.pid)
    finally:
        if c is not None:
            c.close()
        p.terminate()
        p.wait(30)
    figure("web_idle_cpu_percent", (c1 - c0) / (t1 - t0) * 100, "%", 1.5,
           f"{seconds:g} s, web on, {clients} SSE clients, mock pins")
    figure("web_rss_mb", rss, "MB", 60.0, f"VmRSS, web on, {clients} SSE clients")


def flood_presses(tmp: Path, env: dict[str, str], *, presses: int, server: str = "uvicorn",
                  python: str = sys.executable, idle: int = 600, slow: int = 80,
                  streams: int = 150, pause: float = FLOOD_PAUSE,
                  ) -> tuple[list[float], list[int], dict[str, int]]:
    """Item 2's combined flood against a box (see the module's docstring): the latency of
    each paired press (ms), the statuses that were not 200 (0: no answer), and how many
    sockets the flood opened."""
    import http.client
    box = subprocess.Popen([python, "-c", BOX, str(tmp), server], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT,
                           env=env, text=True)
    flood = None
    try:
        port_s, code = box.stdout.readline().split()
        port = int(port_s)
        origin = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"}

        def post(path: str, body: dict, cookie: str = "") -> tuple[int, Any]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                conn.request("POST", path, body=json.dumps(body),
                             headers={**origin, **({"Cookie": cookie} if cookie else {})})
                r = conn.getresponse()
                r.read()
                return r.status, r.getheader("Set-Cookie") or ""
            except OSError:
                return 0, ""
            finally:
                conn.close()

        status, cookie = post("/api/pair", {"code": code})
        if status != 200:
            raise RuntimeError(f"the bench phone could not pair ({status})")
        cookie = cookie.split(";")[0]
        # Long enough for every press; bounded: the flood stops by itself.
        seconds = 5.0 + presses * 0.2
        flood = subprocess.Popen([sys.executable, "-c", FLOOD, str(port), str(seconds),
                                  str(idle), str(slow), str(streams), str(pause)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        if flood.stdout.readline().strip() != "ready":
            raise RuntimeError("the flood did not start")
        time.sleep(1.0)
        lat: list[float] = []
        failed: list[int] = []
        for _ in range(presses):
            t0 = time.perf_counter()
            status, _ = post("/api/press", {"button": "NEXT", "seq": None}, cookie)
            lat.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                failed.append(status)
            time.sleep(0.05)
        flood.stdin.close()  # the flood stops (else at its own deadline)
        opened = json.loads(flood.stdout.readline() or "{}")
        return lat, failed, opened
    finally:
        if flood is not None:
            flood.kill()
            flood.wait(10)
        box.stdin.close()
        box.kill()
        box.wait(10)


# The guests' flood (issue 35 item 3): argv port, seconds, addresses, per address. Idle sockets
# (they send nothing), each opened again as soon as the box closes it, until the time is up
# or stdin closes; prints "ready" once all are open, then a JSON count of what it did.
GUESTS = r"""
import json, resource, selectors, socket, sys, time
port, seconds, n_addresses, per = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
addresses = [f"127.0.0.{k}" for k in range(2, 2 + n_addresses)]
sel = selectors.DefaultSelector()
count = {"opened": 0, "closed_by_box": 0, "failed": 0}
def open_one(i):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=1,
                                     source_address=(addresses[i % n_addresses], 0))
        s.setblocking(False)
    except OSError:
        count["failed"] += 1
        return
    count["opened"] += 1
    sel.register(s, selectors.EVENT_READ, i)
for i in range(n_addresses * per):
    open_one(i)
print("ready", flush=True)
deadline = time.monotonic() + seconds
sel.register(sys.stdin, selectors.EVENT_READ, None)  # closed: stop now
while time.monotonic() < deadline:
    events = sel.select(0.05)
    if any(key.data is None for key, _ in events):
        break
    for key, _ in events:
        try:
            data = key.fileobj.recv(65536)
        except OSError:
            data = b""
        if not data:  # closed by the box: open another at once, as a flood does
            sel.unregister(key.fileobj)
            key.fileobj.close()
            count["closed_by_box"] += 1
            open_one(key.data)
print(json.dumps(count), flush=True)
"""
GUEST_ADDRESSES = (32, 64, 128)
VIEWERS = [f"127.0.1.{k}" for k in range(1, 5)]


def guests_flood(tmp: Path, env: dict[str, str], *, addresses: int, per_address: int = 8,
                 presses: int = 24) -> dict[str, Any]:
    """Issue 35 item 3 against a box (BOX, uvicorn): the latency (ms) of each paired press
    and each viewer read, the ones not answered 200 within 10 s, the flood's counts."""
    import http.client
    box = subprocess.Popen([sys.executable, "-c", BOX, str(tmp), "uvicorn"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, cwd=ROOT, env=env, text=True)
    flood = None
    try:
        port_s, code = box.stdout.readline().split()
        port = int(port_s)
        origin = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"}

        def request(method: str, path: str, body: dict | None = None, cookie: str = "",
                    source: str | None = None) -> tuple[int, str]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                              source_address=(source, 0) if source else None)
            try:
                conn.request(method, path, body=json.dumps(body) if body is not None else None,
                             headers={**origin, **({"Cookie": cookie} if cookie else {})})
                r = conn.getresponse()
                r.read()
                return r.status, r.getheader("Set-Cookie") or ""
            except OSError:
                return 0, ""
            finally:
                conn.close()

        status, cookie = request("POST", "/api/pair", {"code": code})
        if status != 200:
            raise RuntimeError(f"the bench phone could not pair ({status})")
        cookie = cookie.split(";")[0]
        seconds = 8.0 + presses * 0.3  # long enough for every press; bounded
        flood = subprocess.Popen([sys.executable, "-c", GUESTS, str(port), str(seconds),
                                  str(addresses), str(per_address)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        if flood.stdout.readline().strip() != "ready":
            raise RuntimeError("the guests' flood did not start")
        time.sleep(1.0)
        done = threading.Event()
        viewer: list[tuple[float, int]] = []

        def viewers() -> None:
            i = 0
            while not done.is_set():
                t0 = time.perf_counter()
                status, _ = request("GET", "/api/state", source=VIEWERS[i % len(VIEWERS)])
                viewer.append(((time.perf_counter() - t0) * 1000, status))
                i += 1
                time.sleep(0.1)

        from bench.processes import proc_cpu_seconds, proc_rss_mb
        cpu0, began = proc_cpu_seconds(box.pid), time.monotonic()
        reader = threading.Thread(target=viewers, daemon=True)
        reader.start()
        press: list[tuple[float, int]] = []
        for _ in range(presses):
            t0 = time.perf_counter()
            status, _ = request("POST", "/api/press", {"button": "NEXT", "seq": None}, cookie)
            press.append(((time.perf_counter() - t0) * 1000, status))
            time.sleep(0.2)
        done.set()
        cpu = (proc_cpu_seconds(box.pid) - cpu0) / (time.monotonic() - began) * 100
        rss = proc_rss_mb(box.pid)  # the flood still on: the held sockets are all there
        reader.join(15)
        flood.stdin.close()  # the flood stops (else at its own deadline)
        counts = json.loads(flood.stdout.readline() or "{}")
        return {"press": press, "viewer": viewer, "flood": counts, "rss_mb": rss,
                "cpu_percent": cpu}
    finally:
        if flood is not None:
            flood.kill()
            flood.wait(10)
        box.stdin.close()
        box.kill()
        box.wait(10)


def bench_guests(tmp: Path, figure, env: dict[str, str], *, presses: int,
                 addresses: tuple[int, ...] = GUEST_ADDRESSES) -> None:
    for n in addresses:
        d = tmp / f"guests{n}"
        d.mkdir(exist_ok=True)
        r = guests_flood(d, env, addresses=n, presses=presses)
        note = (f"{presses} paired presses, 200 ms apart, a new connection each, under "
                f"{n} addresses x 8 idle sockets reopened at once when closed "
                f"({r['flood'].get('opened', 0)} opened)")
        for who, goal in (("press", 200.0), ("viewer", None)):
            lat = [ms for ms, _ in r[who]]
            failed = [status for _, status in r[who] if status != 200]
            what = note if who == "press" else (f"{len(lat)} viewer reads of /api/state, one "
                                                f"at a time from 4 addresses, same flood")
            figure(f"web_guests{n}_{who}_p50_ms", pct(lat, 50), "ms", None, what)
            figure(f"web_guests{n}_{who}_p99_ms", pct(lat, 99), "ms", goal, what)
            figure(f"web_guests{n}_{who}_failed", len(failed), "", 0.0,
                   f"not answered 200 within 10 s, of {len(lat)} ({sorted(set(failed))})")
        figure(f"web_guests{n}_rss_mb", r["rss_mb"], "MB", None,
               "VmRSS of the box (an app and its web) at the end of the presses, flood on")
        figure(f"web_guests{n}_cpu_percent", r["cpu_percent"], "%", None,
               "the box's CPU (of one core) while the phone presses and the viewers read")


def admission_rounds(tmp: Path, env: dict[str, str]) -> dict[str, Any]:
    """The earlier rounds' admission checks again (docs/reliability.md), against a box
    (BOX): 80 request bodies that stop after one byte from 3 addresses (each answered `408`
    at the 5 s body timeout, while a viewer reads); 150 event streams from 19 addresses (8 an
    address, 64 in all: how many of each answer), a paired press while they are open."""
    import collections
    import http.client
    import selectors
    box = subprocess.Popen([sys.executable, "-c", BOX, str(tmp), "uvicorn"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, cwd=ROOT, env=env, text=True)
    socks: list[socket.socket] = []
    try:
        port_s, code = box.stdout.readline().split()
        port = int(port_s)
        head = f"Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"

        def request(method: str, path: str, body: dict | None = None, cookie: str = "",
                    source: str | None = None) -> tuple[int, str, float]:
            t0 = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                              source_address=(source, 0) if source else None)
            try:
                conn.request(method, path, body=json.dumps(body) if body is not None else None,
                             headers={"Origin": f"http://127.0.0.1:{port}",
                                      **({"Cookie": cookie} if cookie else {})})
                r = conn.getresponse()
                r.read()
                return r.status, r.getheader("Set-Cookie") or "", (time.perf_counter() - t0) * 1000
            except OSError:
                return 0, "", (time.perf_counter() - t0) * 1000
            finally:
                conn.close()

        status, cookie, _ = request("POST", "/api/pair", {"code": code})
        cookie = cookie.split(";")[0]
        sel = selectors.DefaultSelector()
        t0 = time.perf_counter()
        for i in range(80):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                            source_address=(f"127.0.0.{2 + i % 3}", 0))
            sock.sendall((f"POST /api/pair HTTP/1.1\r\n{head}Content-Type: application/json"
                          "\r\nContent-Length: 4000\r\n\r\n{").encode())
            sock.setblocking(False)
            sel.register(sock, selectors.EVENT_READ)
            socks.append(sock)
        viewer = [request("GET", "/api/state", source="127.0.1.1")[::2] for _ in range(5)]
        answers: collections.Counter[str] = collections.Counter()
        at: list[float] = []
        while len(at) < 80 and time.perf_counter() - t0 < 15:
            for key, _ in sel.select(0.5):
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                answers[data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else "closed"] += 1
                at.append(time.perf_counter() - t0)
                sel.unregister(key.fileobj)
        sel.close()
        for sock in socks:
            sock.close()
        socks.clear()
        slow = {"answers": dict(answers), "first_s": min(at, default=0), "last_s": max(at, default=0),
                "viewer": viewer}
        streams: collections.Counter[str] = collections.Counter()
        for i in range(150):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                            source_address=(f"127.0.0.{2 + i % 19}", 0))
            sock.sendall(f"GET /api/events HTTP/1.1\r\n{head}\r\n".encode())
            socks.append(sock)
        for sock in socks:
            try:
                data = sock.recv(64)
            except OSError:
                data = b""
            streams[data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else "closed"] += 1
        press = request("POST", "/api/press", {"button": "NEXT", "seq": None}, cookie)
        return {"slow_bodies": slow, "streams": dict(streams),
                "press_under_streams": press[::2]}
    finally:
        for sock in socks:
            sock.close()
        box.stdin.close()
        box.kill()
        box.wait(10)


def bench_flood(tmp: Path, figure, env: dict[str, str], *, presses: int) -> None:
    d = tmp / "flood"
    d.mkdir(exist_ok=True)
    lat, failed, opened = flood_presses(d, env, presses=presses)
    note = (f"{presses} paired presses, 50 ms apart, a new connection each, under 600 idle "
            f"sockets + 80 slow bodies + 150 event streams from 19 addresses, each reopened "
            f"{FLOOD_PAUSE:g} s after it is closed "
            f"({sum(v for k, v in opened.items() if k != 'failed')} opened)")
    figure("web_flood_press_p50_ms", pct(lat, 50), "ms", None, note)
    figure("web_flood_press_p99_ms", pct(lat, 99), "ms", 200.0, note)
    figure("web_flood_press_failed", len(failed), "", 0.0,
           f"presses not answered 200 of {presses} ({sorted(set(failed))})")


def bench_web(tmp: Path, figure, bench_press_to_frame, *, quick: bool) -> None:
    from bench.journals import resumable_journal
    from bench.processes import env_for
    journal = resumable_journal(tmp, 200)
    env = env_for(tmp)
    bench_latency(tmp, figure, journal, env, presses=20 if quick else 200)
    bench_frames(tmp, figure, journal, env, presses=20 if quick else 200)
    bench_press_to_frame(tmp, presses=60 if quick else 1000, attach=attach_web(5),
                         suffix="_web5")
    bench_startup(tmp, figure, journal, env, runs=1 if quick else 7)
    bench_idle(tmp, figure, journal, env, seconds=1.0 if quick else 10.0)
    bench_flood(tmp, figure, env, presses=30 if quick else 200)
    bench_guests(tmp, figure, env, presses=24 if quick else 100)


if __name__ == "__main__":  # python -m bench.web guests [--quick]: the guests' floods alone
    import tempfile

    from bench.processes import env_for

    def print_figure(name: str, value: float, unit: str, goal: float | None = None,
                     note: str = "") -> None:
        print(json.dumps({"figure": name, "value": round(value, 3), "unit": unit,
                          "goal": goal, "note": note}), flush=True)
    if sys.argv[1:2] == ["rounds"]:  # the earlier rounds' admission checks, as JSON
        with tempfile.TemporaryDirectory() as d:
            print(json.dumps(admission_rounds(Path(d), env_for(Path(d)))))
        sys.exit(0)
    if sys.argv[1:2] != ["guests"]:
        sys.exit("usage: python -m bench.web guests [--quick] [ADDRESSES ...] | rounds")
    quick = "--quick" in sys.argv
    counts = tuple(int(a) for a in sys.argv[2:] if a.isdigit()) or GUEST_ADDRESSES
    with tempfile.TemporaryDirectory() as d:
        bench_guests(Path(d), print_figure, env_for(Path(d)), presses=24 if quick else 100,
                     addresses=counts)
