"""The /api routes (docs/web.md is the contract). Reading needs nothing; changing needs a
paired browser, and every POST passes `guard` first. Nothing here touches the journal: a
change is a `WebRequest` on the app's queue, done by the app thread like a button press.

The routes are given the web that mounts them (`companion/web/server.py`'s `Web`), and say
what they need of it in `Server` below: this module never imports the server.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Protocol

from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from companion.inputs import Button
from companion.web import designs, guard
from companion.web.gate import Gate
from companion.web.guard import Refused
from companion.web.pairing import Pairing, digest
from companion.web.snapshot import Bye, Frame, Hub, with_now

COOKIE = "companion_session"
COOKIE_AGE = 30 * 24 * 3600  # seconds; as the session (kept in the journal: a restart keeps it)
PING = 15  # seconds between SSE keep-alive comments
BUTTONS = [b.value for b in Button]


def error(status: int, reason: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status, headers=headers or None)


class ASGI:
    """A plain ASGI callable as a route (Starlette wraps a function as request -> response)."""

    def __init__(self, fn) -> None:
        self.fn = fn

    async def __call__(self, scope, receive, send) -> None:
        await self.fn(scope, receive, send)


def client_address(request: Request) -> str:
    """The address the request came from (pairing waits and stream caps are per address)."""
    return request.client.host if request.client is not None else ""


def no_store(resp: Response) -> Response:
    resp.headers["Cache-Control"] = "no-store"
    return resp


class Server(Protocol):
    """What the routes need of the web that mounts them (`server.Web` is the one)."""

    hub: Hub  # the snapshots published, and the event streams' slots
    gate: Gate  # the event streams' caps per address
    pairing: Pairing
    allowed_hosts: frozenset[str]  # the Origin a change must come from (guard.check_origin)
    wall: Callable[[], float]  # the box's wall clock: each snapshot sent carries its `now`

    def initial_snapshot(self) -> dict[str, Any]: ...

    def frame_png(self) -> bytes | None: ...

    def kinds(self) -> list[dict[str, Any]]: ...

    async def ask(self, kind: str, payload: dict[str, Any]) -> Response:
        """The app thread's answer to a request, as a response."""
        ...

    async def keep_phone(self, digest: str, created: float) -> bool:
        """The app thread keeps a newly paired phone's session in the journal."""
        ...


