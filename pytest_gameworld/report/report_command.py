"""`gameworld report`: each session's table (or md/json/csv), its missing runs, the gate's verdict."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .exit_status import ExitStatus

if TYPE_CHECKING:
    from ..records.baselines import Baselines
    from ..records.run_record import RunRecord


def _separation_lines(name: str, records: list[RunRecord], found: Baselines | None) -> list[str]:
    """How well the session's tasks separate skill (from the baselines' ladder): the counts, then flagged tasks."""
    from .discrimination import separation, summarize

    if found is None:
        return []
    seps = separation(found)
    mine = [seps[t] for t in sorted({r.task for r in records}) if t in seps]
    flagged = [f"  {x.task}: {x.cell()}" for x in mine if x.flags]
    return [f"{name}: {line}" for line in summarize(mine).lines()] + flagged


def report_main(args: argparse.Namespace) -> int:
    """Each session's table (or md/json/csv), its missing runs, and the gate's verdict when asked for."""
    from ..records.sessions import read_session_files, session_folder
    from . import summary_formats
    from .aggregate import format_table, is_human
    from .gate import comparison_rows, format_comparison
    from .outcome import build_gate, session_outcome
    from .results_page import published_human_lines, session_baselines

    try:
        gate = build_gate(args.gate, args.baseline, args.max_drop, args.max_drop_strict, args.allow_missing)
        sessions = [(Path(p), read_session_files(Path(p))) for p in args.sessions]
    except ValueError as exc:
        print(f"gameworld report: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    several = len(sessions) > 1
    status, humans, standard = 0, False, True
    table: dict[str, Any] = {}
    out_json: list[Any] = []
    out_csv: list[Any] = []
    text: list[str] = []
    md = args.format == "md"

    def note(*lines: str) -> None:  # --format md prints Markdown only: its notes are a list
        text.extend(summary_formats.markdown_notes(list(lines)) if md else lines)

    for path, files in sessions:
        name, lines = path.resolve().name, files.lines
        res = session_outcome(files, [], gate)
        if res.deviations:
            note(f"{name}: non-standard session: {'; '.join(res.deviations)}")
        humans = humans or any(is_human(k) for k in res.summaries)
        standard = standard and not res.deviations
        if res.problem:
            print(f"{path}: {res.problem}", file=sys.stderr)
            status = max(status, 2)
        table.update({f"{name}/{k}" if several else k: v for k, v in res.summaries.items()})
        out_csv += summary_formats.csv_rows(name, res.summaries)
        out_json.append({"session": name, "path": str(path), "models": [summary_formats.summary_json(s) for s in
                         res.summaries.values()], "missing": res.missing, "not_played": res.not_played,
                         "deviations": res.deviations, "problem": res.problem,
                         "gate": res.verdict.to_json(gate) if res.verdict else None})
        if res.missing:
            note(f"{name}: missing runs (not scored): {len(res.missing)}", *res.not_played_lines(),
                 *(f"  {m}" for m in res.missing))
        note(*(f"{name}: damaged line skipped: {why}" for why in res.damaged))
        if res.plan_damage:
            note(f"{name}: damaged plan: {res.plan_damage} (the runs it planned but no record names cannot be "
                 "counted; --gw-resume sets it aside and plans again)")
        separation = _separation_lines(name, lines.records, session_baselines(files.plan, args.catalog,
                                                                              args.baselines))
        if md:  # how well the catalog's tasks separate skill is a diagnostic, not part of a Markdown report
            for line in separation:
                print(line, file=sys.stderr)
        else:
            text += separation
        if res.verdict is not None:
            cmp = res.verdict.comparison
            if cmp is not None and md:
                note(cmp.heading(gate.baseline_source))
                text += ["", *summary_formats.markdown_table(comparison_rows(cmp)), ""]
                note(*cmp.notes)
            elif cmp is not None:
                text += format_comparison(cmp, gate.baseline_source)
            note(*res.verdict.notes, (f"{name}: " if several else "") + res.verdict.line())
            status = status or (0 if res.verdict.ok else 1)
    if args.html:
        from .results_page import write_results_page

        for path, _ in sessions:
            page = write_results_page(session_folder(path).resolve(), args.catalog, baselines=args.baselines)
            print(f"results page: {page}", file=sys.stderr)
    if args.format == "json":
        print(summary_formats.to_json(out_json))
    elif args.format == "csv":
        print(summary_formats.to_csv(out_csv), end="")
    else:
        print("\n".join((summary_formats.markdown if md else format_table)(table) if table else []))
        if humans:  # measured humans beside the paper's published ones (only a standard session compares)
            published = published_human_lines() if standard else [
                "published human figures not shown: the session does not follow their protocol"]
            print("\n".join(([""] + summary_formats.markdown_notes(published)) if md else published))
        if text:
            print("\n".join(([""] if md else []) + text))
    return status
