"""Records on disk: whole lines under locks, damaged lines named by file and line, records validated on read."""

from __future__ import annotations

import asyncio
import fcntl
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.records.jsonl import Damage, DamagedLine, append_jsonl, read_jsonl, read_lines
from pytest_gameworld.records.run_record import RunRecord, damaged_item, read_results, record_problem
from pytest_gameworld.report.outcome import damaged_runs

CAT = load_catalog()


def waiting_for_a_lock(path: Path) -> bool:
    """Whether anything waits for a lock on path (/proc/locks lists each waiter after '->')."""
    inode = path.stat().st_ino
    for line in Path("/proc/locks").read_text().splitlines():
        if "->" in line and any(f.rsplit(":", 1)[-1] == str(inode) for f in line.split() if f.count(":") == 2):
            return True
    return False


def mid_line(path: Path, head: bytes, tail: bytes, meanwhile: Callable[[], Any]) -> Any:
    """Hold the writer's lock with half a line written; run meanwhile() in a thread and finish the line only
    once it has returned (it took no lock) or is seen waiting for the lock. What meanwhile() returned."""
    result: dict[str, Any] = {}
    with path.open("ab") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        fh.write(head)
        fh.flush()
        worker = threading.Thread(target=lambda: result.update(value=meanwhile()))
        worker.start()
        deadline = time.monotonic() + 120
        while worker.is_alive() and not waiting_for_a_lock(path) and time.monotonic() < deadline:
            time.sleep(0.01)
        fh.write(tail)
        fh.flush()
        fcntl.flock(fh, fcntl.LOCK_UN)
    worker.join(120)
    return result.get("value")


def test_a_read_never_sees_the_line_another_process_is_writing(tmp_path):
    path = tmp_path / "results.jsonl"
    append_jsonl(path, {"n": 1})
    seen = mid_line(path, b'{"n": 2, "pad": "', b'xx"}\n', lambda: read_lines(path))
    assert seen.records == [{"n": 1}, {"n": 2, "pad": "xx"}] and seen.damaged == []


def test_an_append_waits_for_the_line_another_process_is_writing(tmp_path):
    path = tmp_path / "results.jsonl"
    append_jsonl(path, {"n": 1})
    mid_line(path, b'{"n": 2', b"}\n", lambda: append_jsonl(path, {"n": 3}))
    assert read_jsonl(path) == [{"n": 1}, {"n": 2}, {"n": 3}]


