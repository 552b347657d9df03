"""Models named ``PROVIDER/MODEL[:cua]`` (``openai/gpt-4.1``, ``vllm/Qwen/Qwen3-VL-8B-Instruct:cua``) as model
specs with the provider's defaults, so a model outside the catalog needs no YAML file (pure).

The prefixes and the fields each implies are catalog/providers.py's. Every such spec calls its provider's native
tool calling (function tools; computer use through a `computer_use` function) and knows no price (tables show
"$ n/a")."""

from __future__ import annotations

import difflib
import re
from typing import Any

from .providers import NAME_PREFIXES, PREFIX_ALIASES
from .specs import CatalogError, ModelSpec

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
    provider = PREFIX_ALIASES.get(head, head)
    if provider not in NAME_PREFIXES:
        close = difflib.get_close_matches(head, [*NAME_PREFIXES, *PREFIX_ALIASES], n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known providers: {', '.join(NAME_PREFIXES)}"
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
    provider_name, prefix = NAME_PREFIXES[provider]
    name = _UNSAFE.sub("-", f"{provider}-{model}").strip("-") + ("-cua" if chosen == "cua" else "")
    data: dict[str, Any] = {
        **prefix.spec_fields(provider_name),
        "name": name, "interface": chosen, "model": model,
        "display_name": f"{model} ({chosen})",
        # Reasoning models refuse a temperature; leaving it out takes every provider's default.
        "temperature": None, "memory_rounds": 2, "price_per_mtok": None,
        "extra": {"from_name": f"{provider}/{model}" + (":cua" if chosen == "cua" else "")},
    }
    return ModelSpec.model_validate(data)
