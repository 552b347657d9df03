"""OpenAI Chat Completions: function tools (hosted and OpenAI-compatible APIs) and text formats (vLLM)."""

from __future__ import annotations

from typing import Any

from ...play.actions import Proposal
from ..base import Usage
from . import qwen_format, uitars_format
from .base import Parsed, ProviderAgent
from .connection import Connection
from .content import Image, Part
from .coords import Frame
from .retry import Failure
from .sdk import post_as_built, require, stainless_failure
from .textformats import parse_qwen, parse_uitars, split_think
from .tools import computer_use_call, to_openai_chat


def make_openai_client(conn: Connection, timeout_s: float) -> Any:
    """An AsyncOpenAI client with the SDK's own retries off (ours are uniform and testable)."""
    openai = require("openai")
    return openai.AsyncOpenAI(api_key=conn.api_key, base_url=conn.base_url, max_retries=0, timeout=timeout_s + 5)


def chat_usage(usage: Any) -> Usage:
    """prompt/completion tokens; cached from prompt_tokens_details (or a top-level cached_tokens)."""
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    if cached is None:
        cached = getattr(usage, "cached_tokens", None)  # Moonshot reports it at the top level
    return Usage(int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0), int(cached or 0))


def message_reasoning(message: Any) -> str:
    """`reasoning_content` (vLLM, DeepSeek-style APIs) or `reasoning` (newer vLLM), when present."""
    for name in ("reasoning_content", "reasoning"):
        value = getattr(message, name, None)
        if value is None and getattr(message, "model_extra", None):
            value = message.model_extra.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


class OpenAIChatAgent(ProviderAgent):
    """Chat Completions with function tools; tool_choice 'required' where the API allows it."""

    content_format = "openai_chat"
    label = "openai chat"

    def make_client(self, conn: Connection) -> Any:
        return make_openai_client(conn, self.spec.timeout_s)

    async def send(self, request: dict[str, Any]) -> Any:
        return await post_as_built(self.client, "/chat/completions", request,
                                   require("openai.types.chat").ChatCompletion)

    def classify_error(self, exc: BaseException) -> Failure | None:
        return stainless_failure(require("openai"), exc)

    def base_request(self, user: list[Part]) -> dict[str, Any]:
        """Model, messages (a system message when the protocol has one), sampling and token limit."""
        spec = self.spec
        messages: list[dict[str, Any]] = []
        if self.system_prompt is not None:
            messages.append({"role": "system", "content": self.system_prompt})
        messages.append({"role": "user", "content": self.content(user)})
        request: dict[str, Any] = {"model": spec.model, "messages": messages}
        if spec.temperature is not None:
            request["temperature"] = spec.temperature
        if spec.max_output_tokens is not None:
            # OpenAI's reasoning models take only max_completion_tokens; compatible servers know max_tokens.
            limit = spec.extra.get("max_tokens_param") or ("max_completion_tokens" if spec.provider == "openai"
                                                           else "max_tokens")
            request[limit] = spec.max_output_tokens
        for key in ("reasoning_effort", "seed"):
            if key in spec.extra:
                request[key] = spec.extra[key]
        if spec.extra.get("extra_body"):
            request["extra_body"] = dict(spec.extra["extra_body"])
        return request

    def build_request(self, user: list[Part], image: Image | None, frame: Frame) -> dict[str, Any]:
        request = self.base_request(user)
        request["tools"] = [to_openai_chat(t) for t in self.tools(frame)]
        if self.spec.extra.get("tool_choice"):  # sent only when the spec names one (the original names its own)
            request["tool_choice"] = self.spec.extra["tool_choice"]
        return request

    def parse(self, response: Any, frame: Frame) -> Parsed:
        message = response.choices[0].message
        think, text = split_think(message.content or "")
        provider_reasoning = message_reasoning(message)
        reasoning = "\n".join(p for p in (provider_reasoning, think) if p)
        tool_calls = [tc for tc in (message.tool_calls or []) if getattr(tc, "function", None) is not None]
        calls = [Proposal.from_raw(tc.function.name, tc.function.arguments) for tc in tool_calls]
        if self.interface == "cua":
            calls = [computer_use_call(c) for c in calls]
        call_id = getattr(tool_calls[0], "id", None) if tool_calls else None
        # The original keeps the API's reasoning_content in the history, else the call's reasoning argument,
        # and the tool call's id with its action.
        return Parsed(calls, text.strip(), reasoning, chat_usage(response.usage), response,
                      memory_reasoning=provider_reasoning or None,
                      memory_call_id=str(call_id) if call_id else None)


class OpenAITextAgent(OpenAIChatAgent):
    """Chat Completions without tools: the reply is Qwen3-VL `<tool_call>` or Seed/UI-TARS action text."""

    label = "openai chat (text format)"

    def build_request(self, user: list[Part], image: Image | None, frame: Frame) -> dict[str, Any]:
        return self.base_request(user)

    def parse(self, response: Any, frame: Frame) -> Parsed:
        message = response.choices[0].message
        content = message.content or ""
        calls, reasoning = self.read_text(content)
        reasoning = "\n".join(p for p in (message_reasoning(message), reasoning) if p)
        return Parsed(calls, content.strip(), reasoning, chat_usage(response.usage), response)

    def read_text(self, content: str) -> tuple[list[Proposal], str]:
        """The calls and the reasoning in a reply, by the spec's text format and parsing."""
        spec = self.spec
        if spec.parsing == "paper":
            return parse_uitars(content) if spec.text_format == "uitars" else parse_qwen(content, self.interface)
        if spec.text_format == "uitars":
            calls, reasoning = parse_uitars(content)  # the reasoning is read the same way in both
            return uitars_format.parse_original(content, spec.coordinates == "normalized_1000"), reasoning
        reasoning, _ = split_think(content)
        return qwen_format.parse_original(content, self.interface), reasoning
