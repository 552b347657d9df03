"""Typed catalog specs (games, tasks, models) and their validated loading."""

from __future__ import annotations

import math
import difflib
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

GENRES = ("arcade", "platformer", "puzzle", "runner", "simulation")
BINDING_ACTIONS = (
    "wait", "press_key", "press_keys", "click", "right_click", "click_hold",
    "drag", "mouse_move", "scroll", "type",
)
MAX_DURATION_MS = 5000


class CatalogError(Exception):
    """A catalog file is missing or invalid; the message names the file and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Viewport(_Strict):
    width: int = Field(1280, ge=64, le=4096)
    height: int = Field(720, ge=64, le=4096)


class Binding(_Strict):
    action: Literal[BINDING_ACTIONS]  # type: ignore[valid-type]
    duration_ms: int = Field(ge=0, le=MAX_DURATION_MS)
    key: str | None = None
    keys: list[str] | None = None
    x: int | None = None
    y: int | None = None
    to_x: int | None = None
    to_y: int | None = None
    dx: int | None = None
    dy: int | None = None
    text: str | None = None


class ArgSpec(_Strict):
    type: Literal["string", "integer", "number", "boolean"] = "string"
    description: str = ""
    required: bool = True
    enum: list[Any] | None = None


class Control(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str
    aliases: list[str] = []
    args: dict[str, ArgSpec] = {}
    binding: Binding
    cell_bindings: dict[str, tuple[int, int]] | None = None

    @model_validator(mode="after")
    def _cells_need_an_arg(self) -> "Control":
        if self.cell_bindings is not None and "cell" not in self.args:
            raise ValueError("cell_bindings needs an argument named 'cell' in args")
        return self


class CuaControls(_Strict):
    keys: list[str]
    clicks: bool = False
    default_hold_ms: int = Field(200, ge=1, le=MAX_DURATION_MS)
    key_durations: dict[str, int] = {}
    # Upstream catalogs read an empty key list as "every key"; imported faithfully, never written by us.
    any_key: bool = False


class Role(_Strict):
    description: str
    cua: CuaControls
    cua_description: str = ""  # an imported catalog's own action-space text for computer-use prompts
    controls: list[Control]

    @field_validator("controls")
    @classmethod
    def _unique_ids(cls, controls: list[Control]) -> list[Control]:
        seen: set[str] = set()
        for c in controls:
            for name in [c.id, *c.aliases]:
                if name.lower() in seen:
                    raise ValueError(f"control id or alias {name!r} is used twice")
                seen.add(name.lower())
        return controls

    def control(self, name: str) -> Control | None:
        """Look a control up by id or alias, case-insensitively."""
        low = name.strip().lower()
        for c in self.controls:
            if c.id == low or low in (a.lower() for a in c.aliases):
                return c
        return None


class GameSpec(_Strict):
    id: str
    name: str
    genre: Literal[GENRES]  # type: ignore[valid-type]
    level: int = Field(ge=1, le=5)
    viewport: Viewport = Viewport()
    entry: str = "index.html"
    rules: str
    roles: dict[str, Role]
    path: Path = Field(default=Path("."), exclude=True)
    origin: str = Field(default="", exclude=True)  # "upstream" for a game imported from an upstream checkout

    @property
    def slug(self) -> str:
        return self.id.split("-", 1)[1] if "-" in self.id else self.id


class Aggregate(_Strict):
    aggregate: Literal["sum", "min"]
    fields: list[str] = Field(min_length=1)


class Requirement(_Strict):
    field: str
    min: float


class EndRule(_Strict):
    field: str
    equals: Any


class TaskSpec(_Strict):
    id: str = Field(pattern=r"^\d\d_\d\d$")
    game: str
    instruction: str
    score: str | Aggregate
    start: float
    target: float
    requires: list[Requirement] = []
    end: EndRule | None = None
    level: int = 1
    difficulty: str | None = None
    init: dict[str, Any] = {}
    max_steps: int = Field(100, ge=1, le=10_000)
    continue_on_fail: bool = True
    url_suffix: str | None = None  # appended to the page URL as upstream does (levels, options)
    # Upstream's status for a run ended by its end rule; informational: success is only ever the target met.
    terminal_status: Literal["success", "fail", "unknown"] | None = None

    @field_validator("start", "target")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError(f"must be a finite number, got {value}")
        return value

    @model_validator(mode="after")
    def _target_above_start(self) -> "TaskSpec":
        if not self.target > self.start:
            raise ValueError(f"target ({self.target}) must be greater than start ({self.start})")
        return self

    @property
    def score_fields(self) -> list[str]:
        return [self.score] if isinstance(self.score, str) else list(self.score.fields)

    def oracle_view(self) -> dict[str, Any]:
        """The task as the game's oracle sees it."""
        score = self.score if isinstance(self.score, str) else self.score.model_dump()
        return {"id": self.id, "score": score, "scoreField": self.score_fields[0],
                "start": self.start, "target": self.target, "level": self.level}


