"""A run's running counts: action validity, extra calls, latency, tokens and spend."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..agents.base import AgentReply, Usage
from .actions import Verdict


@dataclass
class Tally:
    """What a run has counted so far; the run record copies it at the end."""

    valid: int = 0
    ntc: int = 0
    oos: int = 0
    extra_calls: int = 0
    latency_s: float = 0.0
    cost: float = 0.0
    usage: Usage = field(default_factory=Usage)
    # --gw-cache hits: how many, and the tokens and cost their original calls spent (none of it spent again).
    cache_hits: int = 0
    cache_usage: Usage = field(default_factory=Usage)
    cache_cost: float = 0.0

    def count(self, verdict: Verdict, reply: AgentReply, latency_s: float, cost: float,
              cached_cost: float = 0.0) -> None:
        setattr(self, verdict.validity, getattr(self, verdict.validity) + 1)
        self.extra_calls += max(0, len(reply.calls) - 1)
        self.latency_s += latency_s
        self.usage.add(reply.usage)
        self.cost += cost
        if reply.cache is not None and reply.cache.hit and reply.cache.usage is not None:
            self.cache_hits += 1
            self.cache_usage.add(reply.cache.usage)
            self.cache_cost += cached_cost
