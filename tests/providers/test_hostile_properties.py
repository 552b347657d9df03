"""Property: any reply, for every provider interface, is a legal action or a counted no-op with a reason."""

from __future__ import annotations

import pytest
from hostile import LABELS, agent_for, check_reply, responses
from hypothesis import HealthCheck, given, settings

# The regular suite's budget; benchmarks/hostile_replies.py runs 10 000 per interface.
EXAMPLES = 100


# Hypothesis takes an xdist worker to be still starting up and warns on each strategy it builds (a warning per
# worker in every run, nothing to act on).
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisSideeffectWarning")
@pytest.mark.parametrize("label", LABELS)
def test_hostile_replies_never_raise(label: str) -> None:
    agent = agent_for(label)

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(responses(label))
    def run(response: object) -> None:
        check_reply(agent, response)

    run()
