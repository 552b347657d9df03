"""Random/oracle baselines: computed per task from session records, read back with clear errors, normalizing PG;
the shipped file covers the shipped catalog."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir
from pytest_gameworld.records import baselines
from pytest_gameworld.records.run_record import RunRecord
from pytest_gameworld.records.sessions import catalog_version, task_versions
from pytest_gameworld.report.discrimination import baselines_json, floors


def run(task: str, model: str, repeat: int, success: bool, progress: float, status: str = "ok") -> RunRecord:
    return record(**{"item": f"{task}[{model}-r{repeat}]", "task": task, "game": "g-" + task, "model": model,
            "repeat": repeat, "seed": repeat, "protocol": "paused", "success": success, "progress": progress,
            "status": status, "error": None if status == "ok" else "HarnessError: boom"})


def test_rates_per_task_over_repeats_with_faults_and_the_floor_flag():
    rnd = [run("a", "random", 0, True, 1.0), run("a", "random", 1, True, 1.0), run("a", "random", 2, False, 0.4),
           run("b", "random", 0, False, 0.2), run("b", "random", 1, False, 0.0, status="error"),
           run("b", "random", 2, True, 1.0)]
    orc = [run("a", "oracle", 0, True, 1.0), run("b", "oracle", 0, True, 1.0), run("c", "oracle", 0, True, 1.0)]
    b = baselines.compute({"random": rnd, "oracle": orc}, "v1", {"command": "test"})
    assert sorted(b.tasks) == ["a", "b", "c"]  # c has no random runs: listed with the oracle's figures only
    assert b.tasks["c"].random is None and baselines.task_rates(b).keys() == {"a", "b"}  # normalizing needs both
    a, bb = b.tasks["a"], b.tasks["b"]
    assert (a.random.sr, a.random.pg, a.random.runs) == (pytest.approx(66.67), pytest.approx(80.0), 3)
    assert (bb.random.sr, bb.random.pg, bb.random.runs, bb.random.faults) == (50.0, 60.0, 2, 1)
    assert floors(b) == []  # 2 of 3 is more often than not, but Wilson's lower bound (20.8 %) is not above half
    assert baselines_json(b)["tasks"]["a"]["floor"] is False
    assert a.game == "g-a" and b.made == {"command": "test"}


def test_a_retried_run_counts_once_by_its_latest_scored_attempt():
    rnd = [run("a", "random", 0, False, 0.0, status="error"), run("a", "random", 0, True, 1.0)]
    b = baselines.compute({"random": rnd, "oracle": [run("a", "oracle", 0, True, 1.0)]}, "v", {})
    assert b.tasks["a"].random == baselines.Rate(100.0, 100.0, 1, 0, None, 0.0)


def test_a_subset_merges_over_the_file_keeping_unchanged_tasks_and_the_earlier_provenance():
    def made(versions: dict[str, str], note: str, results: list[tuple[str, float]]) -> baselines.Baselines:
        return baselines.compute({"random": [run(t, "random", 0, False, p) for t, p in results],
                                  "oracle": [run(t, "oracle", 0, True, 1.0) for t, _ in results]},
                                 "cv", {"note": note}, versions)

    first = made({"a": "1", "b": "1", "c": "1"}, "full run", [("a", 0.1), ("b", 0.2), ("c", 0.3)])
    first = baselines.merge(first, made({"c": "1"}, "c again", [("c", 0.4)]), {"a": "1", "b": "1", "c": "1"})
    now = {"a": "2", "b": "1", "c": "1"}  # game a changed since; b and c did not; a is recalibrated, b is not
    merged = baselines.merge(first, made(now, "a recalibrated", [("a", 0.9)]), now)
    assert {t: b.random.pg for t, b in merged.tasks.items()} == {"a": 90.0, "b": 20.0, "c": 40.0}
    assert merged.stale(now) == []
    assert merged.made["note"] == "a recalibrated"
    assert [m["note"] for m in merged.made["earlier"]] == ["full run", "c again"]
    dropped = baselines.merge(first, made({"b": "1"}, "b", [("b", 0.5)]), {"b": "1"})  # a and c left the catalog
    assert sorted(dropped.tasks) == ["b"]


def test_the_results_page_reads_the_rates_and_ignores_a_broken_file(tmp_path: Path):
    b = baselines.compute({"random": [run("a", "random", 0, False, 0.2)], "oracle": [run("a", "oracle", 0, True, 1.0)]},
                          "v", {})
    assert baselines.read_baselines(tmp_path) is None
    (tmp_path / baselines.FILE_NAME).write_text(json.dumps(baselines_json(b)))
    assert baselines.read_baselines(tmp_path) == {"a": {"random": {"sr": 0.0, "pg": 20.0, "runs": 1},
                                                        "oracle": {"sr": 100.0, "pg": 100.0, "runs": 1}}}
    (tmp_path / baselines.FILE_NAME).write_text("{not json")
    assert baselines.read_baselines(tmp_path) is None


def test_the_file_round_trips_and_loads_from_a_catalog_folder(tmp_path: Path):
    b = baselines.compute({a: [run("a", a, k, k == 1, 0.25 * k) for k in range(3)] for a in baselines.LADDER},
                          "v9", {"x": 1})
    (tmp_path / baselines.FILE_NAME).write_text(json.dumps(baselines_json(b)))
    back = baselines.load(tmp_path)
    assert back is not None and back.catalog_version == "v9" and back.tasks == b.tasks and back.made == {"x": 1}
    assert list(back.tasks["a"].rates) == list(baselines.LADDER)
    assert baselines.load(tmp_path / "nowhere") is None


@pytest.mark.parametrize("data, message", [
    ([], "expected an object"),
    ({"format": 1, "tasks": {"a": {"random": {"sr": 1, "pg": 1, "runs": 1}}}}, "tasks.a.oracle: expected a mapping"),
    ({"format": 1, "tasks": {"a": {"random": {"sr": 1, "runs": 1}, "oracle": {}}}}, "tasks.a.random: missing field 'pg'"),
    ({"format": 1, "tasks": {"a": {"random": {"sr": "x", "pg": 1, "runs": 1}, "oracle": {}}}}, "must be numbers"),
    ({"format": 7, "tasks": {}}, "regenerate it with `gameworld calibrate`"),
    ({"format": 2, "tasks": {"a": {"oracle@0.5": {"sr": 1, "pg": 1, "runs": 2, "pg_ci": [1]}}}},
     "tasks.a.oracle@0.5.pg_ci: expected [low, high] or null"),
])
def test_a_bad_file_is_one_error_naming_the_file_and_field(data, message):
    with pytest.raises(baselines.BaselinesError, match="^b.json: .*") as info:
        baselines.parse(data, "b.json")
    assert message in str(info.value)


def test_the_catalog_version_ignores_the_baselines_file(tmp_path: Path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "x.txt").write_text("x")
    before = catalog_version(tmp_path)
    (tmp_path / baselines.FILE_NAME).write_text("{}")
    assert catalog_version(tmp_path) == before
    (tmp_path / "games" / "x.txt").write_text("y")
    assert catalog_version(tmp_path) != before


def test_a_games_version_covers_the_shared_shell_only_where_its_page_loads_it(tmp_path: Path):
    """A change to catalog/games/_shell makes the games that load it stale, and no other; the loader skips it."""
    import shutil

    shipped = default_catalog_dir()
    shutil.copytree(shipped, tmp_path / "cat", ignore=shutil.ignore_patterns("baselines.json"))
    root = tmp_path / "cat"
    # Every shipped game loads the shell: in the copy, 01-2048's page stops loading it (its version is computed
    # from its files alone; the page is never opened here).
    page = root / "games" / "01-2048" / "index.html"
    page.write_text("\n".join(ln for ln in page.read_text().splitlines() if "../_shell/" not in ln) + "\n")
    before = task_versions(load_catalog(root))
    cat = load_catalog(root)
    assert "_shell" not in cat.games
    loads = {g for g, spec in cat.games.items() if "../_shell/" in (spec.path / "index.html").read_text()}
    assert "05-breakout" in loads and "01-2048" not in loads and len(loads) == len(cat.games) - 1
    (root / "games" / "_shell" / "shell.js").write_text((root / "games" / "_shell" / "shell.js").read_text() + "\n")
    after = task_versions(load_catalog(root))
    changed = {t for t in before if before[t] != after[t]}
    assert changed == {t.id for t in cat.tasks if t.game in loads}


def test_the_shipped_baselines_cover_every_task_of_the_shipped_catalog():
    """Regenerate with `gameworld calibrate` whenever a game or task changes."""
    root = default_catalog_dir()
    shipped = baselines.load(root)
    assert shipped is not None, f"no {baselines.FILE_NAME} in {root}: run `gameworld calibrate`"
    catalog = load_catalog(root)
    stale = shipped.stale(task_versions(catalog))
    assert not stale, (f"baselines.json is stale for {len(stale)} task(s) ({', '.join(stale)}): their game or task "
                       "changed; run `gameworld calibrate -k <those games>`")
    missing = [t.id for t in catalog.tasks if t.id not in shipped.tasks]
    assert not missing, f"baselines.json lacks {len(missing)} task(s) ({', '.join(missing)}): run `gameworld calibrate`"
    assert sorted(shipped.tasks) == sorted(t.id for t in catalog.tasks)
    for t in catalog.tasks:
        b = shipped.tasks[t.id]
        assert b.random is not None and b.oracle is not None, t.id  # normalizing needs both
        assert b.game == t.game and b.random.runs >= 1 and b.oracle.runs >= 1, t.id
        assert all(r.faults == 0 for r in b.rates.values()), t.id


def test_wilson_and_t_intervals_bracket_the_rate_and_widen_with_fewer_runs():
    assert baselines.wilson(0, 0) is None and baselines.t_interval([50.0]) is None
    lo, hi = baselines.wilson(5, 10)
    assert (lo, hi) == (pytest.approx(23.66, abs=0.01), pytest.approx(76.34, abs=0.01))  # the textbook 5/10
    assert baselines.wilson(10, 10) == (pytest.approx(72.25, abs=0.01), 100.0)
    assert baselines.wilson(1, 2)[0] < baselines.wilson(10, 20)[0] < 50.0
    lo, hi = baselines.t_interval([10.0, 20.0, 30.0])  # mean 20, sd 10, t(2) 4.303: 20 ± 24.84, clipped at 0
    assert (lo, hi) == (0.0, pytest.approx(44.84, abs=0.01))
    assert baselines.t_interval([40.0, 40.0]) == (40.0, 40.0)


def test_a_ladder_session_records_intervals_runs_and_the_oracles_steps_to_solve():
    recs = {"random": [run("a", "random", k, k == 0, p) for k, p in enumerate((1.0, 0.2, 0.3, 0.1))],
            "oracle": [replace(run("a", "oracle", 0, True, 1.0), steps=37)]}
    b = baselines.compute(recs, "v", {})
    rnd, orc = b.tasks["a"].random, b.tasks["a"].oracle
    assert (rnd.sr, rnd.runs, rnd.sr_ci) == (25.0, 4, baselines.wilson(1, 4))
    assert rnd.pg == 40.0 and rnd.pg_ci == baselines.t_interval([100.0, 20.0, 30.0, 10.0])
    assert orc.steps == 37.0 and orc.pg_ci is None  # one run: no interval, never a made-up one
    row = baselines_json(b)["tasks"]["a"]
    assert row["oracle"]["steps"] == 37.0 and tuple(row["random"]["sr_ci"]) == baselines.wilson(1, 4)
    unsolved = baselines.compute({"oracle@0.5": [run("a", "oracle@0.5", k, False, 0.5) for k in range(2)]}, "v", {})
    assert unsolved.tasks["a"].rates["oracle@0.5"].steps is None  # no solve: no steps to solve


def test_an_agents_subset_merges_keeping_other_agents_and_other_tasks():
    v = {"a": "1", "b": "1"}
    full = baselines.compute({"random": [run("a", "random", 0, False, 0.1), run("b", "random", 0, False, 0.2)],
                              "oracle": [run("a", "oracle", 0, True, 1.0), run("b", "oracle", 0, True, 1.0)]},
                             "cv", {"note": "first"}, v)
    half = baselines.compute({"oracle@0.5": [run("a", "oracle@0.5", 0, False, 0.6)]}, "cv", {"note": "rung"}, v)
    merged = baselines.merge(full, half, v)
    assert list(merged.tasks["a"].rates) == ["random", "oracle@0.5", "oracle"]  # ladder order, nothing lost
    assert merged.tasks["a"].rates["oracle@0.5"].pg == 60.0 and merged.tasks["a"].random.pg == 10.0
    assert list(merged.tasks["b"].rates) == ["random", "oracle"]
    half2 = baselines.compute({"oracle@0.5": [run("a", "oracle@0.5", 0, False, 0.6)]}, "cv", {}, {"a": "2"})
    changed = baselines.merge(full, half2, {"a": "2", "b": "1"})  # a's game changed: its old figures go
    assert list(changed.tasks["a"].rates) == ["oracle@0.5"] and changed.tasks["a"].version == "2"
    assert list(changed.tasks["b"].rates) == ["random", "oracle"]


def test_the_current_format_1_file_still_reads_with_intervals_derived_from_its_counts(tmp_path: Path):
    """The shipped catalog/baselines.json is format 1 (random and oracle only): it must keep loading."""
    old = {"format": 1, "catalog_version": "c", "made": {"random_repeats": 5}, "tasks": {
        "01_01": {"game": "01-2048", "version": "x", "floor": True,
                  "random": {"sr": 80.0, "pg": 90.0, "runs": 5, "faults": 0},
                  "oracle": {"sr": 100.0, "pg": 100.0, "runs": 1, "faults": 0}}}}
    (tmp_path / baselines.FILE_NAME).write_text(json.dumps(old))
    b = baselines.load(tmp_path)
    tb = b.tasks["01_01"]
    assert list(tb.rates) == ["random", "oracle"] and floors(b) == []  # 4 of 5: Wilson's lower bound 37.6 %
    assert tb.random.sr_ci == baselines.wilson(4, 5) and tb.random.pg_ci is None and tb.oracle.steps is None
    assert baselines.task_rates(b) == {"01_01": {"random": {"sr": 80.0, "pg": 90.0, "runs": 5},
                                                 "oracle": {"sr": 100.0, "pg": 100.0, "runs": 1}}}
    shipped = baselines.load(default_catalog_dir())
    assert shipped is not None and len(shipped.tasks) >= 170


def test_the_trivial_policies_best_is_stored_round_trips_and_survives_a_no_trivial_merge(tmp_path: Path):
    ladder = {"random": [run("a", "random", k, False, 0.1) for k in range(2)],
              "oracle": [run("a", "oracle", 0, True, 1.0)]}
    trivial = {"noop": [run("a", "noop", k, False, 0.0) for k in range(2)],
               "const:jump": [run("a", "const:jump", k, k == 0, 0.6 + 0.2 * k) for k in range(2)],
               "const:duck": [run("a", "const:duck", k, False, 0.7) for k in range(2)],
               "cycle:move_left+move_right": [run("b", "cycle:move_left+move_right", 0, False, 0.3)]}
    b = baselines.compute(ladder, "v", {}, {"a": "1", "b": "1"}, trivial)
    t = b.tasks["a"].trivial
    assert t is not None and t.best == "const:jump" and (t.rate.sr, t.rate.pg) == (50.0, 70.0)  # PG tie: SR decides
    assert sorted(t.policies) == ["const:duck", "const:jump", "noop"]
    assert b.tasks["b"].trivial.best == "cycle:move_left+move_right" and b.tasks["b"].random is None
    row = baselines_json(b)["tasks"]["a"]
    assert row["trivial"]["best"] == "const:jump" and row["trivial"]["pg"] == 70.0 and "random" in row  # added beside
    (tmp_path / baselines.FILE_NAME).write_text(json.dumps(baselines_json(b)))
    back = baselines.load(tmp_path)
    assert back is not None and back.tasks == b.tasks
    assert baselines.task_rates(back)["a"]["trivial"] == {"sr": 50.0, "pg": 70.0, "runs": 2}
    no_trivial = baselines.compute({"random": [run("a", "random", 0, True, 1.0)]}, "v", {}, {"a": "1", "b": "1"})
    merged = baselines.merge(back, no_trivial, {"a": "1", "b": "1"})
    assert merged.tasks["a"].trivial == t and merged.tasks["a"].random.pg == 100.0
    broken = json.loads((tmp_path / baselines.FILE_NAME).read_text())
    broken["tasks"]["a"]["trivial"]["best"] = "const:nothing"
    with pytest.raises(baselines.BaselinesError, match=r"tasks.a.trivial: best 'const:nothing' is not one of"):
        baselines.parse(broken, "f.json")
