"""Gate expressions, thresholds per scope and model, the paired bootstrap comparison, the verdict."""

import random
from dataclasses import replace

import pytest
from run_records import record

from pytest_gameworld.report.gate import (
    GateConfig,
    GateError,
    bootstrap_interval,
    check_thresholds,
    compare,
    drop_findings,
    evaluate,
    parse_gate,
    scope_problem,
)


def run(task="01_01", model="m", genre="puzzle", game="01-2048", level=4, success=False, progress=0.0, repeat=0,
        valid=10, ntc=0, oos=0, max_steps=100):
    return record(**{"task": task, "model": model, "genre": genre, "game": game, "level": level, "success": success,
            "progress": progress, "repeat": repeat, "valid": valid, "invalid_ntc": ntc, "invalid_oos": oos,
            "max_steps": max_steps})


@pytest.mark.parametrize("text, metric, op, threshold, scope", [
    ("sr>=20", "sr", ">=", 20, {}),
    ("pg[puzzle]>=30", "pg", ">=", 30, {"genres": ("puzzle",)}),
    ("sr[L2]>10.5", "sr", ">", 10.5, {"levels": (2,)}),
    ("pg[13-flappy-bird]>=50", "pg", ">=", 50, {"games": ("13-flappy-bird",)}),
    ("pg[gpt-5.2]>=40", "pg", ">=", 40, {"models": ("gpt-5.2",)}),
    ("IAR <= 5", "iar", "<=", 5, {}),
    ("pg[runner,L3,oracle]<90", "pg", "<", 90, {"genres": ("runner",), "levels": (3,), "models": ("oracle",)}),
])
def test_parse_reads_metric_scope_op_and_threshold(text, metric, op, threshold, scope):
    e = parse_gate(text)
    assert (e.metric, e.op, e.threshold) == (metric, op, threshold)
    for key in ("genres", "levels", "games", "models"):
        assert getattr(e, key) == scope.get(key, ())


@pytest.mark.parametrize("text", ["pg", "pg>=", "pg=>40", "xx>=4", "pg[]>=3", "pg[puzzle>=3", "pg>=40%", "sr==5",
                                  "pg[a,,b]>=1", "pg>=400", "sr>100", "iar<0", "pg<=-1"])
def test_malformed_expressions_are_one_line_errors(text):
    """Issue 37 item 10: an impossible threshold (pg>=400) is refused like a malformed one, before playing."""
    with pytest.raises(GateError) as err:
        parse_gate(text)
    assert repr(text) in str(err.value) and "\n" not in str(err.value)


def test_thresholds_over_scopes():
    runs = [run(task="01_01", success=True, progress=1.0), run(task="01_02", progress=0.5),
            run(task="13_01", genre="runner", game="13-flappy-bird", level=2, progress=0.25, valid=6, ntc=3, oos=1)]
    checks = check_thresholds([parse_gate(t) for t in
                               ("sr>=33", "pg[puzzle]>=75", "pg[L2]>25", "iar<=5", "pg[19-minesweeper]>=0")], runs)
    got = {c.label: (round(c.value, 2) if c.value is not None else None, c.ok) for c in checks}
    assert got == {"sr": (33.33, True), "pg[puzzle]": (75.0, True), "pg[L2]": (25.0, False),
                   "iar": (13.33, False), "pg[19-minesweeper]": (None, False)}
    assert [c.text() for c in checks if not c.ok] == ["pg[L2] 25.0, needs > 25", "iar 13.3, needs <= 5",
                                                      "pg[19-minesweeper]: no scored runs"]


def test_without_a_model_scope_every_model_must_pass():
    runs = [run(model="a", progress=0.9), run(model="b", progress=0.1)]
    checks = check_thresholds([parse_gate("pg>=50"), parse_gate("pg[b]>=5")], runs)
    assert [(c.label, c.ok) for c in checks] == [("pg[a]", True), ("pg[b]", False), ("pg[b]", True)]


