"""The table web's pages without a browser: served by the box alone, nothing that a player's
name or a pairing address can inject, and packaged with the wheel."""

from __future__ import annotations

import re
import tomllib
import urllib.request
from pathlib import Path

import pytest

import companion.web.pages as pages

HOSTILE = "</script><b>x"  # 13 printable characters: a legal player name


def get(c, path: str) -> tuple[int, dict, str]:
    with urllib.request.urlopen(c.url + path, timeout=5) as r:
        return r.status, dict(r.headers), r.read().decode()


@pytest.mark.parametrize("path", ["/", "/tv", "/control", "/J/123456"])
def test_pages_are_html_with_a_strict_policy(companion, path):
    c = companion("table", ["Ann", "Ben"])
    status, headers, html = get(c, path)
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"
    assert html.startswith("<!doctype html>")


def test_every_asset_is_served_by_the_box(companion):
    """No CDN, no web font, no address outside the box in any page or asset."""
    c = companion("pig-farm", ["Ann", "Ben"])
    seen: set[str] = set()
    for path in ("/", "/tv", "/control", "/J/123456"):
        html = get(c, path)[2]
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        for a in assets:
            assert not re.match(r"^(https?:)?//", a), (path, a)
        seen.update(a for a in assets if a.startswith("/static/"))
    assert seen >= {"/static/table.css", "/static/table.js", "/static/control.js",
                    "/static/pair.js"}
    for a in seen:
        status, _, body = get(c, a)
        assert status == 200 and not re.search(r"https?://", body), a
        assert "@import" not in body and "@font-face" not in body


def test_a_player_name_cannot_end_the_embedded_snapshot(companion):
    c = companion("table", [HOSTILE, "Ben"])
    html = get(c, "/")[2]
    assert HOSTILE not in html and "</script><b>" not in html
    embedded = re.search(r'<script id="initial" type="application/json">(.*?)</script>', html,
                         re.S).group(1)
    import json
    assert json.loads(embedded)["players"] == [HOSTILE, "Ben"]


@pytest.mark.parametrize("code, embedded", [
    ("482193", '"482193"'),
    # Not a code: what the link holds instead, for the page to say what is wrong with it,
    # but only a short run of letters and digits; anything else is not said back at all.
    ("12345", '{"wrong":"12345"}'), ("48219x", '{"wrong":"48219x"}'),
    ("%3Cscript%3E", '{"wrong":""}'), ("1" * 17, '{"wrong":""}')])
def test_pairing_landing_passes_on_six_digits_only(companion, code, embedded):
    c = companion()
    html = get(c, f"/J/{code}")[2]
    data = re.search(r'<script id="pair-data" type="application/json">(.*?)</script>',
                     html).group(1)
    assert data == embedded


def test_templates_and_static_files_are_package_data():
    here = Path(pages.__file__).parent
    data = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["companion.web"]
    shipped = {p.relative_to(here).as_posix() for pat in patterns for p in here.glob(pat)}
    used = {f"templates/{p.name}" for p in (here / "templates").glob("*.html")} | \
        {f"static/{p.name}" for p in (here / "static").iterdir()}
    assert used <= shipped


@pytest.mark.parametrize(("path", "here"), [("/", "/"), ("/control", "/control"), ("/design", "/design"),
                                            ("/games", "/games"), ("/stats", "/stats")])
def test_every_page_has_the_same_menu(companion, path, here):
    """One menu on every page with a header: /control had no Design link, /design no TV, /games
    no Control (a new user's findings, issue 37). The page's own link is the one marked."""
    c = companion("table", ["Ann", "Ben"])
    html = get(c, path)[2]
    nav = re.search(r"<nav>(.*?)</nav>", html, re.S)
    assert nav is not None
    links = re.findall(r'<a href="([^"]+)"( aria-current="page")?>([^<]+)</a>', nav.group(1))
    assert [(h, n) for h, _, n in links] == [("/", "Live"), ("/control", "Control"), ("/tv", "TV"),
                                             ("/design", "Design"), ("/games", "Games"),
                                             ("/stats", "Stats")]
    assert [h for h, current, _ in links if current] == [here]
