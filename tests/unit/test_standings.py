"""The results page's figures: spreads over repeats, per-game PG, normalized score, Elo, floor tasks."""

import pytest
from run_records import record

from pytest_gameworld.report.standings import (
    elo,
    floor_tasks,
    matches,
    mean_progress,
    normalized_score,
    repeat_values,
    spread,
)


def rec(model, task, progress, repeat=0, success=None, game=None, protocol="paused"):
    return record(**{"model": model, "task": task, "game": game or task.split("_")[0], "progress": progress,
            "success": progress >= 1.0 if success is None else success, "repeat": repeat, "protocol": protocol})


def test_spread_is_mean_std_and_a_t_interval():
    s = spread([10.0, 20.0])
    assert (s.n, s.mean) == (2, 15.0)
    assert s.std == pytest.approx(7.0710678)
    # df = 1: t = 12.706, half-width = t * std / sqrt(2) = 12.706 * 5
    assert (s.lo, s.hi) == pytest.approx((15 - 63.53, 15 + 63.53))
    wide, narrow = spread([1, 2, 3]), spread([1, 2, 3] * 20)
    assert narrow.hi - narrow.lo < wide.hi - wide.lo
    assert spread([5.0]) is None and spread([]) is None


def test_repeat_values_are_per_model_and_repeat_in_order():
    out = repeat_values([rec("a", "01_01", 1.0, 1), rec("a", "01_02", 0.0, 1), rec("a", "01_01", 0.5, 0),
                         rec("a", "01_02", 0.5, 0), rec("a", "01_01", 1.0, 0, protocol="realtime")])
    assert out["a"] == {"sr": [0.0, 50.0], "pg": [50.0, 50.0]}
    assert out["a [rt]"] == {"sr": [100.0], "pg": [100.0]}, "real-time runs are their own row"


def test_task_and_game_progress_average_repeats():
    recs = [rec("a", "01_01", 1.0, 0), rec("a", "01_01", 0.5, 1), rec("a", "01_02", 0.0), rec("b", "13_01", 0.25)]
    assert mean_progress(recs, "task") == {"a": {"01_01": 75.0, "01_02": 0.0}, "b": {"13_01": 25.0}}
    assert mean_progress(recs, "game") == {"a": {"01": 50.0}, "b": {"13": 25.0}}


BASE = {"t1": {"random": {"sr": 0.0, "pg": 10.0}, "oracle": {"sr": 100.0, "pg": 90.0}},
        "t2": {"random": {"sr": 80.0, "pg": 50.0}, "oracle": {"sr": 100.0, "pg": 50.0}},
        "t3": {"random": {"sr": 0.0, "pg": 0.0}}}


def test_normalized_score_maps_random_to_0_and_oracle_to_100():
    assert normalized_score({"t1": 10.0}, BASE) == pytest.approx(0.0)
    assert normalized_score({"t1": 90.0}, BASE) == pytest.approx(100.0)
    assert normalized_score({"t1": 50.0}, BASE) == pytest.approx(50.0)
    # Over t1 and t2: PG 50 vs random 30 and oracle 70 -> 50 %; t2's zero span does not divide by zero.
    assert normalized_score({"t1": 50.0, "t2": 50.0}, BASE) == pytest.approx(50.0)
    assert normalized_score({"t1": 0.0}, BASE) < 0, "below random is negative, not clipped"


def test_normalized_score_is_none_without_coverage_or_span():
    assert normalized_score({"zz": 50.0}, BASE) is None
    assert normalized_score({"t3": 50.0}, BASE) is None, "a task without an oracle baseline is not covered"
    assert normalized_score({"t2": 60.0}, BASE) is None, "oracle not above random"


def test_normalized_zero_is_the_best_of_random_and_the_trivial_policy():
    base = {"t1": {"random": {"sr": 0.0, "pg": 10.0}, "oracle": {"sr": 100.0, "pg": 90.0},
                   "trivial": {"sr": 0.0, "pg": 50.0}},
            "t2": {"random": {"sr": 0.0, "pg": 40.0}, "oracle": {"sr": 100.0, "pg": 100.0},
                   "trivial": {"sr": 0.0, "pg": 20.0}}}
    assert normalized_score({"t1": 50.0}, base) == pytest.approx(0.0)  # pressing one control scores 0, not 50
    assert normalized_score({"t1": 70.0}, base) == pytest.approx(50.0)  # (70 - 50) / (90 - 50)
    assert normalized_score({"t2": 70.0}, base) == pytest.approx(50.0)  # random is the zero where it is higher


def test_floor_tasks_follow_the_interval_rule_with_the_run_count():
    # 80 % of 5 runs: Wilson's lower bound 37.6 % (no floor); of 20 runs: 58.4 % (floor); no count: no floor
    assert floor_tasks(BASE) == set()
    runs = {t: {**b, "random": {**b["random"], "runs": n}} for (t, b), n in zip(BASE.items(), (20, 20, 20))}
    assert floor_tasks(runs) == {"t2"}
    assert floor_tasks({"t2": {**runs["t2"], "random": {**runs["t2"]["random"], "runs": 5}}}) == set()


def test_matches_compare_models_on_the_same_task_and_repeat():
    recs = [rec("a", "t1", 1.0, 0), rec("b", "t1", 0.5, 0), rec("a", "t1", 0.2, 1), rec("b", "t1", 0.2, 1),
            rec("a", "t2", 0.0, 0), rec("b", "t2", 0.3, 0), rec("c", "t2", 0.3, 1)]
    assert sorted(matches(recs)) == sorted([("a", "b", 1.0), ("a", "b", 0.5), ("a", "b", 0.0)]), \
        "c's repeat 1 of t2 has no counterpart"


def test_elo_orders_models_by_wins_and_is_zero_sum_and_deterministic():
    games = [("a", "b", 1.0)] * 6 + [("b", "c", 1.0)] * 6 + [("a", "c", 1.0)] * 6 + [("a", "b", 0.0)]
    r = elo(games)
    assert r["a"] > r["b"] > r["c"]
    assert sum(r.values()) == pytest.approx(3 * 1500.0)
    assert elo(games) == r and elo(games, seed=1) != r
    draws = elo([("a", "b", 0.5)] * 10)
    assert draws == pytest.approx({"a": 1500.0, "b": 1500.0})


def test_elo_needs_two_models():
    assert elo([]) == {}


def test_elo_does_not_depend_on_the_order_of_matches_much():
    games = [("a", "b", 1.0)] * 5 + [("a", "b", 0.0)] * 5
    forward, backward = elo(games), elo(list(reversed(games)))
    assert forward["a"] == pytest.approx(backward["a"], abs=1.0)
    assert forward["a"] == pytest.approx(1500.0, abs=3.0), "an even record rates both near the start"
