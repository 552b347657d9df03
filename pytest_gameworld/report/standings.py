"""Figures of the results page beyond the SR/PG table: per-game PG, spreads over repeats, the
normalized score against baselines, and Elo ratings from pairwise per-task comparisons (pure)."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from ..records.run_record import RunRecord
from .aggregate import summary_key
from .discrimination import is_floor_sr

# Two-sided 95 % critical values of Student's t for 1..30 degrees of freedom; the normal 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)

ELO_START = 1500.0
ELO_K = 16.0
ELO_ROUNDS = 200


@dataclass(frozen=True)
class Spread:
    """Mean, sample standard deviation and the 95 % t-interval of the mean, over n values."""

    n: int
    mean: float
    std: float
    lo: float
    hi: float


def spread(values: Iterable[float]) -> Spread | None:
    """The spread of at least two values (None for fewer: a single repeat has no spread)."""
    xs = [float(v) for v in values]
    if len(xs) < 2:
        return None
    mean, std = statistics.mean(xs), statistics.stdev(xs)
    t = _T95[len(xs) - 2] if len(xs) - 1 <= len(_T95) else 1.96
    half = t * std / math.sqrt(len(xs))
    return Spread(len(xs), mean, std, mean - half, mean + half)


def repeat_values(scored: Iterable[RunRecord]) -> dict[str, dict[str, list[float]]]:
    """Per model: overall SR and PG (%) of each repeat, in repeat order, as {"sr": [...], "pg": [...]}."""
    per: dict[str, dict[int, list[RunRecord]]] = {}
    for rec in scored:
        per.setdefault(summary_key(rec), {}).setdefault(rec.repeat, []).append(rec)
    out: dict[str, dict[str, list[float]]] = {}
    for model, reps in per.items():
        out[model] = {
            "sr": [100.0 * sum(r.success for r in rs) / len(rs) for _, rs in sorted(reps.items())],
            "pg": [100.0 * sum(r.progress for r in rs) / len(rs) for _, rs in sorted(reps.items())],
        }
    return out


def mean_progress(scored: Iterable[RunRecord], by: Literal["task", "game"]) -> dict[str, dict[str, float]]:
    """Per model, per ``by`` ("task" or "game"): mean progress (%) over its runs (the table's and heatmap's cells)."""
    acc: dict[str, dict[str, list[float]]] = {}
    for rec in scored:
        acc.setdefault(summary_key(rec), {}).setdefault(rec.task if by == "task" else rec.game, []).append(rec.progress)
    return {m: {k: 100.0 * sum(v) / len(v) for k, v in cells.items()} for m, cells in acc.items()}


def normalized_zero(rates: Mapping[str, Mapping[str, float]]) -> float:
    """A task's normalized zero: the best of random's PG and the best trivial policy's (where calibrated), so
    pressing one control every step never counts as skill."""
    return max(float(rates["random"]["pg"]), float(rates["trivial"]["pg"]) if "trivial" in rates else 0.0)


def normalized_score(task_pg: Mapping[str, float], baselines: Mapping[str, Mapping[str, Mapping[str, float]]]
                     ) -> float | None:
    """(PG − zero) / (PG_oracle − zero) in %, over the tasks both the model and the baselines cover; the zero is
    normalized_zero (random, or the best trivial policy when that scores more).

    The three means are taken over the same tasks before dividing, so a task where the zero and the oracle
    tie (zero span) still counts; None when no task is covered or the oracle is not above the zero there.
    """
    tasks = [t for t in task_pg if t in baselines and "random" in baselines[t] and "oracle" in baselines[t]]
    if not tasks:
        return None
    pg = statistics.mean(task_pg[t] for t in tasks)
    low = statistics.mean(normalized_zero(baselines[t]) for t in tasks)
    high = statistics.mean(float(baselines[t]["oracle"]["pg"]) for t in tasks)
    if high - low <= 1e-9:
        return None
    return 100.0 * (pg - low) / (high - low)


Match = tuple[str, str, float]  # (model a, model b, a's result: 1 win, 0.5 draw, 0 loss)


def matches(scored: Iterable[RunRecord]) -> list[Match]:
    """Every pair of models on every (task, repeat) both played: the higher progress wins, equal is a draw."""
    cells: dict[tuple[str, int], dict[str, float]] = {}
    for rec in scored:
        cells.setdefault((rec.task, rec.repeat), {})[summary_key(rec)] = rec.progress
    out: list[Match] = []
    for key in sorted(cells):
        models = sorted(cells[key])
        for i, a in enumerate(models):
            for b in models[i + 1:]:
                pa, pb = cells[key][a], cells[key][b]
                out.append((a, b, 1.0 if pa > pb else 0.0 if pa < pb else 0.5))
    return out


def elo(games: list[Match], k: float = ELO_K, rounds: int = ELO_ROUNDS, seed: int = 0,
        start: float = ELO_START) -> dict[str, float]:
    """Elo ratings as V-MAGE computes them: sequential updates over the matches in random order, averaged
    over many seeded orders so the result does not depend on the order the runs happened to be in."""
    models = sorted({m for a, b, _ in games for m in (a, b)})
    if len(models) < 2:
        return {}
    rng = random.Random(seed)
    total = dict.fromkeys(models, 0.0)
    order = list(games)
    for _ in range(rounds):
        rng.shuffle(order)
        rating = dict.fromkeys(models, start)
        for a, b, result in order:
            expected = 1.0 / (1.0 + 10 ** ((rating[b] - rating[a]) / 400.0))
            delta = k * (result - expected)
            rating[a] += delta
            rating[b] -= delta
        for m in models:
            total[m] += rating[m]
    return {m: total[m] / rounds for m in models}


def floor_tasks(baselines: Mapping[str, Mapping[str, Mapping[str, float]]]) -> set[str]:
    """Floor tasks (report/discrimination.py's rule: random's SR interval above 50 %): they separate no one."""
    return {t for t, b in baselines.items() if "random" in b
            and is_floor_sr(float(b["random"]["sr"]), int(b["random"].get("runs", 0)))}
