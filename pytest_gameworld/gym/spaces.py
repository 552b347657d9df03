"""The environments' action and observation spaces, and an action of them as the call a model would make.

An action is turned into the same ``Proposal`` a model's reply becomes and judged by ``play/semantic.classify``,
so its legality, its verdict (valid, NTC, OOS) and what executes for it are the benchmark's own.
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces

from ..agents.providers.coords import downscaled_size
from ..catalog.specs import Control, GameSpec, Role
from ..play.actions import MAX_ACTION_MS, MOUSE_BUTTONS, Proposal, normalize_key
from .options import EnvOptions

# The low-level kinds a computer-use action picks by index ("kind"), in this order.
CUA_KINDS = ("wait", "press_key", "click", "right_click", "click_hold", "drag", "mouse_move", "scroll", "type")
# Keys beside a role's own (pressing one the role may not use is an illegal action, judged as the benchmark does).
OTHER_KEYS = ("Enter", "Escape", " ", "Tab", "Backspace", "Shift", "Control", "Alt", "ArrowUp", "ArrowDown",
              "ArrowLeft", "ArrowRight", *string.ascii_lowercase, *string.digits)
MAX_SCROLL = 2000  # pixels per axis in the space (a call given as a plain mapping may ask more; the parser bounds it)
MAX_TYPED = 32  # characters a "text" of the space may hold
TYPED_CHARSET = string.ascii_letters + string.digits + string.punctuation + " "
STATE_CHARSET = string.printable  # state_text is JSON with non-ASCII escaped: printable ASCII and newlines


@dataclass(frozen=True)
class Choice:
    """One entry of a generalist Discrete space: a control and the arguments it is called with."""

    control: str
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.control + ("(" + ", ".join(f"{k}={v}" for k, v in self.args.items()) + ")" if self.args else "")


def _arg_values(control: Control, name: str) -> list[Any] | None:
    """The values an argument can take, when they are few and known (a cell, an enum); None otherwise."""
    if name == "cell" and control.cell_bindings:
        return list(control.cell_bindings)
    spec = control.args[name]
    return list(spec.enum) if spec.enum else None


def generalist_choices(role: Role) -> list[Choice]:
    """Every control of the role, once per combination of its enumerable arguments (a Minesweeper cell, an enum
    member); an argument of free text or number is left out of the index (give it with a mapping instead)."""
    out: list[Choice] = []
    for control in role.controls:
        named = {n: v for n in control.args if (v := _arg_values(control, n)) is not None}
        for combo in itertools.product(*named.values()):
            out.append(Choice(control.id, dict(zip(named, combo))))
    return out


def generalist_proposal(action: Any, choices: list[Choice]) -> Proposal:
    """The call for a generalist action: an index into ``choices``, a control's name, or a mapping
    ``{"control": name, "args": {...}}`` (how a control with a free-text argument, Wordle's guess, is called).
    A name is untrusted like a model's (an unknown one is OOS); an index outside the space is the caller's error."""
    if isinstance(action, str):
        return Proposal(action, {})
    if isinstance(action, Mapping):
        args = action.get("args") or {}
        return Proposal(action.get("control"), dict(args) if isinstance(args, Mapping) else {},
                        malformed=None if isinstance(args, Mapping) else "args is not a mapping")
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        if not 0 <= int(action) < len(choices):
            raise ValueError(f"action {int(action)} is outside Discrete({len(choices)})")
        choice = choices[int(action)]
        return Proposal(choice.control, dict(choice.args))
    if isinstance(action, np.ndarray) and action.shape == ():
        return generalist_proposal(action.item(), choices)
    raise ValueError(f"a generalist action is an index, a control name or {{'control', 'args'}}, "
                     f"not {type(action).__name__}")


def key_names(role: Role) -> list[str]:
    """The keys of a computer-use action's "keys" field: the role's own first, then others (illegal for it)."""
    own = [normalize_key(k) for k in role.cua.keys]
    return list(dict.fromkeys([*own, *(normalize_key(k) for k in OTHER_KEYS)]))


def cua_space(role: Role, game: GameSpec) -> spaces.Dict:
    """A low-level action: its kind, keys pressed together, a point and a second point (a drag's end, a look's
    target), scroll pixels, a hold in ms (0: the role's default), typed text and a mouse button."""
    vp = game.viewport
    # Pixels and milliseconds are whole numbers: discrete spaces (no float Box to round, nothing to normalize).
    return spaces.Dict({
        "kind": spaces.Discrete(len(CUA_KINDS)),
        "keys": spaces.MultiBinary(len(key_names(role))),
        "point": spaces.MultiDiscrete([vp.width, vp.height]),
        "to_point": spaces.MultiDiscrete([vp.width, vp.height]),
        "scroll": spaces.MultiDiscrete([2 * MAX_SCROLL + 1] * 2, start=[-MAX_SCROLL, -MAX_SCROLL]),
        "duration_ms": spaces.Discrete(MAX_ACTION_MS + 1),
        "text": spaces.Text(MAX_TYPED, min_length=0, charset=TYPED_CHARSET),
        "button": spaces.Discrete(len(MOUSE_BUTTONS)),
    })


def _int(value: Any) -> int:
    return int(np.asarray(value).item())


def cua_proposal(action: Any, keys: list[str]) -> Proposal:
    """The call for a computer-use action of ``cua_space``; a mapping whose "kind" (or "action") is a name is
    taken as a model's call as it stands ({"kind": "click", "x": 10, "y": 20}), so anything a model may ask
    can be asked, and is judged the same way."""
    if not isinstance(action, Mapping):
        raise ValueError(f"a computer-use action is a mapping, not {type(action).__name__}")
    name = action.get("kind", action.get("action"))
    if isinstance(name, str) or name is None:
        return Proposal(name, {k: v for k, v in action.items() if k not in ("kind", "action")})
    index = _int(name)
    if not 0 <= index < len(CUA_KINDS):
        raise ValueError(f"kind {index} is outside Discrete({len(CUA_KINDS)})")
    kind = CUA_KINDS[index]
    args: dict[str, Any] = {}
    if _int(action.get("duration_ms", 0)) > 0:
        args["duration_ms"] = _int(action["duration_ms"])
    if kind == "press_key":
        pressed = np.flatnonzero(np.asarray(action.get("keys", []))).tolist()
        names = [keys[i] for i in pressed if i < len(keys)]
        if names:
            args["keys"] = names  # none pressed: press_key without a key, an illegal call (OOS)
    elif kind == "type":
        args["text"] = str(action.get("text", ""))
    elif kind != "wait":
        x, y = (_int(v) for v in np.asarray(action.get("point", (0, 0))).reshape(-1)[:2])
        args.update(x=x, y=y)
        if kind in ("drag", "mouse_move") and (kind == "drag" or "to_point" in action):
            tx, ty = (_int(v) for v in np.asarray(action.get("to_point", (x, y))).reshape(-1)[:2])
            if kind == "drag" or (tx, ty) != (x, y):
                args.update(to_x=tx, to_y=ty)
        if kind == "scroll":
            dx, dy = (_int(v) for v in np.asarray(action.get("scroll", (0, 0))).reshape(-1)[:2])
            args.update(dx=dx, dy=dy)
        if kind in ("click", "click_hold", "drag"):
            args["button"] = MOUSE_BUTTONS[_int(action.get("button", 0)) % len(MOUSE_BUTTONS)]
    return Proposal(kind, args)


def picture_size(game: GameSpec, width: int | None) -> tuple[int, int]:
    """(width, height) of the observed picture: the viewport, shrunk to the model's width keeping its aspect."""
    return downscaled_size(game.viewport.width, game.viewport.height, width)


def observation_space(game: GameSpec, obs: str, width: int | None, max_state_bytes: int) -> spaces.Space:
    """screenshot: an RGB Box (height, width, 3); state: the observable state as text; both: a Dict of the two."""
    w, h = picture_size(game, width)
    picture = spaces.Box(0, 255, shape=(h, w, 3), dtype=np.uint8)
    text = spaces.Text(max_state_bytes, min_length=0, charset=STATE_CHARSET)
    if obs == "screenshot":
        return picture
    if obs == "state":
        return text
    return spaces.Dict({"screenshot": picture, "state": text})


def env_spaces(game: GameSpec, opts: EnvOptions, choices: Mapping[str, list[Choice]]) -> tuple[spaces.Space,
                                                                                                 spaces.Space]:
    """One environment's action space (per role: generalist a Discrete over ``choices``, computer use the Dict
    of ``cua_space``) and observation space."""
    if opts.interface == "generalist":
        action = per_role(game, lambda name, _: spaces.Discrete(len(choices[name])))
    else:
        action = per_role(game, lambda _, role: cua_space(role, game))
    return action, observation_space(game, opts.obs, opts.screenshot_width, opts.browser.max_state_bytes)


def per_role(game: GameSpec, space_of: Any) -> spaces.Space:
    """One role's space as it is; a game of several roles (Fireboy and Watergirl) a Dict of them by role name."""
    roles = list(game.roles)
    if len(roles) == 1:
        return space_of(roles[0], game.roles[roles[0]])
    return spaces.Dict({name: space_of(name, game.roles[name]) for name in roles})
