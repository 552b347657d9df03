"""Build the agent a model spec names."""

from __future__ import annotations

from typing import Any

from ..catalog.specs import CatalogError, ModelSpec
from .base import Agent, AgentReply, Observation, RunContext
from .builtin import NoopAgent, OracleAgent, RandomAgent, RandomCuaAgent, ReplayAgent, SkillAgent
from .trivial import ConstAgent, ConstKeyAgent


class SimulatedLatency:
    """A built-in agent that reports a fixed thinking time, so the real-time protocol bites reproducibly.

    Without it a built-in agent's measured latency (a millisecond or so of wall time) would advance the
    clock under --gw-rt and make runs differ; set it with --gw-model-opt extra.latency_ms=500.
    """

    def __init__(self, agent: Agent, latency_ms: int) -> None:
        self.agent, self.latency_ms = agent, latency_ms
        self.interface, self.needs_pixels = agent.interface, agent.needs_pixels

    def __getattr__(self, name: str) -> Any:  # e.g. the replay agent's final_state
        if name == "agent":  # not set yet (a copy in the making): no recursion
            raise AttributeError(name)
        return getattr(self.agent, name)

    async def begin(self, ctx: RunContext) -> None:
        await self.agent.begin(ctx)

    async def act(self, obs: Observation) -> AgentReply:
        reply = await self.agent.act(obs)
        if reply.latency_ms is None:  # a replayed step keeps its recorded latency
            reply.latency_ms = self.latency_ms
        return reply

    async def close(self) -> None:
        await self.agent.close()


def _builtin(spec: ModelSpec) -> Agent:
    if spec.builtin == "noop":
        return NoopAgent()
    if spec.builtin == "random":
        return RandomAgent()
    if spec.builtin == "random-cua":
        return RandomCuaAgent()
    if spec.builtin in ("const", "cycle"):
        return ConstAgent(spec)
    if spec.builtin == "const-key":
        return ConstKeyAgent(spec)
    if spec.builtin == "oracle":
        skill = spec.extra.get("skill")
        return OracleAgent() if skill is None else SkillAgent(float(skill))
    if not spec.extra.get("arg"):
        raise CatalogError("replay needs a trajectory: --gw-model replay:<path to steps.jsonl>")
    return ReplayAgent(spec.extra["arg"])


def make_agent(spec: ModelSpec) -> Agent:
    """The agent for a spec: a built-in policy, or a provider client (imported lazily)."""
    if spec.builtin == "human":  # a person's thinking time is measured, never simulated
        from .human import HumanAgent

        return HumanAgent(spec)
    if spec.builtin is not None:
        latency = spec.extra.get("latency_ms", 0)
        if isinstance(latency, bool) or not isinstance(latency, int) or latency < 0:
            raise CatalogError(f"{spec.name}: extra.latency_ms must be a whole number of milliseconds >= 0, "
                               f"got {latency!r}")
        return SimulatedLatency(_builtin(spec), latency)
    from .providers import make_provider_agent  # SDKs are imported only when a provider is used

    return make_provider_agent(spec)