def test_bootstrap_is_seeded_and_brackets_the_mean():
    diffs = [-10.0, 5.0, -30.0, 0.0, -20.0, 12.0]
    a = bootstrap_interval(diffs, random.Random(0))
    assert a == bootstrap_interval(diffs, random.Random(0))
    mean = sum(diffs) / len(diffs)
    assert a[0] < mean < a[1] and a[0] >= min(diffs) and a[1] <= max(diffs)
    assert bootstrap_interval([-40.0] * 4, random.Random(1)) == (-40.0, -40.0)


def _pairs(base_pg, now_pg, genre="puzzle"):
    tasks = [f"01_{i:02d}" for i in range(len(base_pg))]
    base = [run(task=t, genre=genre, progress=p, success=p >= 1) for t, p in zip(tasks, base_pg)]
    now = [run(task=t, genre=genre, progress=p, success=p >= 1) for t, p in zip(tasks, now_pg)]
    return base, now


def test_a_consistent_drop_fails_and_a_noisy_one_only_with_strict():
    base, now = _pairs([1.0, 1.0, 1.0, 1.0], [0.1, 0.0, 0.2, 0.1])
    cmp = compare(base, now)
    overall = [r for r in cmp.rows if r.genre == "overall"][0]
    assert overall.pg.base == 100.0 and overall.pg.now == pytest.approx(10.0) and overall.pg.hi < 0
    failures, _ = drop_findings(cmp, 10, strict=False)
    assert [f.split(" dropped")[0] for f in failures] == ["pg[overall,m]", "sr[overall,m]"]
    noisy_base, noisy_now = _pairs([0.5, 0.2, 0.9, 0.1, 0.6], [0.1, 0.6, 0.2, 0.5, 0.2])
    noisy = compare(noisy_base, noisy_now)
    failures, notes = drop_findings(noisy, 5, strict=False)
    assert failures == [] and "includes zero" in notes[0]
    assert drop_findings(noisy, 5, strict=True)[0]


def test_only_runs_shared_with_the_same_budget_are_compared():
    base = [run(task="a", progress=1.0), run(task="b", progress=1.0, max_steps=5), run(task="c", progress=1.0)]
    now = [run(task="a", progress=0.0), run(task="b", progress=0.0), run(task="d", progress=0.0)]
    cmp = compare(base, now)
    assert cmp.shared == 1 and "different step budget" in cmp.notes[0]


