"""Model-provider agents (OpenAI, Anthropic, Gemini, OpenAI-compatible servers); SDKs imported lazily.

Which provider speaks which api through which agent class is catalog/providers.py's registry."""

from __future__ import annotations

import importlib
from typing import Any

from ...catalog.providers import provider as registry_entry
from ...catalog.specs import CatalogError, ModelSpec
from ..base import Agent
from .sdk import require


def load(ref: str) -> Any:
    """The object a registry entry names as ``module:attribute`` under this package (imported now)."""
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)


def make_provider_agent(spec: ModelSpec) -> Agent:
    """The agent class for a spec's provider and api; CatalogError if they do not fit or the SDK is missing."""
    provider, api = spec.provider, spec.api
    if provider is None or api is None:
        raise CatalogError(f"model {spec.name}: a provider model needs 'provider' and 'api'")
    entry = registry_entry(provider)
    if api not in entry.agents:
        raise CatalogError(f"model {spec.name}: api {api!r} does not fit provider {provider!r} "
                           f"(use one of {', '.join(entry.apis)})")
    if api == "text" and spec.text_format is None:
        raise CatalogError(f"model {spec.name}: api 'text' needs text_format (qwen or uitars)")
    require(entry.sdk)  # fail now, with the extra to install, not mid-run
    agent: Agent = load(entry.agents[api])(spec)
    return agent


__all__ = ["load", "make_provider_agent"]
