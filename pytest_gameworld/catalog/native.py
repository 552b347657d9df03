"""Our own catalog format (games/, tasks/, models/, prompts/), and where the shipped catalog is."""

from __future__ import annotations

import re
from pathlib import Path

from .contents import Catalog
from .specs import CatalogError, GameSpec, ModelSpec, TaskSpec
from .yaml_files import load_model_file, parse_file


def default_catalog_dir() -> Path:
    """The catalog shipped inside the wheel (pytest_gameworld/_catalog), or the repo's top-level one."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "_catalog", package.parent / "catalog"):
        if (candidate / "games").is_dir():
            return candidate
    raise CatalogError(f"no catalog found next to {package}")


_TASK_FILE = re.compile(r"^(\d\d)_(\d\d)\.ya?ml$")


def task_file_ids(root: Path) -> list[str]:
    """The task ids a catalog's task file names give (tasks/NN-slug/NN_TT.yaml), sorted, without reading a file."""
    return sorted(path.stem for path in (root / "tasks").glob("*/*.y*ml") if _TASK_FILE.match(path.name))


def load_native(root: Path) -> Catalog:
    """Load and validate a catalog in our format; raise CatalogError naming the first bad file and field."""
    if not (root / "games").is_dir():
        raise CatalogError(f"{root}: not a catalog (no games/ directory)")
    cat = Catalog(root=root)
    # A folder whose name starts with "_" holds what games share (the shell), not a game.
    for gdir in sorted(p for p in (root / "games").iterdir() if p.is_dir() and not p.name.startswith("_")):
        gfile = gdir / "game.yaml"
        if not gfile.exists():
            raise CatalogError(f"{gfile}: missing")
        game: GameSpec = parse_file(GameSpec, gfile, path=gdir)
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
            task: TaskSpec = parse_file(TaskSpec, tfile)
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
