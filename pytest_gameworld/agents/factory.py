"""Build the agent a model spec names."""

from __future__ import annotations

from ..catalog import CatalogError, ModelSpec
from .base import Agent
from .builtin import NoopAgent, OracleAgent, RandomAgent, RandomCuaAgent, ReplayAgent


def make_agent(spec: ModelSpec) -> Agent:
    """The agent for a spec: a built-in policy, or a provider client (imported lazily)."""
    if spec.builtin == "noop":
        return NoopAgent()
    if spec.builtin == "random":
        return RandomAgent()
    if spec.builtin == "random-cua":
        return RandomCuaAgent()
    if spec.builtin == "oracle":
        return OracleAgent()
    if spec.builtin == "replay":
        if not spec.extra.get("arg"):
            raise CatalogError("replay needs a trajectory: --gw-model replay:<path to steps.jsonl>")
        return ReplayAgent(spec.extra["arg"])
    from .providers import make_provider_agent  # SDKs are imported only when a provider is used

    return make_provider_agent(spec)
