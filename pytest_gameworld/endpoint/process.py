"""Run the endpoint as a real subprocess (for tests and scripts) and read its JSONL log."""

from __future__ import annotations

import json
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Generous: a loaded machine may need a few seconds; a normal start takes a fraction of one.
START_TIMEOUT_S = 20.0


@dataclass
class EndpointProcess:
    """A running `gameworld serve` process: its base URL, log file and first stdout line."""

    process: subprocess.Popen[bytes]
    url: str
    log_path: Path
    banner: str
    start_s: float
    stderr_path: Path
    _stopped: bool = field(default=False)

    def records(self) -> list[dict[str, Any]]:
        """Complete log lines so far (a line being written right now is left for the next read)."""
        if not self.log_path.exists():
            return []
        text = self.log_path.read_text()
        return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]

    def posts(self, count: int | None = None, timeout_s: float = 5.0) -> list[dict[str, Any]]:
        """The logged POST exchanges; with ``count``, wait up to ``timeout_s`` for that many."""
        deadline = time.monotonic() + timeout_s
        while True:
            found = [r for r in self.records() if r["method"] == "POST" and "event" not in r]
            if count is None or len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.02)

    def stop(self) -> int:
        """SIGTERM and wait; returns the exit code."""
        if self._stopped:
            return int(self.process.returncode)
        self._stopped = True
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def spawn_endpoint(protocol: str, policy: str = "random", *, workdir: Path, seed: int = 0,
                   extra: Sequence[str] = (), name: str = "server", log: bool = True) -> EndpointProcess:
    """Start `python -m pytest_gameworld.endpoint` and wait for the line that names its URL (``log``: keep
    every exchange in ``<name>.jsonl``; off for benchmarks, where writing it would slow every answer)."""
    log_path = workdir / f"{name}.jsonl"
    stderr_path = workdir / f"{name}.stderr"
    cmd = [sys.executable, "-m", "pytest_gameworld.endpoint", "--protocol", protocol, "--policy", policy,
           "--port", "0", "--seed", str(seed), *(["--log", str(log_path)] if log else []), *extra]
    started = time.monotonic()
    # stderr goes to a file: a pipe nobody reads could fill up and stall the server.
    with open(stderr_path, "wb") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, cwd=workdir)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], START_TIMEOUT_S)
    if not ready:
        proc.kill()
        raise RuntimeError(f"endpoint did not start: {stderr_path.read_text()}")
    banner = proc.stdout.readline().decode().strip()
    if not banner.startswith(f"serving {protocol} on http://127.0.0.1:"):
        proc.kill()
        raise RuntimeError(f"unexpected banner {banner!r}: {stderr_path.read_text()}")
    return EndpointProcess(proc, banner.split(" on ", 1)[1], log_path, banner, time.monotonic() - started,
                           stderr_path)