def routes(web: Server) -> list[Route]:
    async def state(request: Request) -> Response:
        latest = web.hub.latest
        body = latest[1] if latest is not None else json.dumps(web.initial_snapshot())
        return no_store(Response(body, media_type="application/json"))

    async def events(scope, receive, send) -> None:
        """An ASGI app, not a plain endpoint: the stream's slot is given back however the
        stream ends (even when the client leaves before the first byte)."""
        request = Request(scope)
        address = client_address(request)
        gate = web.gate
        # A paired phone's stream has slots a guest cannot take (it counted as paired when it
        # opened, and is given back the same way whatever happens to the session meanwhile).
        token = request.cookies.get(COOKIE)
        paired = web.pairing.valid(token)
        status, why = gate.stream(address, paired=paired)
        if status:
            await error(status, why, **{"Retry-After": "5"})(scope, receive, send)
            return
        # A paired phone's stream keeps its session: told "forgotten" when it no longer is.
        slot = web.hub.subscribe(token if paired else None)

        async def stream():
            if web.hub.latest is None:  # nothing published yet: still one on connect
                snap = web.initial_snapshot()
                yield {"data": with_now(json.dumps(snap), web.wall()), "id": str(snap["seq"])}
            while True:
                item = await slot.get()
                if item is None:
                    return
                if isinstance(item, Bye):  # the last word: why the stream ends
                    yield {"event": "bye", "data": json.dumps(item)}
                    return
                if isinstance(item, Frame):  # the panel changed: no snapshot seq of its own
                    yield {"event": "frame", "data": json.dumps(
                        {"n": int(item), "src": f"/api/frame.png?n={int(item)}"})}
                else:
                    yield {"data": with_now(item[1], web.wall()), "id": str(item[0])}

        try:
            await EventSourceResponse(stream(), ping=PING,
                                      headers={"Cache-Control": "no-store"})(scope, receive, send)
        finally:
            web.hub.unsubscribe(slot)
            gate.stream_ended(address, paired=paired)

    async def frame(request: Request) -> Response:
        png = web.frame_png()  # ~1 ms for a new frame, cached by frame number
        if png is None:
            return error(404, "no frame drawn yet")
        return no_store(Response(png, media_type="image/png"))

    async def me(request: Request) -> Response:
        return no_store(JSONResponse({"paired": web.pairing.valid(request.cookies.get(COOKIE))}))

    async def kinds(request: Request) -> Response:
        return JSONResponse(web.kinds())

    async def roster_get(request: Request) -> Response:
        return await web.ask("roster", {})

    # --- the "Design a game" page (/design; docs/web.md "Designing a game on a phone") ---------

    async def design_check(request: Request) -> Response:
        """A design checked and previewed: read-only (nothing is kept), so a guest may ask."""
        try:
            guard.check_origin(request.headers, web.allowed_hosts)
            body = check_design_body(await guard.read_json(request, limit=designs.MAX_BODY))
        except Refused as e:
            return error(e.status, e.reason)
        status, answer = designs.check(body)
        return no_store(JSONResponse(answer, status_code=status))

    async def designs_list(request: Request) -> Response:
        """The designs the journal keeps that New game offers (the app thread reads them)."""
        return no_store(await web.ask("designs", {}))

    async def design_file(request: Request) -> Response:
        """A kept design as a file (its canonical JSON), for another box to import: any page
        may read it (Access-Control-Allow-Origin), as any page may read /api/state."""
        id = request.path_params["id"]
        if id >= 2**63:  # SQLite's integers stop there: no such design
            return error(404, f"there is no design {id}")
        resp = await web.ask("design-file", {"id": id})
        if resp.status_code != 200:
            return resp
        answer = json.loads(bytes(resp.body))
        name = designs.file_name(answer["title"])
        return no_store(JSONResponse(answer["design"], headers={
            "Content-Disposition": f'attachment; filename="{name}.json"',
            "Access-Control-Allow-Origin": "*"}))

    async def design_qr(request: Request) -> Response:
        """A QR code of a design's link (/api/designs/<id>.json at the address the phone
        used), for another phone to open or another box's /design to import."""
        link = f"{str(request.base_url).rstrip('/')}/api/designs/{request.path_params['id']}.json"
        return no_store(Response(designs.qr_png(link), media_type="image/png"))

    async def kind_design(request: Request) -> Response:
        """A design game's own design by its kind (`design:<hash>`, whose header carries it):
        what /tv shares, so another group can import it (a design is not secret)."""
        kind = request.path_params["kind"]
        design = designs.of_kind(kind)
        if design is None:
            return error(404, f"{kind!r} is not a game this box has a design of")
        return no_store(JSONResponse(design.to_json(), headers={
            "Content-Disposition": f'attachment; filename="{designs.file_name(design.title)}.json"',
            "Access-Control-Allow-Origin": "*"}))

    async def kind_design_qr(request: Request) -> Response:
        """A QR code of a design game's link (/api/design/<kind>.json at the address used)."""
        kind = request.path_params["kind"]
        if designs.of_kind(kind) is None:
            return error(404, f"{kind!r} is not a game this box has a design of")
        link = f"{str(request.base_url).rstrip('/')}/api/design/{kind}.json"
        return no_store(Response(designs.qr_png(link), media_type="image/png"))

    async def pair(request: Request) -> Response:
        try:
            guard.check_origin(request.headers, web.allowed_hosts)
            body = await guard.read_json(request)
        except Refused as e:
            return error(e.status, e.reason)
        code = body.get("code")
        if not isinstance(code, str) or not re.fullmatch(r"[0-9]{6}", code.strip()):
            return error(400, "code must be the 6 digits shown on the box")
        result = web.pairing.attempt(code.strip(), client_address(request))
        if result.retry_after > 0:
            return error(429, result.error, **{"Retry-After": str(int(result.retry_after + 0.999))})
        if not result.ok:
            return error(403, result.error)
        # Kept in the journal by the app thread (the one writer) before the phone hears "ok".
        await web.keep_phone(digest(result.token), result.created)
        resp = JSONResponse({"ok": True})
        resp.set_cookie(COOKIE, result.token, max_age=COOKIE_AGE, path="/", httponly=True,
                        samesite="strict")
        return resp

    def paired(kind: str, check, *, limit: int = guard.MAX_BODY):
        """A POST route for paired browsers: guard, pairing, body check (with the `seq` every
        change carries), then the app, which checks that seq on its own thread."""
        async def endpoint(request: Request) -> Response:
            try:
                guard.check_origin(request.headers, web.allowed_hosts)
                token = request.cookies.get(COOKIE)
                if not token:
                    raise Refused(401, "not paired: open Pair a phone on the box and enter the code")
                if not web.pairing.valid(token):
                    raise Refused(401, "this phone is no longer paired: pair it again")
                body = await guard.read_json(request, limit=limit)
                seq = take_seq(body)
                # `phone`: which paired phone asks (its session, whichever tab): a page's
                # double tap is told apart from another phone's tap by it (app/taps.py, Taps).
                payload = {**check({k: v for k, v in body.items() if k != "seq"}), "seq": seq,
                           "phone": digest(token)}
            except Refused as e:
                return error(e.status, e.reason)
            return await web.ask(kind, payload)
        return endpoint

    return [
        Route("/api/state", state),
        Route("/api/events", ASGI(events), methods=["GET"]),
        Route("/api/frame.png", frame),
        Route("/api/me", me),
        Route("/api/kinds", kinds),
        Route("/api/roster", roster_get, methods=["GET"]),
        Route("/api/roster", paired("roster-set", check_roster), methods=["POST"]),
        Route("/api/pair", pair, methods=["POST"]),
        Route("/api/press", paired("press", check_press), methods=["POST"]),
        Route("/api/action", paired("action", check_action), methods=["POST"]),
        Route("/api/undo", paired("undo", check_empty), methods=["POST"]),
        Route("/api/redo", paired("redo", check_empty), methods=["POST"]),
        Route("/api/pause", paired("pause", check_pause), methods=["POST"]),
        Route("/api/new-game", paired("new-game", check_new_game), methods=["POST"]),
        Route("/api/resume", paired("resume", check_resume), methods=["POST"]),
        Route("/api/play-again", paired("play-again", check_play_again), methods=["POST"]),
        Route("/api/design/check", design_check, methods=["POST"]),
        Route("/api/design/save", paired("design-save", check_design_save,
                                         limit=designs.MAX_BODY), methods=["POST"]),
        Route("/api/design/delete", paired("design-delete", check_design_delete),
              methods=["POST"]),
        Route("/api/design/picture", paired("design-picture", check_design_picture,
                                            limit=designs.MAX_BODY), methods=["POST"]),
        Route("/api/design/{kind}.json", kind_design, methods=["GET"]),
        Route("/api/design/{kind}.png", kind_design_qr, methods=["GET"]),
        Route("/api/designs", designs_list, methods=["GET"]),
        Route("/api/designs/{id:int}.json", design_file, methods=["GET"]),
        Route("/api/designs/{id:int}.png", design_qr, methods=["GET"]),
    ]


