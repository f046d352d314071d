"""The game kinds: each one a package that declares a `GameKind`, found through the entry
point group `chroma_companion.games`.

The nine built-in kinds (companion/games/<kind>/) register the same way as a group's own
house game installed beside the companion (docs/adding-a-game.md): an
entry in their distribution's metadata names the package's `KIND`. Nothing else in the code
names a kind: the panel's New game, the web's forms and views, the statistics and the
screenshots all ask this registry.

Loading is lazy and done once: the first call reads the entry points and imports each kind's
package (its rules; its panel screens only when `GameKind.mode` is first asked for, its
screenshots only when `companion screens` asks for `GameKind.gallery`).

A built-in kind's entry point is always `companion.games.<name, "-" as "_">:KIND`
(tests/test_modes.py holds every one to it), so `get` of a built-in kind imports
that package directly: resuming a game at start-up reads no distribution's metadata
(importlib.metadata and the email and zipfile modules it needs cost about 20 ms of CPU here,
a fifth of a second on a Pi Zero 2 W). A built-in name always wins over a house game's
entry point of the same name (see `load`), so the shortcut finds what the entry points would.

The config's house rules (`[rules.<kind>]`) are checked here, by their kinds' engines
(`house_rules`): companion/config.py, read by every layer, is handed that check by whoever
loads it (`load_config`, `check_config`; the CLI's own loader reads this registry only for a
config that has house rules).

A group's own designs (docs/designing-a-game.md, "How the box keeps a design") are kinds too,
named `design:<hash>` (`design_name`: each version of a design is its own kind). One generic
kind package builds the GameKind of a design (`kind_for`, found through the entry point group
`chroma_companion.designs`); `design_kind` registers one, `for_header` registers the design a
game's header carries (a game from another box, or from a deleted or edited design, replays
exactly), and `offer_designs` says which of them New game lists (`kinds()`): the newest
version of each design the journal keeps (companion/session/designs.py). A design only
previewed (/design: its panel's picture, its TV snapshot) is not registered: `previewing`
makes it findable while the preview is made, and drops it with the last use.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence

from companion import config as configmod
from companion.config import Config
from companion.errors import ConfigError, DesignError, IllegalEvent, KindBroken
from companion.rules.game import Event, Game, Header

if TYPE_CHECKING:
    import random

log = logging.getLogger(__name__)

GROUP = "chroma_companion.games"
DESIGN_GROUP = "chroma_companion.designs"  # the one entry point "design": kind_for(design json)
DESIGN_ENTRY = "companion.games.design:kind_for"  # the built-in one (tests/test_modes.py)
DESIGN_PREFIX = "design:"

# A random but legal next event for sample journals (statistics benchmark, history
# screenshots): (rng, number of seats, state) -> event.
SampleMove = Callable[["random.Random", int, Any], Event]

# A kind's panel screenshots for docs/screens (companion/gallery/screens.py), given the
# config: each one's name, a sample game (its Journal) and the screens shown over it, the top
# one drawn. companion/ui/modes.py's `Shot` names those types; the registry, below the
# session and the screens, only hands them on.
Gallery = Callable[[Config], Iterable[tuple[str, Any, list[Any]]]]


class Panel(Protocol):
    """What the registry asks of a kind's panel screens (its `Mode`, companion/ui/modes.py):
    which kind they are for. The registry sits below the screens: it builds a kind's panel
    once and hands it on as it is (`GameKind.mode`, `mode_for`)."""

    kind: str


class Part:
    """A part of a kind named by its dotted path, as an entry point names its object:
    `Part("companion.games.chaos.panel:ChaosMode")`. Nothing is imported until the part is
    first used: calling the Part imports the module and calls what it names with the
    arguments (a panel's class, a gallery's function); `load()` returns what it names (a web
    part's `KindWeb`). So a kind's package declares its panel, screenshots and web part in
    one line each, and start-up, which draws the first frame before anything else, reads
    none of them until it needs them."""

    __slots__ = ("path", "_target")

    def __init__(self, path: str) -> None:
        module, _, attr = path.partition(":")
        if not module or not attr or not all(p.isidentifier() for p in
                                             module.split(".") + attr.split(".")):
            raise KindBroken(f"{path!r} is not a dotted path like \"package.module:name\"")
        self.path = path
        self._target: Any = None

    def load(self) -> Any:
        """What the path names, imported on the first call."""
        if self._target is None:
            module, _, attr = self.path.partition(":")
            target: Any = import_module(module)
            for name in attr.split("."):
                try:
                    target = getattr(target, name)
                except AttributeError:
                    raise KindBroken(f"{self.path}: {module} has no {attr}") from None
            self._target = target
        return self._target

    def __call__(self, *args: Any) -> Any:
        return self.load()(*args)

    def __repr__(self) -> str:
        return f"Part({self.path!r})"


@dataclass(frozen=True)
class Scoring:
    """A kind's main score per seat (`name`, higher or lower is better) and its extras, for
    the statistics (companion/session/stats.py): each extra is a per-seat figure whose best
    over a player's games is reported (highest)."""

    name: str
    score: Callable[[Any], Sequence[int] | None]  # final state -> per seat; None: not scored
    lowest: bool = False
    extras: dict[str, Callable[[Any], Sequence[int | None]]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # an extra's column head on /stats

    def label(self, extra: str) -> str:
        """The words for an extra's column (its declared label, else its name in words)."""
        return self.labels.get(extra, extra.replace("_", " "))


@dataclass(frozen=True)
class Demo:
    """A realistic game in progress, for the web's screenshots: every event legal."""

    players: tuple[str, ...]
    events: tuple[Event, ...]
    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameKind:
    """Everything the companion knows of one game kind, declared by its package.

    `rules` is the pure engine; `panel` builds the screen mode (a `Part` naming the Mode
    class, or a function: imported on first use, so that start-up reads no screens it does
    not show); `scoring` what the statistics count
    (None: the kind is not scored); `sample` a random legal move for sample games; `demo` the
    game the web screenshots show; `gallery` the panel screenshots `companion screens` draws
    (its own module, imported only when called, like `panel`); `web` the declared action
    forms and game view (companion/web/kinds.py reads it); `order` places it in New game
    (built-ins 10-90, a house game after them unless it says otherwise); `color` ("#rrggbb")
    is the kind's colour wherever a kind has one (the charts of /stats and their legend);
    without one, `color()` derives one from the kind's name alone.
    """

    rules: Game[Any]  # each kind is generic over its own state
    panel: Part | Callable[[], Panel]
    scoring: Scoring | None = None
    sample: SampleMove | None = None
    demo: Demo | None = None
    gallery: Part | Gallery | None = None
    web: Any = None
    order: int = 100
    color: str | None = None

    @property
    def kind(self) -> str:
        return self.rules.kind

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def mode(self) -> Any:
        """The kind's panel screens: its `Mode` (companion/ui/modes.py), built on first use."""
        return _mode(self)


_KINDS: dict[str, GameKind] | None = None
_MODES: dict[int, Panel] = {}  # by id(GameKind): each declaration's panel, built once


def _mode(k: GameKind) -> Any:
    mode = _MODES.get(id(k))
    if mode is None:
        mode = k.panel()
        if mode.kind != k.kind:
            raise KindBroken(f"game kind {k.kind!r}: its panel is for {mode.kind!r}")
        # A design only previewed (`previewing`) is dropped once unused: its panel is not
        # kept (nor could its id be: another kind may be given it then).
        if not is_design(k.kind) or _DESIGNS.get(k.kind) is k:
            _MODES[id(k)] = mode
    return mode


_FAILED: dict[str, str] = {}  # house kinds that could not be loaded: name -> why (logged once)
_SOURCES: dict[str, str] = {}  # each loaded kind's declaring module (`source`)


def _builtin(ep: Any) -> bool:
    return str(ep.value).startswith("companion.games.")


def entry_points() -> list[Any]:
    """The installed entry points of the group (importlib.metadata is imported here, on the
    first call that needs more than one built-in kind)."""
    from importlib.metadata import entry_points as installed

    return list(installed(group=GROUP))


def builtin_entry(kind: str) -> str:
    """Where a built-in kind named `kind` is declared: its entry point's value."""
    return f"{__name__}.{kind.replace('-', '_')}:KIND"


def _import_builtin(kind: str) -> GameKind | None:
    """The built-in kind `kind`, imported without reading the entry points; None when the
    companion has no such package (then the entry points are asked)."""
    module = builtin_entry(kind).partition(":")[0]
    if not kind.replace("-", "_").isidentifier() or find_spec(module) is None \
            or module == DESIGN_ENTRY.partition(":")[0]:  # the designs' package: no kind
        return None
    k = getattr(import_module(module), "KIND", None)
    if not isinstance(k, GameKind) or k.kind != kind:
        raise KindBroken(f"{module} does not declare a GameKind named {kind!r}")
    _SOURCES[kind] = module
    return k


def _checked(ep: Any) -> GameKind | None:
    """The GameKind an entry point names, checked. A house game that fails to import, or
    that declares something other than a GameKind of its own name, is logged once by name and
    left out: the other kinds still load, and the box still starts. A built-in kind's failure
    is a bug of the companion, and raises."""
    if ep.name in _FAILED:
        return None
    try:
        k = ep.load()
        if not isinstance(k, GameKind):
            raise KindBroken(f"entry point {ep.name} = {ep.value} is not a GameKind")
        if k.kind != ep.name:
            raise KindBroken(f"entry point {ep.name} = {ep.value} declares kind {k.kind!r}")
    except Exception as e:
        if _builtin(ep):
            raise
        _FAILED[ep.name] = str(e) or type(e).__name__
        log.error("game kind %s (%s) could not be loaded: %s", ep.name, ep.value, e)
        return None
    _SOURCES[k.kind] = str(ep.value).partition(":")[0].strip()
    return k


def load(found: Sequence[Any] | None = None) -> dict[str, GameKind]:
    """The game kinds from the entry points (or from `found`, for tests), in New game order.
    A name installed twice keeps its built-in kind, else its first entry point; the other is
    logged and left out."""
    eps = entry_points() if found is None else list(found)
    eps.sort(key=lambda ep: not _builtin(ep))  # stable: a built-in first, then in order
    out: dict[str, GameKind] = {}
    seen: dict[str, Any] = {}
    for ep in eps:
        if ep.name in seen:
            log.error("game kind %s is installed twice (%s and %s): the second is left out",
                      ep.name, seen[ep.name].value, ep.value)
            continue
        seen[ep.name] = ep
        k = _ONE.get(ep.name) if found is None else None
        k = k or _checked(ep)
        if k is not None:
            out[k.kind] = k
    if not out:
        raise KindBroken("no game kinds found: the companion is not installed "
                         "(pip install -e . or make run)")
    return dict(sorted(out.items(), key=lambda kv: (kv[1].order, kv[0])))


_ONE: dict[str, GameKind] = {}  # kinds loaded one by one, before (or without) all of them


def kinds() -> dict[str, GameKind]:
    """Every installed game kind by name, in New game order (all of them are imported),
    with the designs New game offers (`offer_designs`) after the built-in kinds."""
    global _KINDS
    if _KINDS is None:
        _KINDS = load()
    if not _OFFERED:
        return _KINDS
    both = {**_KINDS, **{name: _DESIGNS[name] for name in _OFFERED}}
    return dict(sorted(both.items(), key=lambda kv: (kv[1].order, kv[1].title.casefold()
                                                     if kv[0] in _OFFERED else "", kv[0])))


def get(kind: str) -> GameKind:
    """The kind named `kind`; an unknown name is an illegal event that lists the known.
    Until every kind is asked for (`kinds()`), only this one is imported: resuming a game at
    start-up reads its own rules and screens, not the other kinds'. A design's kind is found
    once registered (`design_kind`, `for_header`), or while it is previewed (`previewing`)."""
    if kind.startswith(DESIGN_PREFIX):
        k = _DESIGNS.get(kind) or _PREVIEWS.get(kind)
    elif _KINDS is not None:
        k = _KINDS.get(kind)
    else:
        k = _ONE.get(kind) or _import_builtin(kind)
        if k is not None:
            _ONE[kind] = k
        else:
            eps = sorted((ep for ep in entry_points() if ep.name == kind),
                         key=lambda ep: not _builtin(ep))
            k = _checked(eps[0]) if eps else None
            if k is not None:
                _ONE[kind] = k
    if k is None:
        if kind in _FAILED:
            raise IllegalEvent(f"game kind {kind!r} is installed but could not be loaded "
                               f"({_FAILED[kind]}; the log says more)")
        raise IllegalEvent(f"unknown game {kind!r} (known: {', '.join(kinds())})")
    return k


def names() -> list[str]:
    """The installed kinds' names, read from the entry points without importing a kind."""
    return list(dict.fromkeys(ep.name for ep in entry_points()))


def source(kind: str) -> str | None:
    """The module that declares `kind` (its entry point's module: "companion.games.chaos",
    a house game's own "house_dice"), once the kind is loaded; None for one that was not loaded
    through the registry (a test's)."""
    return _SOURCES.get(kind)


def find(kind: str) -> GameKind | None:
    """The kind named `kind`, or None when it is not installed (an old game in the journal);
    like `get`, it imports that kind only."""
    try:
        return get(kind)
    except IllegalEvent:
        return None


def game(kind: str) -> Game[Any]:
    """The rules engine of `kind`."""
    return get(kind).rules


def games() -> dict[str, Game[Any]]:
    """Every rules engine by kind, in New game order."""
    return {k: v.rules for k, v in kinds().items()}


def mode_for(kind: str) -> Any:
    """The screens of `kind` (its `Mode`, companion/ui/modes.py). No silent stand-in: an
    unknown kind would run with the wrong screens and menu."""
    k = find(kind)
    if k is None:
        raise KindBroken(f"game kind {kind!r} is not installed, so it has no screens "
                         f"(known: {', '.join(kinds())})")
    return k.mode


def builtin(k: GameKind) -> bool:
    """Whether `k` ships with the companion (its rules are the companion's own code; not a
    group's design, which the companion's one engine plays)."""
    return type(k.rules).__module__.startswith("companion.") and not is_design(k.kind)


def panel_problem(kind: str) -> str:
    """"" when `kind`'s panel screens load; else why not, in one line (logged with its
    traceback). A house game whose screens fail to import must not take the box down: its
    game is not started, or not resumed, and the panel says why."""
    k = find(kind)
    known = _PANEL_PROBLEMS.get(kind)
    if known is not None and known[0] is k:  # asked again (/api/kinds): tried and logged once
        return known[1]
    try:
        mode_for(kind)
        problem = ""
    except Exception as e:
        log.exception("game kind %s: its screens could not be loaded", kind)
        problem = f"{title(kind)}: its screens could not be loaded ({e})"
    _PANEL_PROBLEMS[kind] = (k, problem)
    return problem


# By kind: its declaration (kept, so that a new declaration of the name is tried afresh) and
# the answer.
_PANEL_PROBLEMS: dict[str, tuple[GameKind | None, str]] = {}


def title(kind: str) -> str:
    """The kind's title, or its name when it is not installed (an old game in the history)."""
    k = find(kind)
    return k.title if k else kind


def color(kind: str) -> str:
    """The kind's colour ("#rrggbb"): the one its GameKind declares, else one derived from its
    name alone (a house game that declares none, or a kind no longer installed). Never from
    the kinds installed beside it or their order: a kind keeps its colour in every chart,
    whatever other kinds the group plays (Penny Badger went from yellow to green when a
    kind was added)."""
    k = find(kind)
    declared = k.color if k is not None else None
    if declared is not None and _HEX.fullmatch(declared):
        return declared.lower()
    import colorsys
    import hashlib
    hue = int.from_bytes(hashlib.sha256(kind.encode()).digest()[:2], "big") / 65536
    r, g, b = colorsys.hls_to_rgb(hue, 0.62, 0.75)  # bright enough on the pages' dark panels
    return "#" + "".join(f"{round(v * 255):02x}" for v in (r, g, b))


_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def scoring(kind: str) -> Scoring | None:
    """What the statistics count for `kind` (None: not scored, or not installed)."""
    k = find(kind)
    return k.scoring if k else None


# --- the config's house rules ---------------------------------------------------------------

def house_rules(tables: dict[str, Any]) -> dict[str, Any]:
    """The config's [rules] tables (kind -> its house rules), each checked by its kind's
    engine (`Game.check_rules`); what `companion.config` is handed to check them. Only the
    kinds named are imported. Raises ConfigError naming the table."""
    out = {}
    for kind, rules in tables.items():
        if kind not in names():  # only the kinds named here are imported
            raise ConfigError(f"rules.{kind}", f"unknown game (known: {', '.join(kinds())})")
        if not isinstance(rules, dict):
            raise ConfigError(f"rules.{kind}", "must be a table, e.g. [rules." + kind + "]")
        try:
            out[kind] = game(kind).check_rules(rules)
        except IllegalEvent as e:
            raise ConfigError(f"rules.{kind}", str(e)) from None
    return out


def check_config(raw: dict[str, Any]) -> dict[str, Any]:
    """`companion.config.check` with the house rules checked by their kinds."""
    return configmod.check(raw, house_rules)


def load_config(path: Path | str | None = None, *, required: bool = False) -> Config:
    """`companion.config.load` with the house rules checked by their kinds."""
    return configmod.load(path, required=required, house_rules=house_rules)


# --- designs: a group's own games, each a kind `design:<hash>` -----------------------------------

_DESIGNS: dict[str, GameKind] = {}  # every registered design by kind name (every version)
_DESIGN_TEXTS: dict[str, GameKind] = {}  # the same, by the JSON text they were built from
# The designs being previewed and not registered (`previewing`): each one only while held.
_PREVIEWS: weakref.WeakValueDictionary[str, GameKind] = weakref.WeakValueDictionary()
_PREVIEWS_LOCK = threading.Lock()  # the web thread and the app thread both preview
# The design kinds this thread previews now: `for_header` takes a previewed kind in place of
# registering only on the thread that previews it (another thread replaying a game of that
# design registers it from its header: a preview is dropped, a game's kind never is).
_MY_PREVIEWS = threading.local()
_OFFERED: list[str] = []  # the design kinds New game lists (`offer_designs`)


def canonical_text(design_json: Mapping[str, Any]) -> str:
    """A design's JSON as its kind name is hashed: keys sorted, no spaces."""
    return json.dumps(design_json, sort_keys=True, separators=(",", ":"))


def design_name(canonical: Mapping[str, Any]) -> str:
    """The kind name of a design given its canonical dict (`Design.to_json()`):
    "design:" and the first 12 hex digits of the SHA-256 of `canonical_text`."""
    digest = hashlib.sha256(canonical_text(canonical).encode("utf-8")).hexdigest()
    return DESIGN_PREFIX + digest[:12]


def is_design(kind: str) -> bool:
    """Whether `kind` names a design's kind (`design:<hash>`)."""
    return kind.startswith(DESIGN_PREFIX)


_BUILDER: list[Callable[[Any], GameKind]] = []


def design_builder() -> Callable[[Any], GameKind]:
    """The designs' kind builder, `kind_for(design_json) -> GameKind`: the entry point
    "design" of the group `chroma_companion.designs`. Like a built-in kind's, the companion's
    own is always DESIGN_ENTRY (tests/test_modes.py), so it is imported without reading the
    distributions' metadata (a design game resumed at start-up)."""
    if not _BUILDER:
        if find_spec(DESIGN_ENTRY.partition(":")[0]) is not None:
            _BUILDER.append(Part(DESIGN_ENTRY).load())
        else:
            from importlib.metadata import entry_points as installed

            eps = [ep for ep in installed(group=DESIGN_GROUP) if ep.name == "design"]
            if not eps:
                raise KindBroken(f"no entry point \"design\" in {DESIGN_GROUP}: the "
                                 "companion is not installed (pip install -e .)")
            _BUILDER.append(eps[0].load())
    return _BUILDER[0]


def design_kind(design_json: Mapping[str, Any]) -> GameKind:
    """The GameKind of a design (its JSON: a dict as `load` takes it), built by the entry
    point and registered under its kind name: `get` and `find` then resolve it. Idempotent:
    the same design gives the same GameKind. A design that is no design raises DesignError
    (in words naming the field)."""
    text = canonical_text(design_json)
    k = _DESIGN_TEXTS.get(text)
    if k is None:
        built = _built(design_json)
        k = _DESIGNS.setdefault(built.kind, built)
        _DESIGN_TEXTS[text] = k
    return k


def _built(design_json: Mapping[str, Any]) -> GameKind:
    """A design's GameKind as the entry point builds it (not registered)."""
    built = design_builder()(design_json)
    if not isinstance(built, GameKind) or not is_design(built.kind):
        raise KindBroken(f"{DESIGN_ENTRY} did not build a design's GameKind ({built!r})")
    return built


@contextmanager
def previewing(design_json: Mapping[str, Any]) -> Iterator[GameKind]:
    """The GameKind of a design to preview (the "Design a game" page: how its game starts on
    the panel and the TV), found by `get`, `find` and `for_header` while the `with` block
    runs and not registered: a design the box keeps is its registered kind; any other is
    built afresh and held only weakly, so that it is dropped once nobody uses it (a phone
    previewing design after design grows no registry). Both threads may preview at once: two
    previews of the same design share one kind. A design that is no design raises
    DesignError."""
    text = canonical_text(design_json)
    k = _DESIGN_TEXTS.get(text)
    if k is None:
        built = _built(design_json)
        k = _DESIGNS.get(built.kind)
        if k is None:
            with _PREVIEWS_LOCK:
                k = _PREVIEWS.setdefault(built.kind, built)
    mine: list[str] = _MY_PREVIEWS.__dict__.setdefault("kinds", [])
    mine.append(k.kind)
    try:
        yield k
    finally:
        mine.remove(k.kind)


def for_header(header: Header) -> GameKind:
    """The kind of a game's header: a design's kind is registered from the design the header
    carries (its rules' "design") when this box does not know it yet, so that a game from
    another box, or from a design since edited or deleted, replays exactly. A header whose
    design is not its kind's is refused (IllegalEvent): a header cannot lie."""
    kind = header.game
    if is_design(kind) and kind not in _DESIGNS \
            and kind not in _MY_PREVIEWS.__dict__.get("kinds", ()):
        design = header.rules.get("design") if isinstance(header.rules, Mapping) else None
        if not isinstance(design, Mapping):
            raise IllegalEvent(f"game {kind!r} carries no design in its header")
        try:
            k = design_kind(design)
        except DesignError as e:
            raise IllegalEvent(f"game {kind!r}: its design is refused ({e})") from None
        if k.kind != kind:
            raise IllegalEvent(f"game {kind!r}: its header's design is {k.kind!r}")
    return get(kind)


def offer_designs(kinds: Iterable[str]) -> None:
    """Which registered designs New game lists (`kinds()`): the newest non-hidden version of
    each design the journal keeps, told by companion/session/designs.py."""
    wanted = list(dict.fromkeys(kinds))
    unknown = [k for k in wanted if k not in _DESIGNS]
    if unknown:
        raise KindBroken(f"design {unknown[0]!r} is not registered (design_kind first)")
    _OFFERED[:] = wanted


def offered_designs() -> list[str]:
    """The design kinds New game lists, as `offer_designs` last set them."""
    return list(_OFFERED)


def design_group(kind: str) -> str:
    """The kind a game of `kind` is counted under in the statistics: a design's games are
    counted together by its title, all its versions (and designs of the same title) under
    one: the version New game offers, else the first registered by name. Any other kind,
    or a design not registered, is its own."""
    k = _DESIGNS.get(kind)
    if k is None:
        return kind
    title = k.title.casefold()
    same = [name for name, d in _DESIGNS.items() if d.title.casefold() == title]
    offered = [name for name in _OFFERED if name in same]
    return offered[0] if offered else min(same)
