"""Every document the repository cites is in the repository: a `*.md` named in code, tests, games or docs, and
every relative link in docs, resolves to a file here (no design notes kept outside it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("pytest_gameworld", "catalog", "tests", "docs", "benchmarks")
SUFFIXES = {".py", ".js", ".html", ".yaml", ".md", ".toml"}
# A cited document: a path-like word ending in .md (docs/games.md, games.md, README.md).
CITED = re.compile(r"(?<![\w./-])((?:\.\./|[\w-]+/)*[\w-]+\.md)\b")
LINK = re.compile(r"\]\(([^)#\s]+)")


def _resolves(name: str, near: Path) -> bool:
    return any((base / name).is_file() for base in (near.parent, ROOT, ROOT / "docs"))


def test_every_cited_document_is_in_the_repository():
    missing = []
    for top in SCANNED:
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in SUFFIXES or not path.is_file() or path == Path(__file__):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                names = CITED.findall(line)
                if path.suffix == ".md":
                    names += [link for link in LINK.findall(line) if "://" not in link]
                missing += [f"{path.relative_to(ROOT)}:{n}: {x}" for x in names if not _resolves(x, path)]
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing)