# --- body checks: the shape only; the rules engine on the app thread checks the game ----------

def _only(body: dict[str, Any], *keys: str) -> None:
    extra = sorted(set(body) - set(keys))
    if extra:
        raise Refused(400, f"unknown field {_js(extra[0])} (expected: "
                      f"{', '.join((*keys, 'seq')) if keys else 'seq only'})")


def _js(value: Any) -> str:
    """A value as the page sent it (JSON: true, null, "7"), not as Python spells it."""
    try:
        return json.dumps(value, ensure_ascii=False)[:40]
    except (TypeError, ValueError):
        return repr(value)[:40]


def take_seq(body: dict[str, Any]) -> int | None:
    """The `seq` of the snapshot the change was asked on: required, a whole number or null
    (a script that skips the staleness check says so explicitly)."""
    if "seq" not in body:
        raise Refused(400, "seq is required: the \"seq\" of the snapshot this change was asked "
                      "on (GET /api/state), or \"seq\": null to skip the check")
    seq = body["seq"]
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 0):
        raise Refused(400, f"seq must be a snapshot's seq (a whole number) or null, not {_js(seq)}")
    return seq


def _game_id(body: dict[str, Any], field: str, *, required: bool) -> int | None:
    value = body.get(field)
    if value is None and not required:
        return None
    # SQLite's integers stop at 2**63 - 1 (a bigger one is an OverflowError, not "no game").
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < 2**63:
        raise Refused(400, f"{field} must be a game's id (as in /games), not {_js(value)}")
    return value


