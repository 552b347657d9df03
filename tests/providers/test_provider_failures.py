"""Retries, timeouts, errors and the API key never leaking, against the loopback endpoint."""

from __future__ import annotations

import hashlib
import time

import pytest

from pytest_gameworld.agents.base import AgentError
from pytest_gameworld.play.actions import Proposal

pytestmark = pytest.mark.asyncio

# (protocol, catalog spec) for each client family.
FAMILIES = [("openai", "glm-4.6v"), ("openai", "gpt-5.2"), ("anthropic", "claude-sonnet-4.6"),
            ("gemini", "gemini-3-flash")]


@pytest.mark.parametrize("protocol, model", FAMILIES)
async def test_rate_limited_twice_then_success(serve, spec_for, drive, control_call, no_secret,
                                               protocol: str, model: str) -> None:
    name, args = control_call
    server = serve(protocol, [{"status": 429, "retry_after": 0.2}, {"status": 429, "retry_after": 0.2},
                              {"calls": [{"name": name, "arguments": args}]}])
    started = time.monotonic()
    _, [reply] = await drive(spec_for(model, server))
    assert reply.calls == [Proposal(name, args)]
    assert [p["status"] for p in server.posts(3)] == [429, 429, 200]
    assert time.monotonic() - started >= 0.4  # Retry-After was honoured
    no_secret(reply.request, reply.raw)


@pytest.mark.parametrize("protocol, model", FAMILIES)
async def test_always_500_raises_after_max_retries(serve, spec_for, drive, protocol: str, model: str) -> None:
    server = serve(protocol, [{"status": 500}])
    with pytest.raises(AgentError, match="failed after 3 attempts") as info:
        await drive(spec_for(model, server, max_retries=2))
    assert [p["status"] for p in server.posts(3)] == [500, 500, 500]
    assert "500" in str(info.value) and "sk-test" not in str(info.value)


@pytest.mark.parametrize("protocol, model", FAMILIES)
async def test_delay_beyond_timeout_raises(serve, spec_for, drive, protocol: str, model: str) -> None:
    server = serve(protocol, [{"delay_s": 5, "text": "too late"}])
    started = time.monotonic()
    with pytest.raises(AgentError, match="no answer within 0.5 s"):
        await drive(spec_for(model, server, timeout_s=0.5, max_retries=1))
    assert time.monotonic() - started < 4


async def test_client_errors_are_not_retried(serve, spec_for, drive) -> None:
    server = serve("openai", [{"status": 400, "message": "bad tool schema"}])
    with pytest.raises(AgentError, match="HTTP 400: bad tool schema"):
        await drive(spec_for("glm-4.6v", server))
    assert len(server.posts(1)) == 1


async def test_unreachable_endpoint_is_an_agent_error(spec_for, drive, serve) -> None:
    server = serve("openai", [{"text": "x"}])
    server.stop()
    with pytest.raises(AgentError, match="cannot connect"):
        await drive(spec_for("glm-4.6v", server, max_retries=1))


async def test_missing_key_fails_at_begin(catalog, make_ctx, monkeypatch) -> None:
    from pytest_gameworld.agents.providers import make_provider_agent

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    spec = catalog.resolve_model("claude-sonnet-4.6")
    agent = make_provider_agent(spec)
    with pytest.raises(AgentError, match="set ANTHROPIC_API_KEY"):
        await agent.begin(make_ctx(spec))


@pytest.mark.parametrize("protocol, model", [("openai", "glm-4.6v"), ("openai", "openai-computer-use"),
                                             ("anthropic", "claude-sonnet-4.6-cua"),
                                             ("gemini", "gemini-2.5-computer-use")])
async def test_the_key_is_sent_but_never_recorded(serve, spec_for, drive, no_secret, secret_key: str, protocol: str,
                                                  model: str) -> None:
    server = serve(protocol, policy="random")
    agent, replies = await drive(spec_for(model, server), steps=2)
    for reply in replies:
        no_secret(reply.request, reply.raw, reply.text, reply.reasoning, [c.to_json() for c in reply.calls])
    no_secret(server.posts(2))  # nor in what the server saw in the body
    assert "sk-test" not in repr(agent.conn)
    # ... but it did reach the server: the endpoint logs a hash of the credential header of every call.
    digest = hashlib.sha256(secret_key.encode()).hexdigest()
    assert [p["key_sha256"] for p in server.posts(2)] == [digest, digest]
