"""The table web's pages: the live page, the TV page, the phone controls and pairing landing.

The pages are thin HTML shells; `static/table.js` renders the snapshot (the one embedded in the
page for the first paint, then every one the event stream brings) and `static/control.js` adds
the controls of a paired phone. Everything is served by the box: no CDN, no web fonts.

`/` and `/control` are the same page: `/` shows the game and, once the phone is paired, the
controls below it; `/control` also offers the pairing code form to a phone that is not paired.
`/tv` is the game alone in huge text. `/J/{code}` (the QR code's target) pairs and leaves.
`/design` is the "Design a game" page (`static/design.js`, docs/web.md "Designing a game on a
phone"): its script may also fetch a design's link from another box (its `connect-src`).
`/tv-preview` is `/tv` without its stream, framed by `/design` alone (`frame-ancestors
'self'`), which posts it the snapshot of the game it designs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CODE = re.compile(r"[0-9]{6}")
SHORT_WORD = re.compile(r"[0-9A-Za-z]{1,16}")  # what a wrong pairing link may be said to hold


def _json_for_script(value: Any) -> str:
    """JSON that is safe inside <script>: no "</script>" or "<!--" can end the element."""
    return (json.dumps(value, separators=(",", ":"), ensure_ascii=False)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def routes(web) -> list:
    """Routes for the server (companion/web/server.py mounts them after the API)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from starlette.responses import HTMLResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]), auto_reload=False)
    headers = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
               "Referrer-Policy": "no-referrer",
               "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                          "style-src 'self'; script-src 'self'; "
                                          "frame-ancestors 'none'; base-uri 'none'; "
                                          "form-action 'self'"}

    def page(name: str, *, extra_headers: dict[str, str] | None = None,
             **context: Any) -> HTMLResponse:
        html = env.get_template(name).render(**context)
        return HTMLResponse(html, headers={**headers, **(extra_headers or {})})

    def live(mode: str, heading: str):
        async def endpoint(request):
            # With the box's time now (a snapshot may be minutes old: its turn clock is
            # counted on from then, docs/web.md).
            snap = {**web.initial_snapshot(), "now": round(web.wall(), 3)}
            return page("live.html", mode=mode, heading=heading,
                        snapshot_json=_json_for_script(snap))
        return endpoint

    async def pair_landing(request):
        code = request.path_params["code"]
        # Six digits are passed on to the script to pair with. A short run of letters and
        # digits is passed on as what the link holds instead, for the page to say what is
        # wrong with it ("The code is 6 digits; this one has 5"); anything else, nothing.
        if CODE.fullmatch(code):
            data: object = code
        else:
            data = {"wrong": code if SHORT_WORD.fullmatch(code) else ""}
        return page("pair.html", code_json=_json_for_script(data))

    # Import from a link: the phone itself fetches another box's /api/designs/<id>.json (the
    # box never fetches a URL it is given), so this page may connect to other plain-http boxes.
    design_csp = {"Content-Security-Policy": headers["Content-Security-Policy"].replace(
        "default-src 'self';", "default-src 'self'; connect-src 'self' http: https:;")}

    async def design(request):
        return page("design.html", extra_headers=design_csp)

    # /design's TV preview: /tv's page drawn by /tv's renderer with no event stream, only
    # the snapshot /design posts it (static/tvpreview.js), framed by the box's own pages only.
    still_csp = {"Content-Security-Policy": headers["Content-Security-Policy"].replace(
        "frame-ancestors 'none'", "frame-ancestors 'self'")}

    async def tv_preview(request):
        return page("live.html", mode="tv", heading="TV preview", preview=True,
                    snapshot_json="null", extra_headers=still_csp)

    return [
        Route("/", live("live", "Live")),
        Route("/design", design),
        Route("/tv", live("tv", "TV")),
        Route("/tv-preview", tv_preview),
        Route("/control", live("control", "Control")),
        Route("/J/{code}", pair_landing),
        Route("/j/{code}", pair_landing),
        Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
    ]
