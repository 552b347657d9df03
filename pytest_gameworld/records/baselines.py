"""Random and oracle baselines per task: computed from session records, read back, and used to normalize (pure)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .run_record import latest_attempts

FILE_NAME = "baselines.json"
FORMAT = 1
AGENTS = ("random", "oracle")
FLOOR_SR = 50.0  # random's SR (%) above which a task is a "floor" task


def is_floor(random_sr: float) -> bool:
    """Random solves the task more often than not: solving it says little about a model."""
    return random_sr > FLOOR_SR


class BaselinesError(ValueError):
    """A baselines file that cannot be read; the message names the file and the field."""


@dataclass(frozen=True)
class Rate:
    """One agent's SR and PG (percent) on one task, over its scored runs."""

    sr: float
    pg: float
    runs: int
    faults: int = 0


@dataclass(frozen=True)
class TaskBaseline:
    task: str
    game: str
    random: Rate
    oracle: Rate
    version: str = ""  # the task's own version (its game folder and task file): a changed game goes stale alone

    @property
    def floor(self) -> bool:
        return is_floor(self.random.sr)


@dataclass
class Baselines:
    """A catalog version's baselines, per task id."""

    catalog_version: str
    tasks: dict[str, TaskBaseline] = field(default_factory=dict)
    made: dict[str, Any] = field(default_factory=dict)

    def stale(self, current: dict[str, str]) -> list[str]:
        """Tasks whose game or task file changed since they were calibrated (or that are no longer in the catalog)."""
        return sorted(t for t, b in self.tasks.items() if current.get(t) != b.version)

    @property
    def floors(self) -> list[str]:
        return sorted(t for t, b in self.tasks.items() if b.floor)


def _rates(records: Iterable[dict[str, Any]]) -> dict[str, tuple[Rate, str]]:
    """Per task: SR/PG over each run's latest scored attempt; runs never scored count as faults."""
    view = latest_attempts(records)
    runs: dict[str, list[tuple[bool, float]]] = {}
    faults: dict[str, int] = {}
    games: dict[str, str] = {}
    for r in view.scored:
        runs.setdefault(r["task"], []).append((bool(r["success"]), float(r["progress"])))
        games[r["task"]] = r["game"]
    for r in view.unscored:
        faults[r["task"]] = faults.get(r["task"], 0) + 1
        games.setdefault(r["task"], r["game"])
    out: dict[str, tuple[Rate, str]] = {}
    for task, game in games.items():
        played = runs.get(task, [])
        n = len(played)
        sr = 100.0 * sum(s for s, _ in played) / n if n else 0.0
        pg = 100.0 * sum(p for _, p in played) / n if n else 0.0
        out[task] = (Rate(round(sr, 2), round(pg, 2), n, faults.get(task, 0)), game)
    return out


def compute(random_records: list[dict[str, Any]], oracle_records: list[dict[str, Any]], catalog_version: str,
            made: dict[str, Any], task_versions: dict[str, str] | None = None) -> Baselines:
    """Baselines from a random session and an oracle session; a task needs both to be listed."""
    rnd, orc = _rates(random_records), _rates(oracle_records)
    tv = task_versions or {}
    tasks = {t: TaskBaseline(t, rnd[t][1], rnd[t][0], orc[t][0], tv.get(t, "")) for t in sorted(rnd) if t in orc}
    return Baselines(catalog_version, tasks, made)


def merge(old: Baselines, fresh: Baselines, current: dict[str, str]) -> Baselines:
    """A -k subset's baselines laid over an earlier file: its other tasks stay unless their game or task changed,
    and the earlier runs' provenance is kept under made.earlier."""
    stale = set(old.stale(current))
    tasks = {**{t: b for t, b in old.tasks.items() if t not in stale}, **fresh.tasks}
    earlier = [*old.made.get("earlier", []), {k: v for k, v in old.made.items() if k != "earlier"}]
    return Baselines(fresh.catalog_version, dict(sorted(tasks.items())), {**fresh.made, "earlier": earlier})


def to_json(b: Baselines) -> dict[str, Any]:
    tasks = {}
    for t, tb in sorted(b.tasks.items()):
        tasks[t] = {"game": tb.game, "version": tb.version, "floor": tb.floor,
                    **{a: {"sr": r.sr, "pg": r.pg, "runs": r.runs, "faults": r.faults}
                       for a, r in (("random", tb.random), ("oracle", tb.oracle))}}
    return {"format": FORMAT, "catalog_version": b.catalog_version, "made": b.made, "tasks": tasks}


def _rate(data: Any, where: str) -> Rate:
    if not isinstance(data, dict):
        raise BaselinesError(f"{where}: expected a mapping with sr, pg, runs")
    try:
        return Rate(float(data["sr"]), float(data["pg"]), int(data["runs"]), int(data.get("faults", 0)))
    except KeyError as exc:
        raise BaselinesError(f"{where}: missing field {exc.args[0]!r}") from None
    except (TypeError, ValueError):
        raise BaselinesError(f"{where}: sr and pg must be numbers, runs and faults integers") from None


def parse(data: Any, source: str = FILE_NAME) -> Baselines:
    """Baselines from the file's JSON value; BaselinesError names the source and the field."""
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), dict):
        raise BaselinesError(f"{source}: expected an object with 'catalog_version' and 'tasks'")
    if data.get("format") != FORMAT:
        raise BaselinesError(f"{source}: format {data.get('format')!r} is not {FORMAT}; regenerate it with "
                             "`gameworld calibrate`")
    tasks = {}
    for t, entry in data["tasks"].items():
        where = f"{source}: tasks.{t}"
        if not isinstance(entry, dict):
            raise BaselinesError(f"{where}: expected a mapping")
        tasks[t] = TaskBaseline(t, str(entry.get("game", "")), _rate(entry.get("random"), f"{where}.random"),
                                _rate(entry.get("oracle"), f"{where}.oracle"), str(entry.get("version", "")))
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


# task id → {"random": {"sr": %, "pg": %}, "oracle": {"sr": %, "pg": %}}: what the results page reads
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
    if not b.tasks:
        return None
    return {t: {"random": {"sr": tb.random.sr, "pg": tb.random.pg}, "oracle": {"sr": tb.oracle.sr, "pg": tb.oracle.pg}}
            for t, tb in b.tasks.items()}


def made_step_budget(b: Baselines) -> int:
    """The --gw-max-steps the baselines were played with; 0 (what calibrate plays): each task's own budget."""
    return int(b.made.get("max_steps") or 0)
