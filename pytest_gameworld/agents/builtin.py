"""Built-in agents that need no model: random, random-cua, noop, oracle, oracle@P, replay."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any

from ..catalog.specs import Control
from ..play.actions import Action, Proposal
from ..records.jsonl import read_jsonl
from ..records.run_events import END, START, STEP
from .base import AgentError, AgentReply, Observation, RunContext


class _Builtin:
    interface = "generalist"
    needs_pixels = False

    def __init__(self) -> None:
        self.ctx: RunContext | None = None
        self.rng = random.Random(0)

    async def begin(self, ctx: RunContext) -> None:
        self.ctx = ctx
        # Each role of a multi-role game draws its own stream (single-role seeds stay as they were).
        role = f":{ctx.role_name}" if len(ctx.game.roles) > 1 else ""
        self.rng = random.Random(f"{type(self).__name__}:{ctx.seed}{role}")

    async def close(self) -> None:
        pass


class NoopAgent(_Builtin):
    """Always waits."""

    async def act(self, obs: Observation) -> AgentReply:
        return AgentReply(calls=[Proposal("wait")])


def random_arg(control: Control, name: str, rng: random.Random) -> Any:
    """A legal value for one of a control's arguments: a known cell, an enum member, or a typed value."""
    spec = control.args[name]
    if name == "cell" and control.cell_bindings:
        return rng.choice(sorted(control.cell_bindings))
    if spec.enum:
        return rng.choice(spec.enum)
    if spec.type == "integer":
        return rng.randint(0, 9)
    if spec.type == "number":
        return round(rng.random(), 3)
    if spec.type == "boolean":
        return rng.random() < 0.5
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(5))


def random_args(control: Control, rng: random.Random) -> dict[str, Any]:
    """Legal values for every argument of a control."""
    return {name: random_arg(control, name, rng) for name in control.args}


class RandomAgent(_Builtin):
    """Uniform over the role's registered controls, with random legal arguments (seeded)."""

    async def act(self, obs: Observation) -> AgentReply:
        assert self.ctx is not None
        control = self.rng.choice(self.ctx.role.controls)
        return AgentReply(calls=[Proposal(control.id, random_args(control, self.rng))])


class RandomCuaAgent(_Builtin):
    """Random legal low-level actions: allowed keys, and clicks where the role may click."""

    interface = "cua"

    async def act(self, obs: Observation) -> AgentReply:
        assert self.ctx is not None
        cua, vp = self.ctx.role.cua, self.ctx.game.viewport
        options: list[tuple[str, dict[str, Any]]] = [("wait", {})]
        options += [("press_key", {"key": "Space" if k == " " else k}) for k in cua.keys]
        if cua.clicks:
            options += [("click", {}), ("right_click", {})]
        name, args = self.rng.choice(options)
        if name in ("click", "right_click"):
            args = {"x": self.rng.randrange(vp.width), "y": self.rng.randrange(vp.height)}
        return AgentReply(calls=[Proposal(name, args)])


class OracleAgent(_Builtin):
    """The game's own expert policy (oracle.js), executed through the ordinary parser."""

    async def act(self, obs: Observation) -> AgentReply:
        assert self.ctx is not None
        choice = await self.ctx.session.oracle_act(self.ctx.task.oracle_view(), self.ctx.role_name)
        if not isinstance(choice, dict) or not isinstance(choice.get("control"), str):
            return AgentReply(text=json.dumps(choice), raw=choice)
        return AgentReply(calls=[Proposal(choice["control"], dict(choice.get("args") or {}))], raw=choice)


class SkillAgent(_Builtin):
    """oracle@P, a rung of the skill ladder: each step the oracle's action with probability P, else a random
    legal control (seeded by the run), so P = 0 plays like random and P = 1 like the oracle."""

    def __init__(self, skill: float) -> None:
        super().__init__()
        self.skill = skill
        self.oracle = OracleAgent()

    async def begin(self, ctx: RunContext) -> None:
        await super().begin(ctx)
        await self.oracle.begin(ctx)

    async def act(self, obs: Observation) -> AgentReply:
        assert self.ctx is not None
        if self.rng.random() < self.skill:
            return await self.oracle.act(obs)
        control = self.rng.choice(self.ctx.role.controls)
        return AgentReply(calls=[Proposal(control.id, random_args(control, self.rng))])


class ReplayAgent(_Builtin):
    """Re-executes a recorded trajectory (steps.jsonl): same actions, same latencies; in a
    multi-role run each role replays its own part of every step."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = Path(path)
        self.steps: list[dict[str, Any]] = []
        self.final_state: dict[str, Any] | None = None

    async def begin(self, ctx: RunContext) -> None:
        await super().begin(ctx)
        try:
            if not self.path.is_file():
                raise OSError(f"{self.path}: no such file")
            lines = read_jsonl(self.path)  # a damaged line is refused, named by file and line
        except (OSError, ValueError) as exc:
            raise AgentError(f"cannot replay trajectory: {exc}") from None
        head = next((ln for ln in lines if ln.get("event") == START), {})
        if head and (head.get("task") != ctx.task.id or head.get("game") != ctx.game.id):
            raise AgentError(f"trajectory {self.path} is for {head.get('game')}/{head.get('task')}, "
                             f"not {ctx.game.id}/{ctx.task.id}")
        self.steps = [ln for ln in lines if ln.get("event") == STEP]
        end = next((ln for ln in lines if ln.get("event") == END), None)
        self.final_state = end.get("final_state") if end else None

    async def act(self, obs: Observation) -> AgentReply:
        if obs.step >= len(self.steps):
            raise AgentError(f"trajectory {self.path} has only {len(self.steps)} steps")
        rec = self.steps[obs.step]
        if "roles" in rec:
            assert self.ctx is not None
            if self.ctx.role_name not in rec["roles"]:
                raise AgentError(f"trajectory {self.path} has no role {self.ctx.role_name!r} at step {obs.step}")
            rec = rec["roles"][self.ctx.role_name]
        executed = dict(rec["verdict"]["action"])
        kind, ms = executed.pop("kind"), executed.pop("duration_ms")
        executed["keys"] = tuple(executed.get("keys", ()))
        return AgentReply(action=Action(kind, ms, **executed), validity=rec["verdict"]["validity"],
                          latency_ms=rec.get("latency_ms"))
