"""Session folders: naming, the latest link, attempt folders, the plan, catalog version, resume and reuse checks."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..catalog.run_cases import Case
from ..catalog.specs import STANDARD_OBS, ModelSpec
from .baselines import FILE_NAME as BASELINES_FILE
from .jsonl import line_of, strict_loads, write_file, written
from .redact import redact
from .run_record import Records, RunKey, RunRecord, read_results
from .trajectories import partial_attempts, unscore_damaged

LATEST = "latest"


def catalog_version(root: Path) -> str:
    """A short hash of every file in the catalog (names and bytes), so changed games or tasks show.

    The baselines file is left out: it is made from (and records) this version.
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                       and ".git" not in p.parts and p.relative_to(root).as_posix() != BASELINES_FILE):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:12]


def task_versions(catalog: Any) -> dict[str, str]:
    """Per task, a short hash of its game folder and its task file: what a task's baselines were made from."""
    games: dict[str, str] = {}
    out: dict[str, str] = {}
    for task in catalog.tasks:
        if task.game not in games:
            path = catalog.games[task.game].path
            games[task.game] = _tree_hash(path) + _shared_hash(path)
        task_file = catalog.root / "tasks" / task.game / f"{task.id}.yaml"
        extra = hashlib.sha256(task_file.read_bytes()).hexdigest() if task_file.is_file() else task.model_dump_json()
        out[task.id] = hashlib.sha256((games[task.game] + extra).encode()).hexdigest()[:12]
    return out


def _shared_hash(game_dir: Path) -> str:
    """The shared folders beside the games (named "_*": the games' shell) that the game's pages load: part of
    what the game plays, so a change to the shell makes the baselines of the games that load it stale."""
    pages = "".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(game_dir.glob("*.html")))
    shared = sorted(p for p in game_dir.parent.glob("_*") if p.is_dir() and f"../{p.name}/" in pages)
    return "".join(_tree_hash(p) for p in shared)


def _tree_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def new_session_name() -> str:
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S")


def resolve_session(results: Path, ref: str) -> Path:
    """A session folder from a name, `latest`, or a path; raises ValueError when there is none."""
    candidate = Path(ref)
    path = candidate if candidate.is_absolute() or os.sep in ref else results / ref
    if path.name == LATEST and path.is_symlink():
        path = path.parent / os.readlink(path)
    if not (path / "results.jsonl").is_file():
        raise ValueError(f"no session to resume at {path} (no results.jsonl); name one with --gw-resume SESSION")
    return path


def point_latest(results: Path, session_dir: Path) -> None:
    """Repoint results/latest at the session, atomically (a rename replaces the old link)."""
    link = results / LATEST
    tmp = results / f".{LATEST}.{os.getpid()}"
    try:
        if tmp.is_symlink():
            tmp.unlink()
        tmp.symlink_to(session_dir.name)
        os.replace(tmp, link)
    except OSError:
        pass  # a read-only or Windows results folder works without the convenience link


def new_attempt_dir(run_root: Path) -> Path:
    """The next attempt-<n> folder of a run, created atomically so no two processes ever share one (a folder
    that cannot be made is a RecordWriteError naming it)."""
    return written(run_root, lambda: _new_attempt_dir(run_root))


def _new_attempt_dir(run_root: Path) -> Path:
    run_root.mkdir(parents=True, exist_ok=True)
    n = 1 + max((int(p.name.split("-")[1]) for p in run_root.glob("attempt-*") if p.name.split("-")[1].isdigit()),
                default=0)
    while True:
        path = run_root / f"attempt-{n}"
        try:
            path.mkdir()
            return path
        except FileExistsError:
            n += 1


PLAN = "plan.json"


def write_plan(session_dir: Path, plan: dict[str, Any]) -> None:
    """The session's first plan stays: a later --lf or --gw-resume pass plays part of the same selection."""
    path = session_dir / PLAN
    if path.exists():
        return
    write_file(path, json.dumps(plan, indent=1) + "\n")  # whole or not at all; a failure names the file


MODELS_DIR = "models"


def write_named_models(session_dir: Path, specs: Iterable[ModelSpec]) -> list[Path]:
    """Each spec made from a PROVIDER/MODEL name, as YAML in ``models/``: ``--gw-model models/<name>.yaml`` plays
    the same model again, whatever the name's defaults become. Secrets in a base URL are masked."""
    written = []
    for spec in specs:
        if "from_name" not in spec.extra:
            continue
        path = session_dir / MODELS_DIR / f"{spec.name}.yaml"
        header = f"# made from --gw-model {spec.extra['from_name']} (with any --gw-model-opt) for this session\n"
        text = yaml.safe_dump(spec.model_dump(mode="json", exclude_defaults=False), sort_keys=False)
        write_file(path, header + redact(text))
        written.append(path)
    return written


class PlanRun(BaseModel):
    """A planned run as plan.json holds it: the identity fields every reader of the plan relies on."""

    model_config = ConfigDict(extra="allow", strict=True)
    item: str
    task: str
    model: str
    repeat: int = Field(ge=0)
    seed: int
    protocol: str = "paused"
    obs: str = STANDARD_OBS


