"""A task the game reports as met before any action: nothing the agent did could have earned it (pure).

A run that starts solved would be scored success in 0 steps; a page whose start state already meets the
target is broken or cheating, so the run is a fault with this cause and `gameworld validate` names the task.
"""

from __future__ import annotations

from typing import Any

from ..catalog.specs import TaskSpec
from .evaluator import ScoreError, requirements_met, task_score


def solved_at_start(task: TaskSpec, state: dict[str, Any]) -> str | None:
    """Why the task is already met in this start state (score at its target, requirements met), else None.
    A score field that does not read is not this check's to report (the evaluator names it)."""
    try:
        score = task_score(task, state)
        if score < task.target or not requirements_met(task, state):
            return None
    except ScoreError:
        return None
    fields = task.score if isinstance(task.score, str) else "+".join(task.score.fields)
    return (f"task {task.id} is already solved at its start, before any action ({fields} = {score:g}, "
            f"target {task.target:g}): the page's start state is broken or not the game's own")
