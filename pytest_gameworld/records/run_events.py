"""A run's lifecycle as typed events, each one line of its steps.jsonl: the run started, a step was taken, an
episode was reset, the run ended. The play loop makes them (play/runner.py); to_json() is the line, its keys in
the order the trajectory format has always had (readers: records/trajectories.py, the run viewer, live progress,
the replay agent), so files written before these types read the same."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .run_record import RunStatus

START, STEP, RESET, END = "start", "step", "reset", "end"  # the `event` of each line


@dataclass(frozen=True)
class RunStarted:
    """Who plays what: the run's identity, the viewport, and each role's prompt sections."""

    item: str
    game: str
    task: str
    model: str
    seed: int
    repeat: int
    protocol: str
    obs: str
    priced: bool
    viewport: dict[str, int]
    prompts: dict[str, dict[str, str]]  # role -> its prompt sections; one role is written as role/prompt

    def to_json(self) -> dict[str, Any]:
        if len(self.prompts) == 1:
            [(role, prompt)] = self.prompts.items()
            who: dict[str, Any] = {"role": role, "prompt": prompt}
        else:
            who = {"roles": {name: {"prompt": prompt} for name, prompt in self.prompts.items()}}
        return {"event": START, "item": self.item, "game": self.game, "task": self.task, "model": self.model,
                "seed": self.seed, "repeat": self.repeat, "protocol": self.protocol, "obs": self.obs,
                "priced": self.priced, "viewport": self.viewport, **who}


@dataclass(frozen=True)
class StepTaken:
    """One step: what each role was asked and answered (`acted`, the Turn's lines), the state after the actions
    and its score. `notice` and `page_dialogs` are written only when there are any."""

    step: int
    episode: int
    acted: dict[str, Any]
    state: dict[str, Any]
    score: float | None
    best: float | None
    progress: float
    success: bool
    reset: bool
    stop: str | None
    frame: str | None
    notice: str | None = None
    page_dialogs: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"event": STEP, "step": self.step, "episode": self.episode,
                **({"notice": self.notice} if self.notice else {}),
                **({"page_dialogs": self.page_dialogs} if self.page_dialogs else {}), **self.acted,
                "state": self.state, "score": self.score, "best": self.best, "progress": self.progress,
                "success": self.success, "reset": self.reset, "stop": self.stop, "frame": self.frame}


@dataclass(frozen=True)
class EpisodeReset:
    """A failed episode was reset after `step` steps, by `method` (inplace, soft_restart, reload)."""

    step: int
    method: str
    reason: str | None
    outcome: str | None
    notice: str | None

    def to_json(self) -> dict[str, Any]:
        return {"event": RESET, "step": self.step, "method": self.method, "reason": self.reason,
                "outcome": self.outcome, "notice": self.notice}


@dataclass
class RunEnded:
    """How the run ended: ok (with its stop, success, progress and final state), error or interrupted."""

    status: RunStatus = RunStatus.ERROR  # until the run is known to have ended otherwise
    steps: int = 0
    stop: str | None = None
    success: bool | None = None
    progress: float | None = None
    final_state: dict[str, Any] | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": END, "status": self.status.value}
        if self.status is RunStatus.OK:
            out.update(stop=self.stop, success=self.success, progress=self.progress, final_state=self.final_state)
        elif self.error is not None:
            out["error"] = self.error
        return {**out, "steps": self.steps}


RunEvent = RunStarted | StepTaken | EpisodeReset | RunEnded
