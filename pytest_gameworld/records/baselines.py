"""Random and oracle baselines per task, and the best trivial policy's: computed from session records, read back,
and used to normalize (pure)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .run_record import RunRecord, latest_attempts

FILE_NAME = "baselines.json"
FORMAT = 2
READS = (1, 2)  # format 1 (random and oracle only, no intervals) is still read
LADDER = ("random", "oracle@0.25", "oracle@0.5", "oracle@0.75", "oracle")  # the skill ladder, weakest first
AGENTS = LADDER
# Two-sided 95 % t critical values by degrees of freedom (1..30); beyond 30 a series around z is close enough.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z95 = 1.959964

Interval = tuple[float, float]


def wilson(successes: int, n: int) -> Interval | None:
    """The 95 % Wilson score interval of a success rate, in percent; None without runs."""
    if n <= 0:
        return None
    p, z2 = successes / n, _Z95 * _Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (round(100 * max(0.0, centre - half), 2), round(100 * min(1.0, centre + half), 2))


def t_interval(values: list[float]) -> Interval | None:
    """The 95 % t-interval of a mean (values in percent), clipped to 0..100; None under two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    df = n - 1
    t = _T95[df - 1] if df <= len(_T95) else _Z95 + (_Z95 ** 3 + _Z95) / (4 * df)
    half = t * sd / math.sqrt(n)
    return (round(max(0.0, mean - half), 2), round(min(100.0, mean + half), 2))


class BaselinesError(ValueError):
    """A baselines file that cannot be read; the message names the file and the field."""


@dataclass(frozen=True)
class Rate:
    """One agent's SR and PG (percent) on one task over its scored runs, PG's 95 % interval (None when not
    recorded: format 1, or one run) and the mean steps of its solved runs (None when none solved)."""

    sr: float
    pg: float
    runs: int
    faults: int = 0
    pg_ci: Interval | None = None
    steps: float | None = None

    @property
    def sr_ci(self) -> Interval | None:
        """Wilson's interval, from SR and the run count (so a format-1 file has it too)."""
        return wilson(round(self.sr * self.runs / 100), self.runs)


@dataclass(frozen=True)
class Trivial:
    """The trivial policies calibrate played on one task (agents/trivial.py trivial_set): each one's figures,
    and the best of them (highest PG, then SR, then name) whose figures the file shows first."""

    best: str
    policies: dict[str, Rate]

    @property
    def rate(self) -> Rate:
        return self.policies[self.best]


def best_trivial(policies: dict[str, Rate]) -> Trivial | None:
    """The best of the policies played (None when none was)."""
    played = {name: r for name, r in policies.items() if r.runs}
    if not played:
        return None
    best = min(played, key=lambda n: (-played[n].pg, -played[n].sr, n))
    return Trivial(best, dict(sorted(policies.items())))


@dataclass(frozen=True)
class TaskBaseline:
    """One task's figures per ladder agent (any subset of LADDER: --agents calibrates some of them), and its
    trivial policies' (None: not calibrated)."""

    task: str
    game: str
    rates: dict[str, Rate]
    version: str = ""  # the task's own version (its game folder and task file): a changed game goes stale alone
    trivial: Trivial | None = None

    @property
    def random(self) -> Rate | None:
        return self.rates.get("random")

    @property
    def oracle(self) -> Rate | None:
        return self.rates.get("oracle")



@dataclass
class Baselines:
    """A catalog version's baselines, per task id."""

    catalog_version: str
    tasks: dict[str, TaskBaseline] = field(default_factory=dict)
    made: dict[str, Any] = field(default_factory=dict)

    def stale(self, current: dict[str, str]) -> list[str]:
        """Tasks whose game or task file changed since they were calibrated (or that are no longer in the catalog)."""
        return sorted(t for t, b in self.tasks.items() if current.get(t) != b.version)


def _rates(records: Iterable[RunRecord]) -> dict[str, tuple[Rate, str]]:
    """Per task: SR/PG over each run's latest scored attempt; runs never scored count as faults."""
    view = latest_attempts(records)
    runs: dict[str, list[tuple[bool, float, int]]] = {}
    faults: dict[str, int] = {}
    games: dict[str, str] = {}
    for r in view.scored:
        runs.setdefault(r.task, []).append((r.success, 100.0 * r.progress, r.steps))
        games[r.task] = r.game
    for r in view.unscored:
        faults[r.task] = faults.get(r.task, 0) + 1
        games.setdefault(r.task, r.game)
    out: dict[str, tuple[Rate, str]] = {}
    for task, game in games.items():
        played = runs.get(task, [])
        n = len(played)
        sr = 100.0 * sum(s for s, _, _ in played) / n if n else 0.0
        pg = sum(p for _, p, _ in played) / n if n else 0.0
        solved = [k for s, _, k in played if s]
        steps = round(sum(solved) / len(solved), 1) if solved else None
        out[task] = (Rate(round(sr, 2), round(pg, 2), n, faults.get(task, 0), t_interval([p for _, p, _ in played]),
                          steps), game)
    return out


