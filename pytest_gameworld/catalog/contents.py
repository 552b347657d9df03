"""A loaded catalog: its games, tasks and model specs, and model lookup by name, alias or file."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .model_names import is_model_name, spec_from_name
from .specs import CatalogError, GameSpec, ModelSpec, TaskSpec
from .yaml_files import describe_validation_error, load_model_file


@dataclass
class Catalog:
    """Every game, task and model spec of one catalog directory."""

    root: Path
    games: dict[str, GameSpec] = field(default_factory=dict)
    tasks: list[TaskSpec] = field(default_factory=list)
    models: dict[str, ModelSpec] = field(default_factory=dict)
    games_root: Path | None = None  # where the game folders are served from (default root/games)
    prompts_root: Path | None = None  # the prompt templates (default root/prompts)
    source: dict[str, str] = field(default_factory=dict)  # an imported catalog's origin: format, path, commit
    left_out: list[str] = field(default_factory=list)  # one line per reason games were not collected
    warnings: list[str] = field(default_factory=list)  # faithfully imported upstream defects
    # An imported catalog's every declared game: its page's state ("present", or why it is left out) and its
    # number of tasks, collected or not.
    pages: dict[str, str] = field(default_factory=dict)
    declared_tasks: dict[str, int] = field(default_factory=dict)

    @property
    def games_dir(self) -> Path:
        return self.games_root or self.root / "games"

    @property
    def prompts_dir(self) -> Path:
        return self.prompts_root or self.root / "prompts"

    @cached_property
    def model_names(self) -> dict[str, str]:
        """Lower-cased name or alias → canonical name."""
        names: dict[str, str] = {}
        for spec in self.models.values():
            for n in [spec.name, *spec.aliases]:
                names[n.lower()] = spec.name
        return names

    def resolve_model(self, ref: str, overrides: dict[str, Any] | None = None, interface: str | None = None) -> ModelSpec:
        """A model by name, alias or YAML path, with optional field overrides; ``interface`` (--gw-interface)
        chooses a PROVIDER/MODEL name's interface, and any other spec must already have it."""
        ref = ref.strip()
        if ref.endswith((".yaml", ".yml")):
            spec = load_model_file(Path(ref))
        elif is_model_name(ref):
            spec = spec_from_name(ref, interface)
        else:
            base, _, arg = ref.partition(":")
            base, at, skill = base.partition("@")
            canonical = self.model_names.get(base.lower())
            if canonical is None:
                raise CatalogError(self._unknown_model(ref))
            spec = self.models[canonical]
            if at:
                spec = _skill_rung(spec, skill)
            if arg:  # e.g. replay:<path>: the argument becomes part of the spec's extra
                spec = spec.model_copy(update={"name": f"{spec.name}:{arg}", "extra": {**spec.extra, "arg": arg}})
        if interface and spec.interface != interface:
            raise CatalogError(f"--gw-interface {interface}: model {ref!r} is a {spec.interface} spec; the option "
                               "chooses the interface of PROVIDER/MODEL names (for a catalog spec, name its "
                               f"{interface} twin: `gameworld list models --interface {interface}`)")
        if overrides:
            try:
                data = spec.model_dump()
                for key, value in overrides.items():
                    _set_dotted(data, key, value)
                spec = ModelSpec.model_validate({**data, "path": spec.path})
            except ValidationError as err:
                raise CatalogError(describe_validation_error(Path(f"--gw-model-opt for {spec.name}"), err, ModelSpec)) from None
        return spec

    def _unknown_model(self, ref: str) -> str:
        """One line for a name no spec has: the closest catalog name, and the other ways to name a model."""
        close = difflib.get_close_matches(ref.lower(), list(self.model_names), n=1, cutoff=0.6)
        hint = f"did you mean {self.model_names[close[0]]!r}? " if close else ""
        return (f"unknown model {ref!r}; {hint}`gameworld list models` lists the catalog's; "
                "or name one as PROVIDER/MODEL (openai/gpt-4.1, anthropic/…, google/…, vllm/…, "
                "openai-compatible/…; add :cua for computer use), or pass a path to a model YAML")

    def task_game(self, task: TaskSpec) -> GameSpec:
        return self.games[task.game]


def _skill_rung(spec: ModelSpec, skill: str) -> ModelSpec:
    """oracle@P: the oracle's action with probability P in [0, 1], else a random legal one."""
    try:
        p = float(skill)
    except ValueError:
        p = -1.0
    if spec.builtin != "oracle" or not 0.0 <= p <= 1.0:
        raise CatalogError(f"unknown model {spec.name}@{skill}: only the oracle takes a skill, "
                           "as oracle@P with P from 0 to 1 (e.g. oracle@0.5)")
    return spec.model_copy(update={"name": f"{spec.name}@{p:g}", "aliases": [],
                                   "display_name": f"Oracle@{p:g} (built-in)", "extra": {**spec.extra, "skill": p}})


def _set_dotted(data: dict[str, Any], key: str, value: Any) -> None:
    parts = key.split(".")
    for p in parts[:-1]:
        if not isinstance(data.get(p), dict):  # absent, or None (an unknown price being set)
            data[p] = {}
        data = data[p]
    data[parts[-1]] = value
