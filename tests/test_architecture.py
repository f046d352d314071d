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


# --- circles (issue 36): the file import graph of companion/ and bench/, every import counted -

def module_files() -> dict[str, Path]:
    """Module name -> file, for companion/ and bench/ (a package by its __init__.py)."""
    files = {}
    for top in ("companion", "bench"):
        for p in (ROOT / top).rglob("*.py"):
            parts = list(p.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = p
    return files


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of companion/ and bench/ it imports, counting EVERY import: at the
    top, inside a function and under `if TYPE_CHECKING:` alike (a circle through a late or a
    type-only import is still a circle: each file needs the other to be read)."""
    files = module_files()

    def resolve(name: str) -> str | None:  # the module itself, else its nearest package
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out |= {r for a in node.names if (r := resolve(a.name))}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for a in node.names:  # `from pkg import mod` imports the module pkg.mod
                    whole = f"{base}.{a.name}"
                    r = whole if whole in files else resolve(base)
                    if r:
                        out.add(r)
        out.discard(mod)
        graph[mod] = out
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_the_circle_finder_finds_a_circle_through_a_type_only_import():
    """The check can fail: a graph with a circle (as a TYPE_CHECKING import back would make
    one) is found, with its files, and a line is not."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_two_files_of_companion_or_bench_import_each_other_even_indirectly():
    """No import circle between files of companion/ or bench/, counting function-local and
    type-only imports (docs/architecture.md: a part that needs a higher layer's type declares
    a narrow Protocol on its own side)."""
    assert circles(import_graph()) == []


def test_no_part_of_the_app_imports_the_core_and_the_core_is_the_loop():
    """The App is the loop (queue, dispatch, the screen stack, render): core.py is at most
    300 lines, and no other module of app/ imports it: each part gets what it needs as
    arguments (docs/architecture.md, "app")."""
    core = PKG / "app" / "core.py"
    assert len(core.read_text(encoding="utf-8").splitlines()) <= 300
    graph = import_graph()
    assert sorted(m for m, deps in graph.items()
                  if m.startswith("companion.app.") and "companion.app.core" in deps) == []
