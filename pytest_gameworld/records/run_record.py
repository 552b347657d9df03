"""A run's record (one line of results.jsonl), its identity, and each run's latest attempt."""

from __future__ import annotations

import json
import platform
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from pydantic import Field, TypeAdapter, ValidationError

from ..catalog.specs import STANDARD_OBS, GameSpec, ModelSpec, TaskSpec
from .jsonl import Damage, read_lines

if TYPE_CHECKING:
    from ..agents.base import Usage
    from ..play.evaluator import Evaluator
    from ..play.tally import Tally


# Measurements that go on item.user_properties, in this order.
PROPERTY_KEYS = (
    "success", "progress", "score_best", "score_start", "score_target", "steps", "episodes", "invalid_ntc",
    "invalid_oos", "sec_per_step", "tokens_in", "tokens_out", "tokens_cached", "cost_usd", "stop_reason",
    "seed", "protocol", "obs", "game", "genre", "level", "model", "interface", "task", "repeat",
)


def cost_usd(model: ModelSpec, usage: Usage) -> float:
    """Price of a usage at the spec's per-million-token prices (cached input billed as cached)."""
    p = model.price_per_mtok
    if p is None:  # unknown price: counted as nothing here, written as None (records and steps say priced=False)
        return 0.0
    fresh = max(0, usage.input_tokens - usage.cached_tokens)
    return round((fresh * p.input + usage.cached_tokens * p.cached + usage.output_tokens * p.output) / 1e6, 6)


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("pytest-gameworld", "pytest", "playwright"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


class RunStatus(str, Enum):
    """A record's status: scored, faulted, interrupted in flight, or never started (and why, in `error`).

    A str: it is written and compared as its value ("ok"), as records on disk spell it."""

    OK = "ok"
    ERROR = "error"
    INTERRUPTED = "interrupted"
    NOT_PLAYED = "not_played"

    def __str__(self) -> str:  # f-strings and str() give the value on every Python version
        return self.value

    __hash__ = str.__hash__  # a member and its value are one dict key (Enum hashes by name on some versions)


OK, ERROR, INTERRUPTED, NOT_PLAYED = RunStatus.OK, RunStatus.ERROR, RunStatus.INTERRUPTED, RunStatus.NOT_PLAYED

# Constrained field types: the record is validated with them when read back (see record_problem).
Share = Annotated[float, Field(ge=0.0, le=1.0)]
Count = Annotated[int, Field(ge=0)]
Amount = Annotated[float, Field(ge=0.0)]


@dataclass(frozen=True)
class Measured:
    """What a run measured by the time it ended, however it ended (finished, failed, interrupted)."""

    evaluator: Evaluator
    steps: int
    tally: Tally  # the run's totals over every role
    elapsed_s: float
    now: str
    per_role: dict[str, Tally] = field(default_factory=dict)  # each role's own counts


@dataclass
class RunRecord:
    """One run's line in results.jsonl (written from it, and read back against its field types)."""

    item: str
    task: str
    game: str
    genre: str
    level: int
    model: str
    interface: str
    protocol: str
    role: str
    seed: int
    repeat: Count
    started_at: str
    max_steps: Count = 0
    catalog_version: str = ""
    session: str = ""
    trajectory: str = ""
    status: RunStatus | Literal["running"] = "running"  # "running" until the run ends (never read back so)
    success: bool = False
    progress: Share = 0.0
    score_best: float | None = None
    score_start: float = 0.0
    score_target: float = 0.0
    steps: Count = 0
    episodes: Count = 1
    valid: Count = 0
    invalid_ntc: Count = 0
    invalid_oos: Count = 0
    extra_calls: Count = 0
    sec_per_step: Amount = 0.0
    latency_per_step: Amount = 0.0
    tokens_in: Count = 0
    tokens_out: Count = 0
    tokens_cached: Count = 0
    cost_usd: Amount | None = 0.0  # None: the model's price is unknown (never counted as $0)
    priced: bool = True  # False: the model's price is unknown, so cost_usd is None (tables show n/a)
    # --gw-cache: steps answered from the cache, and what their original calls spent (not in tokens_*/cost_usd).
    cache_hits: Count = 0
    cache_tokens_in: Count = 0
    cache_tokens_out: Count = 0
    cache_cost_usd: Amount | None = 0.0
    stop_reason: str | None = None
    error: str | None = None
    finished_at: str | None = None
    versions: dict[str, str] = field(default_factory=dict)
    # Each role's own validity counts (one entry for single-role games); the run totals above sum them.
    roles: dict[str, dict[str, int]] = field(default_factory=dict)
    catalog: dict[str, str] = field(default_factory=dict)  # an imported catalog's format, path and git commit
    resets: list[str] = field(default_factory=list)  # how each reset happened: inplace, soft_restart, reload
    # The pytest invocation that wrote the record: the circuit breaker looks at the current one only.
    invocation: str = ""
    # What the session changed from the standard protocol (records/comparability.py); {} in older records.
    comparability: dict[str, Any] = field(default_factory=dict)
    # What the agent observed each step (--gw-obs): screenshot (the paper's), state text, or both.
    obs: str = STANDARD_OBS
    parsing: str = ""  # how the model's replies were read (the spec's parsing); "" in older records

    @classmethod
    def begin(cls, *, item: str, task: TaskSpec, game: GameSpec, model: ModelSpec, role: str, seed: int,
              repeat: int, protocol: str, max_steps: int, catalog_version: str, session: str, trajectory: str,
              now: str, obs: str = STANDARD_OBS) -> RunRecord:
        return cls(item=item, task=task.id, game=game.id, genre=game.genre, level=game.level, model=model.name,
                   interface=model.interface, protocol=protocol, role=role, seed=seed, repeat=repeat,
                   started_at=now, max_steps=max_steps, catalog_version=catalog_version, session=session,
                   trajectory=trajectory, score_start=task.start, score_target=task.target, versions=versions(),
                   priced=model.price_per_mtok is not None, obs=obs, parsing=model.parsing)

    def _measure(self, m: Measured) -> None:
        ev, tally, steps = m.evaluator, m.tally, m.steps
        self.roles = {name: {"valid": t.valid, "ntc": t.ntc, "oos": t.oos, "extra_calls": t.extra_calls}
                      for name, t in m.per_role.items()}
        self.success, self.progress = ev.success, round(ev.progress, 6)
        self.score_best = ev.best if ev.history else None
        self.steps, self.episodes = steps, ev.episodes
        self.valid, self.invalid_ntc, self.invalid_oos = tally.valid, tally.ntc, tally.oos
        self.extra_calls = tally.extra_calls
        self.sec_per_step = round(m.elapsed_s / steps, 4) if steps else 0.0
        self.latency_per_step = round(tally.latency_s / steps, 4) if steps else 0.0
        self.tokens_in, self.tokens_out = tally.usage.input_tokens, tally.usage.output_tokens
        self.tokens_cached = tally.usage.cached_tokens
        self.cost_usd = round(tally.cost, 6) if self.priced else None
        self.cache_hits = tally.cache_hits
        self.cache_tokens_in, self.cache_tokens_out = tally.cache_usage.input_tokens, tally.cache_usage.output_tokens
        self.cache_cost_usd = round(tally.cache_cost, 6) if self.priced else None
        self.finished_at = m.now

    def finish(self, m: Measured, stop: str | None) -> None:
        self._measure(m)
        self.status, self.stop_reason = OK, stop

    def fail(self, exc: BaseException, m: Measured) -> None:
        self._measure(m)
        self.status, self.stop_reason = ERROR, "error"
        self.error = f"{type(exc).__name__}: {exc}"

    def interrupt(self, m: Measured) -> None:
        """Ctrl-C (or the loop cancelled under it) while the run was in flight: missing, with where it stopped."""
        self._measure(m)
        self.status, self.stop_reason = INTERRUPTED, "interrupted"
        # Numbered as the prompt and the viewer number steps (1-based): the step in flight, then what was done.
        self.error = (f"interrupted by the user during step {min(m.steps + 1, self.max_steps)} of {self.max_steps} "
                      f"({m.steps} completed)")

    def hold(self, kind: str, reason: str, now: str) -> None:
        """A run the session decided not to start (circuit breaker, cost limit): missing, with why."""
        self.status, self.stop_reason, self.error, self.finished_at = NOT_PLAYED, kind, reason, now

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> RunRecord:
        """A record from its JSON object, validated against the field types (ValidationError when it is not
        one: readers of files go through read_results, which names such a line by file:line instead)."""
        return _schema().validate_python(dict(value))

    @property
    def key(self) -> RunKey:
        """The run's identity (its attempts share it)."""
        return RunKey(self.task, self.model, self.repeat, self.protocol or "paused", self.seed,
                      self.obs or STANDARD_OBS)

    @property
    def scored(self) -> bool:
        return self.status == OK

    def properties(self) -> list[tuple[str, Any]]:
        """Builtin-typed (name, value) pairs for item.user_properties."""
        d = self.to_json()
        return [(k, d[k]) for k in PROPERTY_KEYS]


RECORD_FIELDS = frozenset(f.name for f in fields(RunRecord))


@lru_cache(maxsize=1)
def _schema() -> TypeAdapter[RunRecord]:
    return TypeAdapter(RunRecord)


def record_problem(line: str) -> str | None:
    """Why a results.jsonl line (a JSON object) is not a run record, in one line; None when it is one.

    The check is RunRecord itself: its required fields, types and ranges. Fields it does not know are
    left alone and fields with a default may be absent, so records of other versions still read.
    """
    try:
        _schema().validate_json(line, strict=True)
    except ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"not a run record: field '{where}': {first['msg']}{more}"
    return None


@dataclass
class Records:
    """A results.jsonl's run records, typed, and each line that was not one (named file:line)."""

    records: list[RunRecord] = field(default_factory=list)
    damaged: list[Damage] = field(default_factory=list)


def read_results(path: Path) -> Records:
    """A results.jsonl's run records; lines that are not (bad JSON, wrong fields) skipped and named file:line."""
    lines = read_lines(path, check=record_problem)
    return Records([RunRecord.from_json(r) for r in lines.records], lines.damaged)


class RunKey(NamedTuple):
    """A run's identity; its attempts share it. One type for records, plans, trajectories and cases."""

    task: str
    model: str  # the model spec's name
    repeat: int
    protocol: str  # paused | realtime
    seed: int
    obs: str  # observation mode

    @classmethod
    def of(cls, rec: RunRecord | Mapping[str, Any]) -> RunKey:
        """The identity a record (or a plan's run, or a trajectory's start line) names; older records without
        protocol or observation mode played the defaults."""
        if isinstance(rec, RunRecord):
            return rec.key
        return cls(rec["task"], rec["model"], int(rec.get("repeat", 0)), rec.get("protocol") or "paused",
                   int(rec.get("seed", 0)), rec.get("obs") or STANDARD_OBS)

    @property
    def counterpart(self) -> tuple[str, str, int]:
        """Which run of another session this one is the counterpart of: task, model spec name and repeat (what
        a second session plays differently, its seed and conditions, is compared by PLAYED_UNDER instead)."""
        return self.task, self.model, self.repeat


# What a run was played under, each with the words a note uses: two runs are an experiment's two sides only when
# all of these agree. A field a record does not have (older records: parsing, catalog version) is not held against
# it; protocol and observation mode have their defaults.
PLAYED_UNDER = (
    ("protocol", "protocol (--gw-rt)"),
    ("max_steps", "step budget (--gw-max-steps)"),
    ("obs", "observation mode (--gw-obs)"),
    ("interface", "interface (generalist or computer use)"),
    ("parsing", "parsing of replies"),
    ("catalog_version", "catalog version"),
)
_DEFAULTS = {"protocol": "paused", "obs": STANDARD_OBS}


def played_differently(a: RunRecord, b: RunRecord) -> str | None:
    """The first condition (PLAYED_UNDER's words) under which two runs were played differently, else None."""
    for name, words in PLAYED_UNDER:
        x, y = getattr(a, name) or _DEFAULTS.get(name), getattr(b, name) or _DEFAULTS.get(name)
        if x is not None and y is not None and x != y:
            return words
    return None


class MixedRunsError(ValueError):
    """Runs that are not comparable would be aggregated together; the message is one line."""


@dataclass
class RunView:
    """A session's runs, each once: the latest scored attempt, or the latest attempt of a run never scored."""

    scored: list[RunRecord]
    unscored: list[RunRecord]

    @property
    def missing(self) -> list[str]:
        return [missing_line(r) for r in self.unscored]


def missing_line(rec: RunRecord) -> str:
    why = rec.error or rec.status
    return f"{rec.item}: {'not played: ' if rec.status == NOT_PLAYED else ''}{why}"


_ITEM = re.compile(r'^\s*\{\s*"item"\s*:\s*("(?:[^"\\]|\\.)*")')


def damaged_item(damage: Damage) -> str | None:
    """The run a damaged line was a record of, when what is left of it still says (records begin with item)."""
    match = _ITEM.match(damage.head)
    try:
        return json.loads(match.group(1)) if match else None
    except ValueError:
        return None


def latest_attempts(records: Iterable[RunRecord]) -> RunView:
    """One record per run (file order is append order, so the last one is the latest attempt)."""
    last: dict[RunKey, RunRecord] = {}
    last_ok: dict[RunKey, RunRecord] = {}
    for rec in records:
        key = rec.key
        last[key] = rec
        if rec.scored:
            last_ok[key] = rec
    scored = list(last_ok.values())
    _refuse_mixed(scored)
    return RunView(scored, [r for k, r in last.items() if k not in last_ok])


def _refuse_mixed(scored: list[RunRecord]) -> None:
    versions = sorted({r.catalog_version for r in scored if r.catalog_version})
    if len(versions) > 1:
        raise MixedRunsError(f"runs from different catalog versions ({', '.join(versions)}) cannot be aggregated "
                             "together; keep each version in its own session")
    budgets: dict[str, set[int]] = {}
    for r in scored:
        if r.max_steps:
            budgets.setdefault(r.task, set()).add(r.max_steps)
    mixed = {t: b for t, b in budgets.items() if len(b) > 1}
    if mixed:
        task, b = sorted(mixed.items())[0]
        raise MixedRunsError(f"runs of task {task} were played with different step budgets "
                             f"({', '.join(map(str, sorted(b)))}; --gw-max-steps differed) and cannot be aggregated "
                             "together; keep each budget in its own session")
