"""`gameworld plan`: what a selection will play and roughly what it will cost, before any browser opens (pure).

Per model spec: its runs and their step budgets, the picture it sends (the game's viewport shrunk to the spec's
``screenshot_width``, then resized as its provider does before counting), the input tokens of one step (the
picture at the provider's published per-image rule, the re-sent pictures of ``memory_rounds``, the system prompt,
the tools) and an assumed reply size; the cost is every run using its whole budget at the spec's price, so it is
an upper bound for the steps and an estimate for the tokens. A spec without a price shows n/a, never $0.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..agents.base import Usage
from ..agents.providers.coords import downscaled_size, smart_resize
from ..agents.providers.tools import computer_use_tool, generalist_tools
from ..catalog.run_cases import Case
from ..catalog.specs import ModelSpec
from ..play.prompts import render_prompt
from ..records.run_record import cost_usd

# An assumed reply per step (one tool call and a sentence of reasoning): the models' own replies vary widely.
REPLY_TOKENS = 150
# A memory round re-sends what the model said and did besides its picture.
ROUND_TEXT_TOKENS = REPLY_TOKENS + 30
CHARS_PER_TOKEN = 4  # text is counted as its length over 4, as the loopback endpoint estimates it


def sent_size(spec: ModelSpec, width: int, height: int) -> tuple[int, int]:
    """The picture's size as the spec sends it (its screenshot_width, never enlarged)."""
    return downscaled_size(width, height, spec.screenshot_width)


