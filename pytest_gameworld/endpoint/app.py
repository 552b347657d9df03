"""Socket-free request handling: route a request, ask the policy, render the wire answer."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from ..catalog.providers import WIRE_PROTOCOLS
from . import anthropic_messages, gemini_generate, openai_chat, openai_common, openai_responses, text_replies
from .core import Decision, Fault, PolicyInput, Reply, Usage
from .policy import Policy
from .usage import analyse, estimate
from .wire import WireResponse

PROTOCOLS: tuple[str, ...] = WIRE_PROTOCOLS  # what the providers of catalog/providers.py speak
log = logging.getLogger(__name__)

# Path prefixes each SDK puts in front of its routes; the server accepts the bare
# routes too, so a base URL with or without the version segment works.
_PREFIX = {"openai": re.compile(r"^/v1(?=/)"), "anthropic": re.compile(r"^/v1(?=/)"),
           "gemini": re.compile(r"^/v1(?:beta|alpha)?(?=/)")}
_GEMINI_METHOD = re.compile(r"^/models/(?P<model>.+):(?P<method>[A-Za-z]+)$")


@dataclass
class Outcome:
    """What to send for one request, after waiting ``delay_s`` seconds."""

    response: WireResponse
    delay_s: float = 0.0
    usage: Usage | None = None


class App:
    """One protocol's routes in front of one policy."""

    def __init__(self, protocol: str, policy: Policy, model_ids: list[str] | None = None) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown protocol {protocol!r}; choose one of {PROTOCOLS}")
        self.protocol = protocol
        self.policy = policy
        self.model_ids = model_ids or [f"gameworld-{policy.name}"]

    # ------------------------------------------------------------------ routing

    def handle(self, method: str, target: str, body: bytes) -> Outcome:
        """Answer one HTTP request; never raises (internal errors become provider 500s)."""
        path = _PREFIX[self.protocol].sub("", urlsplit(target).path.rstrip("/") or "/")
        try:
            return self._route(method.upper(), path, body)
        except Exception as exc:  # noqa: BLE001 - a test server must answer, not die
            log.exception("internal error on %s %s", method, target)
            return Outcome(self._error(Fault(500, message=f"gameworld endpoint internal error: {exc!r}")))

    def _route(self, method: str, path: str, body: bytes) -> Outcome:
        """Dispatch by protocol and path."""
        if self.protocol == "openai":
            if method == "POST" and path == "/chat/completions":
                return self._generate(body, openai_chat.parse, lambda r, i, u, b: openai_chat.render(r, i, u))
            if method == "POST" and path == "/responses":
                return self._generate(body, openai_responses.parse, openai_responses.render)
            if method == "GET" and path == "/models":
                return self._ok(openai_common.model_list(self.model_ids))
            if method == "GET" and path.startswith("/models/"):
                return self._ok(openai_common.model_object(unquote(path[len("/models/"):])))
        elif self.protocol == "anthropic":
            if method == "POST" and path == "/messages":
                return self._generate(body, anthropic_messages.parse,
                                      lambda r, i, u, b: anthropic_messages.render(r, i, u))
            if method == "POST" and path == "/messages/count_tokens":
                return self._count(body, anthropic_messages.parse, lambda n: {"input_tokens": n})
            if method == "GET" and path == "/models":
                return self._ok(anthropic_messages.model_list(self.model_ids))
            if method == "GET" and path.startswith("/models/"):
                return self._ok(anthropic_messages.model_object(unquote(path[len("/models/"):])))
        else:
            match = _GEMINI_METHOD.match(path)
            if method == "POST" and match:
                model = unquote(match["model"])

                def parse(b: dict[str, Any]) -> PolicyInput:
                    return gemini_generate.parse(b, model)

                if match["method"] == "generateContent":
                    return self._generate(body, parse, lambda r, i, u, b: gemini_generate.render(r, i, u))
                if match["method"] == "countTokens":
                    return self._count(body, parse, gemini_generate.count_tokens)
                return Outcome(self._error(Fault(400, message=f"{match['method']} is not supported by the "
                                                              "gameworld endpoint (use generateContent)")))
            if method == "GET" and path == "/models":
                return self._ok(gemini_generate.model_list(self.model_ids))
            if method == "GET" and path.startswith("/models/"):
                return self._ok(gemini_generate.model_object(unquote(path[len("/models/"):])))
        return Outcome(self._error(Fault(404, message=f"no route for {method} {path} ({self.protocol} protocol)")))

    # --------------------------------------------------------------- generation

    def _generate(self, raw: bytes, parse: Callable[[dict[str, Any]], PolicyInput],
                  render: Callable[[Reply, PolicyInput, Usage, dict[str, Any]], dict[str, Any]]) -> Outcome:
        """Parse, decide, then render a reply or a fault."""
        body = self._json(raw)
        if isinstance(body, WireResponse):
            return Outcome(body)
        if body.get("stream"):
            return Outcome(self._error(Fault(400, message="streaming is not supported by the gameworld "
                                                          "endpoint; send stream=false")))
        inp = parse(body)
        stats, stripped = analyse(body)
        inp.image_count, inp.image_size, inp.request_chars = stats.images, stats.last_image_size, stats.chars
        offer = None
        if not inp.tools and inp.computer is None:
            # No tools declared: a text-format model (Qwen, UI-TARS) reads its offer from the prompt.
            offer = text_replies.read_offer("\n".join(text_replies.texts(stripped)), inp.display)
            if offer is not None:
                inp.tools, inp.computer = offer.tools, offer.computer
        inp.thread = _thread_key(inp)
        decision: Decision = self.policy.decide(inp)
        if decision.fault is not None:
            return Outcome(self._error(decision.fault), delay_s=decision.delay_s)
        reply = decision.reply or Reply(text="")
        if offer is not None:
            reply = text_replies.render(reply, offer)
        usage = reply.usage or estimate(self.protocol, stats, reply)
        headers = self._request_headers()
        return Outcome(WireResponse(200, render(reply, inp, usage, body), headers), decision.delay_s, usage)

    def _count(self, raw: bytes, parse: Callable[[dict[str, Any]], PolicyInput],
               shape: Callable[[int], dict[str, Any]]) -> Outcome:
        """Token counting endpoints share the estimate used for ``usage``."""
        body = self._json(raw)
        if isinstance(body, WireResponse):
            return Outcome(body)
        parse(body)  # validates the request shape like the real endpoint would
        stats, _ = analyse(body)
        return self._ok(shape(estimate(self.protocol, stats, Reply()).input_tokens))

    # ------------------------------------------------------------------ helpers

    def _json(self, raw: bytes) -> dict[str, Any] | WireResponse:
        """The request body as a JSON object, or a provider-shaped 400."""
        try:
            body = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return self._error(Fault(400, message=f"request body is not valid JSON: {exc}"))
        if not isinstance(body, dict):
            return self._error(Fault(400, message="request body must be a JSON object"))
        return body

    def _ok(self, body: dict[str, Any]) -> Outcome:
        """A 200 JSON answer with the protocol's request-id header."""
        return Outcome(WireResponse(200, body, self._request_headers()))

    def _request_headers(self) -> dict[str, str]:
        """Per-protocol response headers (request ids)."""
        if self.protocol == "openai":
            return openai_common.request_headers()
        if self.protocol == "anthropic":
            return anthropic_messages.request_headers()
        return {}

    def _error(self, fault: Fault) -> WireResponse:
        """A fault in this protocol's error shape."""
        if self.protocol == "openai":
            return openai_common.error(fault)
        if self.protocol == "anthropic":
            return anthropic_messages.error(fault)
        return gemini_generate.error(fault)


def _thread_key(inp: PolicyInput) -> str:
    """Digest of the conversation opening (first two messages without images) and tool names."""
    _, opening = analyse(inp.messages[:2])
    material = json.dumps([inp.endpoint, inp.model, [t.name for t in inp.tools],
                           inp.computer.kind if inp.computer else None, opening],
                          sort_keys=True, default=str)
    return hashlib.sha256(material.encode()).hexdigest()[:16]