class PlanFile(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    plan: str = ""
    shard: list[int] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    runs: list[PlanRun] = Field(default_factory=list)
    selected: list[str] = Field(default_factory=list)


class PlanDamaged(ValueError):
    """plan.json is not a readable plan; the message is one line, `file:line: why`."""


def read_plan(session_dir: Path) -> dict[str, Any] | None:
    """The session's plan, checked as it is read; None when there is none. PlanDamaged names the damage."""
    path = session_dir / PLAN
    if not path.is_file():
        return None
    try:
        text = path.read_bytes().decode("utf-8")
        value = strict_loads(text)
    except UnicodeDecodeError as exc:
        raise PlanDamaged(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise PlanDamaged(f"{path}:{exc.lineno}: not JSON: {exc.msg} (column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise PlanDamaged(f"{path}: not JSON: {str(exc)[:200] or type(exc).__name__}") from None
    try:
        PlanFile.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "plan"
        raise PlanDamaged(f"{path}:{line_of(text, first['loc'])}: not a plan: field '{where}': {first['msg']}") from None
    return value


def plan_or_damage(session_dir: Path) -> tuple[dict[str, Any] | None, str | None]:
    """(the plan, None), or (None, the one line naming its damage)."""
    try:
        return read_plan(session_dir), None
    except PlanDamaged as exc:
        return None, str(exc)


def set_aside_damaged_plan(session_dir: Path) -> str | None:
    """A session continued over a damaged plan.json: the file is kept as plan.json.damaged(-N) and the
    invocation writes a new plan from its own selection; the line that says so, or None when the plan reads."""
    _, damage = plan_or_damage(session_dir)
    if damage is None:
        return None
    path = session_dir / PLAN
    keep = path.with_name(PLAN + ".damaged")
    n = 1
    while keep.exists():
        n += 1
        keep = path.with_name(f"{PLAN}.damaged-{n}")
    written(keep, lambda: os.replace(path, keep))
    return f"{damage}; kept as {keep.name}, this invocation's selection is the session's plan from now on"


def planned_runs(plan: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The runs this session folder set out to play: its shard's part of the plan (all of it unsharded)."""
    if not plan:
        return []
    selected = set(plan.get("selected") or [])
    return [r for r in plan.get("runs", []) if r["item"] in selected]


def unrecorded_runs(plan: dict[str, Any] | None, records: Iterable[RunRecord]) -> list[dict[str, Any]]:
    """Planned runs no record names: never started (the session stopped, was interrupted, or lost the run)."""
    seen = {r.key for r in records}
    return [r for r in planned_runs(plan) if RunKey.of(r) not in seen]


def replay_items(plan: dict[str, Any] | None, records: Iterable[RunRecord]) -> set[str] | None:
    """`--lf` on a session: its planned runs that are not scored (faulted, held back, interrupted, never
    started); None for a session without a plan (pytest's own last-failed list decides then)."""
    if not plan:
        return None
    scored = scored_keys(records)
    return {r["item"] for r in planned_runs(plan) if RunKey.of(r) not in scored}


def case_key(case: Case, base_seed: int, realtime: bool, obs: str = STANDARD_OBS) -> RunKey:
    """The identity of the run a case plays."""
    return RunKey(case.task.id, case.model.name, case.repeat, "realtime" if realtime else "paused",
                  case.seed(base_seed), obs)


def scored_keys(records: Iterable[RunRecord]) -> set[RunKey]:
    return {r.key for r in records if r.scored}


def reuse_problem(session_dir: Path, version: str, budgets: dict[str, int]) -> str | None:
    """Why this session's runs cannot join the session folder's earlier runs, or None when they can."""
    records = read_results(session_dir / "results.jsonl").records
    versions = {r.catalog_version for r in records if r.catalog_version} - {version}
    if versions:
        return (f"session {session_dir.name} was played with catalog version {sorted(versions)[0]}, this catalog "
                f"is {version}; use a new --gw-session")
    for r in records:
        want = budgets.get(r.task)
        if want is not None and r.max_steps and r.max_steps != want:
            return (f"session {session_dir.name} played {r.task} with {r.max_steps} steps, this session "
                    f"would play {want} (--gw-max-steps differs); use the same --gw-max-steps or a new --gw-session")
    return None


def session_folder(path: Path) -> Path:
    """The folder of a session named by its folder (or `latest`) or its results.jsonl."""
    return path if path.is_dir() else path.parent


def load_results(path: Path) -> Records:
    """A session's records from its folder (or `latest`) or from a results.jsonl, damaged lines named, each
    scored record whose trajectory is damaged read back as unscored (records/trajectories.py); ValueError when
    absent."""
    file = path / "results.jsonl" if path.is_dir() else path
    if not file.is_file():
        raise ValueError(f"{path}: no results.jsonl")
    return read_session(file.parent)


def read_session(session_dir: Path) -> Records:
    """A session folder's records as every judge of it reads them: results.jsonl's readable records (damaged
    lines named), a scored run whose trajectory is damaged unscored, naming the damage."""
    lines = read_results(session_dir / "results.jsonl")
    return Records(unscore_damaged(session_dir, lines.records), lines.damaged)


@dataclass
class SessionFiles:
    """What a session folder holds for judging it: records (see read_session), the plan or its damage, and
    how far each run got that an attempt folder holds but no record names."""

    lines: Records
    plan: dict[str, Any] | None
    plan_damage: str | None
    partial: dict[RunKey, str]


def read_session_files(path: Path, required: bool = True) -> SessionFiles:
    """A session from its folder (or `latest`) or its results.jsonl; ValueError when there is none (unless not
    ``required``: a session whose every run stopped before its record reads as no records)."""
    folder = session_folder(path)
    lines = load_results(path) if required else read_session(folder)
    plan, damage = plan_or_damage(folder)
    return SessionFiles(lines, plan, damage, partial_attempts(folder, lines.records))