def test_verdict_folds_thresholds_missing_and_baseline():
    runs = [run(progress=0.6)]
    ok = evaluate(GateConfig(exprs=[parse_gate("pg>=40")]), runs, [])
    assert ok.ok and ok.line() == "GameWorld gate: PASS (pg 60.0 >= 40)"
    missing = evaluate(GateConfig(exprs=[parse_gate("pg>=40")]), runs, ["p/g/01_02[m]: boom"])
    assert not missing.ok and missing.line() == "GameWorld gate: FAIL (1 missing run(s) > 0 allowed: p/g/01_02[m])"
    assert evaluate(GateConfig(exprs=[parse_gate("pg>=40")], allow_missing=1), runs, ["x: boom"]).ok
    many = [f"p/g/01_0{i}[replay:a/b]: not played: --gw-max-cost reached: $1 of $1 spent" for i in range(1, 8)]
    named = evaluate(GateConfig(exprs=[parse_gate("pg>=40")], allow_missing=2), runs, many).line()
    assert named == ("GameWorld gate: FAIL (7 missing run(s) > 2 allowed: p/g/01_01[replay:a/b], p/g/01_02[replay:a/b], "
                     "p/g/01_03[replay:a/b], p/g/01_04[replay:a/b], p/g/01_05[replay:a/b] and 2 more)")
    base, now = _pairs([1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
    dropped = evaluate(GateConfig(baseline=base, max_drop=10), now, [])
    assert not dropped.ok and "pg[overall,m] dropped 100.0 > 10" in dropped.line()
    assert dropped.to_json(GateConfig(baseline=base, max_drop=10))["baseline"]["shared_runs"] == 3
    unrelated = evaluate(GateConfig(baseline=[run(task="zz")], max_drop=10), now, [])
    assert unrelated.failures == ["no runs shared with the baseline (3 left out: see the notes)"]


@pytest.mark.parametrize("field, base_value, now_value, words", [
    ("protocol", "paused", "realtime", "protocol (--gw-rt)"),
    ("max_steps", 100, 5, "step budget (--gw-max-steps)"),
    ("obs", "screenshot", "state", "observation mode (--gw-obs)"),
    ("interface", "generalist", "cua", "interface (generalist or computer use)"),
    ("parsing", "original", "paper", "parsing of replies"),
    ("catalog_version", "v1", "v2", "catalog version"),
])
def test_a_baseline_pairs_only_runs_played_under_the_same_conditions(field, base_value, now_value, words):
    """Issue 37 item 9: a --gw-rt session against a paused baseline (or any other condition apart) pairs nothing,
    and the comparison says how many runs it left out and why."""
    base = [replace(run(task=t, progress=1.0), **{field: base_value}) for t in ("a", "b", "c")]
    now = [replace(run(task="a", progress=0.0), **{field: now_value}), replace(run(task="b", progress=0.0), **{field: now_value}),
           replace(run(task="c", progress=0.0), **{field: base_value}), run(task="z")]
    cmp = compare(base, now)
    assert cmp.shared == 1 and cmp.left_out == 3
    assert cmp.notes == [f"2 run(s) not compared: played with a different {words} than the baseline",
                         "1 run(s) not compared: the baseline has no run of the same task, model and repeat"]
    assert cmp.heading("b") == "baseline b: 1 shared run(s), 3 left out"
    verdict = evaluate(GateConfig(baseline=base, max_drop=10), now, [])
    assert verdict.to_json(GateConfig(baseline=base))["baseline"]["left_out"] == 3


def test_a_condition_an_older_record_does_not_carry_is_not_held_against_it():
    base = [run(task="a", progress=1.0)]  # no parsing, no catalog version: written before they were recorded
    assert compare(base, [replace(run(task="a"), **{"parsing": "original", "catalog_version": "v2"})]).shared == 1
    assert compare(base, [replace(run(task="a"), **{"protocol": "realtime"})]).shared == 0, "no protocol means paused"


def test_two_single_model_sessions_pair_across_model_names():
    base = [run(task="a", model="old", progress=1.0)]
    cmp = compare(base, [run(task="a", model="new", progress=0.5)])
    assert cmp.shared == 1 and cmp.rows[-1].model == "new" and cmp.rows[-1].pg.delta == -50.0
    assert cmp.notes == ["comparing model new with the baseline's model old"]
    two = compare(base + [run(task="a", model="other")], [run(task="a", model="new")])
    assert two.shared == 0


def test_a_scope_that_selects_no_run_is_one_line_with_the_closest_name():
    runs = [run(), run(task="13_01", genre="runner", game="13-flappy-bird", level=2, model="oracle")]
    assert scope_problem(parse_gate("pg[puzzle]>=10"), runs) is None
    assert scope_problem(parse_gate("pg[L2,oracle]>=10"), runs) is None
    typo = scope_problem(parse_gate("pg[puzle]>=10"), runs)
    assert typo == ("gate 'pg[puzle]>=10': scope 'puzle' matches no run of this session (genres puzzle, runner; "
                    "levels L2, L4; games 01-2048, 13-flappy-bird; models m, oracle); did you mean 'puzzle'?")
    assert scope_problem(parse_gate("sr[13-flapy-bird]>=1"), runs).endswith("did you mean '13-flappy-bird'?")
    assert scope_problem(parse_gate("sr[arcade]>=1"), runs).startswith("gate 'sr[arcade]>=1': scope 'arcade' matches")
    both = scope_problem(parse_gate("pg[runner,L4]>=1"), runs)
    assert both == "gate 'pg[runner,L4]>=1': no run of this session is in all of [runner,L4] at once"
    assert scope_problem(parse_gate("pg[puzle]>=10"), []) is None  # nothing selected: nothing to judge
