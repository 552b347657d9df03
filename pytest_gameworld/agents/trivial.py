"""Trivial policies: const:<control>, const-key:<KEY>, cycle:<a>+<b>+... (built-in agents), and the fixed set of
them calibrate plays per game. They show what a task gives away to a policy that never looks at the screen."""

from __future__ import annotations

from typing import Any

from ..catalog.specs import CatalogError, Control, GameSpec, ModelSpec, Role
from ..play.actions import Proposal
from .base import AgentReply, Observation
from .builtin import _Builtin

TRIVIAL = ("const", "const-key", "cycle")
# cycle's separator: --gw-model splits its value on commas, so the controls of a cycle are joined with "+".
CYCLE_SEP = "+"
_FIXED = {"integer": 0, "number": 0.0, "boolean": False, "string": "a"}


def fixed_args(control: Control) -> dict[str, Any]:
    """The same legal arguments every step: the first cell, the first enum member, else a fixed typed value."""
    out: dict[str, Any] = {}
    for name, spec in control.args.items():
        if name == "cell" and control.cell_bindings:
            out[name] = sorted(control.cell_bindings)[0]
        elif spec.enum:
            out[name] = spec.enum[0]
        else:
            out[name] = _FIXED[spec.type]
    return out


def _names(spec: ModelSpec) -> list[str]:
    arg = str(spec.extra.get("arg") or "").strip()
    if spec.builtin == "cycle":
        names = [n.strip() for n in arg.split(CYCLE_SEP)]
    else:
        names = [arg] if arg else []
    if not names or not all(names):
        form = {"const": "const:<control>", "const-key": "const-key:<KEY>",
                "cycle": f"cycle:<control>{CYCLE_SEP}<control>..."}[str(spec.builtin)]
        raise CatalogError(f"{spec.builtin} needs its argument: --gw-model {form}")
    return names


def controls_for(spec: ModelSpec, role_name: str, role: Role, game_id: str) -> list[Control]:
    """The controls a const: or cycle: spec plays for one role, in turn; CatalogError names the role's controls
    when one is not among them (a two-role game plays the same name for every role)."""
    found = []
    for name in _names(spec):
        control = role.control(name)
        if control is None:
            raise CatalogError(f"{spec.name}: {game_id} role {role_name!r} has no control {name!r}; its controls: "
                               f"{', '.join(c.id for c in role.controls)}")
        found.append(control)
    return found


def legal_key(spec: ModelSpec, role_name: str, role: Role, game_id: str) -> str:
    """The key a const-key: spec presses (Space for " "); CatalogError names the role's allowed keys."""
    key = _names(spec)[0]
    keys = ["Space" if k == " " else k for k in role.cua.keys]
    if role.cua.any_key:
        return key
    match = next((k for k in keys if k == key), None) or next((k for k in keys if k.lower() == key.lower()), None)
    if match is None:
        raise CatalogError(f"{spec.name}: {game_id} role {role_name!r} does not allow key {key!r}; allowed keys: "
                           f"{', '.join(keys) or '(none)'}")
    return match


def trivial_problem(spec: ModelSpec, game: GameSpec) -> str | None:
    """Why a trivial spec cannot play this game (checked at collection), or None."""
    if spec.builtin not in TRIVIAL:
        return None
    try:
        for role_name, role in game.roles.items():
            if spec.builtin == "const-key":
                legal_key(spec, role_name, role, game.id)
            else:
                controls_for(spec, role_name, role, game.id)
    except CatalogError as exc:
        return str(exc)
    return None


def _movement_pair(controls: list[Control]) -> list[str]:
    """The game's turn-about pair: its first control naming left and its first naming right (else up/down)."""
    for a, b in (("left", "right"), ("up", "down")):
        first = [next((c.id for c in controls if w in c.id.split("_")), None) for w in (a, b)]
        if all(first):
            return [str(n) for n in first]
    return []


def trivial_set(game: GameSpec) -> list[str]:
    """The trivial policies calibrate plays on a game's tasks: noop, const:<control> for every control but wait
    that every role has, and cycle: of the game's left/right pair (up/down where it has none)."""
    roles = list(game.roles.values())
    shared = [c for c in roles[0].controls if c.id != "wait" and all(r.control(c.id) for r in roles[1:])]
    out = ["noop", *(f"const:{c.id}" for c in shared)]
    pair = _movement_pair(shared)
    if pair:
        out.append("cycle:" + CYCLE_SEP.join(pair))
    return out


class ConstAgent(_Builtin):
    """const:<control> and cycle:<a>+<b>: the named controls in turn, one per step, fixed arguments."""

    def __init__(self, spec: ModelSpec) -> None:
        super().__init__()
        self.spec = spec
        self.controls: list[Control] = []

    async def begin(self, ctx: Any) -> None:
        await super().begin(ctx)
        self.controls = controls_for(self.spec, ctx.role_name, ctx.role, ctx.game.id)

    async def act(self, obs: Observation) -> AgentReply:
        control = self.controls[obs.step % len(self.controls)]
        return AgentReply(calls=[Proposal(control.id, fixed_args(control))])


class ConstKeyAgent(_Builtin):
    """const-key:<KEY>: a computer-use agent pressing one legal key every step."""

    interface = "cua"

    def __init__(self, spec: ModelSpec) -> None:
        super().__init__()
        self.spec = spec
        self.key = ""

    async def begin(self, ctx: Any) -> None:
        await super().begin(ctx)
        self.key = legal_key(self.spec, ctx.role_name, ctx.role, ctx.game.id)

    async def act(self, obs: Observation) -> AgentReply:
        return AgentReply(calls=[Proposal("press_key", {"key": self.key})])
