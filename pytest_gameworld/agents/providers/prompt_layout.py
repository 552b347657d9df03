"""Where the rendered game prompt goes in a request, per model protocol (pure).

Most models get it as the system prompt and, before each screenshot, the short step text. Qwen3-VL
computer use gets Qwen's tool declaration around it (in the system prompt, or with
``extra.prompt_in_user`` in the user message before every screenshot, as the original does for the
self-hosted checkpoints); Seed/UI-TARS computer use gets the GUI-agent frame around it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...catalog.specs import ModelSpec, Role
from . import qwen_format, uitars_format

STEP_TEXT = "Current screen:\n"


@dataclass(frozen=True)
class Layout:
    """The system prompt (None: no system message) and the text sent before each screenshot."""

    system: str | None
    step_text: str


def layout(spec: ModelSpec, prompt: str, role: Role, size: tuple[int, int]) -> Layout:
    """The layout for one model spec, game prompt, role and sent-image size."""
    if spec.api == "text" and spec.interface == "cua":
        if spec.text_format == "qwen":
            tools = qwen_format.declaration(role, size)
            if spec.extra.get("prompt_in_user"):
                return Layout(None, f"{tools}\n\nThe game and your task:\n{prompt}")
            return Layout(f"{tools}\n\n## Instruction\n{prompt}", STEP_TEXT)
        if spec.text_format == "uitars":
            return Layout(uitars_format.system_text(prompt, role), STEP_TEXT)
    return Layout(prompt, STEP_TEXT)