def compute(records: dict[str, list[RunRecord]], catalog_version: str, made: dict[str, Any],
            task_versions: dict[str, str] | None = None,
            trivial: dict[str, list[RunRecord]] | None = None) -> Baselines:
    """Baselines from one session per ladder agent (agent name → its records) and the trivial policies' records
    (policy spec → its records); a task is listed when any agent has figures for it (normalizing needs random
    and oracle: see task_rates)."""
    per_agent = {agent: _rates(recs) for agent, recs in records.items()}
    tv = task_versions or {}
    tasks: dict[str, TaskBaseline] = {}
    for agent in [a for a in LADDER if a in per_agent] + [a for a in per_agent if a not in LADDER]:
        for task, (rate, game) in per_agent[agent].items():
            tb = tasks.setdefault(task, TaskBaseline(task, game, {}, tv.get(task, "")))
            tb.rates[agent] = rate
    per_task: dict[str, dict[str, Rate]] = {}
    games: dict[str, str] = {}
    for policy, recs in (trivial or {}).items():
        for task, (rate, game) in _rates(recs).items():
            per_task.setdefault(task, {})[policy] = rate
            games[task] = game
    for task, policies in per_task.items():
        tb = tasks.get(task) or TaskBaseline(task, games[task], {}, tv.get(task, ""))
        tasks[task] = TaskBaseline(tb.task, tb.game, tb.rates, tb.version, best_trivial(policies))
    return Baselines(catalog_version, dict(sorted(tasks.items())), made)


def merge(old: Baselines, fresh: Baselines, current: dict[str, str]) -> Baselines:
    """A -k or --agents subset's baselines laid over an earlier file: other tasks, and other agents' figures of the
    same task, stay unless the task's game or task file changed; the earlier provenance is kept under made.earlier."""
    stale = set(old.stale(current))
    tasks = {t: b for t, b in old.tasks.items() if t not in stale}
    for t, fb in fresh.tasks.items():
        kept = tasks[t].rates if t in tasks else {}
        rates = {**kept, **fb.rates}
        trivial = fb.trivial or (tasks[t].trivial if t in tasks else None)  # a --no-trivial run keeps the old
        tasks[t] = TaskBaseline(t, fb.game, {a: rates[a] for a in _ordered(rates)}, fb.version, trivial)
    earlier = [*old.made.get("earlier", []), {k: v for k, v in old.made.items() if k != "earlier"}]
    return Baselines(fresh.catalog_version, dict(sorted(tasks.items())), {**fresh.made, "earlier": earlier})


def _ordered(agents: Iterable[str]) -> list[str]:
    names = list(agents)
    return [a for a in LADDER if a in names] + sorted(a for a in names if a not in LADDER)


def _rate_json(r: Rate) -> dict[str, Any]:
    out: dict[str, Any] = {"sr": r.sr, "pg": r.pg, "runs": r.runs, "faults": r.faults, "sr_ci": r.sr_ci,
                           "pg_ci": r.pg_ci}
    if r.steps is not None:
        out["steps"] = r.steps
    return out


def to_json(b: Baselines, floors: Iterable[str]) -> dict[str, Any]:
    """The file's JSON value; ``floors``: the floor tasks, as report/discrimination.py (the rule's one home)
    computes them: write the file with discrimination.baselines_json."""
    floor = set(floors)
    tasks = {}
    for t, tb in sorted(b.tasks.items()):
        tasks[t] = {"game": tb.game, "version": tb.version, "floor": t in floor,
                    **{a: _rate_json(tb.rates[a]) for a in _ordered(tb.rates)}}
        if tb.trivial is not None:  # added within format 2: a reader that knows no "trivial" skips it
            tasks[t]["trivial"] = {"best": tb.trivial.best, **_rate_json(tb.trivial.rate),
                                   "policies": {n: _rate_json(r) for n, r in tb.trivial.policies.items()}}
    return {"format": FORMAT, "catalog_version": b.catalog_version, "made": b.made, "tasks": tasks}


