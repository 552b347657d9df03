"""Aggregation into SR/PG by genre, model and repeat; IAR; missing runs; the table layout."""

import itertools

import pytest
from run_records import record

from pytest_gameworld.report.aggregate import aggregate, format_table

_tasks = itertools.count()


def rec(model="m", genre="puzzle", success=False, progress=0.0, status="ok", repeat=0, valid=10, ntc=0, oos=0,
        item="i", level=4, task=None):
    """A run record; every call is a different run unless task is given."""
    return record(**{"item": item, "task": task or f"t{next(_tasks)}", "model": model, "interface": "generalist",
                     "genre": genre, "level": level,
            "success": success, "progress": progress, "status": status, "repeat": repeat, "valid": valid,
            "invalid_ntc": ntc, "invalid_oos": oos, "steps": valid + ntc + oos, "sec_per_step": 0.5,
            "tokens_in": 100, "tokens_out": 10, "cost_usd": 0.01, "error": None if status == "ok" else "boom"})


def test_sr_pg_per_genre_and_overall():
    s = aggregate([rec(success=True, progress=1.0), rec(progress=0.5), rec(genre="runner", progress=0.25)])["m"]
    assert s.genres["puzzle"].sr == 50.0 and s.genres["puzzle"].pg == 75.0
    assert s.genres["runner"].sr == 0.0 and s.genres["runner"].pg == 25.0
    assert s.overall.sr == pytest.approx(100 / 3) and s.overall.pg == pytest.approx(175 / 3)


def test_errored_runs_are_missing_not_scored():
    s = aggregate([rec(success=True, progress=1.0), rec(status="error", item="x")])["m"]
    assert s.overall.runs == 1 and s.overall.sr == 100.0
    assert s.missing == ["x: boom"]


def test_iar_splits_ntc_and_oos():
    s = aggregate([rec(valid=90, ntc=6, oos=4)])["m"]
    assert s.iar == pytest.approx((10.0, 6.0, 4.0))


def test_models_are_separate_and_repeats_give_a_spread():
    rs = [rec(model="a", repeat=0, success=True, progress=1), rec(model="a", repeat=1, progress=0.5),
          rec(model="b")]
    out = aggregate(rs)
    assert set(out) == {"a", "b"}
    mean_sr, std_sr, mean_pg, std_pg = out["a"].repeat_spread
    assert mean_sr == 50.0 and mean_pg == 75.0 and std_sr > 0
    assert out["b"].repeat_spread is None


def test_table_has_genre_columns_and_a_row_per_model():
    lines = format_table(aggregate([rec(model="a", success=True, progress=1.0), rec(model="b", genre="runner")]))
    assert lines[0].split()[:7] == ["model", "Puzzle", "SR/PG", "Runner", "SR/PG", "Overall", "SR/PG"]
    assert lines[2].startswith("a (generalist)") and "100.0/100.0" in lines[2]
    assert lines[3].startswith("b (generalist)")
