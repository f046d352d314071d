"""Code, tests and docs cite the rules by section of docs/rules.md (the project's own page);
every cited section exists, and nothing cites the specification files the repository does
not carry (RULES.md, DESIGN.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLACES = ["companion", "tests", "docs", "bench", "firmware", "hardware", "README.md"]
CITED = re.compile(r'docs/rules\.md,? (?:section )?"([^"]+)"')


def texts():
    for place in PLACES:
        path = ROOT / place
        files = [path] if path.is_file() else sorted(
            p for p in path.rglob("*") if p.suffix in (".py", ".md", ".toml", ".sh", ".txt"))
        for f in files:
            yield f, f.read_text(encoding="utf-8", errors="replace")


def headings() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return {m.group(1).strip() for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_no_citation_of_a_file_the_repository_does_not_carry():
    me = Path(__file__).name
    stale = [f"{f.relative_to(ROOT)}:{n}: {line.strip()}"
             for f, text in texts() if f.name != me
             for n, line in enumerate(text.splitlines(), 1)
             if re.search(r"\bRULES\.md|\bDESIGN\.md", line)]
    assert stale == []


def test_every_cited_section_of_docs_rules_exists():
    known = headings()
    cited = {(f.relative_to(ROOT), m.group(1)) for f, text in texts()
             for m in CITED.finditer(text)}
    assert len(cited) > 20  # the engines, the screens and the tests all cite it
    missing = sorted(f"{f}: {name}" for f, name in cited if name not in known)
    assert missing == []


def test_every_built_in_game_kind_has_a_section():
    """(A house game installed beside the companion has its own docs, not a RULES.md
    section.)"""
    from companion.games import builtin, kinds
    known = headings()
    assert [k.title for k in kinds().values() if builtin(k) and k.title not in known] == []
