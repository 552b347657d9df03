"""Text output formats for requests that declare no tools: what the prompt offers, and the reply as text.

A Qwen3-VL or Seed/UI-TARS spec sends no ``tools``: its prompt says what it may call. This module reads
that offer from the request's text (Qwen's ``<tools>`` declaration, the ``<tool_call>`` output format with
a list of registered controls, or the UI-TARS ``## Action Space``) as tools and a computer the policies
already know, and writes a policy's reply as the text such a model answers with (pure).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from .computer import ComputerAction, canonical_key
from .core import ComputerSpec, Reply, ToolCall, ToolSpec

TextFormat = Literal["qwen", "uitars"]

_TOOLS_BLOCK = re.compile(r"<tools>\s*(\{.*?)\s*</tools>", re.S)  # not the "<tools></tools> tags" mention
_SCREEN = re.compile(r"screen is (\d+)\s*x\s*(\d+)")
_CONTROL_LINE = re.compile(r"^\s*-\s*`([A-Za-z_][\w.-]*)`(.*)$", re.M)
_CONTROL_ARGS = re.compile(r"\((?:arguments|required):\s*([^()]*(?:\([^()]*\)[^()]*)*)\)")
_QUOTED = re.compile(r"'([^']+)'")
_UITARS_KEY = re.compile(r"^press_key\(key='([^']*)'\)", re.M)
_ACTION_SPACE = re.compile(r"^##\s*Action Space\s*$(.*?)(?=^##\s|\Z)", re.M | re.S)
_VERB = re.compile(r"^([a-z_]+)\(", re.M)


@dataclass
class TextOffer:
    """What a tool-less request offers, read from its text: its reply format, tools and computer."""

    format: TextFormat
    tools: list[ToolSpec] = field(default_factory=list)
    computer: ComputerSpec | None = None


def texts(node: Any) -> list[str]:
    """Every string in a request's messages, in order (images are already replaced by placeholders)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in texts(v)]
    if isinstance(node, list):
        return [s for v in node for s in texts(v)]
    return []


def read_offer(text: str, display: tuple[int, int]) -> TextOffer | None:
    """The offer in ``text`` (the request's messages as one string), or None when it names no format."""
    block = _TOOLS_BLOCK.search(text)
    if block is not None:
        return _qwen_declared(block.group(1), display)
    space = _ACTION_SPACE.search(text)
    if space is not None:
        verbs = set(_VERB.findall(space.group(1)))
        keys = tuple(canonical_key(k) for k in _UITARS_KEY.findall(space.group(1)) if k.strip())
        return TextOffer("uitars", computer=ComputerSpec("uitars_action_space", display[0], display[1],
                                                         name="action", disabled=_disabled(verbs), keys=keys,
                                                         declared_size=False))
    if "<tool_call>" in text:
        return TextOffer("qwen", tools=_listed_controls(text))
    return None


