"""Prompts for the games of an upstream GameWorld checkout, rendered the way the original harness renders
them, so scores stay comparable with its published ones: the checkout's own template
(``catalog/prompt_templates/<prompt_template_id>.j2``, read at run time, never copied here), its five blocks
(rules; role text joined with the registered-action list or the computer-use action space; task; the model's
output format), its jinja settings, and its registered-action list, whose header lines are read from the
checkout's ``agents/harness/prompting.py`` too. docs/catalog.md lists what still differs.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from ..catalog.specs import Control, GameSpec, ModelSpec, Role, TaskSpec
from ..catalog.upstream_prompt_source import FALLBACK_HEADER, TEMPLATE_BY_INTERFACE, action_list_header
from .prompt_sections import SECTIONS, Content, Prompt, split_sections


@lru_cache(maxsize=8)
def _environment(templates_dir: str) -> jinja2.Environment:
    # The original's settings: blocks trim their newline, and the result is stripped.
    return jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, autoescape=False)


def _action_line(control: Control) -> str:
    line = f"- `{control.id}`"
    description = control.description.strip()
    if description and description != control.id:  # the mapping fills a missing description with the id
        line += f": {description}"
    required = [name for name, arg in control.args.items() if arg.required]
    return line + (f" (required: {', '.join(required)})" if required else "")


def _join(*blocks: str) -> str:
    """Non-empty blocks, each stripped, one blank line apart (as the original joins role text and actions)."""
    return "\n\n".join(b.strip() for b in blocks if b and b.strip())


def template_name(model: ModelSpec) -> str:
    name = model.prompt_template or TEMPLATE_BY_INTERFACE[model.interface]
    return name if name.endswith(".j2") else f"{name}.j2"


def render_upstream_prompt(templates_dir: Path, game: GameSpec, role: Role, task: TaskSpec, model: ModelSpec,
                           output_format: str) -> Prompt:
    """The system prompt as the original renders it; sections hold the four blocks ("" for one it omits)."""
    name = template_name(model)
    try:
        template = _environment(str(templates_dir)).get_template(name)
    except jinja2.TemplateNotFound:
        raise ValueError(f"{templates_dir / name}: no such prompt template in the upstream checkout") from None
    header = action_list_header(templates_dir.parents[1]) or FALLBACK_HEADER
    actions = "\n".join([*header, *(_action_line(c) for c in role.controls)])
    content = Content()
    skeleton = template.render(
        game_rules_block=content.mark(game.rules, strip=False),
        task_instruction_block=content.mark(task.instruction, strip=False),
        role_control_block_semantic=content.mark(_join(role.description, actions), strip=False),
        role_control_block_computer_use=content.mark(_join(role.description, role.cua_description), strip=False),
        model_output_format_block=content.mark(output_format, strip=False)).strip()
    found = split_sections(skeleton, heading="# ")
    unknown = [title for title in found if title not in SECTIONS]
    if unknown:
        raise ValueError(f"{templates_dir / name}: unknown section heading(s) {unknown}; expected {SECTIONS}")
    return Prompt(content.fill(skeleton).strip(), {s: content.fill(found.get(s, "")).strip() for s in SECTIONS})
