"""Models named ``PROVIDER/MODEL[:cua]`` (``openai/gpt-4.1``, ``vllm/Qwen/Qwen3-VL-8B-Instruct:cua``) as model
specs with the provider's defaults, so a model outside the catalog needs no YAML file (pure)."""

from __future__ import annotations

import difflib
import re
from typing import Any

from .specs import CatalogError, ModelSpec

# provider prefix → the spec fields it implies. Every one calls the provider's native tool calling (function
# tools; computer use through a `computer_use` function); none knows a price (tables show "$ n/a").
PROVIDERS: dict[str, dict[str, Any]] = {
    "openai": {"provider": "openai", "api": "responses", "max_output_tokens": None,
               "endpoint": {"base_url_env": "OPENAI_BASE_URL", "api_key_env": "OPENAI_API_KEY"}},
    "anthropic": {"provider": "anthropic", "api": "messages", "max_output_tokens": 2048,
                  "endpoint": {"base_url_env": "ANTHROPIC_BASE_URL", "api_key_env": "ANTHROPIC_API_KEY"}},
    "google": {"provider": "gemini", "api": "generate_content", "max_output_tokens": None,
               "endpoint": {"base_url_env": "GOOGLE_GEMINI_BASE_URL"}},
    "openai-compatible": {"provider": "openai-compatible", "api": "chat", "max_output_tokens": 2048,
                          "endpoint": {"base_url_env": "OPENAI_BASE_URL", "api_key_env": "OPENAI_API_KEY"}},
    "vllm": {"provider": "openai-compatible", "api": "chat", "max_output_tokens": 2048,
             "endpoint": {"base_url_env": "VLLM_BASE_URL", "api_key_env": "VLLM_API_KEY",
                          "api_key_required": False}},
}
ALIASES = {"gemini": "google", "compatible": "openai-compatible", "openai_compatible": "openai-compatible"}
INTERFACE_SUFFIXES = ("cua", "generalist")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.@-]+")


def is_model_name(ref: str) -> bool:
    """Whether ``ref`` is a ``PROVIDER/MODEL`` name rather than a catalog name or a YAML path."""
    head, slash, rest = ref.partition("/")
    return bool(slash and rest) and not ref.endswith((".yaml", ".yml")) and re.fullmatch(r"[a-z][a-z_-]*", head) is not None


def split_name(ref: str) -> tuple[str, str, str]:
    """(provider, model, interface) of ``PROVIDER/MODEL[:cua|:generalist]``; an unknown provider is a CatalogError
    naming the closest known one."""
    head, _, model = ref.strip().partition("/")
    provider = ALIASES.get(head, head)
    if provider not in PROVIDERS:
        close = difflib.get_close_matches(head, [*PROVIDERS, *ALIASES], n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known providers: {', '.join(PROVIDERS)}"
        raise CatalogError(f"unknown provider {head!r} in model name {ref!r}{hint}")
    interface = "generalist"
    base, colon, suffix = model.rpartition(":")
    if colon and suffix in INTERFACE_SUFFIXES:
        model, interface = base, suffix
    if not model.strip():
        raise CatalogError(f"model name {ref!r} names no model after {head}/")
    return provider, model.strip(), interface


def spec_from_name(ref: str, interface: str | None = None) -> ModelSpec:
    """The model spec a ``PROVIDER/MODEL[:cua]`` name stands for, with ``interface`` (generalist|cua, from
    --gw-interface) when given; a suffix that says otherwise is a CatalogError (one line)."""
    provider, model, suffix_interface = split_name(ref)
    suffix = ref.strip().rpartition(":")[2]
    if interface and suffix in INTERFACE_SUFFIXES and suffix != interface:
        raise CatalogError(f"--gw-interface {interface} contradicts the suffix :{suffix} of model name {ref!r}; "
                           "give one of them")
    chosen = interface or suffix_interface
    defaults = PROVIDERS[provider]
    name = _UNSAFE.sub("-", f"{provider}-{model}").strip("-") + ("-cua" if chosen == "cua" else "")
    data: dict[str, Any] = {
        **defaults, "endpoint": dict(defaults["endpoint"]),
        "name": name, "interface": chosen, "model": model,
        "display_name": f"{model} ({chosen})",
        # Reasoning models refuse a temperature; leaving it out takes every provider's default.
        "temperature": None, "memory_rounds": 2, "price_per_mtok": None,
        "extra": {"from_name": f"{provider}/{model}" + (":cua" if chosen == "cua" else "")},
    }
    return ModelSpec.model_validate(data)