def check_empty(body: dict[str, Any]) -> dict[str, Any]:
    _only(body)
    return {}


def check_play_again(body: dict[str, Any]) -> dict[str, Any]:
    """Play again, with who goes first where the game asks it (the snapshot's
    `picks_first`: the group picks, as New game's "First player")."""
    _only(body, "first")
    first = body.get("first")
    if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
        raise Refused(400, f"first must be a seat number, not {_js(first)}")
    return {} if first is None else {"first": first}


def check_pause(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "paused")
    if not isinstance(body.get("paused"), bool):
        raise Refused(400, 'expected {"paused": true} (stop the turn clock) or '
                           '{"paused": false} (start it again)')
    return {"paused": body["paused"]}


def check_press(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "button")
    name = body.get("button")
    words = name.upper().split() if isinstance(name, str) else []
    hold = len(words) == 2 and words[0] == "HOLD"
    if hold:
        words = words[1:]
    if len(words) != 1 or words[0] not in BUTTONS:
        raise Refused(400, f"button must be one of {', '.join(BUTTONS)}, or HOLD and one of "
                      f"them (HOLD BACK, HOLD OK), not {_js(name)}")
    return {"button": words[0], "hold": hold}


def check_action(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "event")
    event = body.get("event")
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise Refused(400, "event must be an object with a \"type\", e.g. {\"type\": \"next\"}")
    return {"event": event}


def check_roster(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "names")
    return {"names": guard.check_names(body.get("names"))}


def check_resume(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "game", "replaces")
    return {"game": _game_id(body, "game", required=True),
            "replaces": _game_id(body, "replaces", required=False)}


def check_new_game(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "game", "players", "rules", "first", "replaces")
    game = body.get("game")
    if not isinstance(game, str):
        raise Refused(400, "game must be a game kind, e.g. \"penny-badger\" (see /api/kinds)")
    players = guard.check_names(body.get("players"), field="players", lo=1, hi=16)
    rules = body.get("rules", {})
    if not isinstance(rules, dict):
        raise Refused(400, "rules must be an object of house rules")
    first = body.get("first", 0)
    if isinstance(first, bool) or not isinstance(first, int):
        raise Refused(400, f"first must be a seat number, not {_js(first)}")
    return {"game": game, "players": players, "rules": rules, "first": first,
            "replaces": _game_id(body, "replaces", required=False)}


def _design_id(body: dict[str, Any], field: str, *, required: bool) -> int | None:
    value = body.get(field)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < 2**63:
        raise Refused(400, f"{field} must be a saved design's id (as in /api/designs), "
                      f"not {_js(value)}")
    return value


def check_design_body(body: dict[str, Any]) -> dict[str, Any]:
    """POST /api/design/check: {"design": {...}} (the design as JSON) or {"toml": "..."} (a
    design file's text), and "players" if the page has names for the preview's table; the
    design itself is checked by `load` (companion/web/designs.py). The body, its names tidied."""
    extra = sorted(set(body) - {"design", "toml", "players"})
    if extra or len(set(body) & {"design", "toml"}) != 1:
        raise Refused(400, "expected {\"design\": {...}} or {\"toml\": \"...\"}"
                      + (f", not the field {_js(extra[0])}" if extra else ""))
    out = dict(body)
    if "players" in body:
        out["players"] = guard.check_names(body["players"], field="players", hi=16)
    if "toml" in body:
        if not isinstance(body["toml"], str):
            raise Refused(400, "toml must be a design file's text")
        return out
    if not isinstance(body.get("design"), dict):
        raise Refused(400, "design must be an object: a design as docs/designing-a-game.md "
                           "has it")
    return out


def check_design_save(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "design", "replaces")
    check_design_body({"design": body.get("design")})
    return {"design": body["design"], "replaces": _design_id(body, "replaces", required=False)}


def check_design_picture(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "design", "players")
    return check_design_body({**body, "design": body.get("design")})


def check_design_delete(body: dict[str, Any]) -> dict[str, Any]:
    _only(body, "id")
    return {"id": _design_id(body, "id", required=True)}
