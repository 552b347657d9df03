"""Prompt assembly: the four sections from the catalog's jinja2 templates.

Text a game, task or model supplies is content: it may hold any markdown (headings, lists, code fences)
and reaches the prompt unchanged. Only the template's own headings make the four sections.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from ..catalog.specs import GameSpec, ModelSpec, Role, TaskSpec
from .prompt_sections import SECTIONS, Content, Prompt, split_sections
from .upstream_prompts import render_upstream_prompt

__all__ = ["SECTIONS", "Prompt", "render_prompt", "split_sections"]
DEFAULT_OUTPUT = {
    "generalist": "- Call exactly one tool per step.\n- Its name must be one of the registered action ids.\n"
                  "- Give a short `reasoning` with it.\n- Write nothing outside the tool call.",
    "cua": "- Call exactly one low-level computer action per step.\n- Write nothing outside the tool call.",
}


@lru_cache(maxsize=8)
def _environment(prompts_dir: str) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(prompts_dir), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True, autoescape=False)


def _marked(game: GameSpec, role: Role, task: TaskSpec, content: Content) -> tuple[GameSpec, Role, TaskSpec]:
    """Copies of the specs whose free text fields are tokens of ``content``."""
    controls = [c.model_copy(update={
        "description": content.mark(c.description),
        "args": {n: a.model_copy(update={"description": content.mark(a.description)}) for n, a in c.args.items()},
    }) for c in role.controls]
    role = role.model_copy(update={"description": content.mark(role.description), "controls": controls,
                                   "cua_description": content.mark(role.cua_description)})
    return (game.model_copy(update={"rules": content.mark(game.rules)}), role,
            task.model_copy(update={"instruction": content.mark(task.instruction)}))


def coordinate_space(model: ModelSpec, game: GameSpec) -> str:
    """How a computer-use model must express points: the grid or image it is given."""
    vp = game.viewport
    if model.coordinates == "normalized_1000":
        return "a 0-1000 grid over the screenshot (0,0 is the top-left corner, 1000,1000 the bottom-right)"
    if model.screenshot_width and model.screenshot_width != vp.width:
        h = round(vp.height * model.screenshot_width / vp.width)
        return (f"pixels of the {model.screenshot_width}x{h} screenshot you see "
                f"(x from 0 to {model.screenshot_width - 1}, y from 0 to {h - 1})")
    return f"screenshot pixels (x from 0 to {vp.width - 1}, y from 0 to {vp.height - 1})"


def render_prompt(prompts_dir: Path, game: GameSpec, role: Role, task: TaskSpec, model: ModelSpec,
                  max_steps: int, realtime: bool = False) -> Prompt:
    """Render the model's template (or the interface default) into the four sections; a game of an upstream
    checkout the way the original harness renders it (upstream_prompts)."""
    output_format = model.output_format or DEFAULT_OUTPUT[model.interface]
    if game.origin == "upstream":
        return render_upstream_prompt(prompts_dir, game, role, task, model, output_format)
    name = model.prompt_template or ("generalist.j2" if model.interface == "generalist" else "computer_use.j2")
    template = _environment(str(prompts_dir)).get_template(name)
    content = Content()
    game, role, task = _marked(game, role, task, content)
    skeleton = template.render(game=game, role=role, task=task, max_steps=max_steps, realtime=realtime,
                               coordinate_space=coordinate_space(model, game),
                               aliases_accepted=model.parsing == "paper",  # only the paper's reading takes them
                               output_format=content.mark(output_format))
    sections = split_sections(skeleton)
    if tuple(sections) != SECTIONS:
        raise ValueError(f"prompt template {name} must have the sections {SECTIONS}, has {tuple(sections)}")
    return Prompt(content.fill(skeleton).strip(), {k: content.fill(v) for k, v in sections.items()})
