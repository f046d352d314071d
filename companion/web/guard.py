"""Checks every POST passes before anything is done (LAN guests are the threat).

- `Host` must name the box: one of its addresses, localhost, 127.0.0.1, [::1], its host
  name or name.local. A page on another site that rebinds its DNS name to the box's address
  sends its own name as Host and is refused (DNS rebinding).
- `Origin` must be this same origin; a browser that sends no Origin must say
  `Sec-Fetch-Site: same-origin`. A request with neither is refused (CSRF).
- The body is at most `MAX_BODY` bytes of JSON holding an object, nested at most
  `MAX_DEPTH` deep (checked before parsing, so the rule is ours and the same on every
  Python), with no lone surrogate (`"\\ud800"`: not a character, and not encodable).
Each failure is a `Refused` with the HTTP status and one line for the person.
"""

from __future__ import annotations

import json
import re
import socket
from typing import Any, Iterable

from companion import names as player_names

MAX_BODY = 4096  # bytes: the largest request (a new game of 16 named players) is ~1 KiB
DESIGN_BODY = 16 * 1024  # bytes: a game design's routes (/api/design/...): the largest is ~7 KiB
MAX_DEPTH = 16  # arrays and objects inside one another (the deepest request needs 5)
# A JSON string (skipped whole: brackets inside it are text), or one bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def body_limit(path: str, limit: int = MAX_BODY) -> int:
    """The most bytes a request to `path` may send: `limit`, or DESIGN_BODY for a game
    design's routes (companion/web/designs.py)."""
    return max(limit, DESIGN_BODY) if path.startswith("/api/design/") else limit


def parse_hostport(text: str) -> tuple[str, int]:
    """"HOST:PORT", ":PORT", "PORT" or "[::1]:PORT" -> (host, port); ValueError names it."""
    t = text.strip()
    host, port = "", t
    if t.startswith("["):
        host, _, rest = t[1:].partition("]")
        port = rest.removeprefix(":")
    elif ":" in t:
        host, _, port = t.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{text!r} is not HOST:PORT (e.g. 0.0.0.0:8080)")
    return host or "0.0.0.0", int(port)


def lan_address() -> str:
    """The address of the interface that would carry traffic to the LAN, found by
    "connecting" a UDP socket (nothing is sent); 127.0.0.1 when there is no network."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, no packet leaves
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def interface_addresses() -> list[str]:
    """The IPv4 address of every network interface (Linux: SIOCGIFADDR), without asking DNS
    (which may hang on a table with no network); [] where that is not available."""
    try:
        import fcntl
        import struct
    except ImportError:
        return []
    out = []
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
            except OSError:  # an interface without an IPv4 address
                continue
            out.append(socket.inet_ntoa(raw[20:24]))
    except OSError:
        pass
    finally:
        s.close()
    return out


def box_addresses(host: str) -> list[str]:
    """The addresses a browser may use to reach the box when it listens on `host`: the LAN
    address first (the one to show), then every interface's, then loopback."""
    out: list[str] = []
    if host not in ("0.0.0.0", "::", ""):
        out.append(host)
    out.append(lan_address())
    out += interface_addresses()
    out += ["127.0.0.1", "::1"]
    return list(dict.fromkeys(out))


def allowed_hosts(addresses: Iterable[str]) -> frozenset[str]:
    name = socket.gethostname().lower()
    names = {"localhost", "127.0.0.1", "::1", name, name.split(".")[0] + ".local", name + ".local"}
    return frozenset({*names, *(a.lower() for a in addresses)})


def host_name(host_header: str) -> str:
    """`Host` without its port: "192.168.1.20:8080" -> "192.168.1.20", "[::1]:80" -> "::1"."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


def check_host(headers, allowed: frozenset[str]) -> None:
    """Raise `Refused` unless Host names the box (every POST, every whole-log download)."""
    host = headers.get("host", "")
    if host_name(host) not in allowed:
        raise Refused(403, f"Host {host!r} is not this box (use its address or name)")


def check_origin(headers, allowed: frozenset[str]) -> None:
    """Raise `Refused` unless Host names the box and the request comes from its own pages."""
    check_host(headers, allowed)
    host = headers.get("host", "")
    origin = headers.get("origin")
    if origin is not None:
        # The box serves plain http only (docs/web.md): an https origin is not its own page.
        if origin.lower().rstrip("/") != f"http://{host.lower()}":
            raise Refused(403, f"cross-origin request from {origin!r} refused")
        return
    site = headers.get("sec-fetch-site")
    if site != "same-origin":
        raise Refused(403, "cross-origin request refused (no Origin and Sec-Fetch-Site is "
                      f"{site or 'missing'})")


async def read_json(request, *, limit: int = MAX_BODY) -> dict[str, Any]:
    """The body as a JSON object, at most `limit` bytes (Content-Length or not)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise Refused(400, "bad Content-Length")
        if int(declared) > limit:
            raise Refused(413, f"body too large ({declared} bytes; at most {limit})")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"body too large (at most {limit} bytes)")
    if not body.strip():
        return {}
    return parse_json(bytes(body))


def parse_json(body: bytes) -> dict[str, Any]:
    """A body as a JSON object, or `Refused` (400) saying what is wrong with it."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "body is not UTF-8 text") from None
    check_depth(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise Refused(400, f"body is not valid JSON ({e.msg} at character {e.pos})") from None
    except RecursionError:  # a guard only: check_depth keeps bodies far from the limit
        raise Refused(400, f"body is nested too deeply (at most {MAX_DEPTH} levels)") from None
    if not isinstance(data, dict):
        raise Refused(400, "body must be a JSON object, e.g. {\"button\": \"NEXT\"}")
    check_text(data)
    return data


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Refuse arrays and objects nested deeper than `limit`, before parsing: json.loads
    refuses "[[[[...]]]]" by RecursionError at a depth that depends on the interpreter
    (3.11 fails 1,900 deep, 3.13 parses it), so the rule is ours."""
    depth = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                raise Refused(400, f"body is nested too deeply (at most {limit} levels of "
                              "arrays and objects)")
        elif c in "]}":
            depth -= 1


def check_text(value: Any) -> None:
    """Refuse a lone surrogate ("\\ud800") in any string or field name: it is no character,
    and an answer that names it could not be encoded. Depth is checked already."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise Refused(400, f"body has {value[e.start]!r}".encode("ascii", "backslashreplace")
                          .decode() + ", half of a surrogate pair, which is not a character"
                          ) from None
    elif isinstance(value, dict):
        for k, v in value.items():
            check_text(k)
            check_text(v)
    elif isinstance(value, list):
        for v in value:
            check_text(v)


def check_names(names: Any, *, field: str = "names", lo: int = 0, hi: int = 64) -> list[str]:
    """Player names: each one the panel can show (companion/names.py, the rule the config
    file's names follow too), unique ignoring case."""
    if not isinstance(names, list):
        raise Refused(400, f"{field} must be a list of names")
    if not lo <= len(names) <= hi:
        raise Refused(400, f"{field} must hold {lo}-{hi} names, not {len(names)}")
    out: list[str] = []
    for n in names:
        if not isinstance(n, str):
            raise Refused(400, f"{field}: {n!r} is not text")
        n = player_names.tidy(n)
        why = player_names.problem(n)
        if why:
            raise Refused(400, f"{field}: {why}")
        out.append(n)
    twice = player_names.duplicate(out)
    if twice:
        raise Refused(400, f"{field}: {twice!r} appears twice")
    return out
