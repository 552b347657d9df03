"""The catalog's random/oracle baselines (catalog/baselines.json, written by `gameworld calibrate`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

BASELINES_FILE = "baselines.json"

# task id → {"random": {"sr": %, "pg": %}, "oracle": {"sr": %, "pg": %}}
Baselines = dict[str, dict[str, dict[str, float]]]


def read_baselines(catalog_root: Path) -> Baselines | None:
    """Per-task random and oracle SR/PG in %, or None when the catalog has no (readable) baselines file.

    Accepts the tasks at the top level or under "tasks" (other top-level keys, e.g. the catalog
    version, are metadata); keep this the one place that knows the file's shape.
    """
    path = catalog_root / BASELINES_FILE
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    tasks = data.get("tasks", data) if isinstance(data, dict) else None
    if not isinstance(tasks, dict):
        return None
    out: Baselines = {}
    for task, agents in tasks.items():
        if not isinstance(agents, dict):
            continue
        row = {a: {"sr": float(v.get("sr", 0.0)), "pg": float(v.get("pg", 0.0))}
               for a, v in agents.items() if a in ("random", "oracle") and isinstance(v, dict)}
        if row:
            out[task] = row
    return out or None