def _qwen_declared(block: str, display: tuple[int, int]) -> TextOffer:
    """Qwen's declaration: one JSON function per line; ``computer_use`` becomes the computer."""
    offer = TextOffer("qwen")
    for line in block.splitlines():
        try:
            tool = json.loads(line)
        except ValueError:
            continue
        fn = tool.get("function", tool) if isinstance(tool, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            continue
        schema = given if isinstance(given := fn.get("parameters"), dict) else {"type": "object"}
        if fn["name"] == "computer_use":
            offer.computer = _qwen_computer(fn, schema, display)
        else:
            offer.tools.append(ToolSpec(fn["name"], schema, str(fn.get("description") or "")))
    return offer


def _qwen_computer(fn: dict[str, Any], schema: dict[str, Any], display: tuple[int, int]) -> ComputerSpec:
    """The computer_use function as a computer: its screen size, the verbs it lists, the keys it names."""
    screen = _SCREEN.search(str(fn.get("description") or ""))
    width, height = (int(screen.group(1)), int(screen.group(2))) if screen else display
    props = given if isinstance(given := schema.get("properties"), dict) else {}
    verbs = set(props.get("action", {}).get("enum") or ())
    key_text = str(props.get("key", {}).get("description") or "")
    keys = tuple(canonical_key(k) for k in _QUOTED.findall(key_text))
    return ComputerSpec("qwen_computer_use", width, height, name="computer_use",
                        disabled=_disabled(verbs) if verbs else frozenset(), keys=keys, declared_size=screen is not None)


def _disabled(verbs: set[str]) -> frozenset[str]:
    """The random policy's click and key press, switched off when the offered verbs lack them."""
    off: set[str] = set()
    if "click" not in verbs:
        off |= {"click", "left_click"}
    if not {"press_key", "press_keys"} & verbs:
        off |= {"key", "keypress"}
    return frozenset(off)


def _listed_controls(text: str) -> list[ToolSpec]:
    """Registered controls listed as ``- `id`: description (arguments: a, b (optional))`` lines."""
    tools: dict[str, ToolSpec] = {}
    for name, rest in _CONTROL_LINE.findall(text):
        args = _CONTROL_ARGS.search(rest)
        props: dict[str, Any] = {}
        required: list[str] = []
        for raw in (args.group(1).split(",") if args else []):
            arg = raw.strip()
            optional = arg.endswith("(optional)")
            arg = arg.removesuffix("(optional)").strip()
            if arg:
                props[arg] = {"type": "string"}
                required += [] if optional else [arg]
        schema = {"type": "object", "properties": props, "required": required}
        tools.setdefault(name, ToolSpec(name, schema, rest.lstrip(": ").strip()))
    return list(tools.values())


# ------------------------------------------------------------------ the reply as text


def render(reply: Reply, offer: TextOffer) -> Reply:
    """The reply as the text a model of ``offer.format`` writes: reasoning, text and calls in one string."""
    calls = [_qwen_call(c) if offer.format == "qwen" else _uitars_call(c) for c in reply.calls]
    parts: list[str] = []
    if offer.format == "qwen":
        if reply.reasoning:
            parts.append(f"<think>\n{reply.reasoning}\n</think>")
        if reply.text:
            parts.append(reply.text)
        parts += [f"<tool_call>\n{json.dumps(c, ensure_ascii=False)}\n</tool_call>" for c in calls]
    else:
        if reply.reasoning:
            parts.append(f"Thought: {reply.reasoning}")
        if reply.text:
            parts.append(reply.text)
        parts += [f"Action: {c}" for c in calls]
    return Reply(text="\n".join(parts), usage=reply.usage)


def _qwen_call(item: ToolCall | ComputerAction) -> dict[str, Any]:
    """``{"name", "arguments"}``; a computer action becomes a ``computer_use`` call."""
    if isinstance(item, ToolCall):
        return {"name": item.name, "arguments": item.arguments}
    return {"name": "computer_use", "arguments": _qwen_arguments(item)}


def _qwen_arguments(act: ComputerAction) -> dict[str, Any]:
    """A neutral action in Qwen's computer_use vocabulary (an unknown kind goes out as its own verb)."""
    point = [act.x, act.y] if act.x is not None and act.y is not None else None
    if act.kind in ("click", "double_click", "triple_click"):
        out: dict[str, Any] = {"action": "click", "coordinate": point}
        return out if act.button == "left" else {**out, "button": act.button}
    if act.kind == "mouse_down":
        return {"action": "click_hold", "coordinate": point}
    if act.kind == "move":
        return {"action": "mouse_move", "coordinate": point}
    if act.kind == "drag" and len(act.path) >= 2:
        return {"action": "drag", "start_coordinate": list(act.path[0]), "coordinate": list(act.path[-1])}
    if act.kind in ("key", "hold_key"):
        keys = [*act.modifiers, *act.keys]
        out = {"action": "press_key", "key": keys[0]} if len(keys) == 1 else {"action": "press_keys", "keys": keys}
        return out if act.duration_s is None else {**out, "duration": act.duration_s}
    if act.kind == "type":
        return {"action": "type", "text": act.text or ""}
    if act.kind == "wait":
        return {"action": "wait"} if act.duration_s is None else {"action": "wait", "duration": act.duration_s}
    return act.to_dict()


def _quote(value: object) -> str:
    """A Python string literal in single quotes, as UI-TARS writes its arguments."""
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def _uitars_call(item: ToolCall | ComputerAction) -> str:
    """One action line: ``click(point='<point>x y</point>')``, ``press_key(key='arrowup')``, …"""
    if isinstance(item, ToolCall):
        args = item.arguments if isinstance(item.arguments, dict) else {}
        return f"{item.name}({', '.join(f'{k}={_quote(v)}' for k, v in args.items())})"
    act = item

    def point(x: int | None, y: int | None) -> str:
        return _quote(f"<point>{x} {y}</point>")

    keys = [k.lower() for k in [*act.modifiers, *act.keys]]
    if act.kind in ("click", "double_click", "triple_click"):
        button = "" if act.button == "left" else f", button={_quote(act.button)}"
        return f"click(point={point(act.x, act.y)}{button})"
    if act.kind == "mouse_down":
        return f"click_hold(point={point(act.x, act.y)})"
    if act.kind == "move":
        return f"mouse_move(point={point(act.x, act.y)})"
    if act.kind == "drag" and len(act.path) >= 2:
        (x0, y0), (x1, y1) = act.path[0], act.path[-1]
        return f"drag(start_point={point(x0, y0)}, end_point={point(x1, y1)})"
    if act.kind in ("key", "hold_key") and keys:
        return f"press_key(key={_quote(keys[0])})" if len(keys) == 1 else f"press_keys(keys={_quote(' '.join(keys))})"
    if act.kind == "type":
        return f"type(content={_quote(act.text or '')})"
    if act.kind == "scroll":
        return f"scroll(delta_x={_quote(act.scroll_x)}, delta_y={_quote(act.scroll_y)})"
    if act.kind == "wait":
        return "wait()"
    return f"{act.kind}()"
