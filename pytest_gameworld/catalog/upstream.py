"""An upstream GameWorld checkout (catalog/games/*.yaml, catalog/tasks/<game>/*.yaml, games/benchmark/<game>/)
mapped onto our typed specs: seconds become milliseconds, roles, controls and tasks become ours."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .contents import Catalog
from .native import default_catalog_dir, load_models
from .specs import ArgSpec, CatalogError, Control, GameSpec, TaskSpec
from .upstream_fields import unmapped_game_fields, unmapped_task_fields
from .upstream_models import load_upstream_models
from .upstream_prompt_source import PROMPTS_DIR, prompt_source_warnings
from .yaml_files import describe_validation_error, read_yaml

ORIGIN = "upstream"
PAGE_DIR = Path("games") / "benchmark"
# The paper's genre and curriculum level of each upstream game, by its number (the YAML has neither).
GENRE_LEVEL: dict[str, tuple[str, int]] = {
    "01": ("puzzle", 4), "02": ("platformer", 3), "03": ("puzzle", 3), "04": ("runner", 2), "05": ("arcade", 1),
    "06": ("platformer", 3), "07": ("runner", 2), "08": ("arcade", 1), "09": ("runner", 2), "10": ("platformer", 2),
    "11": ("runner", 2), "12": ("simulation", 5), "13": ("runner", 2), "14": ("platformer", 2), "15": ("arcade", 3),
    "16": ("puzzle", 4), "17": ("platformer", 3), "18": ("simulation", 5), "19": ("puzzle", 4),
    "20": ("simulation", 5), "21": ("runner", 2), "22": ("platformer", 3), "23": ("arcade", 3),
    "24": ("platformer", 2), "25": ("arcade", 3), "26": ("runner", 2), "27": ("puzzle", 1), "28": ("runner", 2),
    "29": ("puzzle", 4), "30": ("platformer", 2), "31": ("simulation", 3), "32": ("puzzle", 4), "33": ("arcade", 3),
    "34": ("arcade", 3),
}
UNKNOWN_GENRE = ("arcade", 1)
DEFAULT_HOLD_S = 0.2
ARG_TYPES = {"string", "integer", "number", "boolean"}
_LEVEL = re.compile(r"(?:^|[?&#/])level[=/](\d+)")


def is_upstream(root: Path) -> bool:
    """An upstream checkout: game YAML files (not folders) under catalog/games/."""
    games = root / "catalog" / "games"
    return games.is_dir() and any(games.glob("*.y*ml"))


def append_url_suffix(url: str, suffix: str | None) -> str:
    """Append a task's game_url_suffix exactly as upstream does."""
    if not suffix:
        return url
    if suffix.startswith("#"):
        return url + suffix
    text = suffix.lstrip("?&") if suffix[0] in "?&" else suffix
    if "=" in text:
        return url + ("&" if "?" in url else "?") + text
    return url + text


def level_from_suffix(suffix: str | None) -> int:
    """The level a suffix selects (?level=3, #level/2), else 1; informational (the page reads the URL)."""
    match = _LEVEL.search(suffix or "")
    return max(1, min(5, int(match.group(1)))) if match else 1


class _Where:
    """The file and upstream field a value came from, for errors that name both."""

    def __init__(self, file: Path, field: str = "") -> None:
        self.file, self.field = file, field

    def at(self, name: str | int) -> _Where:
        part = f"[{name}]" if isinstance(name, int) else (f".{name}" if self.field else name)
        return _Where(self.file, f"{self.field}{part}")

    def error(self, message: str) -> CatalogError:
        return CatalogError(f"{self.file}: field '{self.field or '<root>'}': {message}")


def _mapping(value: Any, where: _Where, default: dict[str, Any] | None = None) -> dict[str, Any]:
    if value is None and default is not None:
        return default
    if not isinstance(value, dict):
        raise where.error(f"expected a mapping, got {type(value).__name__}")
    return value


def _list(value: Any, where: _Where) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise where.error(f"expected a list, got {type(value).__name__}")
    return value


