"""Run identity and attempts, attempt folders, the latest link, reuse checks, the session outcome."""

import multiprocessing
import os
import shutil

import pytest
from run_records import record

from pytest_gameworld.catalog.native import default_catalog_dir
from pytest_gameworld.records.jsonl import append_jsonl
from pytest_gameworld.records.run_record import MixedRunsError, latest_attempts
from pytest_gameworld.records.sessions import (
    catalog_version,
    new_attempt_dir,
    point_latest,
    resolve_session,
    reuse_problem,
)
from pytest_gameworld.report.aggregate import aggregate
from pytest_gameworld.report.gate import GateConfig, parse_gate
from pytest_gameworld.report.outcome import outcome


def rec(task="01_01", status="ok", progress=0.5, repeat=0, protocol="paused", seed=1, model="m", version="v1",
        max_steps=100, item=None):
    return record(**{"item": item or f"{task}[{model}-r{repeat}]", "task": task, "model": model, "repeat": repeat,
            "protocol": protocol, "seed": seed, "status": status, "success": progress >= 1, "progress": progress,
            "genre": "puzzle", "game": "01-2048", "level": 4, "interface": "generalist", "valid": 5,
            "invalid_ntc": 0, "invalid_oos": 0, "steps": 5, "sec_per_step": 0.1, "catalog_version": version,
            "max_steps": max_steps, "error": None if status == "ok" else "HarnessError: crash", "role": "player",
            "started_at": "2025-01-01T00:00:00.000+00:00"})


def test_a_fault_then_a_rerun_counts_once_and_is_not_missing():
    s = aggregate([rec(status="error"), rec(progress=0.75)])["m"]
    assert s.overall.runs == 1 and s.overall.pg == 75.0 and s.missing == []


def test_the_latest_scored_attempt_wins_and_a_later_fault_does_not_unscore_it():
    view = latest_attempts([rec(progress=0.25), rec(progress=0.5), rec(status="error")])
    assert [r.progress for r in view.scored] == [0.5] and view.unscored == []


def test_runs_differ_by_repeat_protocol_and_seed():
    records = [rec(), rec(repeat=1), rec(protocol="realtime"), rec(seed=2), rec(task="01_02", status="error")]
    view = latest_attempts(records)
    assert len(view.scored) == 4 and view.missing == ["01_02[m-r0]: HarnessError: crash"]
    assert sorted(aggregate(records)) == ["m", "m [rt]"]


def test_mixed_catalog_versions_or_budgets_are_refused_in_one_line():
    with pytest.raises(MixedRunsError, match="catalog versions \\(v1, v2\\)"):
        aggregate([rec(), rec(task="01_02", version="v2")])
    with pytest.raises(MixedRunsError, match="task 01_01 .*different step budgets \\(5, 100;"):
        aggregate([rec(), rec(repeat=1, max_steps=5)])
    assert aggregate([rec(), rec(task="01_02", max_steps=5)])["m"].overall.runs == 2


def _make_attempts(root, n, queue):
    for _ in range(n):
        queue.put(new_attempt_dir(root).name)


def test_attempt_folders_are_never_shared_between_processes(tmp_path):
    queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_make_attempts, args=(tmp_path / "run", 10, queue)) for _ in range(4)]
    for p in procs:
        p.start()
    names = [queue.get(timeout=30) for _ in range(40)]
    for p in procs:
        p.join()
    assert sorted(names) == sorted(f"attempt-{i}" for i in range(1, 41))


def test_latest_link_and_resolving_a_session(tmp_path):
    for name in ("a", "b"):
        append_jsonl(tmp_path / name / "results.jsonl", rec())
    point_latest(tmp_path, tmp_path / "a")
    point_latest(tmp_path, tmp_path / "b")
    assert os.readlink(tmp_path / "latest") == "b"
    assert resolve_session(tmp_path, "latest") == tmp_path / "b"
    assert resolve_session(tmp_path, "a") == tmp_path / "a"
    with pytest.raises(ValueError, match="no session to resume"):
        resolve_session(tmp_path, "nope")


def test_catalog_version_follows_the_files(tmp_path):
    cat = tmp_path / "cat"
    shutil.copytree(default_catalog_dir(), cat)
    before = catalog_version(cat)
    assert before == catalog_version(default_catalog_dir())
    task = cat / "tasks" / "01-2048" / "01_01.yaml"
    task.write_text(task.read_text() + "\n")
    assert catalog_version(cat) != before


def test_reuse_is_refused_for_another_catalog_or_budget(tmp_path):
    append_jsonl(tmp_path / "s" / "results.jsonl", rec(max_steps=5).to_json())
    assert reuse_problem(tmp_path / "s", "v1", {"01_01": 5}) is None
    assert "catalog version v1" in reuse_problem(tmp_path / "s", "v9", {"01_01": 5})
    assert "--gw-max-steps differs" in reuse_problem(tmp_path / "s", "v1", {"01_01": 100})
    assert reuse_problem(tmp_path / "new", "v1", {}) is None


def test_outcome_counts_unrecorded_failures_as_missing_and_judges():
    records = [rec(progress=0.5), rec(task="01_02", status="error")]
    out = outcome(records, ["01_03[m-r0]", "01_02[m-r0]"], GateConfig(exprs=[parse_gate("pg>=40")]))
    assert out.runs == 1
    assert out.missing == ["01_02[m-r0]: HarnessError: crash", "01_03[m-r0]: did not run to the end"]
    assert not out.verdict.ok and "2 missing run(s) > 0 allowed" in out.verdict.line()
    mixed = outcome([rec(), rec(task="01_02", version="v2")], [], GateConfig(exprs=[parse_gate("pg>=0")]))
    assert mixed.problem and not mixed.verdict.ok and mixed.verdict.failures[0] == mixed.problem
