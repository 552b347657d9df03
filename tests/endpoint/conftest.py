"""Fixtures that run the loopback endpoint as a real subprocess and read its JSONL log."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_gameworld.endpoint.process import EndpointProcess

Endpoint = EndpointProcess


@pytest.fixture
def endpoint(serve: Callable[..., Endpoint]) -> Callable[..., Endpoint]:
    """Factory fixture: ``endpoint("openai", policy=..., seed=...)``; all stopped at teardown."""

    def make(protocol: str, policy: str = "random", seed: int = 0, extra: list[str] | None = None) -> Endpoint:
        return serve(protocol, policy=policy, seed=seed, extra=extra or ())

    return make


@pytest.fixture
def script(tmp_path: Path) -> Callable[[Any], str]:
    """Write a scripted-policy file and return the ``scripted:<file>`` policy spec."""
    counter = {"n": 0}

    def write(entries: Any, suffix: str = ".json") -> str:
        counter["n"] += 1
        path = tmp_path / f"script{counter['n']}{suffix}"
        if suffix == ".json":
            path.write_text(json.dumps(entries))
        else:
            path.write_text(entries if isinstance(entries, str) else json.dumps(entries))
        return f"scripted:{path}"

    return write


@pytest.fixture
def cell_schema() -> dict[str, Any]:
    """Arguments of the ``reveal_cell`` control used across the tests."""
    return {
        "type": "object",
        "properties": {"cell": {"type": "string", "enum": ["a1", "a2", "b1", "b2"]},
                       "times": {"type": "integer", "minimum": 1, "maximum": 1000}},
        "required": ["cell", "times"],
    }


@pytest.fixture
def screenshot_1024x768() -> str:
    """A data URL whose PNG header says 1024x768 (only the header is ever read)."""
    header = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (1024).to_bytes(4, "big") + (768).to_bytes(4, "big")
              + b"\x08\x06\x00\x00\x00")
    return "data:image/png;base64," + base64.b64encode(header + b"\x00" * 600).decode()
