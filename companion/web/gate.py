"""Who gets a connection and a request slot: a LAN guest cannot lock the phones out.

This is the web's one admission policy (uvicorn's own `limit_concurrency` is off: a second
cap that counted connections the gate had already closed, and answered in plain text). Two
layers, both on the web loop (no locks):

- **Connections** (`protocol(gate)`: uvicorn's h11 protocol with a gate). A connection must
  send its request headers within `header_timeout` seconds of opening (and of each answer,
  for the next request on a kept-alive connection), else it is closed without an answer.
  A connection is *unfinished* until its first request is read whole (headers and body),
  *busy* while a request is read and answered, and *idle* between a complete answer and the
  next request. At most `per_address` connections from one address and `max_sockets` in
  all; a new one past either takes the place of the oldest idle connection (of that
  address, or anyone's); past `max_sockets`, then of the oldest *stale* one: unfinished after `stale` seconds (a
  phone sends its press at once; a socket that has sent nothing for seconds is a guest's),
  of an address that holds at least two more connections than the newcomer's (each such
  move evens the counts out, so a flood's addresses stop displacing each other, and a
  phone or a viewer holding none finds a place). An address holding fewer than `light` (a browser, not a
  flood) is let in past `max_sockets` up to `max_sockets + spare`, and a paired phone's
  address (one that sent a paired session cookie, or was answered 200 to its pairing) up
  to `paired_room` more: a guest on any number of addresses cannot fill those. A refused
  connection is held open and unread (at most `max_held`; past that, closed at once): it is
  let in when a place frees or a stale connection's place can be taken, the address
  holding the fewest connections first, else closed after `header_timeout`. Every header
  timeout is spread, `header_timeout` x 1-1.5 at random, so a flood's sockets, opened
  together, are not all closed and opened again in one burst. Closing it at once
  would only have the flood open it again at once, and accepting connections as fast as a
  flood reopens them keeps the box's loop from the phones.
- **Requests** (`Admission`, an ASGI wrapper). Request headers over `MAX_HEADERS` are
  `400` (h11's own limit counts only what it is still waiting for). The body is read first, without a
  slot: it must arrive within `body_timeout` seconds of the headers (else `408`, and the
  connection is closed) and be at most `max_body` bytes (a game design's routes:
  `guard.body_limit`) (else `413`), so a slow or unfinished
  body holds no slot a viewer or a phone needs. Then a slot: at most `max_requests` at once,
  of which `reserved` only for browsers with a paired session cookie (a phone's press always
  finds one) and `pairing` only for `POST /api/pair` (a phone that comes to pair is still a
  guest, and still gets in). Event streams are capped at `streams_per_address` (429) and
  `max_streams` in all (503), below the public request cap; `reserved_streams` of those only
  for paired browsers (a guest on many addresses cannot leave a paired phone without its
  live page).
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from typing import Any, Callable

from companion.web import guard
from companion.web.guard import MAX_BODY  # bytes (the largest request is ~1 KiB)

HEADER_TIMEOUT = 5.0  # seconds to send the request headers
BODY_TIMEOUT = 5.0  # seconds from the headers to the whole body (then 408)
PER_ADDRESS = 32  # open connections from one address
MAX_SOCKETS = 128  # open connections in all ...
LIGHT = 8  # ... unless the address holds fewer than this (a browser opens up to 6) ...
SPARE = 128  # ... up to this many more
MAX_HELD = 2048  # refused connections held unread (not closed) until header_timeout (or
# fewer: Web.start leaves room in the process's open-file limit)
SPREAD = 0.5  # header_timeout x (1 to 1 + this), at random: a flood's sockets, opened
# together, are not all closed (and opened again by the flood) in the same instant
STALE = 2.0  # seconds: a connection without a complete request after this may be closed
PAIRED_ROOM = 32  # connections past max_sockets + spare, only from paired phones' addresses
PAIRED_ADDRESSES = 64  # addresses remembered as a paired phone's (the most recent)
MAX_REQUESTS = 100  # requests being answered at once (event streams included)
RESERVED = 20  # of those, only for paired browsers
PAIRING = 4  # of those, only for POST /api/pair
STREAMS_PER_ADDRESS = 8
MAX_STREAMS = 64  # < MAX_REQUESTS - RESERVED - PAIRING: quick public requests keep room too
RESERVED_STREAMS = 16  # of those, only for paired browsers
PAIR_PATH = "/api/pair"
MAX_HEADERS = 16 * 1024  # bytes of request line and headers (h11's limit for what is unread)


class Gate:
    def __init__(self, *, header_timeout: float = HEADER_TIMEOUT,
                 body_timeout: float = BODY_TIMEOUT, max_body: int = MAX_BODY,
                 per_address: int = PER_ADDRESS, max_sockets: int = MAX_SOCKETS,
                 light: int = LIGHT, spare: int = SPARE,
                 max_requests: int = MAX_REQUESTS, reserved: int = RESERVED,
                 pairing: int = PAIRING, streams_per_address: int = STREAMS_PER_ADDRESS,
                 max_streams: int = MAX_STREAMS,
                 reserved_streams: int = RESERVED_STREAMS, max_held: int = MAX_HELD,
                 stale: float = STALE, paired_room: int = PAIRED_ROOM,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        self.max_body = max_body
        self.per_address = per_address
        self.max_sockets = max_sockets
        self.light = light
        self.spare = spare
        self.max_requests = max_requests
        self.reserved = reserved
        self.pairing = pairing
        self.streams_per_address = streams_per_address
        self.max_streams = max_streams
        self.reserved_streams = reserved_streams
        self.stale = stale
        self.paired_room = paired_room
        self.clock = clock
        self.open: dict[Any, str] = {}  # protocol -> client address
        self.idle: dict[Any, None] = {}  # protocols after a complete answer, oldest first
        # Connections whose first request is not complete yet -> when they opened (oldest
        # first), and each one's (address, port), by which a request names its connection.
        self.unfinished: dict[Any, float] = {}
        self.clients: dict[Any, Any] = {}
        # Addresses that sent a request with a paired session cookie -> when (most recent
        # last, at most PAIRED_ADDRESSES): their connections have room of their own.
        self.paired: dict[str, float] = {}
        self.by_address: Counter[str] = Counter()
        self.requests = 0
        self.public = 0  # requests that are neither paired nor pairing
        self.pairs = 0  # POST /api/pair requests
        self.streams: Counter[str] = Counter()
        self.public_streams = 0  # streams without a paired session
        self.evicted = 0  # connections closed to make room (for tests and the bench)
        self.stale_evicted = 0  # of those, connections without a complete request
        self.refused = 0  # new connections with no room (held, then closed)
        # Refused connections held unread until header_timeout (or let in when a place
        # frees), by address, oldest first.
        self.held: dict[Any, str] = {}
        self.held_by: dict[str, dict[Any, None]] = {}
        self.let_in = 0  # held connections let in when a place freed
        self.max_held = max_held

    # --- connections --------------------------------------------------------------------------

    def connected(self, proto, address: str, client: Any = None) -> bool:
        """A new connection: False when it must be closed (no room even after evicting)."""
        if self.by_address[address] >= self.per_address:
            # Its own idle one only: an address at its cap that took the place of its own
            # stale ones would only churn (a flood reopens each one closed).
            if not self._evict(lambda p: self.open.get(p) == address):
                self.refused += 1
                return False
        if len(self.open) >= self.max_sockets and not self._evict(lambda p: True) \
                and not self._room(address) and not self._evict_stale(self._fair(address)):
            self.refused += 1
            return False
        self._admit(proto, address, client)
        return True

    def _room(self, address: str) -> bool:
        """Room past `max_sockets` without closing anyone: for an address holding fewer
        than `light` (a phone or a TV, not a flood), and more for a paired phone's."""
        n = len(self.open)
        if n < self.max_sockets:
            return True
        if self.by_address[address] < self.light and n < self.max_sockets + self.spare:
            return True
        return address in self.paired and n < self.max_sockets + self.spare + self.paired_room

    def _admit(self, proto, address: str, client: Any) -> None:
        self.open[proto] = address
        self.by_address[address] += 1
        self.unfinished[proto] = self.clock()
        if client is not None:
            self.clients[client] = proto

    def _fair(self, address: str) -> Callable[[Any], bool]:
        """Whose unfinished connections a newcomer from `address` may take: an address that
        holds at least two more than it does (a paired phone's: anyone's). Each move then
        evens the counts out, so a flood from many addresses, whose every closed socket
        comes back at once, stops taking its own sockets' places in turn (with "more", one
        such place taken led to the next, for ever), and a viewer holding none takes the
        place of a stale one of an address holding two or more."""
        if address in self.paired:
            return lambda p: True
        mine = self.by_address[address]
        return lambda p: self.by_address[self.open.get(p, address)] >= mine + 2

    def _evict(self, which: Callable[[Any], bool]) -> bool:
        victim = next((p for p in self.idle if which(p)), None)
        if victim is None:
            return False
        self.evicted += 1
        self.gone(victim)
        victim.transport.close()
        return True

    def _evict_stale(self, which: Callable[[Any], bool]) -> bool:
        """Close the oldest connection that has had `stale` seconds and not sent a complete
        request (its headers, or its body), of those `which` allows."""
        old = self.clock() - self.stale
        for victim, since in self.unfinished.items():
            if since > old:
                return False  # oldest first: the rest are younger still
            if which(victim):
                self.evicted += 1
                self.stale_evicted += 1
                self.gone(victim)
                victim.transport.close()
                return True
        return False

    def complete(self, client: Any) -> None:
        """The request on the connection of `client` (scope["client"]) is read whole."""
        proto = self.clients.get(client)
        if proto is not None:
            self.unfinished.pop(proto, None)

    def paired_from(self, address: str) -> None:
        """A request with a paired session came from `address`: its connections have the
        paired room from now on (a phone must keep a way in whatever guests hold)."""
        self.paired.pop(address, None)
        self.paired[address] = self.clock()
        while len(self.paired) > PAIRED_ADDRESSES:
            del self.paired[next(iter(self.paired))]

    def forget_paired(self, _: object = None) -> None:
        """Every phone was forgotten: no address is a paired phone's any more."""
        self.paired.clear()

    def busy(self, proto) -> None:
        self.idle.pop(proto, None)

    def waiting(self, proto) -> None:
        """A complete answer went out and the connection stays open: idle, evictable."""
        if proto in self.open:
            self.idle[proto] = None

    def hold(self, proto, address: str = "") -> bool:
        """A refused connection: True to keep it open, unread, until it is let in
        (`let_in_held`) or its header timeout ends (a flood that reopens what is closed then
        reopens it once per timeout, not as fast as the box can accept), False to close it
        at once (`max_held` are held already)."""
        if len(self.held) >= self.max_held:
            return False
        self.held[proto] = address
        self.held_by.setdefault(address, {})[proto] = None
        return True

    def let_in_held(self) -> list[Any]:
        """The held connections to let in now, counted as open: while one is held and
        there is room, or a stale connection it may take the place of (`_fair`), the oldest
        of the address holding the fewest connections (a viewer waits its turn, never
        behind a flood)."""
        out = []
        while self.held_by:
            address = min(self.held_by, key=lambda a: self.by_address[a])
            if self.by_address[address] >= self.per_address:
                break  # the fewest held are at their cap: every held one's address is
            if not (self._room(address) or self._evict_stale(self._fair(address))):
                break
            proto = next(iter(self.held_by[address]))
            self._unhold(proto)
            self.let_in += 1
            self._admit(proto, address, getattr(proto, "client", None))
            out.append(proto)
        return out

    def next_look(self) -> float:
        """Seconds until a held connection may find a place by `stale` (the oldest
        unfinished connection then has had its time; at least a quarter of a second)."""
        now = self.clock()
        oldest = next(iter(self.unfinished.values()), now)
        return max(0.25, oldest + self.stale - now)

    def _unhold(self, proto) -> None:
        address = self.held.pop(proto, None)
        if address is not None:
            waiting = self.held_by[address]
            del waiting[proto]
            if not waiting:
                del self.held_by[address]

    def gone(self, proto) -> bool:
        """A connection closed (or about to be): True when it held a place (one is free)."""
        self._unhold(proto)
        address = self.open.pop(proto, None)
        self.idle.pop(proto, None)
        self.unfinished.pop(proto, None)
        client = getattr(proto, "client", None)
        if client is not None and self.clients.get(client) is proto:
            del self.clients[client]
        if address is not None:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]
        return address is not None

    # --- requests -----------------------------------------------------------------------------

    def take(self, paired: bool, *, pairing: bool = False) -> bool:
        """A request slot. Paired browsers may use all of them; a pairing request the public
        ones and `pairing` more; anyone else `max_requests - reserved - pairing`."""
        if self.requests >= self.max_requests:
            return False
        public_cap = self.max_requests - self.reserved - self.pairing
        if not paired:
            if pairing:
                if self.public + self.pairs >= public_cap + self.pairing:
                    return False
                self.pairs += 1
            elif self.public + self.pairs >= public_cap:
                return False
            else:
                self.public += 1
        self.requests += 1
        return True

    def give_back(self, paired: bool, *, pairing: bool = False) -> None:
        self.requests -= 1
        if not paired:
            if pairing:
                self.pairs -= 1
            else:
                self.public -= 1

    def stream(self, address: str, *, paired: bool = False) -> tuple[int, str]:
        """Room for one more event stream from `address`: (0, "") and counted, or a refusal."""
        if self.streams[address] >= self.streams_per_address:
            return 429, (f"too many event streams from this address (at most "
                         f"{self.streams_per_address}): close a tab")
        if sum(self.streams.values()) >= self.max_streams or (
                not paired and self.public_streams >= self.max_streams - self.reserved_streams):
            return 503, "too many event streams open on the box: try again soon"
        self.streams[address] += 1
        self.public_streams += not paired
        return 0, ""

    def stream_ended(self, address: str, *, paired: bool = False) -> None:
        self.streams[address] -= 1
        self.public_streams -= not paired
        if self.streams[address] <= 0:
            del self.streams[address]


