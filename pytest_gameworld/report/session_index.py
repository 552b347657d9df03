"""What `gameworld view` shows: every session under a results folder, each summed up by the readers the
results page uses, and every run with links relative to the index's folder.

A session that cannot be read (a damaged line, runs that cannot be aggregated together, a missing file)
is listed with the reason; it never stops the index.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..records.run_record import RunRecord, read_results
from .aggregate import summary_key
from .results_page import PageData, session_page_data, viewer_href
from .run_viewer import PAGE_NAME, TRACE_NAME


def session_dirs(results: Path) -> list[Path]:
    """The session folders directly under ``results`` (a `latest` link is the same session again: skipped)."""
    if not results.is_dir():
        return []
    return sorted(d for d in results.iterdir() if d.is_dir() and not d.is_symlink() and (d / "results.jsonl").is_file())


def _href(target: Path, out_dir: Path) -> str:
    return Path(os.path.relpath(target.resolve(), out_dir.resolve())).as_posix()


def _date(records: Sequence[RunRecord]) -> str:
    starts = sorted(r.started_at for r in records if r.started_at)
    return starts[0][:16].replace("T", " ") if starts else ""


def run_row(rec: RunRecord, session: str, session_dir: Path, out_dir: Path) -> dict[str, Any]:
    """One run as the index lists it; links only to files that exist."""
    href = viewer_href(rec)
    viewer = session_dir / href if href else None
    trace = viewer.parent / TRACE_NAME if viewer else None
    status = str(rec.status)
    return {"session": session, "item": rec.item, "task": rec.task, "game": rec.game,
            "genre": rec.genre, "level": rec.level, "model": summary_key(rec),
            "repeat": rec.repeat, "status": status,
            "outcome": ("SOLVED" if rec.success else "unsolved") if rec.scored else status.upper(),
            "success": rec.success if rec.scored else None,
            "progress": rec.progress if rec.scored else None,
            "steps": rec.steps, "error": rec.error or "",
            "viewer": _href(viewer, out_dir) if viewer and viewer.is_file() else None,
            "trace": _href(trace, out_dir) if trace and trace.is_file() else None}


def session_row(name: str, data: PageData, records: Sequence[RunRecord], page: Path | None,
                out_dir: Path) -> dict[str, Any]:
    """One session as the index lists it: its models' SR/PG and normalized score, runs, missing, marks."""
    # A model with no scored run has no SR or PG (the index shows – for null), not 0.0.
    models = [{"model": key, "interface": s.interface, "sr": round(s.overall.sr, 1) if s.overall.runs else None,
               "pg": round(s.overall.pg, 1) if s.overall.runs else None,
               "normalized": None if (score := data.normalized.get(key)) is None else round(float(score), 1),
               "runs": s.overall.runs} for key, s in sorted(data.summaries.items())]
    runs = data.view.scored + data.view.unscored
    return {"name": name, "date": _date(records), "page": _href(page, out_dir) if page and page.is_file() else None,
            "protocol": ", ".join(sorted({r.protocol or "paused" for r in runs})),
            "models": models, "runs": len(runs), "missing": len(data.missing), "missing_lines": data.missing[:50],
            "marks": data.deviations + ([data.not_normalized] if data.not_normalized else []),
            "problem": data.problem}


def collect(results: Path, out_dir: Path, catalog_root: Path | None = None) -> dict[str, Any]:
    """The index's data: {results, sessions: [...], runs: [...]}, links relative to ``out_dir``."""
    sessions: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    for session_dir in session_dirs(results):
        name = session_dir.name
        try:
            data = session_page_data(session_dir, catalog_root)
            lines = read_results(session_dir / "results.jsonl")
        except (OSError, ValueError) as exc:  # unreadable plan or results: listed, never fatal
            sessions.append({"name": name, "date": "", "page": None, "protocol": "", "models": [], "runs": 0,
                             "missing": 0, "missing_lines": [], "marks": [], "damaged": [],
                             "problem": f"{type(exc).__name__}: {exc}"})
            continue
        row = session_row(name, data, lines.records, session_dir / PAGE_NAME, out_dir)
        row["damaged"] = [str(d) for d in lines.damaged]
        sessions.append(row)
        runs += [run_row(r, name, session_dir, out_dir) for r in data.view.scored + data.view.unscored]
    return {"results": str(results), "sessions": sessions, "runs": runs}



def write_index(results: Path, out_dir: Path, catalog_root: Path | None = None) -> Path:
    """Write out_dir/index.html over every session under ``results`` (a session without its results page gets
    one first, so its link works); returns the page's path."""
    import datetime as dt

    from .index_page import INDEX_NAME, render
    from .results_page import write_results_page

    out_dir.mkdir(parents=True, exist_ok=True)
    for session_dir in session_dirs(results):
        if not (session_dir / PAGE_NAME).is_file():
            try:
                write_results_page(session_dir, catalog_root)
            except (OSError, ValueError):
                pass  # the index still lists it, with the reason it cannot be summed up
    data = collect(results, out_dir, catalog_root)
    path = out_dir / INDEX_NAME
    if path.resolve() in {(d / PAGE_NAME).resolve() for d in session_dirs(results)}:
        raise ValueError(f"{out_dir}: that is a session folder; its index.html is the session's results page")
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    path.write_text(render(data, now), encoding="utf-8")
    return path
