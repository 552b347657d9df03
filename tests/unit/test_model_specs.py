"""The 18 shipped pairs carry the original harness's settings: memory rounds, checkpoint, API, sampling."""

from __future__ import annotations

import pytest

from pytest_gameworld.catalog.loader import load_catalog

# spec: (interface, api, model, memory rounds, temperature, max output tokens), as the original runs each pair
PAIRS = {
    "claude-sonnet-4.6-cua": ("cua", "messages", "claude-sonnet-4-6", 2, None, 2048),
    "gemini-2.5-computer-use": ("cua", "generate_content", "gemini-2.5-computer-use-preview-10-2025", 0, None, None),
    "openai-computer-use": ("cua", "responses", "computer-use-preview", 0, None, None),
    "qwen3-vl-plus-cua": ("cua", "text", "qwen3-vl-plus", 2, 0.0, 2048),
    "seed-1.8-cua": ("cua", "text", "seed-1-8-251228", 2, 0.0, 2048),
    "qwen3-vl-235b-cua": ("cua", "text", "Qwen/Qwen3-VL-235B-A22B-Thinking", 2, 0.0, 2048),
    "qwen3-vl-30b-cua": ("cua", "text", "Qwen/Qwen3-VL-30B-A3B-Thinking", 2, 0.0, 2048),
    "ui-tars-1.5-7b": ("cua", "text", "ByteDance-Seed/UI-TARS-1.5-7B", 0, 0.0, 2048),
    "claude-sonnet-4.6": ("generalist", "messages", "claude-sonnet-4-6", 2, 0.0, 2048),
    "gemini-3-flash": ("generalist", "generate_content", "gemini-3-flash-preview", 2, None, None),
    "glm-4.6v": ("generalist", "chat", "glm-4.6v", 2, 0.0, 2048),
    "gpt-5.2": ("generalist", "responses", "gpt-5.2", 2, None, None),
    "grok-4.1-fast": ("generalist", "responses", "grok-4-1-fast-reasoning", 2, None, None),
    "kimi-k2.5": ("generalist", "chat", "kimi-k2.5", 2, 1.0, 2048),
    "qwen3-vl-plus": ("generalist", "text", "qwen3-vl-plus", 2, 0.0, 2048),
    "seed-1.8": ("generalist", "chat", "seed-1-8-251228", 2, 0.0, 2048),
    "qwen3-vl-235b": ("generalist", "text", "Qwen/Qwen3-VL-235B-A22B-Thinking", 2, 0.0, 2048),
    "qwen3-vl-30b": ("generalist", "text", "Qwen/Qwen3-VL-30B-A3B-Thinking", 2, 0.0, 2048),
}


@pytest.fixture(scope="module")
def models():
    return load_catalog().models


def test_the_catalog_ships_exactly_the_18_pairs(models) -> None:
    assert {n for n, s in models.items() if s.provider} == set(PAIRS)
    assert sum(1 for p in PAIRS.values() if p[3] == 2) == 15  # memory on for 15 of the 18, as in the original


@pytest.mark.parametrize("name", PAIRS)
def test_a_pair_runs_with_the_originals_settings(models, name: str) -> None:
    spec = models[name]
    interface, api, model, rounds, temperature, tokens = PAIRS[name]
    assert (spec.interface, spec.api, spec.model) == (interface, api, model)
    assert spec.memory_rounds == rounds
    assert (spec.temperature, spec.max_output_tokens) == (temperature, tokens)
    assert spec.parsing == "original" and spec.output_format
