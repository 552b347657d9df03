"""The benchmark test function; the plugin parametrizes it with one case per task × model × repeat."""

from __future__ import annotations

import pytest

from ..catalog.run_cases import Case
from .run_engine import RunEngine, agents_overridden


def test_gameworld(request: pytest.FixtureRequest, gw_case: Case, gw_engine: RunEngine) -> None:
    """Play the run to its end (or wait for it: the engine may have started it ahead, --gw-concurrency); it
    passes when played and scored, solved or not.

    Whether it may start at all (cost limit, circuit breaker) is decided before (hold_back.py).
    """
    # A conftest's own agent fixtures are set up by pytest now, at the item's turn.
    agents = request.getfixturevalue("gw_agents") if agents_overridden(request.node) else None
    outcome = gw_engine.outcome(request.node, agents)
    if outcome.trace_problem:
        request.node.user_properties.append(("trace_problem", outcome.trace_problem))
    request.node.user_properties.extend(outcome.record.properties())
    if outcome.expected_final is not None and outcome.expected_final != outcome.final_state:
        pytest.fail("replay diverged: the final state differs from the recorded one", pytrace=False)