class Pricing(_Strict):
    input: float = 0.0
    output: float = 0.0
    cached: float = 0.0


class Endpoint(_Strict):
    base_url: str | None = None
    base_url_env: str | None = None
    api_key_env: str | None = None
    api_key_required: bool = True


class ModelSpec(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")
    aliases: list[str] = []
    interface: Literal["generalist", "cua"]
    builtin: Literal["random", "random-cua", "noop", "oracle", "replay"] | None = None
    provider: Literal["openai", "anthropic", "gemini", "openai-compatible"] | None = None
    api: Literal["chat", "responses", "messages", "generate_content", "text"] | None = None
    text_format: Literal["qwen", "uitars"] | None = None
    native_computer_use: bool = False
    model: str | None = None
    display_name: str | None = None
    endpoint: Endpoint = Endpoint()
    prompt_template: str | None = None
    output_format: str | None = None
    temperature: float | None = 0.0
    max_output_tokens: int = 1024
    memory_rounds: int = Field(0, ge=0, le=20)
    screenshot_format: Literal["png", "jpeg"] = "png"
    screenshot_width: int | None = None
    coordinates: Literal["absolute", "normalized_1000"] = "absolute"
    timeout_s: float = 120.0
    max_retries: int = 3
    # Wall-clock limit on one step of the agent, every attempt, retry and Retry-After wait included.
    step_timeout_s: float = Field(120.0, gt=0, le=3600)
    price_per_mtok: Pricing = Pricing()
    extra: dict[str, Any] = {}
    path: Path | None = Field(default=None, exclude=True)

    @model_validator(mode="after")
    def _builtin_or_provider(self) -> "ModelSpec":
        if (self.builtin is None) == (self.provider is None):
            raise ValueError("exactly one of 'builtin' and 'provider' must be set")
        if self.provider is not None and (self.api is None or self.model is None):
            raise ValueError("a provider model needs 'api' and 'model'")
        return self


def _suggest(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> str:
    """For an unknown key: the known key it most resembles, as ' (did you mean 'x'?)'."""
    for part in loc[:-1]:  # walk down to the model that owns the unknown key
        field_info = model.model_fields.get(str(part)) if model else None
        sub = field_info.annotation if field_info else None
        model = sub if isinstance(sub, type) and issubclass(sub, BaseModel) else None
    if model is None:
        return ""
    close = difflib.get_close_matches(str(loc[-1]), list(model.model_fields), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def describe_validation_error(path: Path, err: ValidationError, model: type[BaseModel] | None = None) -> str:
    """One line: the file, the first failing field and what is wrong (with a suggestion for a misspelt key)."""
    first = err.errors()[0]
    loc = ".".join(str(p) for p in first["loc"]) or "<root>"
    hint = _suggest(model, tuple(first["loc"])) if first["type"] == "extra_forbidden" and first["loc"] else ""
    extra = f" (+{err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return f"{path}: field '{loc}': {first['msg']}{hint}{extra}"


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise CatalogError(f"{path}:{where} invalid YAML: {getattr(exc, 'problem', exc)}") from None
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read: {exc.strerror}") from None
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: expected a mapping at the top level")
    return data


def _parse(model: type[BaseModel], file: Path, **extra: Any) -> Any:
    data = _read_yaml(file)
    try:
        return model.model_validate({**data, **extra})
    except ValidationError as err:
        raise CatalogError(describe_validation_error(file, err, model)) from None


def load_model_file(path: Path) -> ModelSpec:
    """Load one model spec YAML (a user's own, or the catalog's)."""
    return _parse(ModelSpec, path, path=path)


def default_catalog_dir() -> Path:
    """The catalog shipped inside the wheel (pytest_gameworld/_catalog), or the repo's top-level one."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_catalog", here.parent / "catalog"):
        if (candidate / "games").is_dir():
            return candidate
    raise CatalogError(f"no catalog found next to {here}")


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

    def resolve_model(self, ref: str, overrides: dict[str, Any] | None = None) -> ModelSpec:
        """A model by name, alias or YAML path, with optional field overrides."""
        ref = ref.strip()
        if ref.endswith((".yaml", ".yml")):
            spec = load_model_file(Path(ref))
        else:
            base, _, arg = ref.partition(":")
            canonical = self.model_names.get(base.lower())
            if canonical is None:
                known = ", ".join(sorted(self.models))
                raise CatalogError(f"unknown model {ref!r}; known: {known}; or pass a path to a model YAML")
            spec = self.models[canonical]
            if arg:  # e.g. replay:<path>: the argument becomes part of the spec's extra
                spec = spec.model_copy(update={"name": f"{spec.name}:{arg}", "extra": {**spec.extra, "arg": arg}})
        if overrides:
            try:
                data = spec.model_dump()
                for key, value in overrides.items():
                    _set_dotted(data, key, value)
                spec = ModelSpec.model_validate({**data, "path": spec.path})
            except ValidationError as err:
                raise CatalogError(describe_validation_error(Path(f"--gw-model-opt for {spec.name}"), err, ModelSpec)) from None
        return spec

    def task_game(self, task: TaskSpec) -> GameSpec:
        return self.games[task.game]


def _set_dotted(data: dict[str, Any], key: str, value: Any) -> None:
    parts = key.split(".")
    for p in parts[:-1]:
        data = data.setdefault(p, {})
    data[parts[-1]] = value


_TASK_FILE = re.compile(r"^(\d\d)_(\d\d)\.ya?ml$")


def load_catalog(root: Path | None = None) -> Catalog:
    """Load and validate a catalog; raise CatalogError naming the first bad file and field."""
    root = Path(root) if root else default_catalog_dir()
    from .upstream import is_upstream, load_upstream  # the upstream format builds on these specs

    if is_upstream(root):
        return load_upstream(root)
    if not (root / "games").is_dir():
        raise CatalogError(f"{root}: not a catalog (no games/ directory)")
    cat = Catalog(root=root)
    for gdir in sorted(p for p in (root / "games").iterdir() if p.is_dir()):
        gfile = gdir / "game.yaml"
        if not gfile.exists():
            raise CatalogError(f"{gfile}: missing")
        game: GameSpec = _parse(GameSpec, gfile, path=gdir)
        if game.id != gdir.name:
            raise CatalogError(f"{gfile}: field 'id': {game.id!r} does not match folder {gdir.name!r}")
        if not (gdir / game.entry).exists():
            raise CatalogError(f"{gfile}: field 'entry': {game.entry} not found in {gdir}")
        cat.games[game.id] = game
    tasks_root = root / "tasks"
    for tdir in sorted(p for p in tasks_root.iterdir() if p.is_dir()) if tasks_root.is_dir() else []:
        for tfile in sorted(tdir.glob("*.y*ml")):
            m = _TASK_FILE.match(tfile.name)
            if not m:
                raise CatalogError(f"{tfile}: task files are named NN_TT.yaml")
            task: TaskSpec = _parse(TaskSpec, tfile)
            if task.id != tfile.stem:
                raise CatalogError(f"{tfile}: field 'id': {task.id!r} does not match file name")
            if task.game != tdir.name or task.game not in cat.games:
                raise CatalogError(f"{tfile}: field 'game': {task.game!r} is not the game folder {tdir.name!r}")
            cat.tasks.append(task)
    cat.tasks.sort(key=lambda t: (t.game, t.id))
    cat.models = load_models(root / "models")
    return cat


def load_models(models_dir: Path) -> dict[str, ModelSpec]:
    """Every model spec YAML of a catalog's models/ folder, by name."""
    models: dict[str, ModelSpec] = {}
    for mfile in sorted(models_dir.glob("*.y*ml")) if models_dir.is_dir() else []:
        spec = load_model_file(mfile)
        if spec.name in models:
            raise CatalogError(f"{mfile}: field 'name': {spec.name!r} is defined twice")
        models[spec.name] = spec
    return models
