"""Protocol-neutral data passed between the wire adapters and the policies."""

from __future__ import annotations

import hashlib
import itertools
import threading
from dataclasses import dataclass, field
from typing import Any

from .computer import ComputerAction

DEFAULT_DISPLAY: tuple[int, int] = (1280, 720)
"""Display size assumed when neither the tool nor a screenshot in the request gives one."""


@dataclass(frozen=True)
class ToolSpec:
    """A function tool the request declares: its name and JSON schema for the arguments."""

    name: str
    schema: dict[str, Any]
    description: str = ""


@dataclass(frozen=True)
class ComputerSpec:
    """The native computer-use tool a request declares, in the provider's own flavour.

    ``kind`` is the provider's tool type (``computer_use_preview``, ``computer``,
    ``computer_20250124``, ``computer_toolset_20260801``, ``computerUse``); ``name`` is
    the tool name the reply must use where the provider has one; ``disabled`` lists
    actions the request switched off (Gemini excluded functions, toolset configs).
    """

    kind: str
    width: int
    height: int
    name: str = "computer"
    disabled: frozenset[str] = frozenset()
    declared_size: bool = True
    keys: tuple[str, ...] = ()
    """Keys the request names (a text format's examples); the random policy presses these when given."""


@dataclass
class PolicyInput:
    """What a policy sees of one request, whatever the protocol."""

    protocol: str
    endpoint: str
    model: str
    tools: list[ToolSpec]
    computer: ComputerSpec | None
    messages: list[Any]
    image_count: int = 0
    image_size: tuple[int, int] | None = None
    request_chars: int = 0
    thread: str = ""
    """A digest of the conversation's opening (system prompt, first message, tools); the
    random policy keys its per-conversation counter on it."""

    @property
    def display(self) -> tuple[int, int]:
        """The computer display size: declared by the tool, else the last screenshot's, else default."""
        if self.computer is not None and self.computer.declared_size:
            return self.computer.width, self.computer.height
        return self.image_size or DEFAULT_DISPLAY

    def tool(self, name: str) -> ToolSpec | None:
        """The declared function tool called ``name`` (exact match first, then case-insensitive)."""
        for tool in self.tools:
            if tool.name == name:
                return tool
        lowered = name.lower()
        return next((t for t in self.tools if t.name.lower() == lowered), None)


@dataclass
class ToolCall:
    """A function call in a reply; ``arguments`` as a dict, or a raw string sent verbatim."""

    name: str
    arguments: dict[str, Any] | str


ReplyItem = ToolCall | ComputerAction


@dataclass
class Usage:
    """Token counts a reply reports; the adapters map them onto each provider's field names."""

    input_tokens: int
    output_tokens: int
    cached_tokens: int = 0
    reasoning_tokens: int = 0


@dataclass
class Reply:
    """A model turn: optional reasoning and text, then zero or more calls in order."""

    text: str | None = None
    reasoning: str | None = None
    calls: list[ReplyItem] = field(default_factory=list)
    usage: Usage | None = None


@dataclass
class Fault:
    """An error response instead of a reply: HTTP status, optional Retry-After seconds."""

    status: int
    retry_after: float | None = None
    message: str | None = None
    error_type: str | None = None


@dataclass
class Decision:
    """What the server does for one request: optionally wait, then fail or reply."""

    reply: Reply | None = None
    fault: Fault | None = None
    delay_s: float = 0.0


_counter = itertools.count(1)
_counter_lock = threading.Lock()


def new_id(prefix: str, length: int = 24) -> str:
    """A provider-looking opaque id such as ``chatcmpl-…`` or ``toolu_…``: unique per process, and the same
    sequence in every run of it. Clients echo ids back in their histories (the original harness writes the
    tool call id into its action history text), and the random policy seeds a conversation from its opening,
    so random ids made the same conversation play differently from one server run to the next."""
    with _counter_lock:
        n = next(_counter)
    return f"{prefix}{hashlib.sha256(f'{prefix}{n}'.encode()).hexdigest()[: length - 6]}{n:06d}"
