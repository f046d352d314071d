"""The group's own designs, kept in the journal (docs/designing-a-game.md, "How the box keeps
a design"): table `designs` (companion/session/schema.py, made by the first save), one row per
version of each design, its canonical JSON under a checksum of the whole row.

`save` keeps a new design, or a new version of one (an edit never changes a version a game
was played with: each version is its own kind, `design:<hash>`, and every game carries its
design in its header anyway); `listed` is what New game offers (the newest version of each
design not deleted); `hide` is Delete (New game stops offering it; nothing is removed). A row
whose checksum does not match, or whose design no longer loads, is left out and logged.
Writes go through the store's transaction (one writer: the app thread). After each write
the registry is told which designs New game offers (`games.offer_designs`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import struct
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from companion import games
from companion.errors import CompanionError, DesignError
from companion.rules.game import Header
from companion.session.schema import DESIGNS
from companion.session.tx import Transaction

if TYPE_CHECKING:
    # The format (and its schema validator) is imported only once a design is read: a box
    # whose journal keeps none starts without it.
    from companion.rules.design import Design

log = logging.getLogger(__name__)


class DesignStore(Protocol):
    """What the designs need of the journal's Store: its connection, its clock and its one
    write transaction."""

    db: sqlite3.Connection

    def clock(self) -> float: ...

    def transaction(self) -> Transaction: ...


@dataclass(frozen=True)
class SavedDesign:
    """One version of a kept design. `kind` is its kind name (`design:<hash>`)."""

    id: int
    version: int
    design: Design
    kind: str
    hidden: bool
    created: float
    # True when `save` kept nothing: the design was this kept one already (the same content,
    # whatever its version said), so its kind is the same kind (docs/designing-a-game.md).
    unchanged: bool = False


def row_checksum(id: int, version: int, text: str, hidden: bool, created: float) -> bytes:
    """SHA-256 of a row's fields, typed and length-prefixed (as session/checksum.py hashes
    the games and their rows): a hand edit or a flipped bit shows."""
    fields = (b"i" + str(id).encode(), b"i" + str(version).encode(),
              b"s" + text.encode("utf-8", "surrogatepass"), b"n" + repr(bool(hidden)).encode(),
              b"f" + struct.pack(">d", float(created)))
    return hashlib.sha256(b"chroma-journal/design\0" + b"".join(
        f[:1] + struct.pack(">I", len(f) - 1) + f[1:] for f in fields)).digest()


def _saved(row: tuple[Any, ...]) -> SavedDesign | None:
    id, version, text, checksum, hidden, created = row
    if bytes(checksum) != row_checksum(id, version, text, bool(hidden), created):
        log.error("design %s version %s: its checksum does not match: left out", id, version)
        return None
    from companion.rules.design import load
    try:
        design = load(json.loads(text))
    except (DesignError, ValueError) as e:
        log.error("design %s version %s does not load (%s): left out", id, version, e)
        return None
    return SavedDesign(id, version, design, games.design_name(design.to_json()),
                       bool(hidden), created)


def _rows(store: DesignStore, where: str = "", args: tuple[Any, ...] = ()) -> list[tuple]:
    try:
        return store.db.execute("SELECT id, version, design, checksum, hidden, created FROM "
                                f"designs {where} ORDER BY id, version", args).fetchall()
    except sqlite3.OperationalError as e:
        if "no such table" in str(e):
            return []  # a journal that never kept a design
        raise


def reserved(title: str) -> str | None:
    """The installed kind (not a design) whose title or name `title` is, in any case."""
    wanted = title.casefold()
    for name, k in games.kinds().items():
        if not games.is_design(name) and wanted in (name.casefold(), k.title.casefold()):
            return k.title
    return None


def content(canonical: dict[str, Any]) -> dict[str, Any]:
    """A design's canonical JSON without its version: what two saves of the same design
    share (the version is the box's count of edits, not part of the game)."""
    return {k: v for k, v in canonical.items() if k != "version"}


def save(store: DesignStore, design: Design, *, replaces: int | None = None) -> SavedDesign:
    """Keep `design`: a new design (a new id), or the next version of the design `replaces`.
    Its `version` is set to the version kept. A design whose content (`content`) is the
    newest version of a listed design already is that design: nothing is kept, and that
    version is returned with `unchanged` (a second Save, a draft saved again after a reload:
    never a second row). Refused (DesignError) when its title is a built-in kind's title or
    name, or another listed design's (a new version is the way to change a design: Edit),
    or `replaces` is no kept design. Registers its kind and tells New game."""
    taken = reserved(design.title)
    if taken is not None:
        raise DesignError("title", f"title: {design.title!r} is the name of a game the box "
                                   f"has ({taken}): choose another")
    wanted = content(design.to_json())
    kept_designs = listed(store)
    # An Edit that keeps its design's title is never refused for it, even where an older
    # journal lists two designs of one title (kept before titles were told apart).
    own_title = next((k.design.title.casefold() for k in kept_designs if k.id == replaces), None)
    for kept in kept_designs:
        if content(kept.design.to_json()) == wanted:
            return replace(kept, unchanged=True)
        if kept.id != replaces and kept.design.title.casefold() == design.title.casefold() \
                and design.title.casefold() != own_title:
            raise DesignError("title", f"title: {design.title!r} is already one of your "
                                       "designs: choose another title, or Edit that one to "
                                       "keep a new version of it")
    with store.transaction() as db:
        db.execute(DESIGNS)
        if replaces is None:
            id = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM designs").fetchone()[0]
            version = 1
        else:
            last = db.execute("SELECT MAX(version) FROM designs WHERE id=?",
                              (replaces,)).fetchone()[0]
            if last is None:
                raise DesignError("", f"there is no design {replaces} to make a new version of")
            id, version = replaces, last + 1
        design = replace(design, version=version)
        canonical = design.to_json()
        text = games.canonical_text(canonical)
        created = float(store.clock())
        db.execute("INSERT INTO designs(id, version, design, checksum, hidden, created) "
                   "VALUES (?, ?, ?, ?, 0, ?)",
                   (id, version, text, row_checksum(id, version, text, False, created), created))
    saved = SavedDesign(id, version, design, games.design_name(canonical), False, created)
    games.design_kind(canonical)
    offer(store)
    return saved


def listed(store: DesignStore) -> list[SavedDesign]:
    """The newest version of each design not deleted (hidden), by id: what New game offers."""
    newest: dict[int, tuple] = {}
    for row in _rows(store):
        newest[row[0]] = row  # ordered by version: the last one is the newest
    out = []
    for row in newest.values():
        saved = _saved(row)
        if saved is not None and not saved.hidden:
            out.append(saved)
    return out


def get(store: DesignStore, id: int, version: int | None = None) -> SavedDesign | None:
    """Design `id` at `version` (the newest when None), hidden or not; None when there is no
    such design, or its row does not check."""
    rows = _rows(store, "WHERE id=?", (id,))
    if version is not None:
        rows = [r for r in rows if r[1] == version]
    return _saved(rows[-1]) if rows else None


def hide(store: DesignStore, id: int) -> None:
    """Delete design `id` from New game: every version is kept (hidden), so games played
    with it replay as before (their headers carry their design anyway)."""
    rows = _rows(store, "WHERE id=?", (id,))
    if rows:
        with store.transaction() as db:
            for rid, version, text, _, _, created in rows:
                db.execute("UPDATE designs SET hidden=1, checksum=? WHERE id=? AND version=?",
                           (row_checksum(rid, version, text, True, created), rid, version))
    offer(store)


def offer(store: DesignStore) -> list[SavedDesign]:
    """Register the listed designs and tell the registry New game offers them (start-up,
    and after every change here), and register the designs the journal's games were played
    with (`played`). Returns the listed ones."""
    played(store)
    out = listed(store)
    if not out and not games.offered_designs():
        return out  # nothing kept: nothing imported
    games.offer_designs([games.design_kind(s.design.to_json()).kind for s in out])
    return out


def played(store: DesignStore) -> int:
    """Register the design of every design version a game of the journal was played with
    (one header each, from the games' own headers), so that the history, /games and /stats
    name it by its title even when it was since edited, deleted or never saved on this box.
    A header that does not hold its design is left out (logged). Returns how many."""
    kinds: dict[str, str] = {}
    try:
        rows = store.db.execute(
            "SELECT json_extract(header, '$.game'), header FROM games "
            # The text test first: it passes over the other kinds' headers without parsing
            # them (5,000 games: 0.6 ms, not 1.9; this runs at every start).
            "WHERE header LIKE '%design:%' AND json_valid(header) "
            "AND json_extract(header, '$.game') LIKE 'design:%'")
        for kind, text in rows:
            kinds.setdefault(kind, text)
    except sqlite3.Error as e:  # a journal the doctor should look at: nothing registered
        log.warning("designs played: %s", e)
        return 0
    n = 0
    for kind, text in kinds.items():
        try:
            h = json.loads(text)
            games.for_header(Header(kind, tuple(h.get("players") or ()), int(h.get("first", 0)),
                                    h.get("rules") or {}))
            n += 1
        except (CompanionError, ValueError, TypeError) as e:
            log.warning("the design of %s is not registered: %s", kind, e)
    return n


def first_seat(store: DesignStore, header: Header) -> Header:
    """A New game's header with its first seat as its design says: for a design whose first
    player is "the next seat each game", the seat after the first of the group's last game of
    that design (any version: `games.design_group`); any other header as it is."""
    if not games.is_design(header.game):
        return header
    from companion.rules.design import DesignGame
    game = games.for_header(header).rules
    if not isinstance(game, DesignGame) or game.design.first != "next_seat":
        return header
    group = games.design_group(header.game)
    previous = None
    for (text,) in store.db.execute("SELECT CAST(header AS BLOB) FROM games ORDER BY id DESC"):
        try:
            h = json.loads(text)
            kind = h.get("game")
        except (ValueError, AttributeError):
            continue
        if isinstance(kind, str) and games.is_design(kind) and (
                kind == header.game or (games.find(kind) is not None
                                        and games.design_group(kind) == group)):
            previous = h.get("first") if isinstance(h.get("first"), int) else None
            break
    return replace(header, first=game.first_seat(len(header.players), previous))
