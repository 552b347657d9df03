"""Every model provider the harness speaks, one entry each: the one home of a provider's knowledge (pure).

A spec's ``provider`` and ``api`` fields, the ``PROVIDER/MODEL`` name prefixes, the agent classes, the SDK and
the extra that installs it, the key variables, the model check run before a session and the wire protocol
``gameworld serve`` speaks for it are all read from ``REGISTRY``. The catalog is the lowest layer and the agents
import it, so the registry lives here and names the agents' code by module path (imported only when used, as the
SDKs are).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

# Spelled out because a type checker reads a Literal only as written; the import-time check below keeps these
# and the registry's entries one list.
ProviderName = Literal["openai", "anthropic", "gemini", "openai-compatible"]
ApiName = Literal["chat", "responses", "messages", "generate_content", "text"]
WireProtocol = Literal["openai", "anthropic", "gemini"]

# The modules the entries name, under pytest_gameworld/agents/providers/.
_OPENAI_AGENTS: dict[ApiName, str] = {"chat": "openai_chat:OpenAIChatAgent",
                                      "responses": "openai_responses:OpenAIResponsesAgent",
                                      "text": "openai_chat:OpenAITextAgent"}


@dataclass(frozen=True)
class NamePrefix:
    """A ``PREFIX/`` of a model name (``vllm/Qwen/…``) and the spec fields it implies."""

    prefix: str
    api: ApiName
    max_output_tokens: int | None  # None: not sent (the provider's default)
    base_url_env: str
    api_key_env: str | None = None  # None: the provider's key_envs
    api_key_required: bool = True
    aliases: tuple[str, ...] = ()  # other spellings of the prefix

    def spec_fields(self, provider: ProviderName) -> dict[str, object]:
        """The model-spec fields a name with this prefix starts from."""
        endpoint: dict[str, object] = {"base_url_env": self.base_url_env}
        if self.api_key_env:
            endpoint["api_key_env"] = self.api_key_env
        if not self.api_key_required:
            endpoint["api_key_required"] = False
        return {"provider": provider, "api": self.api, "max_output_tokens": self.max_output_tokens,
                "endpoint": endpoint}


@dataclass(frozen=True)
class Provider:
    """One provider: how its agents are made, where its key is, how it is checked and stood in for."""

    name: ProviderName
    sdk: str  # the module imported (lazily) to talk to it
    extra: str  # pip install 'pytest-gameworld[EXTRA]' installs the SDK
    agents: dict[ApiName, str]  # api → "module:Class" under agents/providers/; the apis it speaks, in order
    key_envs: tuple[str, ...]  # where its key is read from, in order, when a spec names none
    preflight: str  # "module:function" under agents/providers/: the model lookup before a session
    wire: WireProtocol  # the protocol `gameworld serve` answers it in (endpoint/)
    prefixes: tuple[NamePrefix, ...]
    needs_base_url: bool = False  # no default endpoint: the spec or its base_url_env must give one

    @property
    def apis(self) -> tuple[ApiName, ...]:
        return tuple(self.agents)


REGISTRY: dict[ProviderName, Provider] = {p.name: p for p in (
    Provider("openai", sdk="openai", extra="openai", agents=_OPENAI_AGENTS, key_envs=("OPENAI_API_KEY",),
             preflight="preflight:check_openai", wire="openai",
             prefixes=(NamePrefix("openai", "responses", None, "OPENAI_BASE_URL", "OPENAI_API_KEY"),)),
    Provider("anthropic", sdk="anthropic", extra="anthropic",
             agents={"messages": "anthropic_messages:AnthropicAgent"}, key_envs=("ANTHROPIC_API_KEY",),
             preflight="preflight:check_anthropic", wire="anthropic",
             prefixes=(NamePrefix("anthropic", "messages", 2048, "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),)),
    Provider("gemini", sdk="google.genai", extra="gemini", agents={"generate_content": "gemini:GeminiAgent"},
             key_envs=("GOOGLE_API_KEY", "GEMINI_API_KEY"), preflight="preflight:check_gemini", wire="gemini",
             prefixes=(NamePrefix("google", "generate_content", None, "GOOGLE_GEMINI_BASE_URL",
                                  aliases=("gemini",)),)),
    Provider("openai-compatible", sdk="openai", extra="openai", agents=_OPENAI_AGENTS,
             key_envs=("OPENAI_API_KEY",), preflight="preflight:check_served", wire="openai", needs_base_url=True,
             prefixes=(NamePrefix("openai-compatible", "chat", 2048, "OPENAI_BASE_URL", "OPENAI_API_KEY",
                                  aliases=("compatible", "openai_compatible")),
                       NamePrefix("vllm", "chat", 2048, "VLLM_BASE_URL", "VLLM_API_KEY", api_key_required=False))),
)}

# A model name's prefix (or one of its aliases) → its provider and prefix entry.
NAME_PREFIXES: dict[str, tuple[ProviderName, NamePrefix]] = {
    n.prefix: (p.name, n) for p in REGISTRY.values() for n in p.prefixes}
PREFIX_ALIASES: dict[str, str] = {a: n.prefix for p in REGISTRY.values() for n in p.prefixes for a in n.aliases}
WIRE_PROTOCOLS: tuple[WireProtocol, ...] = tuple(dict.fromkeys(p.wire for p in REGISTRY.values()))
SDK_EXTRAS: dict[str, str] = {p.sdk: p.extra for p in REGISTRY.values()}


def provider(name: str) -> Provider:
    """The registry entry of a spec's provider (a KeyError is a bug: the spec's Literal admits only these)."""
    return REGISTRY[name]  # type: ignore[index]


def base_url_env(wire: str) -> str:
    """The variable a spec of the first provider answered in ``wire`` reads its base URL from."""
    return next(p.prefixes[0].base_url_env for p in REGISTRY.values() if p.wire == wire)


if (set(REGISTRY) != set(get_args(ProviderName))
        or {a for p in REGISTRY.values() for a in p.agents} != set(get_args(ApiName))
        or set(WIRE_PROTOCOLS) != set(get_args(WireProtocol))):
    raise AssertionError("catalog/providers.py: the Literals and REGISTRY name different providers, apis or wires")
