"""Prompt assembly: the four sections from the catalog's jinja2 templates."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jinja2

from ..catalog.specs import GameSpec, ModelSpec, Role, TaskSpec

SECTIONS = ("Game Rules", "Role and Controls", "Task Instruction", "Output Format")
DEFAULT_OUTPUT = {
    "generalist": "- Call exactly one tool per step.\n- Its name must be one of the registered action ids.\n"
                  "- Give a short `reasoning` with it.\n- Write nothing outside the tool call.",
    "cua": "- Call exactly one low-level computer action per step.\n- Write nothing outside the tool call.",
}


@dataclass(frozen=True)
class Prompt:
    """The rendered system prompt and its sections, in fixed order."""

    text: str
    sections: dict[str, str]


@lru_cache(maxsize=8)
def _environment(prompts_dir: str) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(prompts_dir), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True, autoescape=False)


def split_sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def coordinate_space(model: ModelSpec, game: GameSpec) -> str:
    """How a computer-use model must express points: the grid or image it is given."""
    vp = game.viewport
    if model.coordinates == "normalized_1000":
        return "a 0-1000 grid over the screenshot (0,0 is the top-left corner, 1000,1000 the bottom-right)"
    if model.screenshot_width and model.screenshot_width != vp.width:
        h = round(vp.height * model.screenshot_width / vp.width)
        return f"pixels of the {model.screenshot_width}x{h} screenshot you see (x from 0 to {model.screenshot_width - 1}, y from 0 to {h - 1})"
    return f"screenshot pixels (x from 0 to {vp.width - 1}, y from 0 to {vp.height - 1})"


def render_prompt(prompts_dir: Path, game: GameSpec, role: Role, task: TaskSpec, model: ModelSpec,
                  max_steps: int, realtime: bool = False) -> Prompt:
    """Render the model's template (or the interface default) into the four sections."""
    name = model.prompt_template or ("generalist.j2" if model.interface == "generalist" else "computer_use.j2")
    template = _environment(str(prompts_dir)).get_template(name)
    text = template.render(game=game, role=role, task=task, max_steps=max_steps, realtime=realtime,
                           coordinate_space=coordinate_space(model, game),
                           aliases_accepted=model.parsing == "paper",  # only the paper's reading takes them
                           output_format=model.output_format or DEFAULT_OUTPUT[model.interface])
    sections = split_sections(text)
    if tuple(sections) != SECTIONS:
        raise ValueError(f"prompt template {name} must have the sections {SECTIONS}, has {tuple(sections)}")
    return Prompt(text.strip(), sections)
