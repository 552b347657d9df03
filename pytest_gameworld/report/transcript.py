"""A recorded request as the messages a model received, for the run viewer (pure).

Every provider's request record (steps.jsonl `request`) is read the same way: the system text wherever the
API puts it (a system message, Responses `instructions`, Anthropic `system`, Gemini
`config.system_instruction`), the conversation (`messages`, `input` or `contents`) as messages of parts
(text, an image placeholder naming the step its screenshot was taken at, or any other block as JSON), the
tool schema, and the remaining settings. Unknown shapes are shown as JSON, never dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

# "<image png 1280x720 38kB, screen of step 3>" names the step 1-based, as shown; older records have
# "<image png 1280x720 38kB, step 2>" (0-based, the same step) or no step at all.
IMAGE = re.compile(r"<image [^<>]*?(?:, (screen of )?step (\d+))?>")
TEXT_KEYS = {"type", "text", "cache_control"}
NESTED = ("content", "output", "parts")  # blocks that hold further blocks (tool results, call outputs)
CONVERSATION = ("messages", "input", "contents")
SYSTEM = ("system", "instructions")
OMIT = {"api", "base_url", "tools", *CONVERSATION, *SYSTEM}

Part = dict[str, Any]
Intern = Callable[[str], Any]


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _image(text: str) -> Part | None:
    m = IMAGE.fullmatch(text.strip())
    if not m:
        return None
    label = text.strip()
    if m.group(2) is None:
        return {"t": "image", "label": label, "step": None}
    step = int(m.group(2)) - 1 if m.group(1) else int(m.group(2))  # 0-based, as steps.jsonl numbers them
    return {"t": "image", "label": label[:label.rindex(",")] + ">", "step": step}


def _find_image(block: dict[str, Any], depth: int = 0) -> Part | None:
    """The image placeholder a block carries (image_url, source.data, inline_data.data …), if it is one."""
    for value in block.values():
        if isinstance(value, str) and (found := _image(value)):
            return found
        if isinstance(value, dict) and depth < 2 and (found := _find_image(value, depth + 1)):
            return found
    return None


def parts(value: Any, intern: Intern, depth: int = 0) -> list[Part]:
    """One message's content as display parts: text, image or JSON, nested blocks flattened in order."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [_image(value) or {"t": "text", "text": intern(value)}]
    if isinstance(value, list):
        return [p for v in value for p in parts(v, intern, depth + 1)]
    if not isinstance(value, dict):
        return [{"t": "json", "text": intern(_json(value))}]
    if isinstance(value.get("text"), str) and set(value) <= TEXT_KEYS:
        return [{"t": "text", "text": intern(value["text"])}]
    nested = [k for k in NESTED if isinstance(value.get(k), (list, dict, str))] if depth < 8 else []
    if not nested and (img := _find_image(value)):
        return [img]
    head = {k: v for k, v in value.items() if k not in nested}
    out = [{"t": "json", "text": intern(_json(head))}] if head else []
    for k in nested:
        out += parts(value[k], intern, depth + 1)
    return out


def _message(item: Any, intern: Intern) -> dict[str, Any]:
    if isinstance(item, dict) and ("role" in item or "type" in item):
        role = str(item.get("role") or item.get("type"))
        body = {k: v for k, v in item.items() if k not in ("role",)}
        if "role" in item and set(body) <= {"content", "parts", "type"}:
            return {"role": role, "parts": parts(body.get("content", body.get("parts")), intern)}
        return {"role": role, "parts": parts(body, intern)}
    return {"role": "user", "parts": parts(item, intern)}


def messages(request: Any, intern: Intern = lambda s: s) -> dict[str, Any] | None:
    """The request as {api, messages: [{role, parts}], tools, settings}; None when nothing was recorded."""
    if not isinstance(request, dict):
        return None
    out: list[dict[str, Any]] = []
    config = given if isinstance(given := request.get("config"), dict) else {}
    for key in SYSTEM:
        if request.get(key):
            out.append({"role": "system" if key == "system" else "instructions", "parts": parts(request[key], intern)})
    if config.get("system_instruction"):
        out.append({"role": "system", "parts": parts(config["system_instruction"], intern)})
    for key in CONVERSATION:
        conv = request.get(key)
        if isinstance(conv, str):
            out.append({"role": "user", "parts": parts(conv, intern)})
        elif isinstance(conv, list):
            out += [_message(item, intern) for item in conv]
    tools = request.get("tools") or config.get("tools")
    settings = {k: v for k, v in request.items() if k not in OMIT}
    if config:
        rest = {k: v for k, v in config.items() if k not in ("system_instruction", "tools")}
        settings = {**{k: v for k, v in settings.items() if k != "config"}, **({"config": rest} if rest else {})}
    return {"api": str(request.get("api") or ""), "base_url": request.get("base_url") or "", "messages": out,
            "tools": intern(_json(tools)) if tools else None, "tool_count": _count(tools),
            "settings": intern(_json(settings)) if settings else None}


def _count(tools: Any) -> int:
    """Tools declared (a Gemini tool groups its function declarations)."""
    if not isinstance(tools, list):
        return 0
    return sum(len(t["function_declarations"]) if isinstance(t, dict) and isinstance(t.get("function_declarations"),
                                                                                     list) else 1 for t in tools)


class Strings:
    """Long texts stored once (the system prompt and the tool schema repeat on every step)."""

    MIN = 200

    def __init__(self) -> None:
        self.table: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str) -> Any:
        if len(text) < self.MIN:
            return text
        if text not in self._index:
            self._index[text] = len(self.table)
            self.table.append(text)
        return {"ref": self._index[text]}
