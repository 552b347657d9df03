"""Preflight: one line for a missing key, a missing base URL, an unreachable endpoint or an unknown model."""

from __future__ import annotations

import time

import pytest

from pytest_gameworld.agents.providers.preflight import preflight
from pytest_gameworld.catalog.contents import Catalog

pytestmark = pytest.mark.asyncio


async def test_builtin_needs_nothing(catalog: Catalog) -> None:
    assert await preflight(catalog.resolve_model("random")) is None


async def test_missing_key(catalog: Catalog, monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert await preflight(catalog.resolve_model("claude-sonnet-4.6")) == \
        "--gw-model claude-sonnet-4.6 needs an API key: set ANTHROPIC_API_KEY"


async def test_missing_vllm_base_url(catalog: Catalog, monkeypatch) -> None:
    monkeypatch.delenv("VLLM_BASE_URL", raising=False)
    assert await preflight(catalog.resolve_model("qwen3-vl-30b")) == (
        "--gw-model qwen3-vl-30b needs VLLM_BASE_URL (the OpenAI-compatible base URL of your vLLM server) "
        "or --gw-model-opt endpoint.base_url=…")


@pytest.mark.parametrize("protocol, model", [("openai", "gpt-5.2"), ("anthropic", "claude-sonnet-4.6"),
                                             ("gemini", "gemini-3-flash")])
async def test_reachable_endpoint_passes(serve, spec_for, protocol: str, model: str) -> None:
    server = serve(protocol, policy="noop")
    assert await preflight(spec_for(model, server)) is None
    for _ in range(250):  # the server logs just after it answers
        if server.records():
            break
        time.sleep(0.02)
    assert [r["method"] for r in server.records()] == ["GET"]  # a model lookup, not a generation


async def test_unreachable_endpoint(serve, spec_for) -> None:
    server = serve("anthropic", policy="noop")
    server.stop()
    message = await preflight(spec_for("claude-sonnet-4.6", server))
    assert message is not None and message.startswith("--gw-model claude-sonnet-4.6: cannot reach http://127.0.0.1:")
    assert "\n" not in message


async def test_model_not_served_by_the_compatible_server(serve, catalog: Catalog, monkeypatch) -> None:
    server = serve("openai", policy="noop", extra=["--model", "some/other-model"])
    monkeypatch.setenv("VLLM_BASE_URL", server.url)
    message = await preflight(catalog.resolve_model("qwen3-vl-30b"))
    assert message is not None and "'Qwen/Qwen3-VL-30B-A3B-Thinking' is not served" in message
    assert "some/other-model" in message


async def test_model_served_by_the_compatible_server(serve, catalog: Catalog, monkeypatch) -> None:
    server = serve("openai", policy="noop", extra=["--model", "Qwen/Qwen3-VL-30B-A3B-Thinking"])
    monkeypatch.setenv("VLLM_BASE_URL", server.url)
    assert await preflight(catalog.resolve_model("qwen3-vl-30b")) is None
