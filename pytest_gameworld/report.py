"""pytest-html hooks: success and progress columns, and the SR/PG table above the results."""

from __future__ import annotations

import html
from typing import Any

from .results import aggregate, format_table, read_jsonl
from .state import SESSION_DIR


def pytest_html_results_table_header(cells: list[str]) -> None:
    cells.insert(2, "<th>Success</th>")
    cells.insert(3, '<th class="sortable" data-column-type="progress">Progress</th>')
    cells.insert(4, "<th>Steps</th>")


def pytest_html_results_table_row(report: Any, cells: list[str]) -> None:
    props = dict(getattr(report, "user_properties", None) or [])
    solved = "SOLVED" if props.get("success") else ("no" if "success" in props else "")
    progress = f"{100 * props['progress']:.0f}%" if "progress" in props else ""
    cells.insert(2, f"<td>{solved}</td>")
    cells.insert(3, f"<td>{progress}</td>")
    cells.insert(4, f"<td>{props.get('steps', '')}</td>")


def pytest_html_results_summary(prefix: list[str], summary: list[str], postfix: list[str], session: Any) -> None:
    session_dir = session.config.stash.get(SESSION_DIR, None)
    if session_dir is None:
        return
    records = read_jsonl(session_dir / "results.jsonl")
    if records:
        table = "\n".join(format_table(aggregate(records)))
        prefix.append(f"<h2>GameWorld: SR/PG (%) by genre</h2><pre>{html.escape(table)}</pre>")
