"""--gw-sample's spread (catalog/sampling.py) over the shipped catalog: seeded, spread over genres then levels,
nested as N grows, the same tasks for every model."""

from __future__ import annotations

from collections import Counter

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.run_cases import build_cases
from pytest_gameworld.catalog.sampling import spread_sample

CATALOG = load_catalog()
MODELS = [CATALOG.resolve_model("random"), CATALOG.resolve_model("noop")]
CASES = build_cases(CATALOG.tasks, CATALOG.games, MODELS, 1)
GENRE = {t.id: CATALOG.games[t.game].genre for t in CATALOG.tasks}
LEVEL = {t.id: (CATALOG.games[t.game].genre, t.level) for t in CATALOG.tasks}


def test_a_sample_is_the_same_for_the_same_seed_and_another_for_another() -> None:
    a, b = spread_sample(CASES, 12, seed=1), spread_sample(CASES, 12, seed=1)
    assert a == b and len(a) == 12
    assert spread_sample(CASES, 12, seed=2) != a


def test_a_sample_covers_every_genre_before_a_second_run_of_any() -> None:
    genres = set(GENRE.values())
    sample = spread_sample(CASES, len(genres), seed=3)
    assert Counter(GENRE[t] for t, _ in sample) == Counter({g: 1 for g in genres})
    bigger = spread_sample(CASES, 3 * len(genres), seed=3)
    per_genre = Counter(GENRE[t] for t, _ in bigger)
    assert max(per_genre.values()) - min(per_genre.values()) <= 1, per_genre
    # within a genre the picks go to different levels while the genre has levels left
    for g in genres:
        levels = [LEVEL[t][1] for t, _ in bigger if GENRE[t] == g]
        have = {t.level for t in CATALOG.tasks if GENRE[t.id] == g}
        assert len(set(levels)) == min(len(levels), len(have)), (g, levels)


def test_a_larger_sample_keeps_the_smaller_ones_runs() -> None:
    assert spread_sample(CASES, 5, seed=4) <= spread_sample(CASES, 9, seed=4) <= spread_sample(CASES, 40, seed=4)


def test_a_sample_larger_than_the_selection_is_the_selection() -> None:
    small = [c for c in CASES if c.task.id.startswith("01_")]
    assert spread_sample(small, 100, seed=0) == {(c.task.id, c.repeat) for c in small}
