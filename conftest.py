"""The repository's own test configuration: pytester, the loopback model endpoint, and no silent skips in CI."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_gameworld.endpoint.process import EndpointProcess, spawn_endpoint

pytest_plugins = ["pytester"]

# The pytest sessions these tests start (directly or through `gameworld play`/`calibrate`) use no Hypothesis:
# its plugin, installed with the test extras, would cost each of them ~2 s of start-up CPU (measured: 4.1 s
# user with it, 2.2 s without, for one `--collect-only`).
if "hypothesispytest" not in os.environ.get("PYTEST_ADDOPTS", ""):
    os.environ["PYTEST_ADDOPTS"] = f"{os.environ.get('PYTEST_ADDOPTS', '')} -p no:hypothesispytest".strip()


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


# Under CI (CI=true, as .ci/run sets it) a test may be skipped only for a reason listed here: anything else
# (a missing browser, a fixture that found nothing) fails the run, so a green CI means every test ran.
EXPECTED_SKIPS: tuple[str, ...] = ()
_unexpected_skips: list[str] = []


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and _in_ci() and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if not any(expected in reason for expected in EXPECTED_SKIPS):
            _unexpected_skips.append(f"{report.nodeid}: {reason}")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    if _unexpected_skips and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _unexpected_skips:
        terminalreporter.section("skipped for a reason CI does not expect (conftest.py EXPECTED_SKIPS)", red=True)
        for line in _unexpected_skips:
            terminalreporter.write_line(line, red=True)
