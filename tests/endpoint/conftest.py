"""Fixtures that run the loopback endpoint as a real subprocess and read its JSONL log."""

from __future__ import annotations

import base64
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]
# Generous: the CI box may be loaded; a normal start takes a fraction of a second.
START_TIMEOUT_S = 15.0


@dataclass
class Endpoint:
    """A running server process: its base URL, log file and the announced first line."""

    process: subprocess.Popen[bytes]
    url: str
    log_path: Path
    banner: str
    start_s: float
    stderr_path: Path
    _stopped: bool = field(default=False)

    def records(self) -> list[dict[str, Any]]:
        """Every JSONL log record written so far."""
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.strip()]

    def posts(self) -> list[dict[str, Any]]:
        """Log records for POST requests only."""
        return [r for r in self.records() if r["method"] == "POST"]

    def stop(self) -> int:
        """SIGTERM and wait; returns the exit code."""
        if self._stopped:
            return self.process.returncode
        self._stopped = True
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def start_endpoint(tmp_path: Path, protocol: str, policy: str = "random", seed: int = 0,
                   extra: list[str] | None = None, name: str = "server") -> Endpoint:
    """Start ``python -m pytest_gameworld.endpoint`` and wait for its first stdout line."""
    log_path = tmp_path / f"{name}.jsonl"
    stderr_path = tmp_path / f"{name}.stderr"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "pytest_gameworld.endpoint", "--protocol", protocol, "--policy", policy,
           "--port", "0", "--seed", str(seed), "--log", str(log_path), *(extra or [])]
    started = time.monotonic()
    # stderr goes to a file: a pipe nobody reads could fill up and stall the server.
    with open(stderr_path, "wb") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, cwd=tmp_path, env=env)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], START_TIMEOUT_S)
    if not ready:
        proc.kill()
        raise RuntimeError(f"endpoint did not start: {stderr_path.read_text()}")
    banner = proc.stdout.readline().decode().strip()
    elapsed = time.monotonic() - started
    if not banner.startswith(f"serving {protocol} on http://127.0.0.1:"):
        proc.kill()
        raise RuntimeError(f"unexpected banner {banner!r}: {stderr_path.read_text()}")
    url = banner.split(" on ", 1)[1]
    return Endpoint(proc, url, log_path, banner, elapsed, stderr_path)


@pytest.fixture
def endpoint(tmp_path: Path) -> Iterator[Callable[..., Endpoint]]:
    """Factory fixture: ``endpoint("openai", policy=..., seed=...)``; all stopped at teardown."""
    started: list[Endpoint] = []

    def make(protocol: str, policy: str = "random", seed: int = 0, extra: list[str] | None = None) -> Endpoint:
        ep = start_endpoint(tmp_path, protocol, policy, seed, extra, name=f"server{len(started)}")
        started.append(ep)
        return ep

    yield make
    for ep in started:
        ep.stop()


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