def test_an_append_after_a_line_cut_short_starts_a_line_of_its_own(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text('{"n": 1}\n{"n": 2, "pa')
    append_jsonl(path, {"n": 3})
    lines = read_lines(path)
    assert lines.records == [{"n": 1}, {"n": 3}]
    assert [str(d) for d in lines.damaged] == [f"{path}:2: not JSON: Unterminated string starting at (column 10)"]


def test_every_bad_line_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"a": 1}\n[]\n\n"text"\n{"b": NaN}\n\xff\xfe\n{"c": 3}\n{"d": [1,')
    lines = read_lines(path)
    assert lines.records == [{"a": 1}, {"c": 3}]
    assert [str(d) for d in lines.damaged] == [
        f"{path}:2: an array, not a JSON object", f"{path}:4: a string, not a JSON object",
        f"{path}:5: not JSON: non-standard JSON constant NaN", f"{path}:6: not UTF-8 text",
        f"{path}:8: not JSON: Expecting value (column 10) (cut short: the file ends inside this line)"]
    assert [str(d) for d in read_lines(path, prefix=True).damaged] == [f"{path}:2: an array, not a JSON object"]
    with pytest.raises(DamagedLine, match=rf"^{path}:2: an array, not a JSON object$"):
        read_jsonl(path)


def real_record(**changes: Any) -> dict[str, Any]:
    task = CAT.tasks[0]
    rec = RunRecord.begin(item="puzzle/01-2048/01_01[random]", task=task, game=CAT.games[task.game],
                          model=CAT.resolve_model("random"), role="player", seed=3, repeat=0, protocol="paused",
                          max_steps=100, catalog_version="v", session="s", trajectory="t", now="2025-01-01").to_json()
    rec.update(changes)
    return rec


@pytest.mark.parametrize("changes, why", [
    ({"progress": 5.0}, "field 'progress': Input should be less than or equal to 1"),
    ({"progress": -0.1}, "field 'progress': Input should be greater than or equal to 0"),
    ({"success": "yes"}, "field 'success': Input should be a valid boolean"),
    ({"steps": -1}, "field 'steps': Input should be greater than or equal to 0"),
    ({"progress": "0.5"}, "field 'progress': Input should be a valid number"),
    ({"repeat": 1.5}, "field 'repeat': Input should be a valid integer"),
    ({"versions": {"python": 3}}, "field 'versions.python': Input should be a valid string"),
])
def test_a_record_is_checked_on_read_by_the_schema_that_writes_it(changes, why):
    assert record_problem(json.dumps(real_record())) is None
    assert record_problem(json.dumps(real_record(**changes))) == f"not a run record: {why}"
    missing = real_record()
    del missing["task"]
    assert record_problem(json.dumps(missing)) == "not a run record: field 'task': Field required"


def test_fields_the_schema_does_not_know_and_absent_optional_fields_pass():
    rec = real_record(comparability={"protocol": "paused", "differs": []}, another_new_field=[1, 2])
    for optional in ("catalog", "resets", "roles", "versions", "finished_at", "error", "trajectory"):
        del rec[optional]
    assert record_problem(json.dumps(rec)) is None


def test_read_results_skips_what_is_not_a_run_record(tmp_path):
    path = tmp_path / "results.jsonl"
    good = real_record(status="ok", progress=0.5)
    path.write_text("\n".join(json.dumps(r) for r in [good, {"item": "x"}, real_record(progress=5.0), good]) + "\n")
    lines = read_results(path)
    assert lines.records == [RunRecord.from_json(good)] * 2
    assert [(d.line, d.why.split(":")[0]) for d in lines.damaged] == [(2, "not a run record"), (3, "not a run record")]


def test_a_damaged_line_counts_as_missing_only_as_the_run_it_names_unless_that_run_is_recorded_again():
    cut = Damage(Path("r.jsonl"), 3, "not JSON", '{"item": "puzzle/01-2048/01_03[noop]", "task": "01_')
    garbage = Damage(Path("r.jsonl"), 4, "not JSON", "}{")
    assert damaged_item(cut) == "puzzle/01-2048/01_03[noop]" and damaged_item(garbage) is None
    missing, notes = damaged_runs([cut, garbage], accounted=[])
    assert missing == ["r.jsonl:3: not JSON (record of puzzle/01-2048/01_03[noop] skipped)"]
    assert notes == ["r.jsonl:4: not JSON (no run can be told from what is left of it)"], \
        "a line naming no run is damage, never a run that can never be played"
    missing, notes = damaged_runs([cut, cut], accounted=["puzzle/01-2048/01_03[noop]"])
    assert missing == [] and len(notes) == 2 and notes[0].endswith("; the run is recorded again")


def test_merge_a_baseline_and_a_replay_refuse_a_damaged_file_in_one_line(tmp_path):
    from pytest_gameworld.agents.base import AgentError, RunContext
    from pytest_gameworld.agents.builtin import ReplayAgent
    from pytest_gameworld.records.merge import Source
    from pytest_gameworld.report.outcome import build_gate

    session = tmp_path / "s"
    session.mkdir()
    (session / "results.jsonl").write_text(json.dumps(real_record()) + "\n[]\n")
    where = f"{session / 'results.jsonl'}:2: an array, not a JSON object"
    with pytest.raises(ValueError) as merged:
        Source.load(session)
    assert str(merged.value) == f"{where}; repair or remove it before merging"
    with pytest.raises(ValueError) as baseline:
        build_gate([], session, None, False, 0)
    assert str(baseline.value) == f"baseline {where}; repair or remove the line"
    steps = tmp_path / "steps.jsonl"
    steps.write_text('{"event": "start"}\n{"event": "step", "st')
    task = CAT.tasks[0]
    ctx = RunContext(CAT.games[task.game], task, "player", CAT.games[task.game].roles["player"],
                     CAT.resolve_model("replay"), 1, None, None)
    with pytest.raises(AgentError) as replay:
        asyncio.run(ReplayAgent(str(steps)).begin(ctx))
    assert str(replay.value) == (f"cannot replay trajectory: {steps}:2: not JSON: Unterminated string starting at "
                                 "(column 19) (cut short: the file ends inside this line)")


def test_the_page_bounds_must_be_positive(pytester: pytest.Pytester):
    from pytest_gameworld.plugin.options import Settings

    settings = Settings.from_config(pytester.parseconfig("--gw-page-timeout", "2.5", "--gw-max-state-bytes", "4096"))
    assert (settings.page_timeout, settings.max_state_bytes) == (2.5, 4096)
    assert (Settings().page_timeout, Settings().max_state_bytes) == (30.0, 1_000_000)
    for option in ("--gw-page-timeout", "--gw-max-state-bytes"):
        with pytest.raises(ValueError, match=f"^{option} must be greater than 0, got 0$"):
            Settings.from_config(pytester.parseconfig(option, "0"))
