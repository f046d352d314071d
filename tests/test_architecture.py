"""The layering of docs/architecture.md holds: each package imports only the layers below it
(function-local imports included), a game kind is named by no other package, and the screenshot
and doc generators stay out of what the running companion imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "companion"

# What each part may import from the companion (besides itself, companion.errors,
# companion.inputs, companion.config and companion.names, which every layer may read).
# docs/architecture.md.
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    "games": {"rules"},  # the registry (companion/games/__init__.py)
    # A kind's own package (companion/games/<kind>/) is a plugin on top, like a house game
    # installed beside the companion: its rules, its panel screens (ui), its samples over the
    # journal (session), and of the web only the vocabulary (companion.web.kinds, below);
    # nothing imports it.
    "kind": {"rules", "games", "session", "ui"},
    "session": {"rules", "games"},
    "drivers": {"rules"},  # the dice faces
    "ui": {"rules", "games", "session", "drivers"},
    "web": {"rules", "games", "session", "ui"},
    "app": {"rules", "games", "session", "ui", "drivers", "web"},
    "cli": {"rules", "games", "session", "ui", "drivers", "web", "app", "gallery"},
    # The gallery draws on the test driver's fake clock (the turn clock's shots are the same
    # on every run), as a house game's tests do.
    "gallery": {"rules", "games", "session", "ui", "drivers", "web", "app", "testing"},
    "testing": {"rules", "games", "session", "ui", "drivers", "app"},
}
EVERYONE = {"errors", "inputs", "config", "names", "__init__", "__version__"}


def part(path: Path) -> str:
    rel = path.relative_to(PKG)
    if rel.parts[0] == "games" and len(rel.parts) > 2:
        return "kind"
    return rel.parts[0].removesuffix(".py")


def imports(path: Path) -> list[tuple[int, str]]:
    """Every companion module `path` imports, at the top or inside a function; not those
    under `if TYPE_CHECKING:`, which only name types and load nothing."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for stmt in block.body for n in ast.walk(stmt)}
    out = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("companion")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.startswith("companion"):
            if node.module == "companion":
                out += [(node.lineno, f"companion.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, node.module))
    return out


def sources() -> list[Path]:
    return sorted(p for p in PKG.rglob("*.py") if p.name != "__init__.py" or p.parent != PKG)


def test_each_layer_imports_only_the_layers_below_it():
    wrong = []
    for path in sources():
        me = part(path)
        allowed = ALLOWED.get(me)
        if allowed is None:
            continue
        for line, name in imports(path):
            target = name.split(".")[1] if "." in name else ""
            if me == "kind" and name.startswith(f"companion.games.{path.relative_to(PKG).parts[1]}"):
                continue  # its own package
            if me == "kind" and name == "companion.web.kinds":
                continue  # the web part's vocabulary
            if target in (me, *EVERYONE) or target in allowed:
                continue
            wrong.append(f"{path.relative_to(ROOT)}:{line}: {me} imports {name}")
    assert wrong == []


def test_every_module_is_in_a_known_layer():
    assert sorted({part(p) for p in sources()} - set(ALLOWED) - EVERYONE) == []


@pytest.mark.parametrize("kind_dir", sorted(p for p in (PKG / "games").iterdir()
                                            if (p / "__init__.py").exists()),
                         ids=lambda p: p.name)
def test_a_kind_package_is_imported_only_by_itself(kind_dir):
    me = f"companion.games.{kind_dir.name}"
    outside = [f"{p.relative_to(ROOT)}:{line}: {name}" for p in sources()
               if kind_dir not in p.parents
               for line, name in imports(p) if name == me or name.startswith(me + ".")]
    assert outside == []


def test_the_running_companion_does_not_import_the_galleries():
    """Only the CLI (lazily, for `companion screens`) and the galleries themselves import
    companion.gallery: screenshots and doc generators ship beside the runtime, not in it."""
    wrong = [f"{p.relative_to(ROOT)}:{line}: {name}" for p in sources()
             if part(p) not in ("cli", "gallery")
             for line, name in imports(p) if name.startswith("companion.gallery")]
    assert wrong == []


@pytest.mark.parametrize("package", ["app", "session"])
def test_the_modules_are_small(package):
    """The app and the session (the journal) are split by job: no module over 500 lines."""
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for p in (PKG / package).glob("*.py")}
    assert sizes and {k: v for k, v in sizes.items() if v > 500} == {}
