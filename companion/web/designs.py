"""What the "Design a game" page (/design) and /tv ask of the web that changes nothing: a
design checked and previewed (POST /api/design/check), a design's link as a QR code, and the
design of a registered design kind (the open game's, which /tv shares).

`check` loads a design as the box would keep it (`companion.rules.design.load`: the JSON
Schema, then the checks no schema can say) and, when the box would take it, shows how its
game starts: the table of tallies for a few sample players and the pot
(`DesignGame(design).initial`), and /tv's snapshot of that new game (`tv_snapshot`: the
snapshot the live one is, made by the same code, which the page's TV preview draws with
/tv's own renderer). It runs on the web thread: loading a design and folding a fresh game are
pure, and nothing is kept or registered (`games.previewing`), so a guest may use it too: the
box makes data, the phone draws it. Saving goes through the app thread
(companion/app/changes.py, "design-save"), and so does the picture of the panel's first
screen of a design game (a paired phone's, "design-picture": the app thread alone draws).
"""

from __future__ import annotations

import io
import re
import tomllib
from typing import Any, Sequence

from companion import games
from companion.errors import DesignError
from companion.rules.design import Design, DesignGame, load
from companion.rules.game import Header
from companion.session.designs import reserved
from companion.session.journal import Journal
from companion.web import guard, snapshot

SAMPLE_PLAYERS = ("Ann", "Ben", "Cy", "Dee")  # the preview's table: 4 players, as the brief's
MAX_BODY = guard.DESIGN_BODY  # bytes: the largest design (12 moves of 6 effects) is ~7 KiB
FIRST_WORDS = {"picked": "the group picks who goes first",
               "roll_off": "the highest 8-sided roll goes first (ties roll again)",
               "next_seat": "the next seat goes first each game"}


def refusal(e: DesignError) -> dict[str, Any]:
    """A refused design as the page shows it: the words beside the field they name."""
    return {"ok": False, "error": e.words, "field": e.field}


def from_toml(text: str) -> dict[str, Any]:
    """A design file in TOML (examples/designs/*.toml) as the JSON `load` takes; a
    DesignError when it is no TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DesignError("", f"the file is not a design (TOML: {e})") from None


def checked(design_json: Any) -> Design:
    """`load`, and a title the box's own games have refused as `designs.save` refuses it
    (so the page says so before Save)."""
    design = load(design_json)
    taken = reserved(design.title)
    if taken is not None:
        raise DesignError("title", f"title: {design.title!r} is the name of a game the box "
                                   f"has ({taken}): choose another")
    return design


def sample_players(design: Design, names: Sequence[str] = ()) -> list[str]:
    """The preview's players: 4, or the design's fewest or most; named `names` (the phone's:
    the box's roster), then SAMPLE_PLAYERS not taken, then "Player 5"..."""
    n = max(design.min_players, min(len(SAMPLE_PLAYERS), design.max_players))
    taken = {name.casefold() for name in names}
    more = [name for name in SAMPLE_PLAYERS if name.casefold() not in taken]
    out = [*names, *more][:n]
    return out + [f"Player {i + 1}" for i in range(len(out), n)]


def preview(design: Design, names: Sequence[str] = ()) -> dict[str, Any]:
    """How a game of `design` starts, for the page: its kind name, its canonical JSON (what
    Save keeps), and the table of tallies and the pot for up to 4 players (`sample_players`
    named by `names`), and /tv's snapshot of it."""
    players = sample_players(design, names)
    game = DesignGame(design)
    state = game.initial(Header(game.kind, tuple(players), 0, {}))
    canonical = design.to_json()
    return {"ok": True, "kind": games.design_name(canonical), "design": canonical,
            "title": design.title, "color": design.color, "players": players,
            "tallies": [{"name": t.name, "values": list(values), "money": t.money}
                        for t, values in zip(design.tallies, state.tallies)],
            "pot": state.pot, "moves": [m.name for m in design.moves],
            "first": FIRST_WORDS.get(design.first, design.first),
            "tv": tv_snapshot(design, players)}


def tv_snapshot(design: Design, players: list[str]) -> dict[str, Any]:
    """The snapshot /tv would be sent as a new game of `design` for `players` starts:
    `snapshot.build` of a fresh journal (the design's web part draws its view), with no
    picture of the box (`frame`: the box's screen now is another game's; the page puts in
    the design's own when it has it). The design's kind is only previewed, never
    registered (`games.previewing`): it is dropped once the snapshot is made."""
    with games.previewing(design.to_json()) as kind:
        journal = Journal(Header(kind.kind, tuple(players), 0, {}))
        snap = snapshot.build(journal, seq=0)
    return {**snap, "frame": None}


def check(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST /api/design/check's answer to `body` ({"design": {...}} or {"toml": "..."}, and
    "players": the names checked by api.check_design_body): 200 and the preview, or 422 and
    the refusal (words and field)."""
    try:
        design_json = from_toml(body["toml"]) if "toml" in body else body.get("design")
        return 200, preview(checked(design_json), body.get("players", ()))
    except DesignError as e:
        return 422, refusal(e)


def of_kind(kind: str) -> Design | None:
    """The design of a registered design kind (`design:<hash>`: the open game's, whose
    header carried it, or one New game offers), for /tv's Share; None for a built-in kind
    or a design this box does not know."""
    if not games.is_design(kind):
        return None
    k = games.find(kind)
    design = getattr(k.rules, "design", None) if k is not None else None
    return design if isinstance(design, Design) else None


def file_name(title: str) -> str:
    """A design file's name from its title: "Pairs to 6" -> "pairs-to-6"."""
    return re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-").lower() or "design"


def qr_png(text: str) -> bytes:
    """A QR code of `text` (a design's link) as a PNG: dark on light, a quiet zone, large
    enough to scan from a phone's screen."""
    import segno
    buf = io.BytesIO()
    segno.make_qr(text, error="m").save(buf, kind="png", scale=6, border=4)
    return buf.getvalue()
