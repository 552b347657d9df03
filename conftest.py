"""The repository's own test configuration: pytester, and the loopback model endpoint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import pytest

from pytest_gameworld.endpoint.process import EndpointProcess, spawn_endpoint

pytest_plugins = ["pytester"]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., EndpointProcess]]:
    """serve(protocol, entries=None, policy="random", seed=0, extra=()) runs `gameworld serve` as a process.

    ``entries`` (a list of scripted replies and faults) selects the scripted policy.
    """
    started: list[EndpointProcess] = []

    def start(protocol: str, entries: list[dict[str, Any]] | None = None, policy: str = "random", seed: int = 0,
              extra: Sequence[str] = ()) -> EndpointProcess:
        n = len(started)
        if entries is not None:
            script = tmp_path / f"script{n}.json"
            script.write_text(json.dumps(entries))
            policy = f"scripted:{script}"
        server = spawn_endpoint(protocol, policy, workdir=tmp_path, seed=seed, extra=extra, name=f"server{n}")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
