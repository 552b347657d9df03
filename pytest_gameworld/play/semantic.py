"""Semantic control parsing: a registered control id and its arguments → low-level action (pure)."""

from __future__ import annotations

import math
from typing import Any

from ..catalog.specs import ArgSpec, Control, CuaControls, Parsing, Role, Viewport
from .actions import (
    Action,
    Illegal,
    Proposal,
    Verdict,
    build_action,
    check_legal,
    no_call,
    noop,
    out_of_bounds,
    parse_cua,
)
from .output_limits import shown

_NAME_KEYS = ("action", "tool_name", "tool_id", "name")
_PROTECTED = {"duration_ms", "duration", "key", "keys", "action"}
_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}


def control_name(call: Proposal) -> tuple[str | None, dict[str, Any]]:
    """The control id, from the call's name or an `action`/`tool_name`/`tool_id`/`name` argument."""
    args = dict(call.args)
    name = call.name
    if not name or name in ("call_action", "act", "action", "semantic_action"):
        for key in _NAME_KEYS:
            if isinstance(args.get(key), str):
                name = args.pop(key)
                break
    nested = args.pop("arguments", None) or args.pop("args", None)
    if isinstance(nested, dict):
        args.update(nested)
    return name, args


def _check_arg(name: str, spec: ArgSpec, value: Any) -> None:
    types = _TYPES[spec.type]
    if isinstance(value, bool) and bool not in types:
        raise Illegal(f"argument {name!r} must be a {spec.type}")
    if not isinstance(value, types):
        raise Illegal(f"argument {name!r} must be a {spec.type}, got {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise Illegal(f"argument {name!r} must be a finite number, got {value!r}")
    if spec.enum is not None and value not in spec.enum:
        raise Illegal(f"argument {name!r} must be one of {spec.enum}")


def bind(control: Control, args: dict[str, Any]) -> dict[str, Any]:
    """Merge runtime arguments into the control's binding; duration and keys stay the binding's."""
    for name, spec in control.args.items():
        if name not in args:
            if spec.required:
                raise Illegal(f"{control.id} needs argument {name!r}")
            continue
        _check_arg(name, spec, args[name])
    merged = control.binding.model_dump(exclude_none=True)
    if control.cell_bindings is not None:
        cell = str(args.get("cell", "")).strip().lower()
        if cell not in control.cell_bindings:
            raise Illegal(f"unknown cell {shown(args.get('cell'))}")
        merged["x"], merged["y"] = control.cell_bindings[cell]
    for key, value in args.items():
        if key in control.args and key not in _PROTECTED and key not in merged and key != "cell":
            merged[key] = value
    return merged


def parse_semantic(call: Proposal, role: Role, viewport: Viewport, default_ms: int,
                   parsing: Parsing = "original") -> Verdict:
    """Classify a generalist proposal and produce the binding's action to execute.

    "paper": the id may be an alias, in any case, or sit in an ``action``/``tool_name``/``tool_id``/``name``
    argument; "original": the call's name must be a control id exactly (the original harness's lookup).
    """
    fallback = noop(default_ms)
    if call.refused:
        return no_call(default_ms, call.malformed or "the reply was refused by the format's parser")
    if call.malformed:
        return Verdict("oos", fallback, call.malformed)
    problem = out_of_bounds(call)
    if problem:
        return Verdict("oos", fallback, problem)
    name, args = control_name(call) if parsing == "paper" else (call.name, dict(call.args))
    if not isinstance(name, str) or not name.strip():
        return Verdict("oos", fallback, "no control id given")
    control = role.control(name) if parsing == "paper" else next((c for c in role.controls if c.id == name), None)
    if control is None:
        return Verdict("oos", fallback, f"unknown control {shown(name)}")
    try:
        binding = bind(control, args)
        kind = binding.pop("action")
        action: Action = build_action(kind, binding, control.binding.duration_ms)
        check_legal(action, _binding_rights(role, action), viewport)
    except Illegal as exc:
        return Verdict("oos", fallback, str(exc), control=control.id)
    return Verdict("valid", action, control=control.id)


def _binding_rights(role: Role, action: Action) -> CuaControls:
    """A registered binding may use its own keys; only the viewport bound applies to its points."""
    return role.cua.model_copy(update={"clicks": True, "keys": list(action.keys) + list(action.text)})


def classify(calls: list[Proposal], interface: str, role: Role, viewport: Viewport,
             parsing: Parsing = "original") -> Verdict:
    """The verdict for one reply: its first call, parsed for the interface; no call at all is NTC."""
    default_ms = role.cua.default_hold_ms
    if not calls:
        return no_call(default_ms)
    if interface == "generalist":
        return parse_semantic(calls[0], role, viewport, default_ms, parsing)
    return parse_cua(calls[0], role.cua, viewport, typed_keys=parsing == "paper")
