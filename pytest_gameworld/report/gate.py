"""The CI gate: threshold expressions, a paired comparison with a baseline, one verdict (pure)."""

from __future__ import annotations

import difflib
import operator
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol

from ..catalog.specs import GENRES
from ..records.run_record import RunRecord, played_differently
from .aggregate import align_columns

METRICS = ("sr", "pg", "iar")
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
}
_EXPR = re.compile(r"^(?P<metric>[a-zA-Z]+)(?:\[(?P<scope>[^\]]*)\])?(?P<op>>=|<=|>|<)(?P<num>-?\d+(?:\.\d+)?)$")
_LEVEL = re.compile(r"^L[1-5]$")
_GAME = re.compile(r"^\d\d-[\w.-]+$")
class Scoped(Protocol):
    """What a gate's scope selects a run by: a record, or a case before it is played (the start-up check)."""

    @property
    def genre(self) -> str: ...
    @property
    def level(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def model(self) -> str: ...


USAGE = "expected METRIC[SCOPE]OP NUMBER, e.g. pg>=40, sr[puzzle]>=20, iar<=5 (metrics sr, pg, iar; ops >= <= > <)"
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0


class GateError(ValueError):
    """A malformed gate expression; the message is one line."""


@dataclass(frozen=True)
class GateExpr:
    """One threshold, e.g. pg[puzzle]>=30: a metric over the runs its scope selects."""

    text: str
    metric: str
    op: str
    threshold: float
    genres: tuple[str, ...] = ()
    levels: tuple[int, ...] = ()
    games: tuple[str, ...] = ()
    models: tuple[str, ...] = ()

    def selects(self, rec: Scoped) -> bool:
        return ((not self.genres or rec.genre in self.genres)
                and (not self.levels or rec.level in self.levels)
                and (not self.games or rec.game in self.games)
                and (not self.models or rec.model in self.models))

    def label(self, model: str | None = None) -> str:
        scope = [*self.genres, *(f"L{n}" for n in self.levels), *self.games, *self.models]
        if model is not None:
            scope.append(model)
        return f"{self.metric}[{','.join(scope)}]" if scope else self.metric


def parse_gate(text: str) -> GateExpr:
    """Parse one expression; scope tokens are genres, L1..L5, game ids (NN-name) or model names."""
    m = _EXPR.match(re.sub(r"\s+", "", text))
    if not m or m["metric"].lower() not in METRICS:
        raise GateError(f"gate expression {text!r}: {USAGE}")
    parts: dict[str, list[Any]] = {"genres": [], "levels": [], "games": [], "models": []}
    for token in (m["scope"].split(",") if m["scope"] is not None else []):
        if not token:
            raise GateError(f"gate expression {text!r}: empty scope; {USAGE}")
        if token.lower() in GENRES:
            parts["genres"].append(token.lower())
        elif _LEVEL.match(token):
            parts["levels"].append(int(token[1:]))
        elif _GAME.match(token):
            parts["games"].append(token)
        else:
            parts["models"].append(token)
    threshold = float(m["num"])
    if (problem := _impossible(m["op"], threshold)) is not None:
        raise GateError(f"gate expression {text!r}: {m['metric'].lower()} is a percentage (0-100), so {problem}")
    return GateExpr(text=text, metric=m["metric"].lower(), op=m["op"], threshold=threshold,
                    **{k: tuple(v) for k, v in parts.items()})


def _impossible(op: str, threshold: float) -> str | None:
    """Why a threshold on a 0-100 metric can never hold (found before any run is played), else None."""
    if (op == ">=" and threshold > 100) or (op == ">" and threshold >= 100):
        return f"{op}{threshold:g} can never pass"
    if (op == "<=" and threshold < 0) or (op == "<" and threshold <= 0):
        return f"{op}{threshold:g} can never pass"
    return None


SHOWN_PER_KIND = 8  # a scope error lists this many of the session's genres, levels, games and models


def scope_problem(expr: GateExpr, runs: Sequence[Scoped]) -> str | None:
    """Why an expression's scope selects none of a session's runs (one line, with the closest name), or None."""
    if not runs or any(expr.selects(r) for r in runs):
        return None
    here = {"genres": sorted({r.genre for r in runs}, key=GENRES.index),
            "levels": [f"L{n}" for n in sorted({r.level for r in runs})],
            "games": sorted({r.game for r in runs}), "models": sorted({r.model for r in runs})}
    tokens = [*expr.genres, *(f"L{n}" for n in expr.levels), *expr.games, *expr.models]
    alone = [t for t in tokens if not any(t in here[k] for k in here)]
    if not alone:
        return f"gate {expr.text!r}: no run of this session is in all of [{','.join(tokens)}] at once"
    shown = "; ".join(f"{k} {', '.join(v[:SHOWN_PER_KIND])}{' …' if len(v) > SHOWN_PER_KIND else ''}"
                      for k, v in here.items())
    close = difflib.get_close_matches(alone[0], [t for v in here.values() for t in v], n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"gate {expr.text!r}: scope {alone[0]!r} matches no run of this session ({shown}){hint}"


def metric_value(metric: str, records: list[RunRecord]) -> float:
    """SR and PG in percent over runs; IAR in percent of proposed actions."""
    if metric == "sr":
        return 100.0 * sum(r.success for r in records) / len(records)
    if metric == "pg":
        return 100.0 * sum(r.progress for r in records) / len(records)
    invalid = sum(r.invalid_ntc + r.invalid_oos for r in records)
    proposed = invalid + sum(r.valid for r in records)
    return 100.0 * invalid / proposed if proposed else 0.0


@dataclass
class Check:
    """One expression evaluated over one model's runs (or all runs when one model played)."""

    label: str
    op: str
    threshold: float
    value: float | None
    runs: int
    ok: bool

    def text(self) -> str:
        if self.value is None:
            return f"{self.label}: no scored runs"
        if self.ok:
            return f"{self.label} {self.value:.1f} {self.op} {self.threshold:g}"
        return f"{self.label} {self.value:.1f}, needs {self.op} {self.threshold:g}"


def check_thresholds(exprs: Iterable[GateExpr], scored: list[RunRecord]) -> list[Check]:
    """Every expression over the scored runs; without a model scope, every model must pass on its own."""
    models = sorted({r.model for r in scored})
    out: list[Check] = []
    for expr in exprs:
        targets: list[str | None] = [None] if expr.models or len(models) <= 1 else list(models)
        for model in targets:
            runs = [r for r in scored if expr.selects(r) and (model is None or r.model == model)]
            value = metric_value(expr.metric, runs) if runs else None
            ok = value is not None and _OPS[expr.op](round(value, 6), expr.threshold)
            out.append(Check(expr.label(model), expr.op, expr.threshold, value, len(runs), ok))
    return out


# ---------------------------------------------------------------- paired comparison with a baseline


@dataclass
class Delta:
    """One metric's baseline, current value, change and 95 % paired bootstrap interval (points)."""

    base: float
    now: float
    delta: float
    lo: float
    hi: float


@dataclass
class CompareRow:
    model: str
    genre: str
    tasks: int
    runs: int
    pg: Delta
    sr: Delta


def bootstrap_interval(diffs: list[float], rng: random.Random, resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float]:
    """95 % percentile interval of the mean of per-task differences, tasks resampled with replacement."""
    n = len(diffs)
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(resamples))
    return means[int(0.025 * (resamples - 1))], means[int(round(0.975 * (resamples - 1)))]


def _delta(pairs_by_task: dict[str, list[tuple[float, float]]], rng: random.Random) -> Delta:
    base = [sum(b for b, _ in p) / len(p) for p in pairs_by_task.values()]
    now = [sum(n for _, n in p) / len(p) for p in pairs_by_task.values()]
    diffs = [n - b for b, n in zip(base, now)]
    lo, hi = bootstrap_interval(diffs, rng)
    return Delta(sum(base) / len(base), sum(now) / len(now), sum(diffs) / len(diffs), lo, hi)


@dataclass
class Comparison:
    rows: list[CompareRow] = field(default_factory=list)
    shared: int = 0
    notes: list[str] = field(default_factory=list)
    left_out: int = 0  # current runs not paired (each reason and its count is a note)

    def heading(self, source: str) -> str:
        return f"baseline {source}: {self.shared} shared run(s)" + (f", {self.left_out} left out" if self.left_out
                                                                     else "")


def compare(baseline: list[RunRecord], current: list[RunRecord], seed: int = BOOTSTRAP_SEED) -> Comparison:
    """Per model and genre (and overall): PG and SR of the shared runs, paired per task.

    Two single-model sessions of different models (a new release against the old one) pair by task and repeat.
    """
    notes: list[str] = []
    base_models, now_models = {r.model for r in baseline}, {r.model for r in current}
    if len(base_models) == 1 and len(now_models) == 1 and base_models != now_models:
        (old,), (new,) = base_models, now_models
        notes.append(f"comparing model {new} with the baseline's model {old}")
        baseline = [replace(r, model=new) for r in baseline]
    base = {r.key.counterpart: r for r in baseline}
    pairs = []
    left_out: dict[str, int] = {}  # why → runs (a run played differently is another experiment, never a pair)
    for rec in current:
        other = base.get(rec.key.counterpart)
        if other is None:
            why: str | None = "the baseline has no run of the same task, model and repeat"
        elif (differs := played_differently(other, rec)) is not None:
            why = f"played with a different {differs} than the baseline"
        else:
            why = None
        if why is not None:
            left_out[why] = left_out.get(why, 0) + 1
            continue
        assert other is not None  # a run without its baseline run has a why
        pairs.append((other, rec))
    out = Comparison(shared=len(pairs), notes=notes, left_out=sum(left_out.values()))
    out.notes += [f"{n} run(s) not compared: {why}" for why, n in left_out.items()]
    rng = random.Random(seed)
    for model in sorted({now.model for _, now in pairs}):
        mine = [(b, n) for b, n in pairs if n.model == model]
        genres = sorted({n.genre for _, n in mine}, key=GENRES.index)
        for genre in [*genres, "overall"]:
            group = [(b, n) for b, n in mine if genre in ("overall", n.genre)]
            pg: dict[str, list[tuple[float, float]]] = {}
            sr: dict[str, list[tuple[float, float]]] = {}
            for b, n in group:
                pg.setdefault(n.task, []).append((100.0 * b.progress, 100.0 * n.progress))
                sr.setdefault(n.task, []).append((100.0 * b.success, 100.0 * n.success))
            out.rows.append(CompareRow(model, genre, len(pg), len(group), _delta(pg, rng), _delta(sr, rng)))
    return out


def drop_findings(cmp: Comparison, max_drop: float, strict: bool) -> tuple[list[str], list[str]]:
    """(failures, notes): drops beyond the limit whose interval excludes zero fail (all of them when strict)."""
    failures: list[str] = []
    notes: list[str] = []
    genres_per_model = Counter(r.model for r in cmp.rows if r.genre != "overall")
    for row in cmp.rows:
        if row.genre != "overall" and genres_per_model[row.model] == 1:
            continue  # the overall row says the same
        for metric in ("pg", "sr"):
            d: Delta = getattr(row, metric)
            drop = -d.delta
            if drop <= max_drop + 1e-9:
                continue
            what = f"{metric}[{row.genre},{row.model}] dropped {drop:.1f} > {max_drop:g} (95% CI {d.lo:+.1f}..{d.hi:+.1f})"
            if strict or d.hi < 0:
                failures.append(what)
            else:
                notes.append(f"{what}: the interval includes zero, not a failure (--gw-max-drop-strict fails it)")
    return failures, notes


def comparison_rows(cmp: Comparison) -> list[list[str]]:
    """The comparison's cells, a header row first, then one row per model and genre plus overall."""
    head = ["model", "genre", "tasks", "PG base", "PG now", "ΔPG", "95% CI", "SR base", "SR now", "ΔSR", "95% CI"]
    rows = [head]
    for r in cmp.rows:
        cells = [r.model, r.genre, str(r.tasks)]
        for d in (r.pg, r.sr):
            cells += [f"{d.base:.1f}", f"{d.now:.1f}", f"{d.delta:+.1f}", f"[{d.lo:+.1f}, {d.hi:+.1f}]"]
        rows.append(cells)
    return rows


def format_comparison(cmp: Comparison, source: str) -> list[str]:
    """The comparison table as aligned text, under the line naming its baseline."""
    return [cmp.heading(source), *align_columns(comparison_rows(cmp)), *cmp.notes]


# ---------------------------------------------------------------- the verdict


@dataclass
class GateConfig:
    """What the gate checks; empty when no gate was asked for."""

    exprs: list[GateExpr] = field(default_factory=list)
    baseline: list[RunRecord] | None = None
    baseline_source: str = ""
    max_drop: float | None = None
    strict: bool = False
    allow_missing: int = 0

    @property
    def active(self) -> bool:
        return bool(self.exprs) or self.baseline is not None


@dataclass
class Verdict:
    ok: bool
    passes: list[str]
    failures: list[str]
    checks: list[Check]
    missing: list[str]
    comparison: Comparison | None
    notes: list[str]

    def line(self) -> str:
        parts = self.failures if not self.ok else self.passes
        return f"GameWorld gate: {'PASS' if self.ok else 'FAIL'}" + (f" ({'; '.join(parts)})" if parts else "")

    def to_json(self, cfg: GateConfig) -> dict[str, Any]:
        return {
            "verdict": "PASS" if self.ok else "FAIL", "line": self.line(), "failures": self.failures,
            "expressions": [e.text for e in cfg.exprs], "checks": [asdict(c) for c in self.checks],
            "missing": {"count": len(self.missing), "allowed": cfg.allow_missing, "runs": self.missing},
            "baseline": None if self.comparison is None else {
                "source": cfg.baseline_source, "max_drop": cfg.max_drop, "strict": cfg.strict,
                "shared_runs": self.comparison.shared, "left_out": self.comparison.left_out,
                "rows": [asdict(r) for r in self.comparison.rows]},
            "notes": self.notes,
        }


NAMED_RUNS = 5  # a failing verdict line names this many missing runs, then counts the rest


def missing_item(line: str) -> str:
    """The run id of a missing-run line (`<item>: <why>`; an item id ends with its bracketed model)."""
    cut = line.find("]: ")
    return line[:cut + 1] if cut >= 0 else line.partition(": ")[0]


def name_runs(missing: list[str]) -> str:
    names = [missing_item(m) for m in missing]
    more = len(names) - NAMED_RUNS
    return ", ".join(names[:NAMED_RUNS]) + (f" and {more} more" if more > 0 else "")


def evaluate(cfg: GateConfig, scored: list[RunRecord], missing: list[str]) -> Verdict:
    """Thresholds, missing runs and the baseline comparison, folded into one verdict."""
    checks = check_thresholds(cfg.exprs, scored)
    passes = [c.text() for c in checks if c.ok]
    failures = [c.text() for c in checks if not c.ok]
    notes: list[str] = []
    if len(missing) > cfg.allow_missing:
        failures.append(f"{len(missing)} missing run(s) > {cfg.allow_missing} allowed: {name_runs(missing)}")
    elif missing:
        passes.append(f"{len(missing)} missing run(s) <= {cfg.allow_missing} allowed")
    comparison = None
    if cfg.baseline is not None:
        comparison = compare(cfg.baseline, scored)
        if not comparison.shared:
            failures.append("no runs shared with the baseline" + (f" ({comparison.left_out} left out: see the notes)"
                                                                   if comparison.left_out else ""))
        elif cfg.max_drop is not None:
            drops, drop_notes = drop_findings(comparison, cfg.max_drop, cfg.strict)
            failures += drops
            notes += drop_notes
            if not drops:
                worst = {m: max((-getattr(r, m).delta for r in comparison.rows), default=0.0) for m in ("pg", "sr")}
                passes.append(f"baseline drop pg {max(0.0, worst['pg']):.1f}, sr {max(0.0, worst['sr']):.1f} "
                              f"<= {cfg.max_drop:g} or within noise")
    return Verdict(not failures, passes, failures, checks, missing, comparison, notes)
