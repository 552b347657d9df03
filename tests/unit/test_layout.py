"""The package's layout holds: the pure core imports no browser and no pytest, no import cycle, small modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest itself depends on tomli before Python 3.11
    import tomli as tomllib

PACKAGE = Path(__file__).resolve().parents[2] / "pytest_gameworld"


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))


SUBPACKAGES = ("plugin", "catalog", "browser", "play", "agents", "endpoint", "records", "report", "gym")
# Parsing, legality, evaluation, aggregation and the gate: unit-testable without a browser or pytest. The list's
# one home is pyproject.toml, the mypy override that checks these modules strictly.
PURE_OVERRIDE = next(o for o in _pyproject()["tool"]["mypy"]["overrides"] if o.get("disallow_untyped_defs"))
PURE = tuple(name.removeprefix("pytest_gameworld.") for name in PURE_OVERRIDE["module"])
# Top-level names that must not be imported, and package prefixes that must not be either.
FORBIDDEN = ("playwright", "pytest", "_pytest", "pytest_gameworld.plugin", "pytest_gameworld.browser")
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.with_suffix("").relative_to(PACKAGE.parent).parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package modules one module imports at run time (imports under TYPE_CHECKING left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for n in ast.walk(node)}
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


@pytest.mark.parametrize("module", PURE)
def test_a_pure_module_imports_no_browser_and_no_pytest(module: str) -> None:
    code = (f"import sys, pytest_gameworld.{module}\n"
            f"bad = {FORBIDDEN!r}\n"
            "print(' '.join(sorted(m for m in sys.modules if m in bad or m.startswith(tuple(b + '.' for b in bad)))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"pytest_gameworld.{module} imports {done.stdout.strip()}"


def test_the_gym_package_imports_no_pytest() -> None:
    """The environments run in a trainer's process, not a pytest session: no pytest, no plugin package."""
    code = ("import sys, pytest_gameworld.gym.env, pytest_gameworld.gym.vector\n"
            "bad = ('pytest', '_pytest', 'pytest_gameworld.plugin')\n"
            "print(' '.join(sorted(m for m in sys.modules if m in bad or m.startswith(tuple(b + '.' for b in bad)))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"pytest_gameworld.gym imports {done.stdout.strip()}"


def test_no_import_cycle() -> None:
    known = _modules()
    graph = {name: _imports(name, path, known) for name, path in known.items()}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_sees_a_cycle(tmp_path: Path) -> None:
    """The graph reader resolves relative imports, so a cycle written the package's way is found."""
    pkg = tmp_path / "pytest_gameworld" / "sub"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("from ..sub.a import y\n")
    known = {"pytest_gameworld.sub.a": pkg / "a.py", "pytest_gameworld.sub.b": pkg / "b.py"}
    assert _imports("pytest_gameworld.sub.a", pkg / "a.py", known) == {"pytest_gameworld.sub.b"}
    assert _imports("pytest_gameworld.sub.b", pkg / "b.py", known) == {"pytest_gameworld.sub.a"}


def test_the_pure_list_names_modules_that_exist() -> None:
    """A renamed or removed pure module would leave mypy's strict override checking nothing."""
    known = _modules()
    assert len(PURE) > 30
    assert [m for m in PURE if f"pytest_gameworld.{m}" not in known] == []


def test_no_module_is_over_500_lines() -> None:
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_modules_sit_in_subpackages_each_saying_what_it_holds() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "cli.py"]
    for sub in SUBPACKAGES:
        doc = ast.get_docstring(ast.parse((PACKAGE / sub / "__init__.py").read_text(encoding="utf-8")))
        assert doc, f"{sub}/__init__.py has no docstring"


def test_no_two_test_files_share_a_name():
    # Without __init__.py files pytest imports test modules by basename: two of one name fail collection.
    names = sorted(p.name for p in (PACKAGE.parent / "tests").rglob("test_*.py"))
    assert not {n for n in names if names.count(n) > 1}
