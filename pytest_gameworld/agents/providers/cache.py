"""``--gw-cache``: a provider's reply looked up before the call and stored after it, keyed on everything that
decides the reply. The folder is records/reply_cache.py; this module is the provider side (the key, the SDK's
response as JSON and back) and the one hook the call path goes through (``through_cache``, in place of
``ProviderAgent._exchange``: a hit neither waits for a connection nor retries, a miss is the agent's own exchange).

The key is a SHA-256 over: the provider, API and model id, the base URL (another server may serve another
model under the same name), the spec's memory rounds, the run's seed and role (so repeats, whose seeds
differ, stay independent samples, as an epoch does), and the whole request as sent (messages, tools, sampling
settings) with every image and other long payload replaced by its own SHA-256, and how many times the run has
asked that same request before. The API key is never part of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import time
import warnings
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...records.reply_cache import CacheFolder, Damaged, Entry
from ..base import Usage

if TYPE_CHECKING:
    from .base import Parsed, ProviderAgent

KEY_FORMAT = 1
_LONG = 512  # characters: a string this long (an image's base64, a data URL) enters the key as its hash
# Response classes are only ever revived from the provider SDKs' own modules.
_SDK_MODULES = ("openai.", "anthropic.", "google.genai.")


class CacheWarning(UserWarning):
    """A stored reply that could not be used (named ``file:line``): the call was made instead."""


def _digest(text: str | bytes) -> str:
    return "sha256:" + hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _hashed(value: Any) -> Any:
    """The request with images and other long payloads as their hashes, everything else as it is."""
    if isinstance(value, dict):
        return {str(k): _hashed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_hashed(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return _digest(bytes(value))
    if isinstance(value, str):
        return _digest(value) if len(value) > _LONG else value
    if value is None or isinstance(value, (bool, int, float)):
        return value
    dump = getattr(value, "model_dump", None)
    return _hashed(dump(mode="python", exclude_none=True)) if callable(dump) else repr(value)


def key_material(agent: ProviderAgent, request: dict[str, Any]) -> dict[str, Any]:
    spec, ctx, conn = agent.spec, agent.ctx, agent.conn
    return {"format": KEY_FORMAT, "provider": spec.provider, "api": spec.api, "protocol": agent.label,
            "model": spec.model, "base_url": conn.base_url if conn else None, "memory_rounds": spec.memory_rounds,
            "seed": ctx.seed if ctx else None, "role": ctx.role_name if ctx else None, "request": _hashed(request)}


def reply_key(agent: ProviderAgent, request: dict[str, Any]) -> str:
    material = json.dumps(key_material(agent, request), sort_keys=True, allow_nan=True, default=repr)
    return hashlib.sha256(material.encode()).hexdigest()


def freeze(response: Any) -> tuple[str, str] | None:
    """The SDK response's class and JSON, or None for a response that is not an SDK model (not stored)."""
    cls = type(response)
    name = f"{cls.__module__}:{cls.__qualname__}"
    dump = getattr(response, "model_dump_json", None)
    if not callable(dump) or not name.startswith(_SDK_MODULES):
        return None
    return name, dump()


def revive(entry: Entry, where: str) -> Any:
    """The stored response as its SDK's object again; Damaged (naming ``where``) when it does not read as one."""
    module, _, qualname = entry.response_type.partition(":")
    if not module.startswith(_SDK_MODULES) or not qualname:
        raise Damaged(f"{where}:1: response type {entry.response_type!r} is not a provider SDK's")
    try:
        cls: Any = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        return cls.model_validate_json(entry.response)
    except Exception as exc:  # noqa: BLE001 - any failure to revive is a damaged entry, never a crash
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise Damaged(f"{where}:1: the stored reply does not read as {qualname}: {type(exc).__name__}: {first}") \
            from None


@dataclass
class CacheNote:
    """What the cache did for one call: a hit (with the original's tokens and latency) or a miss (stored or not;
    a damaged entry named)."""

    hit: bool
    key: str
    usage: Usage | None = None  # a hit: the tokens the original call spent (this one spent none)
    latency_ms: int | None = None  # a hit: how long the original call took
    stored: bool = False
    damaged: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hit": self.hit, "key": self.key}
        if self.hit:
            out.update(usage=(self.usage or Usage()).to_json(), latency_ms=self.latency_ms)
        else:
            out["stored"] = self.stored
        if self.damaged:
            out["damaged"] = self.damaged
        return out


