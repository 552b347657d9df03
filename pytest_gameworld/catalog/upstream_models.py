"""The model specs of an upstream checkout (catalog/models/*.yaml) as ours.

Upstream's YAML names the model, its prompt template and output format, memory on or off, and overrides of
its agent's settings (model id, a full /v1/chat/completions `endpoint` or a `base_url`, ...). Which provider,
wire protocol and reply format it speaks is upstream's Python code, chosen by `model_name`; FAMILY says which
of our specs speaks the same (its provider side is taken, the upstream file's fields replace the rest).
A field that does not map is reported, never dropped in silence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .specs import CatalogError, ModelSpec
from .yaml_files import describe_validation_error, read_yaml

MODELS_DIR = Path("catalog") / "models"
# Upstream model_name → (our spec with the same provider, protocol and reply format, upstream agent defaults
# that differ from the shared ones). Qwen 2.5 and 3.5 go through upstream's Qwen3-VL agents (0-1000 points).
FAMILY: dict[str, tuple[str, dict[str, Any]]] = {
    "claude-sonnet-4.6": ("claude-sonnet-4.6", {}),
    "claude-sonnet-4.6-cua": ("claude-sonnet-4.6-cua", {}),
    "gemini-2.5-computer-use": ("gemini-2.5-computer-use", {}),
    "gemini-3-flash-preview": ("gemini-3-flash", {}),
    "glm-4.6v": ("glm-4.6v", {}),
    "gpt-5.2": ("gpt-5.2", {}),
    "grok-4.1-fast-reasoning": ("grok-4.1-fast", {}),
    "kimi-k2.5": ("kimi-k2.5", {"temperature": 1.0}),
    "openai-computer-use": ("openai-computer-use", {}),
    "qwen2.5-vl-32b-instruct": ("qwen3-vl-30b", {}),
    "qwen2.5-vl-32b-instruct-cua": ("qwen3-vl-30b-cua", {}),
    "qwen3-vl-30b-a3b": ("qwen3-vl-30b", {}),
    "qwen3-vl-30b-a3b-cua": ("qwen3-vl-30b-cua", {}),
    "qwen3-vl-235b-a22b": ("qwen3-vl-235b", {}),
    "qwen3-vl-235b-a22b-cua": ("qwen3-vl-235b-cua", {}),
    "qwen3-vl-plus": ("qwen3-vl-plus", {}),
    "qwen3-vl-plus-cua": ("qwen3-vl-plus-cua", {}),
    "qwen3.5-122b-a10b": ("qwen3-vl-30b", {}),
    "qwen3.5-122b-a10b-cua": ("qwen3-vl-30b-cua", {}),
    "qwen3.5-397b-a17b": ("qwen3-vl-30b", {}),
    "qwen3.5-397b-a17b-cua": ("qwen3-vl-30b-cua", {}),
    "seed-1.8": ("seed-1.8", {}),
    "seed-1.8-cua": ("seed-1.8-cua", {}),
    "ui-tars-1.5-7b": ("ui-tars-1.5-7b", {}),
}
# Upstream's agent settings every model shares unless its file says otherwise.
MEMORY_ROUNDS = 2  # upstream's runtime sends the last two rounds when enable_memory is on
MAX_TOKENS = 2048
CHAT_PATH = "/chat/completions"
MAPPED = {"model_name", "prompt_template_id", "output_format", "enable_memory", "model", "endpoint", "base_url",
          "api_key_env", "temperature", "max_tokens"}


def base_url_of(endpoint: str) -> str:
    """An OpenAI-compatible base URL from upstream's full chat-completions URL."""
    url = endpoint.rstrip("/")
    return url[: -len(CHAT_PATH)] if url.endswith(CHAT_PATH) else url


def map_model(data: dict[str, Any], file: Path, ours: dict[str, ModelSpec]) -> tuple[ModelSpec | None, list[str]]:
    """One upstream model file as our spec (None when no provider of ours speaks its agent's protocol),
    and one note per field that did not map."""
    name = str(data.get("model_name") or "")
    if name != file.stem:
        raise CatalogError(f"{file}: field 'model_name': {name!r} does not match the file name {file.stem!r}")
    family = FAMILY.get(name)
    if family is None or family[0] not in ours:
        return None, [f"model {name}: {file}: no provider of ours speaks the protocol of upstream's agent for "
                      f"{name!r} (known: {', '.join(sorted(FAMILY))}); not loaded"]
    base = ours[family[0]]
    notes = []
    for key in sorted(set(data) - MAPPED):
        hint = " (a key is read from the environment variable api_key_env names)" if key == "api_key" else ""
        notes.append(f"model {name}: {file}: field {key!r} = {data[key]!r} is not mapped{hint}")
    endpoint = base.endpoint.model_dump()
    url = data.get("endpoint") or data.get("base_url")
    if url:
        if data.get("endpoint") and not str(data["endpoint"]).rstrip("/").endswith(CHAT_PATH):
            notes.append(f"model {name}: {file}: endpoint {data['endpoint']!r} is not a {CHAT_PATH} URL; "
                         "used as the base URL")
        endpoint.update(base_url=base_url_of(str(url)), base_url_env=None)
    if data.get("api_key_env"):
        endpoint["api_key_env"] = str(data["api_key_env"])
    fields: dict[str, Any] = {
        **base.model_dump(), **family[1], "name": name, "aliases": [], "display_name": f"{name} (upstream spec)",
        "model": str(data.get("model") or base.model), "endpoint": endpoint,
        "prompt_template": str(data["prompt_template_id"]) if data.get("prompt_template_id") else None,
        "output_format": data.get("output_format") if data.get("output_format") is not None else base.output_format,
        "memory_rounds": MEMORY_ROUNDS if data.get("enable_memory") else 0,
        "max_output_tokens": int(data.get("max_tokens") or MAX_TOKENS), "path": file,
    }
    if data.get("temperature") is not None:
        fields["temperature"] = data["temperature"]
    try:
        return ModelSpec.model_validate(fields), notes
    except ValidationError as err:
        raise CatalogError(describe_validation_error(file, err, ModelSpec)) from None


def load_upstream_models(root: Path, ours: dict[str, ModelSpec]) -> tuple[dict[str, ModelSpec], list[str]]:
    """Ours (an upstream name or alias taken back from them) plus the checkout's own specs, and the notes."""
    loaded: dict[str, ModelSpec] = {}
    notes: list[str] = []
    for file in sorted((root / MODELS_DIR).glob("*.y*ml")):
        spec, found = map_model(read_yaml(file), file, ours)
        notes += found
        if spec is not None:
            loaded[spec.name] = spec
    taken = {n.lower() for n in loaded}
    models = {}
    for spec in ours.values():
        if spec.name.lower() in taken:
            continue  # the checkout's own spec of that name is the one its catalog means
        aliases = [a for a in spec.aliases if a.lower() not in taken]
        models[spec.name] = spec if aliases == spec.aliases else spec.model_copy(update={"aliases": aliases})
    return {**models, **loaded}, notes
