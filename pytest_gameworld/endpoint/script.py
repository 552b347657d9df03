"""Load and validate a scripted-policy file (JSON or YAML) into entry templates."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .computer import ComputerAction, parse_action
from .core import Fault, Usage

_ENTRY_KEYS = frozenset(
    {"text", "reasoning", "calls", "computer", "usage", "status", "retry_after", "message",
     "error_type", "delay_s", "comment"}
)


class ScriptError(ValueError):
    """A scripted-policy file that cannot be used; the message names the entry."""


@dataclass
class CallTemplate:
    """A scripted function call; ``arguments`` None means "fill from the declared schema"."""

    name: str
    arguments: dict[str, Any] | str | None


@dataclass
class ScriptEntry:
    """One scripted turn: an optional delay, then a fault or a reply (or the noop reply)."""

    delay_s: float = 0.0
    fault: Fault | None = None
    text: str | None = None
    reasoning: str | None = None
    calls: list[CallTemplate | ComputerAction] = field(default_factory=list)
    usage: Usage | None = None

    @property
    def has_reply(self) -> bool:
        """Whether the entry says anything itself (otherwise the noop reply is used)."""
        return self.text is not None or self.reasoning is not None or bool(self.calls)


@dataclass
class Script:
    """The entries in order and what happens after the last one (cycle or repeat it)."""

    entries: list[ScriptEntry]
    loop: bool = False


def load_script(path: str | Path) -> Script:
    """Read ``path`` (``.json``, ``.yaml``/``.yml``, or JSON-then-YAML by content)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"cannot read script {file}: {exc}") from exc
    data: Any
    if file.suffix.lower() in (".yaml", ".yml"):
        data = _yaml(text, file)
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = _yaml(text, file)
        except RecursionError:
            raise ScriptError(f"{file}: nested too deep to read; give deeply nested arguments as a JSON string "
                              "(sent as it is)") from None
    return parse_script(data, source=str(file))


def _yaml(text: str, file: Path) -> Any:
    """Parse YAML, importing PyYAML only when a script needs it (keeps startup fast)."""
    try:
        import yaml  # noqa: PLC0415
    except ImportError as exc:  # pragma: no cover - PyYAML ships with the project
        raise ScriptError(f"{file}: YAML scripts need PyYAML") from exc
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScriptError(f"{file}: invalid YAML: {exc}") from exc


def parse_script(data: Any, source: str = "<script>") -> Script:
    """A :class:`Script` from a list of entries or ``{entries: [...], loop: bool}``."""
    loop = False
    if isinstance(data, dict):
        loop = bool(data.get("loop", data.get("after_end") == "cycle"))
        data = data.get("entries")
    if not isinstance(data, list) or not data:
        raise ScriptError(f"{source}: a script is a non-empty list of entries (or {{entries: [...]}})")
    entries = [_entry(raw, f"{source}[{i}]") for i, raw in enumerate(data)]
    return Script(entries=entries, loop=loop)


def _entry(raw: Any, where: str) -> ScriptEntry:
    """Validate one entry; unknown keys are errors so typos do not pass silently."""
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}: an entry is a mapping, got {raw!r}")
    unknown = set(raw) - _ENTRY_KEYS
    if unknown:
        raise ScriptError(f"{where}: unknown keys {sorted(unknown)}; allowed: {sorted(_ENTRY_KEYS)}")
    entry = ScriptEntry(delay_s=float(raw.get("delay_s") or 0.0))
    if raw.get("status") is not None:
        status = int(raw["status"])
        if not 400 <= status <= 599:
            raise ScriptError(f"{where}: status must be an HTTP error code (400-599), got {status}")
        retry = raw.get("retry_after")
        entry.fault = Fault(status=status, retry_after=None if retry is None else float(retry),
                            message=raw.get("message"), error_type=raw.get("error_type"))
        return entry
    entry.text = None if raw.get("text") is None else str(raw["text"])
    entry.reasoning = None if raw.get("reasoning") is None else str(raw["reasoning"])
    try:
        for i, call in enumerate(raw.get("calls") or []):
            entry.calls.append(_call(call, f"{where}.calls[{i}]"))
        computer = raw.get("computer")
        for spec in computer if isinstance(computer, list) else [computer] if computer else []:
            entry.calls.append(parse_action(spec))
    except ValueError as exc:
        raise ScriptError(f"{where}: {exc}") from exc
    if raw.get("usage") is not None:
        entry.usage = _usage(raw["usage"], where)
    return entry


def _call(raw: Any, where: str) -> CallTemplate | ComputerAction:
    """``{name, arguments}`` or ``{computer: {...}}``."""
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}: a call is a mapping, got {raw!r}")
    if "computer" in raw:
        return parse_action(raw["computer"])
    if not isinstance(raw.get("name"), str):
        raise ScriptError(f"{where}: a call needs a string 'name' (or a 'computer' action)")
    args = raw.get("arguments")
    if args is not None and not isinstance(args, (dict, str)):
        raise ScriptError(f"{where}: arguments must be a mapping or a raw string")
    return CallTemplate(name=raw["name"], arguments=args)


def _usage(raw: Any, where: str) -> Usage:
    """``{input_tokens, output_tokens, cached_tokens, reasoning_tokens}``."""
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}: usage is a mapping")
    try:
        return Usage(input_tokens=int(raw.get("input_tokens", 0)),
                     output_tokens=int(raw.get("output_tokens", 0)),
                     cached_tokens=int(raw.get("cached_tokens", 0)),
                     reasoning_tokens=int(raw.get("reasoning_tokens", 0)))
    except (TypeError, ValueError) as exc:
        raise ScriptError(f"{where}: usage values must be integers: {exc}") from exc
