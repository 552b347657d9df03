"""Where a model spec's endpoint is and which key it uses (no network)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from ...catalog.providers import REGISTRY, provider
from ...catalog.specs import ModelSpec
from ...records import redact

# Sent to local servers that want no key: the SDKs refuse to start without one.
DUMMY_KEY = "not-needed"


@dataclass(frozen=True)
class Connection:
    """A resolved endpoint: base URL (None = the SDK's default) and the key, or why they are missing."""

    base_url: str | None
    api_key: str | None
    key_envs: tuple[str, ...]
    problem: str | None = None

    def __repr__(self) -> str:  # the key must never reach a log or a traceback
        return f"Connection(base_url={self.base_url!r}, key_envs={self.key_envs!r}, problem={self.problem!r})"


def key_envs(spec: ModelSpec) -> tuple[str, ...]:
    """The environment variables a key is read from, in order."""
    if spec.endpoint.api_key_env:
        return (spec.endpoint.api_key_env,)
    return provider(spec.provider).key_envs if spec.provider else REGISTRY["openai"].key_envs


def resolve(spec: ModelSpec, env: dict[str, str] | None = None) -> Connection:
    """Base URL: spec, else its env var, else the spec's default_base_url, else the provider default."""
    env = dict(os.environ) if env is None else env
    envs = key_envs(spec)
    base_url = spec.endpoint.base_url or (env.get(spec.endpoint.base_url_env) if spec.endpoint.base_url_env else None)
    base_url = base_url or spec.extra.get("default_base_url") or None
    problem: str | None = None
    if base_url is None and spec.provider and provider(spec.provider).needs_base_url:
        var = spec.endpoint.base_url_env
        where = f"{var} (the OpenAI-compatible base URL of your {_server(spec)})" if var else "a base URL"
        problem = f"--gw-model {spec.name} needs {where} or --gw-model-opt endpoint.base_url=…"
    key = next((env[v] for v in envs if env.get(v)), None)
    redact.remember(key, urlsplit(base_url).password if base_url else None)  # never stored or printed from here on
    if key is None:
        if spec.endpoint.api_key_required:
            problem = problem or f"--gw-model {spec.name} needs an API key: set {' or '.join(envs)}"
        else:
            key = DUMMY_KEY
    return Connection(base_url.rstrip("/") if base_url else None, key, envs, problem)


def _server(spec: ModelSpec) -> str:
    var = (spec.endpoint.base_url_env or "").upper()
    return "vLLM server" if "VLLM" in var else "server"