def seconds_to_ms(value: Any, where: _Where) -> int:
    """Upstream seconds (a float) as our integer milliseconds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise where.error(f"expected a non-negative number of seconds, got {value!r}")
    return int(round(value * 1000))


def _build(model: type[BaseModel], data: dict[str, Any], where: _Where) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        prefix = f"{where.field}." if where.field else ""
        raise CatalogError(describe_validation_error(where.file, err, model).replace(": field '", f": field '{prefix}", 1)) \
            from None


def _args(control: dict[str, Any], where: _Where) -> dict[str, ArgSpec]:
    params = _mapping(control.get("parameters"), where.at("parameters"), {})
    required = {str(r) for r in _list(control.get("required"), where.at("required"))}
    args: dict[str, ArgSpec] = {}
    for name, spec in params.items():
        spec = _mapping(spec, where.at("parameters").at(name), {})
        kind = spec.get("type", "string")
        if kind not in ARG_TYPES:
            raise where.at("parameters").at(name).at("type").error(f"{kind!r} is not one of {sorted(ARG_TYPES)}")
        args[str(name)] = ArgSpec(type=kind, description=str(spec.get("description", "")),
                                  required=str(name) in required, enum=spec.get("enum"))
    return args


def map_binding(binding: dict[str, Any], hold_ms: int, where: _Where) -> tuple[dict[str, Any], dict[str, tuple[int, int]] | None]:
    """An upstream binding as ours (durations in ms, mouse_move's from/to, right clicks), and its cells if any."""
    kind = binding.get("action")
    out: dict[str, Any] = {"action": kind}
    cells = None
    out["duration_ms"] = seconds_to_ms(binding["duration"], where.at("duration")) if binding.get("duration") is not None \
        else hold_ms
    if kind in ("press_key", "press_keys"):
        raw = binding.get("keys", binding.get("key"))  # a few upstream press_key entries say `keys`
        keys = [str(k) for k in raw] if isinstance(raw, list) else ([str(raw)] if raw is not None else [])
        if not keys:
            raise where.error(f"{kind} needs 'key' or 'keys'")
        if kind == "press_key" and len(keys) == 1:
            out["key"] = keys[0]
        else:
            out["keys"] = keys
    elif kind == "mouse_move" and binding.get("from_x") is not None:
        # Upstream moves to (from_x, from_y), then to (x, y): a relative look.
        out.update(x=binding["from_x"], y=binding["from_y"], to_x=binding.get("x"), to_y=binding.get("y"))
    elif kind in ("click", "click_hold", "mouse_move", "drag", "scroll"):
        for key in ("x", "y", "to_x", "to_y", "dx", "dy"):
            if binding.get(key) is not None:
                out[key] = binding[key]
        if kind == "click" and binding.get("button") == "right":
            out["action"] = "right_click"
        if binding.get("cell_param"):
            table = _mapping(binding.get("cell_bindings"), where.at("cell_bindings"))
            cells = {}
            for cell, point in table.items():
                point = _mapping(point, where.at("cell_bindings").at(str(cell)))
                if not all(isinstance(point.get(k), (int, float)) for k in ("x", "y")):
                    raise where.at("cell_bindings").at(str(cell)).error("needs numeric x and y")
                cells[str(cell).lower()] = (int(round(point["x"])), int(round(point["y"])))
    elif kind == "type" and binding.get("text") is not None:
        out["text"] = str(binding["text"])
    return out, cells


def map_control(control: Any, hold_ms: int, where: _Where) -> Control:
    """One semantic_controls entry as our Control."""
    control = _mapping(control, where)
    for legacy in ("action", "aliases"):
        if legacy in control:
            raise where.at(legacy).error("legacy key, rejected by upstream too")
    if "id" not in control:
        raise where.at("id").error("required")
    binding = _mapping(control.get("binding"), where.at("binding"))
    if not binding:
        raise where.at("binding").error("must be a non-empty mapping")
    mapped, cells = map_binding(binding, hold_ms, where.at("binding"))
    args = _args(control, where)
    # The argument the model supplies: the cell name of a cell binding, the text of a type binding.
    if cells is not None and "cell" not in args:
        args["cell"] = ArgSpec(type="string", description="Cell id.", required=True)
    if mapped["action"] == "type" and "text" not in mapped and "text" not in args:
        args["text"] = ArgSpec(type="string", description="Text to type.", required=True)
    return _build(Control, {"id": control["id"], "description": str(control.get("description") or control["id"]),
                            "args": args, "binding": mapped, "cell_bindings": cells}, where)


def map_role(entry: Any, game_id: str, where: _Where) -> tuple[str, dict[str, Any], list[str]]:
    """One game_roles entry: its name, our Role's fields, and the upstream defects it carries."""
    entry = _mapping(entry, where)
    name = str(entry.get("name") or "player")
    prompt = _mapping(entry.get("prompt"), where.at("prompt"), {})
    if "semantic_controls_section" in prompt:
        raise where.at("prompt").at("semantic_controls_section").error("legacy key, rejected by upstream too")
    cuc = _mapping(entry.get("computer_use_controls"), where.at("computer_use_controls"), {})
    cwhere = where.at("computer_use_controls")
    hold = cuc.get("hold_duration")
    hold_ms = max(1, seconds_to_ms(DEFAULT_HOLD_S if hold is None else hold, cwhere.at("hold_duration")))
    keys = [str(k) for k in _list(cuc.get("allowed_keys"), cwhere.at("allowed_keys"))]
    durations = _mapping(cuc.get("key_durations"), cwhere.at("key_durations"), {})
    warnings = []
    if not keys:
        warnings.append(f"{game_id} role {name}: computer_use_controls.allowed_keys is empty, which upstream reads "
                        "as every key allowed; kept (a computer-use agent may press any key)")
    cua = {"keys": keys, "any_key": not keys, "clicks": bool(cuc.get("allow_clicks", True)), "default_hold_ms": hold_ms,
           "key_durations": {str(k): seconds_to_ms(v, cwhere.at("key_durations").at(str(k))) for k, v in durations.items()}}
    controls = [map_control(c, hold_ms, where.at("semantic_controls").at(i))
                for i, c in enumerate(_list(entry.get("semantic_controls"), where.at("semantic_controls")))]
    role = {"description": str(prompt.get("role_section") or ""), "cua": cua, "controls": controls,
            "cua_description": str(prompt.get("computer_use_controls_section") or "")}
    return name, role, warnings


def display_name(game_id: str) -> str:
    slug = game_id.split("_", 1)[1] if "_" in game_id else game_id
    return " ".join(w[:1].upper() + w[1:] for w in slug.split("-"))


def map_game(data: dict[str, Any], file: Path, page_dir: Path) -> tuple[GameSpec, list[str]]:
    """A game YAML as our GameSpec (its page in page_dir), and the upstream defects it carries."""
    where = _Where(file)
    game_id = data.get("game_name")
    if game_id != file.stem:
        raise where.at("game_name").error(f"{game_id!r} does not match the file name {file.stem!r}")
    number = game_id.split("_", 1)[0]
    warnings = []
    genre, level = GENRE_LEVEL.get(number, UNKNOWN_GENRE)
    if number not in GENRE_LEVEL:
        warnings.append(f"{game_id}: not one of the 34 published games; filed under genre {genre}, level L{level}")
    if float(data.get("speed_multiplier") or 1.0) != 1.0:
        warnings.append(f"{game_id}: speed_multiplier {data['speed_multiplier']} ignored (the harness clock owns time)")
    roles: dict[str, Any] = {}
    for i, entry in enumerate(_list(data.get("game_roles"), where.at("game_roles"))):
        name, role, found = map_role(entry, game_id, where.at("game_roles").at(i))
        if name in roles:
            raise where.at("game_roles").at(i).at("name").error(f"role {name!r} is named twice")
        roles[name] = role
        warnings += found
    if not roles:
        raise where.at("game_roles").error("a game needs at least one role")
    spec = _build(GameSpec, {
        "id": game_id, "name": display_name(game_id), "genre": genre, "level": level,
        "viewport": {"width": data.get("width") or 1280, "height": data.get("height") or 720},
        "rules": str(data.get("game_rules") or ""), "roles": roles, "path": page_dir, "origin": ORIGIN}, where)
    return spec, warnings


def map_task(data: dict[str, Any], file: Path) -> tuple[TaskSpec, list[str]]:
    """A task YAML as our TaskSpec, and the notes on what does not carry over."""
    where = _Where(file)
    if "task_goal" in data:
        raise where.at("task_goal").error("legacy key, rejected by upstream too")
    for key in ("task_id", "game_id"):
        if not data.get(key):
            raise where.at(key).error("required")
    if not str(data.get("task_prompt") or "").strip():
        raise where.at("task_prompt").error("required and not blank")
    if data.get("evaluator_id", "noop") != "game_api_metric":
        raise where.at("evaluator_id").error(f"{data.get('evaluator_id', 'noop')!r}: only game_api_metric is an evaluator")
    cfg = _mapping(data.get("evaluator_config"), where.at("evaluator_config"), {})
    aggregate = _list(cfg.get("aggregate_score_fields"), where.at("evaluator_config").at("aggregate_score_fields"))
    score: Any = {"aggregate": "sum", "fields": [str(f) for f in aggregate]} if aggregate else cfg.get("score_field")
    if not score:
        raise where.at("evaluator_config").at("score_field").error("required (or aggregate_score_fields)")
    if data.get("task_target_score_field") is None:
        raise where.at("task_target_score_field").error("required")
    start, target = data.get("task_start_score_field") or 0.0, data["task_target_score_field"]
    if isinstance(start, (int, float)) and isinstance(target, (int, float)) and not target > start:
        raise where.at("task_target_score_field").error(f"{target} must be greater than the start {start}")
    end = {"field": cfg["end_field"], "equals": cfg.get("end_value", True)} if cfg.get("end_field") else None
    suffix = data.get("game_url_suffix")
    notes = []
    if data.get("pause_during_inference") is False:
        notes.append(f"{data['task_id']}: pause_during_inference is false; play it with --gw-rt")
    spec = _build(TaskSpec, {
        "id": str(data["task_id"]), "game": str(data["game_id"]), "instruction": str(data["task_prompt"]),
        "score": score, "start": start, "target": target, "end": end,
        "level": level_from_suffix(suffix), "max_steps": 100 if data.get("max_steps") is None else data["max_steps"],
        "continue_on_fail": bool(data.get("continue_on_fail", True)),
        "url_suffix": str(suffix) if suffix else None, "terminal_status": cfg.get("terminal_status")}, where)
    return spec, notes


def git_commit(root: Path) -> str:
    """The checked-out commit of a git checkout at root (read from .git, no git binary), else ''."""
    git = root / ".git"
    if git.is_file():  # a worktree or submodule: "gitdir: <path>"
        text = git.read_text().strip()
        git = (root / text.split(":", 1)[1].strip()) if text.startswith("gitdir:") else git
    head = git / "HEAD"
    if not head.is_file():
        return ""
    ref = head.read_text().strip()
    if not ref.startswith("ref:"):
        return ref
    name = ref.split(":", 1)[1].strip()
    for base in (git, _common_dir(git)):
        loose = base / name
        if loose.is_file():
            return loose.read_text().strip()
        packed = base / "packed-refs"
        if packed.is_file():
            for line in packed.read_text().splitlines():
                if line.endswith(" " + name):
                    return line.split()[0]
    return ""


def _common_dir(git: Path) -> Path:
    common = git / "commondir"
    return (git / common.read_text().strip()).resolve() if common.is_file() else git


def page_state(data: dict[str, Any], folder: Path, entry: str) -> str:
    """'present', or why a game's page is left out."""
    if data.get("url"):
        return f"left out: its YAML sets a remote url ({data['url']}), outside the sandbox"
    if (folder / entry).is_file():
        return "present"
    if folder.is_dir():
        return f"absent: {PAGE_DIR / folder.name}/ has no {entry}"
    return f"absent: no folder {PAGE_DIR / folder.name}/"


def load_upstream(root: Path) -> Catalog:
    """Load an upstream checkout; games without a page folder are left out (one line says so)."""
    ours = default_catalog_dir()
    pages = root / PAGE_DIR
    models, model_notes = load_upstream_models(root, load_models(ours / "models"))
    cat = Catalog(root=root, games_root=pages, prompts_root=root / PROMPTS_DIR, models=models)
    cat.source = {"format": ORIGIN, "path": str(root.resolve()), "commit": git_commit(root)}
    cat.warnings += prompt_source_warnings(root) + model_notes
    absent: list[str] = []
    remote: list[str] = []
    for gfile in sorted((root / "catalog" / "games").glob("*.y*ml")):
        data = read_yaml(gfile)
        game, warnings = map_game(data, gfile, pages / gfile.stem)
        cat.warnings += unmapped_game_fields(data, gfile)
        cat.pages[game.id] = page_state(data, game.path, game.entry)
        cat.declared_tasks[game.id] = 0
        if data.get("url"):
            remote.append(game.id)  # a page on the internet is outside the sandbox
            continue
        if not (game.path / game.entry).is_file():
            absent.append(game.id)
            continue
        cat.games[game.id] = game
        cat.warnings += warnings
    tasks_root = root / "catalog" / "tasks"
    for tdir in sorted(p for p in tasks_root.iterdir() if p.is_dir()) if tasks_root.is_dir() else []:
        for tfile in sorted(tdir.glob("*.y*ml")):
            data = read_yaml(tfile)
            task, notes = map_task(data, tfile)
            cat.warnings += unmapped_task_fields(data, tfile)
            if task.game != tdir.name:
                raise _Where(tfile, "game_id").error(f"{task.game!r} is not the folder {tdir.name!r}")
            if task.game not in cat.declared_tasks:
                raise _Where(tfile, "game_id").error(f"no game YAML catalog/games/{task.game}.yaml")
            cat.declared_tasks[task.game] += 1
            if task.game in absent or task.game in remote:
                continue
            cat.tasks.append(task)
            cat.warnings += notes
    cat.tasks.sort(key=lambda t: (t.game, t.id))
    total = len(absent) + len(remote) + len(cat.games)
    if absent:
        cat.left_out.append(f"{len(absent)} of {total} upstream games left out: no page "
                            f"{PAGE_DIR}/<game>/index.html in {root} ({', '.join(absent)}); the original publishes its game "
                            f"pages separately: clone them into {PAGE_DIR}/")
    if remote:
        cat.left_out.append(f"{len(remote)} of {total} upstream games left out: their YAML sets a remote url, "
                            f"outside the sandbox ({', '.join(remote)})")
    return cat
