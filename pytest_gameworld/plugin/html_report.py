"""pytest-html hooks: a real title, solved/unsolved/faulted rows that look different, the SR/PG table, viewer links."""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

import pytest

from ..records.run_record import MixedRunsError
from ..records.sessions import read_session
from ..report.aggregate import aggregate, table_cells, whole_percent
from ..report.run_viewer import PAGE_NAME, VIEWER_NAME
from .stash import SESSION_DIR
from .write_failures import note_unwritten

# Whole rows take their outcome's colour (:has() is in every current browser); the label says it in words too.
STYLE = """<style>
.gw-outcome { font-weight: bold; white-space: nowrap; padding: 2px 6px; border-radius: 3px; }
.gw-solved { color: #0b5d1e; background: #c9f2d2; }
.gw-unsolved { color: #6b4a00; background: #fbe7b0; }
.gw-fault { color: #fff; background: #b3261e; }
.gw-skipped { color: #444; background: #e4e4e4; }
#results-table tbody:has(.gw-solved) tr:first-child { background: #eefbf0; }
#results-table tbody:has(.gw-unsolved) tr:first-child { background: #fff9e8; }
#results-table tbody:has(.gw-fault) tr:first-child { background: #fdecea; }
table.gw-table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
table.gw-table th, table.gw-table td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
table.gw-table th:first-child, table.gw-table td:first-child { text-align: left; }
table.gw-table thead th { background: #f0f0f0; }
</style>"""


def outcome_label(props: dict[str, Any], outcome: str) -> tuple[str, str]:
    """(css class, text) of a row: SOLVED, unsolved with its progress, FAULT, or skipped."""
    if outcome == "failed":
        return "gw-fault", "FAULT"
    if outcome == "skipped":
        return "gw-skipped", "skipped"
    if "success" not in props:
        return "", ""
    if props["success"]:
        return "gw-solved", "SOLVED"
    return "gw-unsolved", f"unsolved · PG {whole_percent(props.get('progress', 0.0))}%"


def html_table(rows: list[list[str]]) -> str:
    """Cells (the first row the header) as an HTML table, every cell escaped."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f'<table class="gw-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


class HtmlHooks:
    """Registered on the controller when pytest-html is present; knows the session and where the page goes."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @property
    def session_dir(self) -> Path | None:
        return self.config.stash.get(SESSION_DIR, None)

    def _href(self, target: Path) -> str:
        """A link from the HTML report's folder to a file of the session (the report may live elsewhere)."""
        page = Path(self.config.getoption("htmlpath", None) or ".").resolve().parent
        return Path(os.path.relpath(target, page)).as_posix()

    def pytest_html_report_title(self, report: Any) -> None:
        name = self.session_dir.name if self.session_dir else ""
        report.title = f"GameWorld benchmark — session {name}" if name else "GameWorld benchmark"

    def pytest_html_results_table_header(self, cells: list[str]) -> None:
        cells.insert(2, "<th>Outcome</th>")
        cells.insert(3, '<th class="sortable" data-column-type="progress">Progress</th>')
        cells.insert(4, "<th>Steps</th>")
        cells.insert(5, "<th>Viewer</th>")

    def pytest_html_results_table_row(self, report: Any, cells: list[str]) -> None:
        props = dict(getattr(report, "user_properties", None) or [])
        css, text = outcome_label(props, report.outcome) if "run_dir" in props or "success" in props else ("", "")
        progress = f"{whole_percent(props['progress'])}%" if "progress" in props else ""
        link = ""
        if "run_dir" in props and self.session_dir is not None:
            href = self._href(self.session_dir / props["run_dir"] / VIEWER_NAME)
            link = f'<a href="{html.escape(href)}">viewer</a>'
        cells.insert(2, f'<td><span class="gw-outcome {css}">{html.escape(text)}</span></td>' if css else "<td></td>")
        cells.insert(3, f"<td>{progress}</td>")
        cells.insert(4, f"<td>{props.get('steps', '')}</td>")
        cells.insert(5, f"<td>{link}</td>")

    def pytest_html_results_summary(self, prefix: list[str], summary: list[str], postfix: list[str],
                                    session: Any) -> None:
        prefix.append(STYLE)
        if self.session_dir is None:
            return
        records = read_session(self.session_dir).records  # damaged lines: in the summary
        try:
            rows = table_cells(aggregate(records)) if records else []
        except MixedRunsError as exc:
            prefix.append(f"<p><b>GameWorld:</b> {html.escape(str(exc))}</p>")
            return
        if rows:
            page = self._href(self.session_dir / PAGE_NAME)
            prefix.append("<h2>GameWorld: SR/PG (%) by genre</h2>" + html_table(rows)
                          + f'<p>The full results page (levels, heatmap, baselines, trajectories): '
                            f'<a href="{html.escape(page)}">{html.escape(PAGE_NAME)}</a></p>')

    @pytest.hookimpl(wrapper=True, trylast=True)  # inside the terminal's wrapper: its summary still runs
    def pytest_sessionfinish(self, session: pytest.Session) -> Any:
        """pytest-html's report that cannot be written (a full disk) is one line of the summary, not a traceback
        ending the session; the file it began is removed, and so is its "Generated html report" line."""
        try:
            return (yield)
        except OSError as exc:
            report = next((p for p in session.config.pluginmanager.get_plugins()
                           if type(p).__module__.startswith("pytest_html.") and hasattr(p, "_report_path")), None)
            path = Path(getattr(report, "_report_path", None) or self.config.getoption("htmlpath", None) or "?")
            note_unwritten(self.config, exc, path)
            if report is not None:
                session.config.pluginmanager.unregister(report)
                path.unlink(missing_ok=True)  # begun and cut short: no report is better than a damaged one
            return None
