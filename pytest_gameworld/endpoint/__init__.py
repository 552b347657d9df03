"""Loopback model endpoint speaking the OpenAI, Anthropic and Gemini wire protocols.

Run it with ``python -m pytest_gameworld.endpoint --protocol openai --policy random``;
the first stdout line is ``serving <protocol> on <base url>``.
"""

from __future__ import annotations

from .app import PROTOCOLS, App
from .computer import ComputerAction, parse_action
from .core import Decision, Fault, PolicyInput, Reply, ToolCall, Usage
from .policy import NoopPolicy, RandomPolicy, ScriptedPolicy, make_policy
from .server import EndpointServer, run_in_thread, serve_main

__all__ = [
    "PROTOCOLS", "App", "ComputerAction", "Decision", "EndpointServer", "Fault", "NoopPolicy",
    "PolicyInput", "RandomPolicy", "Reply", "ScriptedPolicy", "ToolCall", "Usage", "make_policy",
    "parse_action", "run_in_thread", "serve_main",
]
