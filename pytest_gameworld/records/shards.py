"""Shards: a deterministic, balanced part of a session's runs for one of N machines (pure)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from ..catalog.specs import STANDARD_OBS

_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


def parse_shard(text: str) -> tuple[int, int] | None:
    """'K/N' → (K, N) with 1 ≤ K ≤ N; '' → None; anything else is a ValueError naming the option."""
    if not text:
        return None
    match = _SHARD.fullmatch(text)
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise ValueError(f"--gw-shard expects K/N with 1 <= K <= N (e.g. 2/4), got {text!r}")
    return int(match.group(1)), int(match.group(2))


def run_order(run: dict[str, Any]) -> tuple[str, str, str, int]:
    """Runs are dealt in catalog order (game, task, model, repeat), whatever order pytest collected them in."""
    return run["game"], run["task"], run["model"], int(run["repeat"])


def deal(runs: Sequence[dict[str, Any]], k: int, n: int) -> list[dict[str, Any]]:
    """Shard k of n: every n-th run in catalog order, so each game's runs spread evenly over the shards."""
    ordered = sorted(runs, key=run_order)
    return [r for i, r in enumerate(ordered) if i % n == k - 1]


def plan_id(runs: Sequence[dict[str, Any]]) -> str:
    """A short hash of the whole selection: shards of one session share it, other selections do not."""
    keys = sorted(json.dumps([r["item"], r["seed"]]) for r in runs)
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:12]


def plan_run(case: Any, seed: int, protocol: str, obs: str = STANDARD_OBS) -> dict[str, Any]:
    """One run of a session's selection (a cases.Case), with the identity fields its record will carry."""
    return {"item": case.node_id, "game": case.game.id, "genre": case.game.genre, "level": case.game.level,
            "task": case.task.id, "model": case.model.name, "interface": case.model.interface,
            "repeat": case.repeat, "seed": seed, "protocol": protocol, "obs": obs}


def build_plan(runs: Sequence[dict[str, Any]], shard: tuple[int, int] | None,
               options: dict[str, Any]) -> dict[str, Any]:
    """A session's plan.json: the whole selection, the shard it plays, and the options every shard must share."""
    mine = deal(runs, *shard) if shard else list(runs)
    return {"plan": plan_id(runs), "shard": list(shard) if shard else None, "options": options,
            "runs": sorted(runs, key=run_order), "selected": [r["item"] for r in sorted(mine, key=run_order)]}
