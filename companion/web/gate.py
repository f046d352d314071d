"""Who gets a connection and a request slot: a LAN guest cannot lock the phones out.

Two layers, both on the web loop (no locks):

- **Connections** (`protocol(gate)`: uvicorn's h11 protocol with a gate). A connection must
  send its request headers within `header_timeout` seconds of opening (and of each answer,
  for the next request on a kept-alive connection), else it is closed: uvicorn's own
  keep-alive timer only starts after a first answer and stops at the first byte. A
  connection between requests is *idle*. At most `per_address` connections from one address
  and `max_sockets` in all; a new one past either evicts the oldest idle connection (of that
  address, or anyone's), so idle sockets cannot hold the door shut: a phone's connection
  sends its request at once and is never the oldest idle one for long.
- **Requests** (`Admission`, an ASGI wrapper). At most `max_requests` at once, of which
  `reserved` only for browsers with a paired session cookie (a phone's press always finds a
  slot). Event streams are capped at `streams_per_address` (429) and `max_streams` in all
  (503), below the public request cap; `reserved_streams` of those only for paired browsers
  (a guest on many addresses cannot leave a paired phone without its live page).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Callable

HEADER_TIMEOUT = 5.0  # seconds to send the request headers
PER_ADDRESS = 32  # open connections from one address
MAX_SOCKETS = 128  # open connections in all
MAX_REQUESTS = 100  # requests being answered at once (event streams included)
RESERVED = 20  # of those, only for paired browsers
STREAMS_PER_ADDRESS = 8
MAX_STREAMS = 64  # < MAX_REQUESTS - RESERVED: quick public requests keep room too
RESERVED_STREAMS = 16  # of those, only for paired browsers


class Gate:
    def __init__(self, *, header_timeout: float = HEADER_TIMEOUT, per_address: int = PER_ADDRESS,
                 max_sockets: int = MAX_SOCKETS, max_requests: int = MAX_REQUESTS,
                 reserved: int = RESERVED, streams_per_address: int = STREAMS_PER_ADDRESS,
                 max_streams: int = MAX_STREAMS,
                 reserved_streams: int = RESERVED_STREAMS) -> None:
        self.header_timeout = header_timeout
        self.per_address = per_address
        self.max_sockets = max_sockets
        self.max_requests = max_requests
        self.reserved = reserved
        self.streams_per_address = streams_per_address
        self.max_streams = max_streams
        self.reserved_streams = reserved_streams
        self.open: dict[Any, str] = {}  # protocol -> client address
        self.idle: dict[Any, None] = {}  # protocols between requests, oldest first
        self.by_address: Counter[str] = Counter()
        self.requests = 0
        self.public = 0  # requests without a paired session
        self.streams: Counter[str] = Counter()
        self.public_streams = 0  # streams without a paired session
        self.evicted = 0  # connections closed to make room (for tests and the bench)

    # --- connections --------------------------------------------------------------------------

    def connected(self, proto, address: str) -> bool:
        """A new connection: False when it must be closed (no room even after evicting)."""
        if self.by_address[address] >= self.per_address:
            if not self._evict(lambda p: self.open.get(p) == address):
                return False
        if len(self.open) >= self.max_sockets:
            if not self._evict(lambda p: True):
                return False
        self.open[proto] = address
        self.by_address[address] += 1
        self.idle[proto] = None
        return True

    def _evict(self, which: Callable[[Any], bool]) -> bool:
        victim = next((p for p in self.idle if which(p)), None)
        if victim is None:
            return False
        self.evicted += 1
        self.gone(victim)
        victim.transport.close()
        return True

    def busy(self, proto) -> None:
        self.idle.pop(proto, None)

    def waiting(self, proto) -> None:
        if proto in self.open:
            self.idle[proto] = None

    def gone(self, proto) -> None:
        address = self.open.pop(proto, None)
        self.idle.pop(proto, None)
        if address is not None:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

    # --- requests -----------------------------------------------------------------------------

    def take(self, paired: bool) -> bool:
        if self.requests >= self.max_requests:
            return False
        if not paired and self.public >= self.max_requests - self.reserved:
            return False
        self.requests += 1
        self.public += not paired
        return True

    def give_back(self, paired: bool) -> None:
        self.requests -= 1
        self.public -= not paired

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


def protocol(gate: Gate):
    """uvicorn's h11 protocol class, with `gate` deciding about connections."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GatedH11(H11Protocol):
        _deadline = None
        _cycle = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if not gate.connected(self, address):
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(gate.header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.cycle is self._cycle:  # still no new request: close it
                gate.gone(self)
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and self.cycle is not self._cycle:
                self._cycle = self.cycle  # a new request started: its headers are in
                self._disarm()
                gate.busy(self)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                gate.waiting(self)
                self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            gate.gone(self)
            super().connection_lost(exc)

    return GatedH11


class Admission:
    """ASGI wrapper: a request slot for each request, `reserved` of them for paired browsers."""

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

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        paired = self.paired(self._token(scope))
        if not self.gate.take(paired):
            body = json.dumps({"error": "the box is busy: try again in a moment"}).encode()
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"retry-after", b"1"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.gate.give_back(paired)
