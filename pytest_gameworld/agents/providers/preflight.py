"""One check before a session: is the model's key set, its endpoint reachable and the model served?"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ...catalog.providers import provider
from ...catalog.specs import CatalogError, ModelSpec
from . import load
from .connection import Connection, resolve
from .sdk import require

PREFLIGHT_TIMEOUT_S = 15.0


async def preflight(spec: ModelSpec) -> str | None:
    """None when the model looks usable; otherwise one line saying what to fix."""
    if spec.provider is None:
        return None  # built-ins need nothing
    try:
        require(provider(spec.provider).sdk)
    except CatalogError as exc:
        return str(exc)
    conn = resolve(spec)
    if conn.problem:
        return conn.problem
    where = conn.base_url or f"the {spec.provider} API"
    try:
        return await asyncio.wait_for(_check(spec, conn), timeout=PREFLIGHT_TIMEOUT_S)
    except asyncio.TimeoutError:
        return f"--gw-model {spec.name}: {where} did not answer within {PREFLIGHT_TIMEOUT_S:g} s"
    except Exception as exc:  # noqa: BLE001 - every failure becomes the one line
        return _describe(spec, conn, exc)


async def _check(spec: ModelSpec, conn: Connection) -> str | None:
    check: Callable[[ModelSpec, Connection], Awaitable[str | None]] = load(provider(str(spec.provider)).preflight)
    return await check(spec, conn)


async def check_anthropic(spec: ModelSpec, conn: Connection) -> str | None:
    """Anthropic's model lookup."""
    import anthropic

    async with anthropic.AsyncAnthropic(api_key=conn.api_key, base_url=conn.base_url, max_retries=0,
                                        timeout=PREFLIGHT_TIMEOUT_S) as client:
        await client.models.retrieve(str(spec.model))
    return None


async def check_openai(spec: ModelSpec, conn: Connection) -> str | None:
    """OpenAI's model lookup."""
    import openai

    async with openai.AsyncOpenAI(api_key=conn.api_key, base_url=conn.base_url, max_retries=0,
                                  timeout=PREFLIGHT_TIMEOUT_S) as client:
        await client.models.retrieve(str(spec.model))
    return None


async def check_served(spec: ModelSpec, conn: Connection) -> str | None:
    """An OpenAI-compatible server's model list, which must hold the spec's model when the server lists any."""
    import openai

    async with openai.AsyncOpenAI(api_key=conn.api_key, base_url=conn.base_url, max_retries=0,
                                  timeout=PREFLIGHT_TIMEOUT_S) as client:
        try:
            served = [m.id async for m in client.models.list()]
        except openai.NotFoundError:
            return None  # some compatible APIs do not list models; the first call will tell
    if served and spec.model not in served:
        return (f"--gw-model {spec.name}: model {spec.model!r} is not served by {conn.base_url}; it serves "
                f"{', '.join(served[:10])} (set --gw-model-opt model=…)")
    return None


async def check_gemini(spec: ModelSpec, conn: Connection) -> str | None:
    """Gemini's model lookup."""
    from google.genai import Client, types

    options: dict[str, Any] = {"timeout": int(PREFLIGHT_TIMEOUT_S * 1000),
                               "retry_options": types.HttpRetryOptions(attempts=1)}
    if conn.base_url:
        options["base_url"] = conn.base_url
    client = Client(api_key=conn.api_key, http_options=types.HttpOptions(**options))
    try:
        await client.aio.models.get(model=str(spec.model))
    finally:
        await client.aio.aclose()
    return None


def _describe(spec: ModelSpec, conn: Connection, exc: BaseException) -> str:
    """The one line for a failed check, by HTTP status where there is one."""
    where = conn.base_url or f"the {spec.provider} API"
    status = getattr(exc, "status_code", None) or getattr(exc, "code", None)
    if status in (401, 403):
        return (f"--gw-model {spec.name}: {where} rejected the API key from {' or '.join(conn.key_envs)} "
                f"(HTTP {status})")
    if status == 404:
        return f"--gw-model {spec.name}: model {spec.model!r} not found at {where}"
    if isinstance(status, int):
        return f"--gw-model {spec.name}: {where} answered HTTP {status} to a model lookup"
    name = type(exc).__name__
    if "Connect" in name or "Connection" in name or "Timeout" in name or isinstance(exc, OSError):
        return f"--gw-model {spec.name}: cannot reach {where} ({name})"
    return f"--gw-model {spec.name}: model check failed: {name}: {str(exc).splitlines()[0] if str(exc) else ''}"
