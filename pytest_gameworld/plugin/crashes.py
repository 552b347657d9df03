"""An xdist worker that died (kill -9, out of memory) while it held a run: its crash report told from what the run
left behind, so pytest's exit status, the summary, the results page and the gate say the same thing.

xdist reports the item the dead worker held as failed ("worker 'gw0' crashed"), whatever happened to the run. Here
(pytest_handlecrashitem, on the controller) the report is made to match the session's files:

- the run's call report was already sent (the worker died in teardown, or afterwards): the run's outcome stands,
  and the crash report becomes an empty passed teardown;
- the run was recorded in this invocation (the worker died after writing its record): the report is that record's,
  passed with its measurements for a scored run, failed with its error otherwise;
- no record (the worker died mid-play): the controller records the run as interrupted, labelled by what its
  attempt folder holds ("interrupted after 9 step(s) (worker 'gw0' crashed)"), so it is missing, and replayed by
  --lf or --gw-resume, like a run stopped by Ctrl-C.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..catalog.run_cases import Case
from ..records.jsonl import RecordWriteError, append_jsonl
from ..records.run_record import INTERRUPTED, RunRecord, read_results
from ..records.trajectories import trajectory_problem, unrecorded_attempts
from . import benchmark
from .run_records import unplayed_record
from .stash import CASES, INVOCATION, SESSION_DIR


class CrashReports:
    """Registered on the xdist controller."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.cases: dict[str, Case] = {c.node_id: c for c in config.stash[CASES]}
        self.called: set[str] = set()  # items whose call report arrived

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            self.called.add(report.nodeid)

    @pytest.hookimpl(optionalhook=True)
    def pytest_handlecrashitem(self, crashitem: str, report: pytest.TestReport, sched: Any) -> None:
        case = self.cases.get(crashitem)
        if case is None:
            return  # not a benchmark run: xdist's report stands
        worker = getattr(getattr(getattr(report, "node", None), "gateway", None), "id", "?")
        # Where a benchmark item's reports point: the summary and the gate count it as a run, not another test.
        report.location = (report.location[0], None, f"{benchmark.test_gameworld.__name__}[{case.param_id}]")
        if crashitem in self.called:
            report.outcome, report.when, report.longrepr = "passed", "teardown", None
            return
        record = self._recorded(crashitem)
        report.when = "call"
        if record is not None:
            self._as_recorded(report, record, worker)
            return
        report.longrepr = self._record_interrupted(case, worker)

    def _recorded(self, item: str) -> RunRecord | None:
        """This invocation's record of the item, when its worker wrote one before it died."""
        invocation = self.config.stash.get(INVOCATION, "")
        mine = [r for r in read_results(self.config.stash[SESSION_DIR] / "results.jsonl").records
                if r.item == item and r.invocation == invocation]
        return mine[-1] if mine else None

    def _record_interrupted(self, case: Case, worker: str) -> str:
        """Record the run as interrupted, with what its attempt folder holds; the failure line."""
        session_dir: Path = self.config.stash[SESSION_DIR]
        results = session_dir / "results.jsonl"
        records = read_results(results).records
        root = (session_dir / "runs" / case.run_path).resolve()
        attempt = next((a for a in unrecorded_attempts(session_dir, records).values()
                        if a.path.resolve().parent.parent == root), None)
        if attempt is None:
            why = f"interrupted before its first step (worker {worker!r} crashed)"
        else:
            why = f"interrupted after {attempt.steps} step(s) (worker {worker!r} crashed; {attempt.played(session_dir)})"
        trajectory = str(attempt.path.relative_to(session_dir)) if attempt else ""
        record = unplayed_record(self.config, case, trajectory)
        record.status, record.stop_reason, record.error = INTERRUPTED, "interrupted", why
        record.steps = attempt.steps if attempt else 0
        try:
            append_jsonl(results, record.to_json())
        except RecordWriteError as exc:
            why += f" (not recorded: {exc})"
        return f"{case.node_id}: {why}"

    def _as_recorded(self, report: pytest.TestReport, record: RunRecord, worker: str) -> None:
        """The crash report says what the run's record says (its worker died after writing it)."""
        problem = trajectory_problem(self.config.stash[SESSION_DIR], record) if record.scored else None
        report.user_properties = [*record.properties(), ("run_dir", str(Path(record.trajectory or ".").parent))]
        if record.scored and problem is None:
            report.outcome, report.longrepr = "passed", None
            return
        why = f"trajectory damaged: {problem}" if problem else record.error or record.status
        report.longrepr = f"{why} (then its worker {worker!r} crashed)"
