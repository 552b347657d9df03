"""``--gw-sample N``: a seeded sample of the selection's runs spread over genres and levels (pure).

What is sampled is the task and repeat, N of them, and each is played by every selected model spec, so a sample
compares models on the same runs. Picks go round the genres in a seeded order, one run each time round, and
within a genre round its curriculum levels, so N runs cover as many genres, then levels, as N allows. The same
selection and seed give the same sample, and a larger N keeps the smaller one's runs (a smoke run grows).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

SampleKey = tuple[str, int]  # task id, repeat


def sample_key(case: Any) -> SampleKey:
    """What the sample picks for a case: its task and repeat (every model spec plays the picked ones)."""
    return case.task.id, case.repeat


def spread_sample(cases: Sequence[Any], n: int, seed: int) -> set[SampleKey]:
    """The (task id, repeat) pairs of the sample: ``cases`` carry ``.task`` (id, level), ``.game.genre`` and
    ``.repeat``; all of them when the selection holds no more than ``n``."""
    units: dict[SampleKey, tuple[str, int]] = {}
    for c in cases:
        units.setdefault(sample_key(c), (c.game.genre, c.task.level))
    if len(units) <= n:
        return set(units)
    rng = random.Random(f"gw-sample:{seed}")
    tree: dict[str, dict[int, list[SampleKey]]] = {}
    for key in sorted(units):
        genre, level = units[key]
        tree.setdefault(genre, {}).setdefault(level, []).append(key)
    genres = _shuffled(rng, tree)
    levels = {g: _shuffled(rng, tree[g]) for g in genres}
    for g in genres:
        for lv in levels[g]:
            rng.shuffle(tree[g][lv])
    turn = {g: 0 for g in genres}
    picked: list[SampleKey] = []
    while len(picked) < n:
        for g in genres:
            left = [lv for lv in levels[g] if tree[g][lv]]
            if not left or len(picked) >= n:
                continue
            # the genre's next level in its seeded order that still has a run
            order = levels[g][turn[g] % len(levels[g]):] + levels[g][:turn[g] % len(levels[g])]
            lv = next(x for x in order if tree[g][x])
            turn[g] = levels[g].index(lv) + 1
            picked.append(tree[g][lv].pop(0))
    return set(picked)


def outside_sample(items: Sequence[Any], case_of: Callable[[Any], Any], n: int, seed: int) -> list[Any]:
    """The items whose case the sample leaves out (items that play no case are kept)."""
    cases = [(item, case_of(item)) for item in items]
    keep = spread_sample([c for _, c in cases if c is not None], n, seed)
    return [item for item, c in cases if c is not None and sample_key(c) not in keep]


def _shuffled(rng: random.Random, keys: Any) -> list[Any]:
    out: list[Hashable] = sorted(keys)
    rng.shuffle(out)
    return out
