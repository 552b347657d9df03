"""A session's summary as text, Markdown, JSON or CSV (pure)."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from ..catalog.specs import GENRES
from .aggregate import ModelSummary, table_cells

FORMATS = ("table", "md", "json", "csv")


def summary_json(s: ModelSummary) -> dict[str, Any]:
    """One model's figures as builtin types (percentages rounded to 0.01)."""
    iar, ntc, oos = s.iar
    return {
        "model": s.model, "interface": s.interface, "runs": s.overall.runs, "missing": len(s.missing),
        "sr": round(s.overall.sr, 2), "pg": round(s.overall.pg, 2),
        "genres": {g: {"runs": c.runs, "sr": round(c.sr, 2), "pg": round(c.pg, 2)} for g, c in s.genres.items()},
        "levels": {f"L{n}": {"runs": c.runs, "sr": round(c.sr, 2), "pg": round(c.pg, 2)}
                   for n, c in sorted(s.levels.items())},
        "iar": round(iar, 2), "iar_ntc": round(ntc, 2), "iar_oos": round(oos, 2),
        "steps": s.steps, "tokens_in": s.tokens_in, "tokens_out": s.tokens_out, "cost_usd": round(s.cost, 6) if s.priced else None,
    }


def markdown(summaries: dict[str, ModelSummary]) -> list[str]:
    return markdown_table(table_cells(summaries))


def markdown_table(rows: list[list[str]]) -> list[str]:
    """Rows of cells (the first the header) as a Markdown table."""
    return ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])] + [
        "| " + " | ".join(r) + " |" for r in rows[1:]]


_MD_SPECIAL = re.compile(r"([\\`*_<\[\]|])")


def markdown_notes(lines: list[str]) -> list[str]:
    """Report notes as a Markdown list: an indented line (a run under its heading) is a nested item, and
    characters Markdown would read as markup are escaped, so a run id or a gate scope reads as written."""
    out = []
    for line in lines:
        nested = line.startswith("  ")
        out.append(("  - " if nested else "- ") + _MD_SPECIAL.sub(r"\\\1", line.strip()))
    return out


CSV_FIELDS = ("session", "model", "interface", "scope", "runs", "sr", "pg", "iar", "missing", "cost_usd")


def csv_rows(session: str, summaries: dict[str, ModelSummary]) -> list[dict[str, Any]]:
    """Long format: one row per model and scope (each genre, then overall)."""
    out = []
    for name in sorted(summaries):
        s = summaries[name]
        scopes = [(g, s.genres[g]) for g in GENRES if g in s.genres] + [("overall", s.overall)]
        for scope, cell in scopes:
            out.append({"session": session, "model": name, "interface": s.interface, "scope": scope,
                        "runs": cell.runs, "sr": round(cell.sr, 2), "pg": round(cell.pg, 2),
                        "iar": round(s.iar[0], 2), "missing": len(s.missing) if scope == "overall" else "",
                        "cost_usd": round(s.cost, 6) if scope == "overall" and s.priced else ""})
    return out


def to_csv(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def to_json(data: Any) -> str:
    return json.dumps(data, indent=2, allow_nan=False)