def _interval(data: Any, where: str) -> Interval | None:
    if data is None:
        return None
    if (not isinstance(data, list) or len(data) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in data)):
        raise BaselinesError(f"{where}: expected [low, high] or null")
    return (float(data[0]), float(data[1]))


def _rate(data: Any, where: str) -> Rate:
    if not isinstance(data, dict):
        raise BaselinesError(f"{where}: expected a mapping with sr, pg, runs")
    pg_ci = _interval(data.get("pg_ci"), f"{where}.pg_ci")
    try:
        steps = data.get("steps")
        return Rate(float(data["sr"]), float(data["pg"]), int(data["runs"]), int(data.get("faults", 0)), pg_ci,
                    None if steps is None else float(steps))
    except KeyError as exc:
        raise BaselinesError(f"{where}: missing field {exc.args[0]!r}") from None
    except (TypeError, ValueError):
        raise BaselinesError(f"{where}: sr, pg and steps must be numbers, runs and faults integers") from None


def _trivial(data: Any, where: str) -> Trivial | None:
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("policies"), dict) or not data["policies"]:
        raise BaselinesError(f"{where}: expected a mapping with best and policies")
    policies = {str(n): _rate(r, f"{where}.policies.{n}") for n, r in data["policies"].items()}
    best = str(data.get("best", ""))
    if best not in policies:
        raise BaselinesError(f"{where}: best {best!r} is not one of its policies")
    return Trivial(best, policies)


def parse(data: Any, source: str = FILE_NAME) -> Baselines:
    """Baselines from the file's JSON value (format 1 or 2); BaselinesError names the source and the field."""
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), dict):
        raise BaselinesError(f"{source}: expected an object with 'catalog_version' and 'tasks'")
    if data.get("format") not in READS:
        raise BaselinesError(f"{source}: format {data.get('format')!r} is not one of {', '.join(map(str, READS))}; "
                             "regenerate it with `gameworld calibrate`")
    tasks = {}
    for t, entry in data["tasks"].items():
        where = f"{source}: tasks.{t}"
        if not isinstance(entry, dict):
            raise BaselinesError(f"{where}: expected a mapping")
        if data["format"] == 1:  # format 1 always held both
            for agent in ("random", "oracle"):
                _rate(entry.get(agent), f"{where}.{agent}")
        rates = {a: _rate(entry[a], f"{where}.{a}") for a in LADDER if a in entry}
        # "floor" is derived: not read, recomputed from random's figures (discrimination.floors), whatever the
        # file says.
        tasks[t] = TaskBaseline(t, str(entry.get("game", "")), rates, str(entry.get("version", "")),
                                _trivial(entry.get("trivial"), f"{where}.trivial"))
    return Baselines(str(data.get("catalog_version", "")), tasks, dict(data.get("made") or {}))


def load(path: Path) -> Baselines | None:
    """The baselines file at path (a catalog folder or the file itself); None when there is none."""
    file = path / FILE_NAME if path.is_dir() else path
    if not file.is_file():
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BaselinesError(f"{file}: not JSON ({exc.msg} at line {exc.lineno})") from None
    return parse(data, str(file))


# task id → {"random": {"sr": %, "pg": %, "runs": n}, "oracle": {...}, "trivial": {...} where calibrated}: what the
# results page reads
TaskRates = dict[str, dict[str, dict[str, float]]]


def read_baselines(path: Path) -> TaskRates | None:
    """The per-task rates of a baselines file (or a catalog folder's) for the results page; None without a file
    (or with a broken one)."""
    try:
        b = load(path)
    except BaselinesError:
        return None
    return task_rates(b) if b is not None else None


def task_rates(b: Baselines) -> TaskRates | None:
    """Random's and the oracle's SR/PG per task, and the best trivial policy's where calibrated (what normalizing
    uses); a task lacking random or the oracle is left out."""
    rates = {t: {a: {"sr": r.sr, "pg": r.pg, "runs": r.runs} for a in ("random", "oracle")
                 if (r := tb.rates.get(a)) is not None} for t, tb in b.tasks.items()}
    for t, tb in b.tasks.items():
        if tb.trivial is not None and len(rates[t]) == 2:
            r = tb.trivial.rate
            rates[t]["trivial"] = {"sr": r.sr, "pg": r.pg, "runs": r.runs}
    return {t: r for t, r in rates.items() if len(r) >= 2 and "random" in r and "oracle" in r} or None


def made_step_budget(b: Baselines) -> int:
    """The --gw-max-steps the baselines were played with; 0 (what calibrate plays): each task's own budget."""
    return int(b.made.get("max_steps") or 0)
