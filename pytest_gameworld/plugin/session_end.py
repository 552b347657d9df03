"""The controller's end of a session: judged against its plan, the page and the verdict written, the summary printed."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from ..records.circuit_breaker import tripped
from ..records.jsonl import RecordWriteError, write_file
from ..records.run_record import NOT_PLAYED, RunRecord, read_results
from ..records.sessions import PLAN, point_latest, read_session_files
from ..report.aggregate import format_table
from ..report.gate import GateConfig, format_comparison, missing_item
from ..report.outcome import NEVER_STARTED, Outcome, session_outcome
from .stash import CATALOG, INVOCATION, NOTES, SESSION_DIR, SETTINGS
from .write_failures import keep_going, summary_lines


class Leftovers:
    """What an invocation refused before playing (a usage error) would leave in its session folder."""

    def __init__(self, session_dir: Path) -> None:
        self.session_dir = session_dir
        self.new_folders = [p for p in (session_dir, session_dir.parent) if not p.exists()]
        self.had_plan = (session_dir / PLAN).exists()

    def discard(self) -> None:
        """Remove the folders this invocation created (the results folder only when empty), or the plan it added
        to an existing session."""
        if not self.had_plan:
            (self.session_dir / PLAN).unlink(missing_ok=True)
        if self.session_dir in self.new_folders:
            shutil.rmtree(self.session_dir, ignore_errors=True)
        if self.session_dir.parent in self.new_folders:
            try:
                self.session_dir.parent.rmdir()
            except OSError:
                pass  # another session arrived meanwhile


def unstarted_reason(session: pytest.Session) -> str:
    """Why planned runs of this invocation were never started: an interrupt, a stop (-x, a browser server
    gone), or nothing known."""
    stop = session.shouldstop or session.shouldfail
    if isinstance(stop, str) and stop:  # a stop the harness asked for names its cause (it also ends as INTERRUPTED)
        return f"the session stopped: {stop}"
    return "the session was interrupted" if session.exitstatus == pytest.ExitCode.INTERRUPTED else NEVER_STARTED


def judge(config: pytest.Config, gate: GateConfig, failed: list[str], others_failed: bool, played: bool,
          session: pytest.Session) -> tuple[Outcome, Path | None]:
    """The whole session (every invocation's records) against its plan; sets the exit status the gate decides."""
    session_dir, settings = config.stash[SESSION_DIR], config.stash[SETTINGS]
    files = read_session_files(session_dir, required=False)
    records = files.lines.records  # damaged lines: named in the summary
    played = played or any(r.invocation == config.stash.get(INVOCATION, None) for r in records)
    if played:
        point_latest(settings.results, session_dir)
    out = session_outcome(files, failed, gate, unstarted_reason(session))
    page = keep_going(config, lambda: _results_page(session_dir, config.stash[CATALOG].root, failed,
                                                    settings.baselines)) if played else None
    verdict = out.verdict
    if verdict is None:
        return out, page
    keep_going(config, lambda: write_file(session_dir / "gate.json", json.dumps(verdict.to_json(gate), indent=2) + "\n"))
    _junit_properties(config, verdict.ok, verdict.line(), out)
    if not verdict.ok and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif verdict.ok and session.exitstatus == pytest.ExitCode.TESTS_FAILED and not others_failed:
        # The gate has judged the missing runs (--gw-gate-allow-missing); only a failure it did not see stays one.
        if set(failed) <= {missing_item(m) for m in out.missing}:
            session.exitstatus = pytest.ExitCode.OK
    return out, page


def summary(tr: Any, config: pytest.Config, gate: GateConfig, out: Outcome, page: Path | None) -> None:
    """The GameWorld section of the terminal summary."""
    session_dir = config.stash[SESSION_DIR]
    tr.section("GameWorld summary")
    if out.problem:
        tr.write_line(out.problem, red=True)
    elif not out.summaries and not out.missing:
        tr.write_line("no benchmark runs were played")
    else:
        for line in format_table(out.summaries):
            tr.write_line(line)
        for s in out.summaries.values():
            if s.cache_line():
                tr.write_line(s.cache_line())
            spread = s.repeat_spread
            if spread:
                tr.write_line(f"{s.model}: over {len(s.repeats)} repeats SR {spread[0]:.1f}±{spread[1]:.1f} "
                              f"PG {spread[2]:.1f}±{spread[3]:.1f}")
        _breaker_lines(tr, read_results(session_dir / "results.jsonl").records, config)
        if out.deviations:
            tr.write_line(f"non-standard session: {'; '.join(out.deviations)}", yellow=True)
        if out.missing:
            tr.write_line(f"missing runs (not scored, re-run with --lf): {len(out.missing)}", red=True)
            for line in out.not_played_lines():
                tr.write_line(line, red=True)
            for m in out.missing:
                tr.write_line(f"  {m}")
        for note in out.damaged:
            tr.write_line(f"damaged line skipped: {note}", yellow=True)
        for note in config.stash.get(NOTES, []):
            tr.write_line(f"damaged plan set aside: {note}", yellow=True)
        tr.write_line(f"results: {os.path.relpath(session_dir / 'results.jsonl')}")
        if page is not None:
            tr.write_line(f"results page: {os.path.relpath(page)} (each run's viewer.html linked from it)")
    for line in summary_lines(config):
        tr.write_line(line, red=True)
    verdict = out.verdict
    if verdict is not None:
        if verdict.comparison is not None:
            for line in format_comparison(verdict.comparison, gate.baseline_source):
                tr.write_line(line)
        for note in verdict.notes:
            tr.write_line(note, yellow=True)
        tr.write_line(verdict.line(), bold=True, green=verdict.ok, red=not verdict.ok)


def _results_page(session_dir: Path, catalog_root: Path, failed: list[str], baselines: Path | None) -> Path | None:
    """The session's index.html; a page that cannot be written never changes the session's outcome."""
    from ..report.results_page import write_results_page

    try:
        return write_results_page(session_dir, catalog_root, failed, baselines)
    except RecordWriteError:
        raise  # named in the summary (write_failures.keep_going)
    except Exception as exc:  # noqa: BLE001
        import warnings

        warnings.warn(f"GameWorld: the results page was not written: {type(exc).__name__}: {exc}", stacklevel=1)
        return None


def _junit_properties(config: pytest.Config, ok: bool, line: str, out: Outcome) -> None:
    """The verdict and headline figures as junit-xml testsuite properties."""
    from _pytest.junitxml import xml_key

    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    xml.add_global_property("gameworld_gate", "PASS" if ok else "FAIL")
    xml.add_global_property("gameworld_gate_line", line)
    xml.add_global_property("gameworld_missing_runs", len(out.missing))
    for name, s in sorted(out.summaries.items()):
        xml.add_global_property(f"gameworld_sr[{name}]", round(s.overall.sr, 2))
        xml.add_global_property(f"gameworld_pg[{name}]", round(s.overall.pg, 2))
        xml.add_global_property(f"gameworld_runs[{name}]", s.overall.runs)


def _breaker_lines(tr: Any, records: list[RunRecord], config: pytest.Config) -> None:
    """One line per model the circuit breaker stopped in this invocation: why, and how many runs it held back."""
    limit, invocation = config.stash[SETTINGS].max_consecutive_faults, config.stash.get(INVOCATION, "")
    mine = [r for r in records if r.invocation == invocation]
    for model in dict.fromkeys(r.model for r in mine):
        reason = tripped(mine, model, limit)
        if reason:
            held = sum(r.model == model and r.status == NOT_PLAYED and r.stop_reason == "circuit_breaker"
                       for r in mine)
            tr.write_line(f"{reason}; {held} remaining run(s) not played", red=True)
