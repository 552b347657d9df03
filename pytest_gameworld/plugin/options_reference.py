"""The options reference (docs/options.md) rendered from OPTIONS, so the page cannot drift from the plugin.

The documentation site's build hook (mkdocs_hooks.py) puts this list where the page holds its marker.
"""

from __future__ import annotations

from typing import Any

from .options import MINIMA, OPTIONS, metavar

MARKER = "<!-- gw-options -->"


def flag_form(name: str, kind: str) -> str:
    """How to write the option: a value always after `=`, because pytest looks for its ini file before the plugin
    loads, and a spaced value that names an existing path is taken for a test path there."""
    if kind == "bool":
        return f"--gw-{name}"
    if kind == "optional":
        return f"--gw-{name}[={metavar(name, kind)}]"
    return f"--gw-{name}={metavar(name, kind)}"


def _default(kind: str, default: Any) -> str:
    """The default as shown: `off` for a switch, nothing for an empty one, 1 000 000 with its thousands apart."""
    if kind == "bool":
        return "off"
    if default in ("", [], None):
        return ""
    if isinstance(default, float):
        return f"`{default:g}`"
    return f"`{default:,}`".replace(",", " ") if isinstance(default, int) else f"`{default}`"


def _text(text: str) -> str:
    """Text that looks like a tag (replay:<steps.jsonl>) shown as text."""
    return text.replace("<", "&lt;").replace(">", "&gt;")


def reference_markdown() -> str:
    """One list item per option: how to write it, its ini name and default, then what it does. (A list, not a
    table: the flags stay whole on a narrow page and the texts get the width.)"""
    items = []
    for name, kind, default, text in OPTIONS:
        least = f" (at least {MINIMA[name]:g})" if MINIMA.get(name, 0) > 0 else ""
        shown = _default(kind, default)
        items.append(f"- **`{flag_form(name, kind)}`** · ini `gw_{name.replace('-', '_')}`"
                     f"{f' · default {shown}' if shown else ''}  \n  {_text(text)}{least}")
    return "\n".join(items) + "\n"


def render(markdown: str) -> str:
    """The page with its marker replaced by the reference (a page without the marker unchanged)."""
    return markdown.replace(MARKER, reference_markdown())
