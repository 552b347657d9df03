"""Tool definitions: one per registered control (generalist) or one `computer_use` function (CUA) (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...catalog.specs import ArgSpec, Control, Role
from ...play.actions import Proposal

COMPUTER_USE = "computer_use"
CUA_ACTIONS = ("click", "right_click", "click_hold", "drag", "mouse_move", "scroll", "type", "press_key",
               "press_keys", "wait")


@dataclass(frozen=True)
class ToolDef:
    """A provider-neutral function tool: name, description and JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


# The original harness adds this argument to every control's tool, so the model states why it acts.
REASONING_ARG = {"type": "string", "description": "Why this action, in a sentence."}
ReasoningArg = Literal["required", "optional", "omit"]


def _arg_schema(spec: ArgSpec) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": spec.type}
    if spec.description:
        schema["description"] = spec.description
    if spec.enum is not None:
        schema["enum"] = list(spec.enum)
    return schema


def control_tool(control: Control, reasoning: ReasoningArg = "required", aliases: bool = False) -> ToolDef:
    """The function tool for one registered control, with the ``reasoning`` argument unless omitted.

    Aliases reach the description only when ``aliases`` (the paper's parsing, which accepts them).
    """
    props: dict[str, Any] = {name: _arg_schema(spec) for name, spec in control.args.items()}
    required = [name for name, spec in control.args.items() if spec.required]
    if reasoning != "omit" and "reasoning" not in props:
        props["reasoning"] = dict(REASONING_ARG)
        if reasoning == "required":
            required.append("reasoning")
    description = control.description.strip()
    if aliases and control.aliases:
        description += f" (also known as: {', '.join(control.aliases)})"
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:  # the original leaves the key out when nothing is required
        schema["required"] = required
    return ToolDef(control.id, description, schema)


def generalist_tools(role: Role, reasoning: ReasoningArg = "required", aliases: bool = False) -> list[ToolDef]:
    """One tool per registered control of the role, in catalog order."""
    return [control_tool(c, reasoning, aliases) for c in role.controls]


def computer_use_tool(space: str) -> ToolDef:
    """The single low-level `computer_use` function for providers without a native computer tool.

    ``space`` says what the coordinates mean, e.g. "pixels of the 1280x720 screenshot".
    """
    point = f"in {space}"
    props: dict[str, Any] = {
        "action": {"type": "string", "enum": list(CUA_ACTIONS), "description": "The low-level action to perform."},
        "x": {"type": "integer", "description": f"Pointer x {point} (mouse actions)."},
        "y": {"type": "integer", "description": f"Pointer y {point} (mouse actions)."},
        "to_x": {"type": "integer", "description": f"Drag end x {point} (drag)."},
        "to_y": {"type": "integer", "description": f"Drag end y {point} (drag)."},
        "button": {"type": "string", "enum": ["left", "right", "middle"],
                   "description": "Mouse button for click, click_hold and drag (default left)."},
        "direction": {"type": "string", "enum": ["up", "down", "left", "right"], "description": "Scroll direction."},
        "dx": {"type": "integer", "description": "Horizontal scroll distance (scroll, instead of direction)."},
        "dy": {"type": "integer", "description": "Vertical scroll distance, positive is down (scroll)."},
        "text": {"type": "string", "description": "Text to type (type)."},
        "key": {"type": "string", "description": "Key to press, e.g. ArrowUp, Space, Enter, a (press_key)."},
        "keys": {"type": "string", "description": "Keys pressed together, joined by '+', e.g. ArrowUp+ArrowLeft "
                                                  "(press_keys)."},
        "duration": {"type": "number", "description": "How long to hold or wait, in seconds (optional)."},
    }
    description = ("Perform one low-level keyboard or mouse action on the game: click, right_click, click_hold, "
                   "drag, mouse_move, scroll, type, press_key, press_keys or wait.")
    return ToolDef(COMPUTER_USE, description, {"type": "object", "properties": props, "required": ["action"]})


def computer_use_call(call: Proposal) -> Proposal:
    """Our `computer_use` function call as a proposal named by its action."""
    if call.malformed or call.name != COMPUTER_USE:
        return call
    args = dict(call.args)
    action = args.pop("action", None)
    return Proposal(action, args) if isinstance(action, str) and action else call


def strict_schema(parameters: dict[str, Any]) -> dict[str, Any] | None:
    """The schema with no additional properties, for strict mode; None when an argument is optional
    (strict schemas must require every property)."""
    if set(parameters.get("required", [])) != set(parameters.get("properties", {})):
        return None
    return {**parameters, "additionalProperties": False}


def to_openai_chat(tool: ToolDef) -> dict[str, Any]:
    return {"type": "function", "function": {"name": tool.name, "description": tool.description,
                                             "parameters": tool.parameters}}


def to_openai_responses(tool: ToolDef, strict: bool = False) -> dict[str, Any]:
    """A Responses function tool; strict (no additional properties) when asked and every argument is required."""
    schema = strict_schema(tool.parameters) if strict else None
    return {"type": "function", "name": tool.name, "description": tool.description,
            "parameters": schema or tool.parameters, "strict": schema is not None}


def to_anthropic(tool: ToolDef, strict: bool = False) -> dict[str, Any]:
    """An Anthropic custom tool; strict as for Responses."""
    schema = strict_schema(tool.parameters) if strict else None
    out: dict[str, Any] = {"name": tool.name, "description": tool.description,
                           "input_schema": schema or tool.parameters}
    if schema is not None:
        out["strict"] = True
    return out


def to_gemini(tool: ToolDef) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