def _occurrence(agent: ProviderAgent, key: str) -> int:
    """How many times this run has asked this very request before: the n-th asking is answered by the n-th
    stored reply, so a run that meets the same screen twice samples twice, as it would without the cache."""
    seen: tuple[Any, dict[str, int]] | None = getattr(agent, "_gw_cache_seen", None)
    if seen is None or seen[0] is not agent.ctx:  # a new run (begin() gave the agent a new context)
        seen = (agent.ctx, {})
        agent._gw_cache_seen = seen  # type: ignore[attr-defined]
    n = seen[1].get(key, 0)
    seen[1][key] = n + 1
    return n


class ReplyCache:
    """--gw-cache on (look up, store misses) or read-only (look up only) over one cache folder."""

    def __init__(self, folder: CacheFolder, mode: str) -> None:
        if mode not in ("on", "read-only"):
            raise ValueError(f"a reply cache is on or read-only, not {mode!r}")
        self.folder, self.mode = folder, mode

    async def exchange(self, agent: ProviderAgent, request: dict[str, Any], frame: Any,
                       retries: list[str]) -> Parsed:
        """The stored reply for this request parsed as the agent parses a reply, or the agent's own exchange
        (stored once it parsed); the parsed reply carries the CacheNote, and spends no tokens on a hit."""
        base = reply_key(agent, request)
        key = hashlib.sha256(f"{base}:{_occurrence(agent, base)}".encode()).hexdigest()
        damaged = None
        try:
            entry = self.folder.load(key)
            if entry is not None:
                response = revive(entry, str(self.folder.path(key)))
                parsed = agent.parse_reply(response, frame)
                agent.remember_response(response, parsed)
                note = CacheNote(True, key, usage=Usage(**entry.usage), latency_ms=entry.latency_ms)
                return replace(parsed, usage=Usage(), cache=note)
        except Damaged as exc:
            damaged = str(exc)
            warnings.warn(CacheWarning(f"damaged cache entry, called the model instead: {damaged}"), stacklevel=2)
        started = time.perf_counter()
        parsed = await agent._exchange(request, frame, retries)
        latency_ms = int(round((time.perf_counter() - started) * 1000))
        note = CacheNote(False, key, damaged=damaged)
        frozen = freeze(parsed.raw) if self.mode == "on" else None
        if frozen is not None:
            spec = agent.spec
            entry = Entry(key=key, model=spec.name, provider=str(spec.provider), api=str(spec.api),
                          response_type=frozen[0], response=frozen[1], usage=parsed.usage.to_json(),
                          latency_ms=latency_ms)
            await asyncio.to_thread(self.folder.store, entry)
            note.stored = True
        return replace(parsed, cache=note)


async def through_cache(agent: ProviderAgent, request: dict[str, Any], frame: Any,
                        retries: list[str]) -> Parsed:
    """The provider call path's one hook: ``agent._exchange`` itself when the run has no cache."""
    cache = agent.ctx.cache if agent.ctx is not None else None
    if cache is None:
        return await agent._exchange(request, frame, retries)
    return await cache.exchange(agent, request, frame, retries)


def sampling_notices(mode: str, specs: list[Any]) -> list[str]:
    """One line per provider spec that samples (temperature above 0, or the provider's default, which is above
    0 for every shipped provider) while the cache is on: a hit replays the sample stored first instead of
    drawing a new one, which the session should say rather than do quietly."""
    if mode == "off":
        return []
    out = []
    for spec in {s.name: s for s in specs if s.provider}.values():
        if spec.temperature is None or spec.temperature > 0:
            t = "the provider's default temperature" if spec.temperature is None else f"temperature {spec.temperature:g}"
            out.append(f"gameworld: --gw-cache {mode}: {spec.name} samples at {t}; a cached reply replays the "
                       "sample stored first for a request instead of drawing a new one (--gw-cache off to sample)")
    return out
