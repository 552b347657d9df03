"""A conftest.py for subprocess sessions whose agent fails one task's runs with an endpoint error."""

from pathlib import Path

_CONFTEST = '''
import pytest
from pytest_gameworld.agents import AgentError

class Broken:
    interface = "generalist"
    needs_pixels = False
    async def begin(self, ctx): pass
    async def act(self, obs): raise AgentError("endpoint down after retries")
    async def close(self): pass

@pytest.fixture
def gw_agent(gw_case):
    from pytest_gameworld.agents import make_agent
    return Broken() if gw_case.task.id == "{task}" else make_agent(gw_case.model)
'''


def write_failing_conftest(folder: Path, task: str) -> None:
    """Runs of `task` fail at their first step ("none": every run plays normally)."""
    (folder / "conftest.py").write_text(_CONFTEST.format(task=task))
