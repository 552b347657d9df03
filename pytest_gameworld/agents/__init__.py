"""Agents: the built-in policies and the model providers, behind one small protocol."""

from .base import Agent, AgentError, AgentReply, Observation, RunContext, Usage
from .factory import make_agent

__all__ = ["Agent", "AgentError", "AgentReply", "Observation", "RunContext", "Usage", "make_agent"]
