"""The options reference (docs/options.md) rendered from OPTIONS, so the page cannot drift from the plugin.

The documentation site's build hook (mkdocs_hooks.py) puts this table where the page holds its marker.
"""

from __future__ import annotations

from typing import Any

from .options import MINIMA, OPTIONS, metavar

MARKER = "<!-- gw-options-table -->"


def flag_form(name: str, kind: str) -> str:
    """How to write the option: a value always after `=`, because pytest looks for its ini file before the plugin
    loads, and a spaced value that names an existing path is taken for a test path there."""
    if kind == "bool":
        return f"--gw-{name}"
    if kind == "optional":
        return f"--gw-{name}[={metavar(name, kind)}]"
    return f"--gw-{name}={metavar(name, kind)}"


def _default(name: str, kind: str, default: Any) -> str:
    if kind == "bool":
        return "off"
    if default in ("", [], None):
        return "—"
    if isinstance(default, (int, float)):
        return f"`{default:,g}`".replace(",", " ") if default < 1e6 else f"`{int(default):,}`".replace(",", " ")
    return f"`{default}`"


def _cell(text: str) -> str:
    """Table-safe: a pipe escaped, and text that looks like a tag (replay:<steps.jsonl>) shown as text. (A pipe
    inside a code span needs no escape for the site's Markdown, which would show the backslash.)"""
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def markdown_table() -> str:
    """One row per option: how to write it, its ini name, its default and what it does."""
    rows = ["| option | ini | default | meaning |", "|---|---|---|---|"]
    for name, kind, default, text in OPTIONS:
        extra = f" (at least {MINIMA[name]:g})" if MINIMA.get(name, 0) > 0 else ""
        rows.append(f"| `{flag_form(name, kind)}` | `gw_{name.replace('-', '_')}` | "
                    f"{_default(name, kind, default)} | {_cell(text)}{extra} |")
    return "\n".join(rows) + "\n"


def render(markdown: str) -> str:
    """The page with its marker replaced by the table (a page without the marker unchanged)."""
    return markdown.replace(MARKER, markdown_table())
