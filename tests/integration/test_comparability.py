"""A session that differs from the standard protocol says so in its records, plan, summary, report and page."""

from __future__ import annotations

import json
import subprocess
import sys

from pytest_gameworld.report.results_page import reference_rows

LINE = "non-standard session: step budget 8 instead of each task's own (100); model spec overridden (memory_rounds=0)"


def test_a_short_session_is_marked_shown_without_published_rows_and_not_normalized(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "random", "-k", "01_01",
                        "--gw-max-steps", "8", "--gw-model-opt", "memory_rounds=0", "--gw-results", "out",
                        "--gw-session", "s"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:]
    assert LINE in r.stdout.splitlines()
    rec = json.loads((tmp_path / "out/s/results.jsonl").read_text())
    facts = rec["comparability"]
    assert facts["step_budget"] == 8 and facts["task_budgets"] == [100] and facts["endpoint"] == "built-in"
    assert facts["model_overrides"] == {"memory_rounds": 0} and facts["catalog"]["origin"] == "shipped"
    assert facts["catalog"]["version"] == rec["catalog_version"] and rec["invocation"]
    plan = json.loads((tmp_path / "out/s/plan.json").read_text())
    assert plan["options"]["comparability"]["endpoints"] == {"random": "built-in"}
    page = (tmp_path / "out/s/index.html").read_text()
    assert page.count("Non-standard session: step budget 8 instead of each task") == 1
    assert 'class="ref"' not in page and not any(row["agent"] in page for row in reference_rows()["rows"])
    assert ">n/a</span>" in page and "(100 steps); this session played 8 steps" in page
    shown = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "report", "out/s"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    assert f"s: {LINE}" in shown.stdout.splitlines()
