"""Run records, safe JSONL appends, and aggregation into SR/PG tables (pure apart from the append)."""

from __future__ import annotations

import fcntl
import json
import platform
import statistics
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from . import jsonio
from .catalog import GENRES, GameSpec, ModelSpec, TaskSpec

if TYPE_CHECKING:
    from .agents.base import Usage
    from .evaluator import Evaluator
    from .tally import Tally

# Measurements that go on item.user_properties, in this order.
PROPERTY_KEYS = (
    "success", "progress", "score_best", "score_start", "score_target", "steps", "episodes", "invalid_ntc",
    "invalid_oos", "sec_per_step", "tokens_in", "tokens_out", "tokens_cached", "cost_usd", "stop_reason",
    "seed", "protocol", "game", "genre", "level", "model", "interface", "task", "repeat",
)


def cost_usd(model: ModelSpec, usage: "Usage") -> float:
    """Price of a usage at the spec's per-million-token prices (cached input billed as cached)."""
    p = model.price_per_mtok
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


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    """Append one line under an exclusive lock, so xdist workers never interleave."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (jsonio.dumps(record) + "\n").encode()
    with path.open("ab") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            fh.write(line)
            fh.flush()
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every record, read under a shared lock so a line another worker is appending is never seen half-written."""
    if not path.exists():
        return []
    with path.open("rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
        try:
            text = fh.read().decode("utf-8")
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def session_spend(path: Path) -> float:
    """Model spend so far in a session's results (all workers)."""
    return sum(float(r.get("cost_usd", 0.0)) for r in read_jsonl(path))


@dataclass
class RunRecord:
    """One run's line in results.jsonl."""

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
    repeat: int
    started_at: str
    max_steps: int = 0
    catalog_version: str = ""
    session: str = ""
    trajectory: str = ""
    status: str = "running"
    success: bool = False
    progress: float = 0.0
    score_best: float | None = None
    score_start: float = 0.0
    score_target: float = 0.0
    steps: int = 0
    episodes: int = 1
    valid: int = 0
    invalid_ntc: int = 0
    invalid_oos: int = 0
    extra_calls: int = 0
    sec_per_step: float = 0.0
    latency_per_step: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    cost_usd: float = 0.0
    stop_reason: str | None = None
    error: str | None = None
    finished_at: str | None = None
    versions: dict[str, str] = field(default_factory=dict)
    # Each role's own validity counts (one entry for single-role games); the run totals above sum them.
    roles: dict[str, dict[str, int]] = field(default_factory=dict)
    catalog: dict[str, str] = field(default_factory=dict)  # an imported catalog's format, path and git commit
    resets: list[str] = field(default_factory=list)  # how each reset happened: inplace, soft_restart, reload

    @classmethod
    def begin(cls, *, item: str, task: TaskSpec, game: GameSpec, model: ModelSpec, role: str, seed: int,
              repeat: int, protocol: str, max_steps: int, catalog_version: str, session: str, trajectory: str,
              now: str) -> "RunRecord":
        return cls(item=item, task=task.id, game=game.id, genre=game.genre, level=game.level, model=model.name,
                   interface=model.interface, protocol=protocol, role=role, seed=seed, repeat=repeat,
                   started_at=now, max_steps=max_steps, catalog_version=catalog_version, session=session,
                   trajectory=trajectory, score_start=task.start, score_target=task.target, versions=versions())

    def _measure(self, ev: "Evaluator", steps: int, tally: "Tally", elapsed_s: float, now: str,
                 per_role: dict[str, "Tally"] | None) -> None:
        self.roles = {name: {"valid": t.valid, "ntc": t.ntc, "oos": t.oos, "extra_calls": t.extra_calls}
                      for name, t in (per_role or {}).items()}
        self.success, self.progress = ev.success, round(ev.progress, 6)
        self.score_best = ev.best if ev.history else None
        self.steps, self.episodes = steps, ev.episodes
        self.valid, self.invalid_ntc, self.invalid_oos = tally.valid, tally.ntc, tally.oos
        self.extra_calls = tally.extra_calls
        self.sec_per_step = round(elapsed_s / steps, 4) if steps else 0.0
        self.latency_per_step = round(tally.latency_s / steps, 4) if steps else 0.0
        self.tokens_in, self.tokens_out = tally.usage.input_tokens, tally.usage.output_tokens
        self.tokens_cached = tally.usage.cached_tokens
        self.cost_usd = round(tally.cost, 6)
        self.finished_at = now

    def finish(self, ev: "Evaluator", stop: str | None, steps: int, tally: "Tally", elapsed_s: float,
               now: str, per_role: dict[str, "Tally"] | None = None) -> None:
        self._measure(ev, steps, tally, elapsed_s, now, per_role)
        self.status, self.stop_reason = "ok", stop

    def fail(self, exc: BaseException, ev: "Evaluator", steps: int, tally: "Tally", elapsed_s: float,
             now: str, per_role: dict[str, "Tally"] | None = None) -> None:
        self._measure(ev, steps, tally, elapsed_s, now, per_role)
        self.status, self.stop_reason = "error", "error"
        self.error = f"{type(exc).__name__}: {exc}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def properties(self) -> list[tuple[str, Any]]:
        """Builtin-typed (name, value) pairs for item.user_properties."""
        d = self.to_json()
        return [(k, d[k]) for k in PROPERTY_KEYS]


# ---------------------------------------------------------------- aggregation


@dataclass
class Cell:
    runs: int = 0
    solved: int = 0
    progress: float = 0.0

    @property
    def sr(self) -> float:
        return 100.0 * self.solved / self.runs if self.runs else 0.0

    @property
    def pg(self) -> float:
        return 100.0 * self.progress / self.runs if self.runs else 0.0

    def add(self, rec: dict[str, Any]) -> None:
        self.runs += 1
        self.solved += bool(rec["success"])
        self.progress += float(rec["progress"])


@dataclass
class ModelSummary:
    """SR/PG by genre, level and overall for one model, plus validity, cost and faults."""

    model: str
    interface: str = ""
    overall: Cell = field(default_factory=Cell)
    genres: dict[str, Cell] = field(default_factory=dict)
    levels: dict[int, Cell] = field(default_factory=dict)
    repeats: dict[int, Cell] = field(default_factory=dict)
    proposed: int = 0
    ntc: int = 0
    oos: int = 0
    steps: int = 0
    sec: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    cost: float = 0.0
    missing: list[str] = field(default_factory=list)

    @property
    def iar(self) -> tuple[float, float, float]:
        if not self.proposed:
            return 0.0, 0.0, 0.0
        n, o = 100.0 * self.ntc / self.proposed, 100.0 * self.oos / self.proposed
        return n + o, n, o

    @property
    def repeat_spread(self) -> tuple[float, float, float, float] | None:
        """Mean ± std of overall SR and PG across repeats (None with one repeat)."""
        if len(self.repeats) < 2:
            return None
        srs = [c.sr for c in self.repeats.values()]
        pgs = [c.pg for c in self.repeats.values()]
        return statistics.mean(srs), statistics.stdev(srs), statistics.mean(pgs), statistics.stdev(pgs)


RunKey = tuple[str, str, int, str, int]


def run_key(rec: dict[str, Any]) -> RunKey:
    """A run's identity: (task, model spec, repeat, protocol, seed); its attempts share it."""
    return (rec["task"], rec["model"], int(rec.get("repeat", 0)), rec.get("protocol") or "paused",
            int(rec.get("seed", 0)))


class MixedRunsError(ValueError):
    """Runs that are not comparable would be aggregated together; the message is one line."""


@dataclass
class RunView:
    """A session's runs, each once: the latest scored attempt, or the latest attempt of a run never scored."""

    scored: list[dict[str, Any]]
    unscored: list[dict[str, Any]]

    @property
    def missing(self) -> list[str]:
        return [missing_line(r) for r in self.unscored]


def missing_line(rec: dict[str, Any]) -> str:
    return f"{rec['item']}: {rec.get('error') or rec.get('status')}"


def latest_attempts(records: Iterable[dict[str, Any]]) -> RunView:
    """One record per run (file order is append order, so the last one is the latest attempt)."""
    last: dict[RunKey, dict[str, Any]] = {}
    last_ok: dict[RunKey, dict[str, Any]] = {}
    for rec in records:
        key = run_key(rec)
        last[key] = rec
        if rec.get("status") == "ok":
            last_ok[key] = rec
    scored = list(last_ok.values())
    _refuse_mixed(scored)
    return RunView(scored, [r for k, r in last.items() if k not in last_ok])


def _refuse_mixed(scored: list[dict[str, Any]]) -> None:
    versions = sorted({r["catalog_version"] for r in scored if r.get("catalog_version")})
    if len(versions) > 1:
        raise MixedRunsError(f"runs from different catalog versions ({', '.join(versions)}) cannot be aggregated "
                             "together; keep each version in its own session")
    budgets: dict[str, set[int]] = {}
    for r in scored:
        if r.get("max_steps"):
            budgets.setdefault(r["task"], set()).add(int(r["max_steps"]))
    mixed = {t: b for t, b in budgets.items() if len(b) > 1}
    if mixed:
        task, b = sorted(mixed.items())[0]
        raise MixedRunsError(f"runs of task {task} were played with different step budgets "
                             f"({', '.join(map(str, sorted(b)))}; --gw-max-steps differed) and cannot be aggregated "
                             "together; keep each budget in its own session")


def summary_key(rec: dict[str, Any]) -> str:
    """Summaries are per model and protocol: real-time runs never mix with paused ones."""
    return rec["model"] + (" [rt]" if rec.get("protocol") == "realtime" else "")


def aggregate(records: Iterable[dict[str, Any]]) -> dict[str, ModelSummary]:
    """Summaries per model over each run's latest scored attempt; runs never scored are missing."""
    return summarize(latest_attempts(records))


def summarize(view: RunView) -> dict[str, ModelSummary]:
    out: dict[str, ModelSummary] = {}
    for rec in view.unscored:
        s = out.setdefault(summary_key(rec), ModelSummary(summary_key(rec), rec.get("interface", "")))
        s.missing.append(missing_line(rec))
    for rec in view.scored:
        s = out.setdefault(summary_key(rec), ModelSummary(summary_key(rec), rec.get("interface", "")))
        s.overall.add(rec)
        s.genres.setdefault(rec["genre"], Cell()).add(rec)
        s.levels.setdefault(int(rec["level"]), Cell()).add(rec)
        s.repeats.setdefault(int(rec.get("repeat", 0)), Cell()).add(rec)
        ntc, oos = int(rec["invalid_ntc"]), int(rec["invalid_oos"])
        s.proposed += int(rec.get("valid", 0)) + ntc + oos
        s.ntc, s.oos = s.ntc + ntc, s.oos + oos
        s.steps += int(rec["steps"])
        s.sec += float(rec["sec_per_step"]) * int(rec["steps"])
        s.tokens_in += int(rec.get("tokens_in", 0))
        s.tokens_out += int(rec.get("tokens_out", 0))
        s.cost += float(rec.get("cost_usd", 0.0))
    return out


def table_cells(summaries: dict[str, ModelSummary]) -> list[list[str]]:
    """The paper's Table 6 layout as cells: SR/PG per genre and overall, one row per model."""
    genres = [g for g in GENRES if any(g in s.genres for s in summaries.values())]
    head = ["model"] + [g.capitalize() for g in genres] + ["Overall", "IAR (NTC/OOS)", "runs", "sec/step", "tok/step", "$/run", "$ total"]
    rows = [head]
    for name in sorted(summaries):
        s = summaries[name]
        cells = [f"{s.genres[g].sr:.1f}/{s.genres[g].pg:.1f}" if g in s.genres else "-" for g in genres]
        iar, n, o = s.iar
        per_step = s.steps or 1
        rows.append([f"{name} ({s.interface})" if s.interface else name, *cells,
                     f"{s.overall.sr:.1f}/{s.overall.pg:.1f}", f"{iar:.1f} ({n:.1f}/{o:.1f})",
                     f"{s.overall.runs}" + (f" +{len(s.missing)} missing" if s.missing else ""),
                     f"{s.sec / per_step:.3f}", f"{(s.tokens_in + s.tokens_out) / per_step:.0f}",
                     f"{s.cost / max(1, s.overall.runs):.4f}", f"{s.cost:.4f}"])
    return rows


def format_table(summaries: dict[str, ModelSummary]) -> list[str]:
    return align_columns(table_cells(summaries))


def align_columns(rows: list[list[str]]) -> list[str]:
    """Rows of cells as aligned text, the first row a header above a dashed rule."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines
