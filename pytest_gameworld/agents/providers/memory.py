"""Rolling memory: the last N rounds re-sent as an "Action History" before the current screen (pure).

The layout is the original harness's: a header, then per round the words that preceded its screenshot,
the screenshot, the model's reasoning and its action as JSON, oldest round first. Whether the action was
valid is not told (the original does not tell it either).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any

from ...play.actions import Proposal
from .content import ContentFormat, Image, Part, blocks

HISTORY_HEADER = "## Action History\n"
# A guard against a runaway reply being re-sent every step; far above what max_output_tokens allows.
MAX_REASONING_CHARS = 16_000


@dataclass(frozen=True)
class Round:
    """One past step: the text before its screenshot, the screenshot, the model's reasoning and action."""

    prompt: str
    image: Image | None
    reasoning: str
    action: str | None  # None when the reply held no call (the original then records no action)
    step: int | None = None  # the run's step the screenshot was taken at (records name it; never sent)


def action_json(call: Proposal | None, interface: str, call_id: str | None = None) -> str | None:
    """A call as the history shows it: ``{"arguments": …, "tool_name": …}`` for a control (with the API's
    ``tool_call_id`` when it gave one), ``{"action": …, …}`` for a low-level action; None for no call."""
    if call is None or call.refused or not call.name:
        return None
    if interface == "generalist":
        payload: dict[str, Any] = {"tool_name": call.name, "arguments": call.args}
        if call_id:
            payload["tool_call_id"] = call_id
    else:
        payload = {"action": call.name, **call.args}
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str)


def _line(text: str) -> str:
    text = text.strip()
    return text if text.endswith("\n") else text + "\n"


class Memory:
    """Keeps the last ``rounds`` rounds; renders nothing when ``rounds`` is 0."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self._items: deque[Round] = deque(maxlen=max(rounds, 1))

    def add(self, item: Round) -> None:
        if self.rounds > 0:
            self._items.append(item)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items) if self.rounds > 0 else 0

    def parts(self) -> list[Part]:
        """The history as neutral parts (one text or image each), oldest round first."""
        if not len(self):
            return []
        out: list[Part] = [HISTORY_HEADER]
        for r in self._items:
            if r.prompt.strip():
                out.append(_line(r.prompt))
            if r.image is not None:
                out.append(r.image)
            reasoning = r.reasoning.strip()
            if len(reasoning) > MAX_REASONING_CHARS:
                reasoning = "…" + reasoning[-MAX_REASONING_CHARS:]
            if reasoning:
                out.append(_line(f"Reasoning: {reasoning}"))
            if r.action:
                out.append(_line(f"Action: {r.action}"))
        return out

    def render(self, fmt: ContentFormat, image_detail: str | None = None) -> list[dict[str, Any]]:
        """The history as one provider's content blocks."""
        return blocks(self.parts(), fmt, image_detail)

    def images(self) -> list[Image]:
        return [r.image for r in self._items if r.image is not None] if self.rounds > 0 else []

    def image_steps(self) -> list[int | None]:
        """The step each of images() was taken at."""
        return [r.step for r in self._items if r.image is not None] if self.rounds > 0 else []
