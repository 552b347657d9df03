"""Typed catalog specs: games, roles and controls, tasks, model specs (pydantic, pure)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .providers import ApiName, ProviderName

GENRES = ("arcade", "platformer", "puzzle", "runner", "simulation")
BINDING_ACTIONS = (
    "wait", "press_key", "press_keys", "click", "right_click", "click_hold",
    "drag", "mouse_move", "scroll", "type",
)
MAX_DURATION_MS = 5000
# How replies are parsed and judged: "original" follows the original GameWorld harness's code (exact
# function names, its own verbs, a reply its parser refuses counts as no tool call); "paper" follows the
# paper's text (case-insensitive, alias-aware ids, wider verb vocabularies). docs/models.md lists both.
Parsing = Literal["original", "paper"]
# What an agent observes each step (--gw-obs): the screenshot (the paper's protocol), the game's observable
# state as text instead, or both. docs/observation-and-humans.md.
OBS_MODES = ("screenshot", "state", "both")
STANDARD_OBS = "screenshot"
_STATE_PATH = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$"


class CatalogError(Exception):
    """A catalog file is missing or invalid; the message names the file and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Viewport(_Strict):
    width: int = Field(default=1280, ge=64, le=4096)
    height: int = Field(default=720, ge=64, le=4096)


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
    def _cells_need_an_arg(self) -> Control:
        if self.cell_bindings is not None and "cell" not in self.args:
            raise ValueError("cell_bindings needs an argument named 'cell' in args")
        return self


class CuaControls(_Strict):
    keys: list[str]
    clicks: bool = False
    default_hold_ms: int = Field(200, ge=1, le=MAX_DURATION_MS)
    key_durations: dict[str, int] = {}
    # Every key is legal: what the original harness reads an empty key list as (imported upstream roles,
    # and Minesweeper, whose original catalog lists no keys).
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
    # State paths a player can read off the screen (shown as text with --gw-obs state|both), and paths the
    # screen keeps secret (a mine's place, an answer): none of the first may be, contain or sit inside one of these.
    observable: list[Annotated[str, Field(pattern=_STATE_PATH)]] = []
    hidden: list[Annotated[str, Field(pattern=_STATE_PATH)]] = []

    @model_validator(mode="after")
    def _nothing_hidden_observable(self) -> GameSpec:
        for seen in self.observable:
            for secret in self.hidden:
                if overlaps(seen, secret):
                    raise ValueError(f"observable field {seen!r} shows hidden field {secret!r}")
        if len(set(self.observable)) != len(self.observable):
            raise ValueError("observable lists a field twice")
        return self

    @property
    def slug(self) -> str:
        return self.id.split("-", 1)[1] if "-" in self.id else self.id


def overlaps(a: str, b: str) -> bool:
    """Whether one state path is the other or lies inside it (``game_state.board`` and ``game_state``)."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


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
    # Where progress counts from: the task's start, or the run's first observed score when that is higher (a
    # score the opening state already holds, such as 2048's first tile, is no progress: noop must earn 0).
    progress_from: Literal["start", "first_state"] = "start"
    # Upstream's status for a run ended by its end rule; informational: success is only ever the target met.
    terminal_status: Literal["success", "fail", "unknown"] | None = None

    @field_validator("start", "target")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError(f"must be a finite number, got {value}")
        return value

    @model_validator(mode="after")
    def _target_above_start(self) -> TaskSpec:
        if not self.target > self.start:
            raise ValueError(f"target ({self.target}) must be greater than start ({self.start})")
        return self

    @property
    def score_fields(self) -> list[str]:
        return [self.score] if isinstance(self.score, str) else list(self.score.fields)

    def init_config(self, seed: int) -> dict[str, Any]:
        """The argument of the game's gameAPI.init for a run of this task with this seed (every caller that
        starts a task's game starts it with this, so a seed gives the same start everywhere)."""
        return {"seed": seed, "level": self.level, "difficulty": self.difficulty, "task": self.oracle_view(),
                **self.init}

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
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:@+-]*$")
    aliases: list[str] = []
    interface: Literal["generalist", "cua"]
    # const, const-key and cycle are the trivial policies (agents/trivial.py): one control, key or rotation every step
    builtin: Literal["random", "random-cua", "noop", "oracle", "replay", "human", "const", "const-key", "cycle"] | None = None
    provider: ProviderName | None = None  # catalog/providers.py
    api: ApiName | None = None
    text_format: Literal["qwen", "uitars"] | None = None
    native_computer_use: bool = False
    model: str | None = None
    display_name: str | None = None
    endpoint: Endpoint = Endpoint()
    prompt_template: str | None = None
    output_format: str | None = None
    temperature: float | None = 0.0  # None: not sent (the provider's default)
    max_output_tokens: int | None = Field(2048, ge=1)  # None: not sent (the provider's default)
    parsing: Parsing = "original"
    memory_rounds: int = Field(0, ge=0, le=20)
    screenshot_format: Literal["png", "jpeg"] = "png"
    screenshot_width: int | None = None
    coordinates: Literal["absolute", "normalized_1000"] = "absolute"
    timeout_s: float = 120.0
    max_retries: int = 3
    # Wall-clock limit on one step of the agent, every attempt, retry and Retry-After wait included.
    step_timeout_s: float = Field(120.0, gt=0, le=3600)
    # Requests in flight to this endpoint at once, over all of a process's runs (--gw-concurrency); None: no
    # bound. A step waiting for a slot is not timed by step_timeout_s (the wait is recorded as queue_ms).
    max_connections: int | None = Field(None, ge=1, le=4096)
    price_per_mtok: Pricing | None = Pricing()  # None: unknown (a model named PROVIDER/MODEL); cost shows n/a
    extra: dict[str, Any] = {}
    path: Path | None = Field(default=None, exclude=True)

    @model_validator(mode="after")
    def _builtin_or_provider(self) -> ModelSpec:
        if (self.builtin is None) == (self.provider is None):
            raise ValueError("exactly one of 'builtin' and 'provider' must be set")
        if self.provider is not None and (self.api is None or self.model is None):
            raise ValueError("a provider model needs 'api' and 'model'")
        return self
