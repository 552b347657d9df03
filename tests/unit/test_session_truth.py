"""Sessions tell the truth after faults: the breaker per invocation, runs held back or never started counted
against the plan, what --lf replays, comparability and the normalized score's budget (pure parts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld.plugin.hold_back import hold_reason
from pytest_gameworld.plugin.options import Settings
from pytest_gameworld.records.calibrate import PROJECT_FILE, default_target
from pytest_gameworld.records.circuit_breaker import tripped
from pytest_gameworld.records.comparability import deviations, endpoint_host, normalization_problem, session_facts
from pytest_gameworld.records.sessions import replay_items
from pytest_gameworld.report.gate import GateConfig, parse_gate
from pytest_gameworld.report.outcome import outcome
from pytest_gameworld.report.results_page import page_data, reference_rows, render

DOWN = "AgentError: m (openai chat) failed after 1 attempt: cannot connect: Connection error."


def rec(task="01_01", status="ok", invocation="now", error=None, model="m", cost=0.0, kind=None, max_steps=100,
        facts=None):
    return record(**{"item": f"puzzle/01-2048/{task}[{model}]", "task": task, "model": model, "repeat": 0, "seed": 1,
            "protocol": "paused", "status": status, "invocation": invocation, "error": error, "cost_usd": cost,
            "success": False, "progress": 0.5 if status == "ok" else 0.0, "genre": "puzzle", "game": "01-2048",
            "level": 4, "interface": "generalist", "valid": 2, "invalid_ntc": 0, "invalid_oos": 0, "steps": 2,
            "sec_per_step": 0.1, "max_steps": max_steps,
            "catalog_version": "v", "stop_reason": kind, "comparability": facts or {}})


def plan(*tasks, facts=None):
    runs = [{"item": f"puzzle/01-2048/{t}[m]", "game": "01-2048", "genre": "puzzle", "level": 4, "task": t,
             "model": "m", "interface": "generalist", "repeat": 0, "seed": 1, "protocol": "paused"} for t in tasks]
    return {"plan": "p", "shard": None, "options": {"max_steps": 0, "comparability": facts or {}}, "runs": runs,
            "selected": [r["item"] for r in runs]}


def test_the_breaker_counts_only_this_invocations_faults_and_resets_on_a_success():
    earlier = [rec(status="error", error=DOWN, invocation="before") for _ in range(3)]
    assert tripped(earlier, "m", 3) is not None, "over the whole file an old outage would still trip it"
    assert tripped(earlier, "m", 3, "now") is None, "this invocation has not failed yet"
    now = earlier + [rec(status="error", error=DOWN), rec(status="error", error=DOWN)]
    assert tripped(now, "m", 2, "now").startswith("circuit breaker: m failed 2 runs in a row")
    assert tripped(now + [rec()], "m", 2, "now") is None, "a scored run ends the streak"
    held = now + [rec(status="not_played", error="circuit breaker: …", kind="circuit_breaker")]
    assert tripped(held, "m", 2, "now") is not None, "a run held back is no evidence that the endpoint is back"


def test_a_run_is_held_back_by_the_cost_limit_or_the_breaker_with_why():
    settings = Settings(max_cost=0.5, max_consecutive_faults=2)
    assert hold_reason([rec(cost=0.2)], "m", settings, "now") is None
    assert hold_reason([rec(cost=0.2), rec(cost=0.3)], "m", settings, "now") == (
        "max_cost", "--gw-max-cost reached: $0.5000 of $0.5000 spent")
    kind, why = hold_reason([rec(status="error", error=DOWN)] * 2, "m", settings, "now")
    assert kind == "circuit_breaker" and why.endswith(DOWN)
    assert hold_reason([rec(status="error", error=DOWN)] * 2, "m", Settings(max_consecutive_faults=0), "now") is None
    outage = [rec(status="error", error=DOWN, invocation="before")] * 2
    assert hold_reason(outage, "m", settings, "now") is None, "the outage of an earlier pass holds nothing back now"


def test_planned_runs_not_played_are_missing_with_why_and_fail_the_gate():
    records = [rec("01_01"), rec("01_02", status="error", error=DOWN),
               rec("01_03", status="not_played", error="circuit breaker: m failed …", kind="circuit_breaker")]
    gate = GateConfig(exprs=[parse_gate("pg>=0")])
    out = outcome(records, [], gate, plan("01_01", "01_02", "01_03", "01_04", "01_05"), "the session was interrupted")
    assert out.runs == 1 and len(out.missing) == 4
    assert out.not_played_lines() == ["1 planned run(s) not played (circuit breaker)",
                                      "2 planned run(s) not played (the session was interrupted)"]
    assert out.missing[-2:] == ["puzzle/01-2048/01_04[m]: not played (the session was interrupted)",
                                "puzzle/01-2048/01_05[m]: not played (the session was interrupted)"]
    assert out.missing[1] == "puzzle/01-2048/01_03[m]: not played: circuit breaker: m failed …"
    assert not out.verdict.ok and out.verdict.line() == (
        "GameWorld gate: FAIL (4 missing run(s) > 0 allowed: puzzle/01-2048/01_02[m], puzzle/01-2048/01_03[m], "
        "puzzle/01-2048/01_04[m], puzzle/01-2048/01_05[m])")
    # an item that failed in this invocation without any record is listed once, as not run to the end
    again = outcome(records, ["puzzle/01-2048/01_04[m]"], gate, plan("01_01", "01_02", "01_03", "01_04"))
    assert again.missing[-1] == "puzzle/01-2048/01_04[m]: did not run to the end" and len(again.missing) == 3
    assert outcome(records[:1], [], gate, plan("01_01")).verdict.ok


def test_lf_replays_the_planned_runs_not_scored_and_nothing_without_a_plan():
    records = [rec("01_01"), rec("01_02", status="error", error=DOWN), rec("01_02"),
               rec("01_03", status="interrupted", error="interrupted by the user during step 4 of 100 (3 completed)")]
    assert replay_items(plan("01_01", "01_02", "01_03", "01_04"), records) == {
        "puzzle/01-2048/01_03[m]", "puzzle/01-2048/01_04[m]"}
    assert replay_items(None, records) is None


def test_comparability_names_what_differs_from_the_standard_protocol():
    def facts(**kw):
        base = dict(step_budget=0, task_budgets=[100], protocol="paused", model_overrides={}, endpoints={},
                    catalog_origin="shipped", catalog_version="v", shipped_catalog=True)
        return session_facts(**{**base, **kw})

    assert deviations(facts()) == []
    assert deviations(facts(step_budget=100)) == [], "the tasks' own budget given explicitly is still standard"
    assert deviations(facts(step_budget=8)) == ["step budget 8 instead of each task's own (100)"]
    assert deviations(facts(protocol="realtime")) == ["realtime protocol instead of paused"]
    over = facts(model_overrides={"endpoint.base_url": "http://user:pw@10.0.0.5:8000/v1?key=s", "max_retries": 1,
                                  "memory_rounds": 0})
    assert over["model_overrides"]["endpoint.base_url"] == "10.0.0.5:8000", "no credentials or query recorded"
    assert deviations(over) == ["model spec overridden (memory_rounds=0)"], "how it is reached changes no protocol"
    assert deviations(facts(catalog_origin="folder /x", shipped_catalog=False)) == [
        "catalog folder /x, not the shipped one"]
    assert deviations({}) == [], "older records without the facts"
    assert endpoint_host(None) == "provider default" and endpoint_host("https://api.x.ai/v1") == "api.x.ai"


def test_a_normalized_score_needs_baselines_made_under_the_same_step_budget():
    assert normalization_problem(0, 0, [100]) is None
    assert normalization_problem(8, 0, [100]) == (
        "baselines were made at each task's own step budget (100 steps); this session played 8 steps")
    assert normalization_problem(0, 8) == "baselines were made at 8 steps; this session played each task's own step budget"


BASELINES = {"01_01": {"random": {"sr": 0.0, "pg": 10.0}, "oracle": {"sr": 100.0, "pg": 100.0}}}


def test_a_non_standard_session_page_says_so_shows_no_published_rows_and_no_normalized_score():
    short = dict(step_budget=8, task_budgets=[100], protocol="paused", model_overrides={}, endpoints={"m": "built-in"},
                 catalog_origin="shipped", catalog_version="v", shipped_catalog=True)
    facts = session_facts(**short)
    data = page_data("s", [rec(max_steps=8, facts=facts)], BASELINES, plan=plan("01_01", facts=facts))
    assert data.deviations == ["step budget 8 instead of each task's own (100)"]
    assert data.normalized == {"m": None} and "this session played 8 steps" in data.not_normalized
    page = render(data, "now")
    assert page.count("Non-standard session: step budget 8 instead of each task") == 1
    assert 'class="ref"' not in page and "Published figures not shown" in page
    assert not any(r["agent"] in page for r in reference_rows()["rows"])
    assert ">n/a</span>" in page and "step budget (100 steps); this session played 8 steps" in page
    standard = page_data("s", [rec()], BASELINES, plan=plan("01_01"))
    assert standard.deviations == [] and standard.normalized["m"] == pytest.approx(100 * (50 - 10) / 90)
    assert render(standard, "now").count('class="ref"') == len(reference_rows()["rows"])
    assert "Non-standard" not in render(standard, "now")


def test_calibrate_never_writes_into_the_installed_package(tmp_path: Path):
    package = tmp_path / "site-packages/pytest_gameworld"
    installed = package / "_catalog"
    assert default_target(installed, False, package, tmp_path / "proj") == tmp_path / "proj" / PROJECT_FILE
    assert default_target(installed, True, package, tmp_path) == installed / "baselines.json", "named explicitly"
    checkout = tmp_path / "repo/catalog"
    assert default_target(checkout, False, tmp_path / "repo/pytest_gameworld", tmp_path) == checkout / "baselines.json"