def image_tokens(spec: ModelSpec, width: int, height: int) -> int:
    """Input tokens one picture of this size costs at the spec's provider (its published rule, approximately)."""
    if spec.provider == "anthropic":  # shrunk to a 1568 px long edge and ~1.15 MP, then pixels / 750
        scale = min(1.0, 1568 / max(width, height), math.sqrt(1_150_000 / (width * height)))
        return math.ceil(width * scale * height * scale / 750)
    if spec.provider == "gemini":  # 258 for a small picture, else 258 per 768 px tile
        return 258 if max(width, height) <= 384 else 258 * math.ceil(width / 768) * math.ceil(height / 768)
    if spec.provider == "openai":  # high detail: within 2048 px, short side to 768, 170 per 512 px tile + 85
        scale = min(1.0, 2048 / max(width, height))
        w, h = width * scale, height * scale
        scale = min(1.0, 768 / min(w, h))
        return 85 + 170 * math.ceil(w * scale / 512) * math.ceil(h * scale / 512)
    # An OpenAI-compatible server (vLLM and Qwen-VL-style processors): one token per 28x28 patch after resizing.
    factor = int(spec.extra.get("smart_resize") or 28)
    w, h = smart_resize(width, height, factor)
    return (w // factor) * (h // factor)


@dataclass
class SpecPlan:
    """One model spec's share of the selection."""

    spec: ModelSpec
    runs: int = 0
    steps: int = 0  # the step budgets summed (a run may end sooner)
    calls: int = 0  # model calls if every run uses its budget (a step of a two-role game is two calls)
    budgets: Counter[int] = field(default_factory=Counter)
    sizes: Counter[tuple[int, int]] = field(default_factory=Counter)  # the sent pictures' sizes, per run
    tokens_in: int = 0
    tokens_out: int = 0

    @property
    def calls_model(self) -> bool:
        return self.spec.provider is not None

    def per_step(self) -> tuple[int, int]:
        """The average input and output tokens of one call."""
        if not self.calls:
            return 0, 0
        return round(self.tokens_in / self.calls), round(self.tokens_out / self.calls)

    def cost(self) -> float | None:
        """Every run's whole budget at the spec's price; None when the price is unknown."""
        if self.spec.price_per_mtok is None:
            return None
        return cost_usd(self.spec, Usage(self.tokens_in, self.tokens_out, 0))


def _text_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN


def _run_tokens(case: Case, budget: int, obs: str, prompts_dir: Path, realtime: bool) -> tuple[int, int, tuple[int, int]]:
    """One run's input and output tokens over its whole budget, per role, and the picture size it sends."""
    spec, game = case.model, case.game
    size = sent_size(spec, game.viewport.width, game.viewport.height)
    picture = image_tokens(spec, *size) if obs != "state" else 0
    tokens_in = tokens_out = 0
    for role in game.roles.values():
        prompt = render_prompt(prompts_dir, game, role, case.task, spec, budget, realtime).text
        tools = [computer_use_tool(f"pixels of the {size[0]}x{size[1]} screenshot")] if spec.interface == "cua" \
            else generalist_tools(role)
        fixed = _text_tokens(prompt) + _text_tokens(json.dumps([asdict(t) for t in tools]))
        for step in range(budget):
            rounds = min(spec.memory_rounds, step)
            tokens_in += fixed + picture * (1 + rounds) + ROUND_TEXT_TOKENS * rounds
            tokens_out += REPLY_TOKENS
    return tokens_in, tokens_out, size


def plan_specs(cases: Iterable[Case], max_steps: int, obs: str, prompts_dir: Path,
               realtime: bool = False) -> dict[str, SpecPlan]:
    """The selection's runs grouped by model spec, with their budgets and estimated tokens."""
    out: dict[str, SpecPlan] = {}
    for case in cases:
        p = out.setdefault(case.model.name, SpecPlan(case.model))
        budget = max_steps or case.task.max_steps
        p.runs += 1
        p.steps += budget
        p.budgets[budget] += 1
        size = sent_size(case.model, case.game.viewport.width, case.game.viewport.height)
        p.sizes[size] += 1
        if p.calls_model:
            p.calls += budget * len(case.game.roles)
            tin, tout, _ = _run_tokens(case, budget, obs, prompts_dir, realtime)
            p.tokens_in += tin
            p.tokens_out += tout
    return out


def _money(value: float | None) -> str:
    return "n/a (no price)" if value is None else f"${value:,.2f}"


def plan_lines(plans: dict[str, SpecPlan], obs: str, notes: list[str]) -> list[str]:
    """The plan as a table: one row per spec, then the total and what the figures assume."""
    from .aggregate import align_columns

    rows = [["model", "runs", "steps (budgets)", "picture sent", "tokens/call in+out", "calls", "cost"]]
    unpriced = []
    for name, p in plans.items():
        budgets = ", ".join(f"{n}x{b}" for b, n in sorted(p.budgets.items()))
        sizes = ", ".join(f"{w}x{h}" for (w, h), _ in p.sizes.most_common())
        picture = "none (--gw-obs state)" if obs == "state" else f"{sizes} {p.spec.screenshot_format}"
        if not p.calls_model:
            rows.append([name, str(p.runs), f"{p.steps:,} ({budgets})", "-", "-", "0", "built-in: no model calls"])
            continue
        tin, tout = p.per_step()
        cost = p.cost()
        if cost is None:
            unpriced.append(name)
        rows.append([name, str(p.runs), f"{p.steps:,} ({budgets})", picture, f"~{tin:,} + {tout:,}",
                     f"{p.calls:,}", _money(cost)])
    runs = sum(p.runs for p in plans.values())
    priced_total = sum(c for p in plans.values() if (c := p.cost()) is not None and p.calls_model)
    if unpriced:
        total_cell = f"${priced_total:,.2f} + n/a ({', '.join(unpriced)} unpriced)"
    else:
        total_cell = f"${priced_total:,.2f}"
    rows.append(["total", str(runs), f"{sum(p.steps for p in plans.values()):,}", "", "",
                 f"{sum(p.calls for p in plans.values()):,}", total_cell])
    lines = align_columns(rows)
    lines += [f"note: {n}" for n in notes]
    lines.append(f"costs assume every run uses its whole step budget, {REPLY_TOKENS} reply tokens a call, text at "
                 f"{CHARS_PER_TOKEN} characters a token and each provider's per-picture rule; no browser was opened")
    return lines
