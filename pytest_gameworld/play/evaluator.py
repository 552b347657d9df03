"""The paper's task metrics: score, progress, success, resets and stop rules (pure)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from ..catalog.specs import TaskSpec

StopReason = Literal["success", "max_steps", "end_rule", "terminal"]
TERMINAL_FLAG = "terminal.isTerminal"
NON_FINITE = ("NaN", "Infinity", "-Infinity")


class ScoreError(ValueError):
    """A score field is missing or not a finite number."""


def read_path(state: dict[str, Any], path: str) -> Any:
    """Follow a dotted path into the state; KeyError names the first missing part."""
    node: Any = state
    for i, part in enumerate(path.split(".")):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(".".join(path.split(".")[: i + 1]))
    return node


def read_number(state: dict[str, Any], path: str) -> float:
    """A finite number at a dotted path, or ScoreError saying what is wrong."""
    try:
        value = read_path(state, path)
    except KeyError as missing:
        raise ScoreError(f"score field '{path}' is missing from the state (no '{missing.args[0]}')") from None
    if value in NON_FINITE:  # as the page's state read carries them (browser/page_scripts.py OBSERVE)
        raise ScoreError(f"score field '{path}' is {value}, not a finite number")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ScoreError(f"score field '{path}' is not a finite number: {value!r}")
    return float(value)


def task_score(task: TaskSpec, state: dict[str, Any]) -> float:
    """The task's score in this state: one field, or the sum/min of several."""
    if isinstance(task.score, str):
        return read_number(state, task.score)
    values = [read_number(state, f) for f in task.score.fields]
    return sum(values) if task.score.aggregate == "sum" else min(values)


def requirements_met(task: TaskSpec, state: dict[str, Any]) -> bool:
    return all(read_number(state, r.field) >= r.min for r in task.requires)


def end_rule_hit(task: TaskSpec, state: dict[str, Any]) -> bool:
    if task.end is None:
        return False
    try:
        return bool(read_path(state, task.end.field) == task.end.equals)
    except KeyError:
        return False


def progress_of(task: TaskSpec, best: float, origin: float | None = None) -> float:
    """clamp((best − origin) / (target − origin), 0, 1); the origin is the task's start unless the task counts
    from its first state (progress_from: first_state), then the higher of start and the first observed score."""
    low = task.start if origin is None or task.progress_from == "start" else max(task.start, origin)
    if low >= task.target:  # the opening state already meets the target: solved, or nothing left to gain
        return 1.0 if best >= task.target else 0.0
    return max(0.0, min(1.0, (best - low) / (task.target - low)))


@dataclass
class StepEval:
    """What the evaluator concluded from one observed state."""

    score: float
    best: float
    progress: float
    success: bool
    terminal: bool
    outcome: str | None
    reset: bool
    stop: StopReason | None
    reason: str | None = None  # the game's terminal.reason code when terminal (game contract)


@dataclass
class Evaluator:
    """Tracks one run across episodes: run-level best, success, resets and stopping."""

    task: TaskSpec
    best: float = -math.inf
    success: bool = False
    episodes: int = 1
    history: list[float] = field(default_factory=list)

    @property
    def progress(self) -> float:
        return progress_of(self.task, self.best, self.history[0]) if self.history else 0.0

    def observe(self, state: dict[str, Any], steps_taken: int) -> StepEval:
        """Score a state seen after `steps_taken` steps and decide reset/stop."""
        score = task_score(self.task, state)
        self.history.append(score)
        self.best = max(self.best, score)
        if score >= self.task.target and requirements_met(self.task, state):
            self.success = True
        term = state.get("terminal") or {}
        if not isinstance(term, dict):
            raise ScoreError(f"state field 'terminal' is not an object: {type(term).__name__}")
        terminal = bool(term.get("isTerminal")) or state.get("status") == "terminal"
        outcome = term.get("outcome") if terminal else None
        reason = term.get("reason") if terminal and isinstance(term.get("reason"), str) else None
        stop: StopReason | None = None
        reset = False
        # An end rule on the terminal flag itself does not end the run on a failure the task continues after:
        # the game resets as on any failure (145 of the original's 170 tasks say end_field: terminal.isTerminal
        # with continue_on_fail, and the original resets there).
        fail_continues = (self.task.continue_on_fail and terminal and outcome == "fail"
                          and self.task.end is not None and self.task.end.field == TERMINAL_FLAG)
        if self.success:
            stop = "success"
        elif end_rule_hit(self.task, state) and not fail_continues:
            stop = "end_rule"
        elif terminal:
            # Any terminal that did not meet the task (fail, game-level success short of the
            # target, or an unknown outcome) ends the episode; the run goes on only by reset.
            if self.task.continue_on_fail and steps_taken < self.task.max_steps:
                reset = True
            else:
                stop = "terminal" if steps_taken < self.task.max_steps else "max_steps"
        if stop is None and steps_taken >= self.task.max_steps:
            stop, reset = "max_steps", False
        return StepEval(score, self.best, self.progress, self.success, terminal, outcome, reset, stop, reason)

    def begin_episode(self) -> None:
        self.episodes += 1
