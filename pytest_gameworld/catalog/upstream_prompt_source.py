"""What an upstream checkout supplies for rendering its prompts its own way: the templates it gives each
interface, and the header lines of its registered-action list (read from its source, never run)."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

# The template the original harness gives each interface when a model spec names none.
TEMPLATE_BY_INTERFACE = {"generalist": "game_agent_template", "cua": "computer_use_agent_template"}
PROMPTS_DIR = Path("catalog") / "prompt_templates"
ACTION_LIST_SOURCE = Path("agents") / "harness" / "prompting.py"
ACTION_LIST_FUNCTION = "render_semantic_action_space"
# Used only when the checkout's own header cannot be found (validate warns): our words, same layout.
FALLBACK_HEADER = ("REGISTERED ACTIONS:", "Call exactly one of them per step.", "")


@lru_cache(maxsize=8)
def action_list_header(checkout: Path) -> tuple[str, ...] | None:
    """The header lines of the checkout's registered-action list (the string list its function starts
    with), read without running the checkout's code; None when the file or the list is not there."""
    try:
        tree = ast.parse((checkout / ACTION_LIST_SOURCE).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == ACTION_LIST_FUNCTION:
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.List) and node.value.elts and all(
                        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts):
                    return tuple(e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return None


def prompt_source_warnings(root: Path) -> list[str]:
    """What the checkout lacks for rendering prompts the original's way."""
    out = [f"prompt template {PROMPTS_DIR / f'{n}.j2'} is missing: models that use it cannot play"
           for n in TEMPLATE_BY_INTERFACE.values() if not (root / PROMPTS_DIR / f"{n}.j2").is_file()]
    if action_list_header(root) is None:
        out.append(f"no registered-action header found in {ACTION_LIST_SOURCE}: ours is used, so generalist "
                   "prompts differ from the original's in those lines")
    return out