def _json(status: int, reason: str, *, close: bool = False,
          retry_after: str = "") -> tuple[dict[str, Any], dict[str, Any]]:
    """The two ASGI messages of a `{"error": reason}` answer."""
    body = json.dumps({"error": reason}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if retry_after:
        headers.append((b"retry-after", retry_after.encode()))
    if close:
        headers.append((b"connection", b"close"))
    return ({"type": "http.response.start", "status": status, "headers": headers},
            {"type": "http.response.body", "body": body})


def header_bytes(scope) -> int:
    """The request line and headers as sent (give or take a space): what h11 would have held
    had they arrived slowly."""
    line = len(scope.get("method", "")) + len(scope.get("raw_path", b"")) + 14
    if scope.get("query_string"):
        line += len(scope["query_string"]) + 1
    return line + sum(len(k) + len(v) + 4 for k, v in scope.get("headers", ())) + 2


def bad_request_line() -> str:
    """What h11 found wrong with a request it could not read, as one printable line (called
    while uvicorn handles h11's RemoteProtocolError, which is then the exception in hand)."""
    exc = sys.exc_info()[1]
    why = str(exc) if exc is not None else ""
    why = " ".join(why.split()).encode("ascii", "backslashreplace").decode()[:80]
    return f"bad HTTP request ({why or 'it could not be read'})"


def spread(seconds: float) -> float:
    """`seconds` to `seconds` x (1 + SPREAD): a timeout that does not end a flood's sockets,
    opened together, together (each wave of them closed and opened again at once would hold
    up a phone's press)."""
    return seconds * (1 + SPREAD * random.random())


def protocol(gate: Gate):
    """uvicorn's h11 protocol class, with `gate` deciding about connections."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    look: dict[str, Any] = {"at": None}  # the one timer that looks for places for the held

    def let_in(loop) -> None:
        """Let in every held connection that has a place now; look again later while some
        are held."""
        for proto in gate.let_in_held():
            proto._let_in()
        look_later(loop)

    def look_later(loop) -> None:
        """One timer for all the held connections, not one each."""
        if gate.held and look["at"] is None:
            look["at"] = loop.call_later(gate.next_look(), looked, loop)

    def looked(loop) -> None:
        look["at"] = None
        let_in(loop)

    class GatedH11(H11Protocol):
        _deadline = None
        _cycle = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if not gate.connected(self, address, self.client):
                if gate.hold(self, address):
                    transport.pause_reading()
                    self._deadline = self.loop.call_later(spread(gate.header_timeout),
                                                          self._let_go)
                    look_later(self.loop)
                else:
                    transport.close()
                return
            self._arm()

        def _let_go(self) -> None:
            self._deadline = None
            gate.gone(self)
            self.transport.close()

        def _let_in(self) -> None:
            """A held connection given a place: read it from now on."""
            self._disarm()
            self.transport.resume_reading()
            self._arm()

        def _freed(self) -> None:
            """This connection's place is free: the next held one takes it."""
            let_in(self.loop)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(spread(gate.header_timeout), self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.cycle is self._cycle:  # still no new request: close it
                if gate.gone(self):
                    self._freed()
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and self.cycle is not self._cycle:
                self._cycle = self.cycle  # a new request started: its headers are in
                self._disarm()
                gate.busy(self)

        def send_400_response(self, msg: str) -> None:
            """h11 could not read the request (a bad Content-Length, two of them, a bad
            request line): `400 {"error": ...}` as every other refusal, not plain text."""
            start, body = _json(400, bad_request_line(), close=True)  # as Admission's
            try:
                out = self.conn.send(h11.Response(status_code=400, reason=b"Bad Request",
                                                  headers=start["headers"]))
                out = (out or b"") + (self.conn.send(h11.Data(data=body["body"])) or b"") \
                    + (self.conn.send(h11.EndOfMessage()) or b"")
                self.transport.write(out)
            except h11.LocalProtocolError:  # a response was under way already: just close
                pass
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if self.cycle is not None and self.cycle is not self._cycle \
                    and not self.cycle.response_complete:
                # uvicorn started a pipelined request at once: busy, not idle (never evicted
                # mid-request), and its own cycle from now on.
                self._cycle = self.cycle
                self._disarm()
                gate.busy(self)
                return
            gate.waiting(self)
            self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            if gate.gone(self):
                self._freed()
            super().connection_lost(exc)

    return GatedH11


class Admission:
    """ASGI wrapper: the body is read before a request slot is taken (within `body_timeout`,
    at most `max_body` bytes), then a slot, `reserved` of them for paired browsers and
    `pairing` for POST /api/pair. Every refusal is `{"error": ...}` JSON."""

    def __init__(self, app, gate: Gate, paired: Callable[[str | None], bool], *,
                 cookie: str) -> None:
        self.app = app
        self.gate = gate
        self.paired = paired
        self.cookie = cookie.encode()

    def _token(self, scope) -> str | None:
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                for part in value.split(b";"):
                    k, _, v = part.strip().partition(b"=")
                    if k == self.cookie:
                        return v.decode("latin-1")
        return None

    def _paired_on_200(self, send, address: str):
        """`send`, telling the gate that `address` is a paired phone's once the pairing is
        answered 200: its next connection (its first press) finds the paired room."""
        async def sending(message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                self.gate.paired_from(address)
            await send(message)
        return sending

    async def _body(self, receive, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """The request's body messages: (0, messages), or (status, []) for 408 (too slow),
        413 (over `limit` bytes) and -1 (the client hung up: no answer)."""
        import asyncio  # here: the web loop has it already; a companion run --no-web never does

        messages: list[dict[str, Any]] = []
        size = 0
        try:
            async with asyncio.timeout(self.gate.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # http.disconnect
                        return -1, []
                    messages.append(message)
                    size += len(message.get("body", b""))
                    if size > limit:
                        return 413, []
                    if not message.get("more_body", False):
                        return 0, messages
        except TimeoutError:
            return 408, []

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if header_bytes(scope) > MAX_HEADERS:
            # h11 refuses only headers it is still waiting for past its limit: the same
            # headers sent in one piece were parsed whole, whatever their size.
            for m in _json(400, f"bad HTTP request (headers over {MAX_HEADERS // 1024} KiB)",
                           close=True):
                await send(m)
            return
        # A game design's routes take more than the others (guard.body_limit).
        limit = guard.body_limit(scope.get("path", ""), self.gate.max_body)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                for m in _json(413, f"body too large ({int(value)} bytes; at most "
                                    f"{limit})", close=True):
                    await send(m)
                return
        status, messages = await self._body(receive, limit)
        if status == -1:
            return  # gone: nobody to answer, nothing to log
        if status == 0:
            self.gate.complete(scope.get("client"))
        if status:
            reason = (f"the request body did not arrive within {self.gate.body_timeout:g} s"
                      if status == 408 else f"body too large (at most {limit} bytes)")
            for m in _json(status, reason, close=True):
                await send(m)
            return
        paired = self.paired(self._token(scope))
        if paired and scope.get("client"):
            self.gate.paired_from(scope["client"][0])
        pairing = scope.get("path") == PAIR_PATH and scope.get("method") == "POST"
        if not self.gate.take(paired, pairing=pairing):
            for m in _json(503, "the box is busy: try again in a moment", retry_after="1"):
                await send(m)
            return

        if pairing and scope.get("client"):
            send = self._paired_on_200(send, scope["client"][0])

        async def replay():
            """The body read above, then the connection's own messages (a disconnect)."""
            if messages:
                return messages.pop(0)
            return await receive()

        try:
            await self.app(scope, replay, send)
        finally:
            self.gate.give_back(paired, pairing=pairing)
