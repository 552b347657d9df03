"""The session's results page (<session>/index.html): one self-contained HTML file, no script, no fetch."""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..catalog.specs import GENRES
from ..records.baselines import Baselines, BaselinesError, TaskRates, made_step_budget, task_rates
from ..records.baselines import load as load_baselines
from ..records.comparability import normalization_problem, session_facts_of, step_budget
from ..records.jsonl import Damage, write_file
from ..records.run_record import INTERRUPTED, NOT_PLAYED, OK, RunKey, RunRecord, RunView
from ..records.sessions import read_session, read_session_files
from . import charts
from .aggregate import NA, ModelSummary, is_human, summary_key, table_order, whole_percent
from .discrimination import NONE, Separation, separation
from .gate import GateConfig
from .outcome import outcome
from .run_viewer import PAGE_NAME, TRACE_NAME, VIEWER_NAME, write_missing_viewers
from .standings import Spread, elo, floor_tasks, matches, mean_progress, normalized_score, repeat_values, spread

FLOOR_NOTE = '<span class="tag">floor</span> random solves it more often than not (SR interval above 50 %)'
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"


_UNSCORED_WORDS: dict[str, str] = {NOT_PLAYED: "NOT PLAYED", INTERRUPTED: "INTERRUPTED"}  # else FAULT


def reference_rows() -> dict[str, Any]:
    """The paper's published Table 6 rows, shipped as package data."""
    return json.loads(resources.files("pytest_gameworld").joinpath("data/paper_reference.json").read_text())


def published_human_lines() -> list[str]:
    """The paper's human rows as text lines, marked as published (for `gameworld report` beside measured humans)."""
    ref = reference_rows()
    head = " · ".join(c.capitalize() for c in ref["columns"])
    lines = [f"published human figures, not measured here ({ref['source']}); SR/PG per {head}:"]
    for r in ref["rows"]:
        if r.get("kind") == "human":
            lines.append(f"  [published] {r['agent']}: " + "  ".join(f"{sr:.1f}/{pg:.1f}" for sr, pg in r["sr_pg"]))
    return lines


def viewer_href(rec: RunRecord) -> str | None:
    """The run's viewer, relative to the session folder (beside its steps.jsonl)."""
    traj = rec.trajectory
    return str(Path(traj).parent / VIEWER_NAME) if traj else None


@dataclass
class PageData:
    """Everything the page shows, computed once (pure) from a session's records and the baselines."""

    session: str
    summaries: dict[str, ModelSummary] = field(default_factory=dict)
    view: RunView = field(default_factory=lambda: RunView([], []))
    missing: list[str] = field(default_factory=list)
    problem: str | None = None
    baselines: TaskRates | None = None
    spreads: dict[str, dict[str, Spread | None]] = field(default_factory=dict)
    normalized: dict[str, float | None] = field(default_factory=dict)
    elo: dict[str, float] = field(default_factory=dict)
    games: dict[str, dict[str, float]] = field(default_factory=dict)
    not_played: list[str] = field(default_factory=list)  # `N planned run(s) not played (why)`
    deviations: list[str] = field(default_factory=list)  # how the session differs from the standard protocol
    not_normalized: str | None = None  # why no normalized score is given against these baselines
    facts: dict[str, Any] = field(default_factory=dict)  # the session's comparability facts (endpoints, budget)
    folder: Path = Path(".")  # the session folder (to tell which runs kept a trace)
    separation: dict[str, Separation] = field(default_factory=dict)  # how well each task separates skill


def page_data(session: str, records: list[RunRecord], baselines: TaskRates | None,
              unrecorded: Iterable[str] = (), plan: dict[str, Any] | None = None, baselines_budget: int = 0,
              damaged: Iterable[Damage] = (), partial: Mapping[RunKey, str] | None = None) -> PageData:
    """The page's figures; planned runs never played and damaged lines' runs are missing, and a session played
    under another step budget than the baselines gets no normalized score."""
    out = outcome(records, unrecorded, GateConfig(), plan, damaged=damaged, partial=partial)
    data = PageData(session, baselines=baselines, problem=out.problem)
    if out.problem:
        return data
    data.view, data.summaries, data.missing = out.view, out.summaries, out.missing
    data.not_played, data.deviations = out.not_played_lines(), out.deviations
    scored = data.view.scored
    data.spreads = {m: {"sr": spread(v["sr"]), "pg": spread(v["pg"])} for m, v in repeat_values(scored).items()}
    data.facts = session_facts_of(plan, records)
    if baselines:
        data.not_normalized = normalization_problem(step_budget(plan, records), baselines_budget,
                                                    data.facts.get("task_budgets") or [])
    per_task = mean_progress(scored, "task")
    data.normalized = {m: normalized_score(per_task.get(m, {}), baselines)
                       if baselines and not data.not_normalized else None for m in data.summaries}
    data.elo = elo(matches(scored))
    data.games = mean_progress(scored, "game")
    return data


# ---------------------------------------------------------------- rendering

def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _spread(s: Spread | None) -> str:
    if s is None:
        return '<span class="dim">one repeat</span>'
    # A percentage's interval is shown within 0..100 (few repeats give wide t-intervals).
    lo, hi = max(0.0, s.lo), min(100.0, s.hi)
    return f"{s.mean:.1f} ± {s.std:.1f} <span class=\"dim\">[{lo:.1f}, {hi:.1f}]</span>"


def _model_label(s: ModelSummary) -> str:
    return f"{_e(s.model)} <span class=\"dim\">({_e(s.interface)})</span>" if s.interface else _e(s.model)


def _table6(data: PageData) -> str:
    ref = reference_rows()
    head = "".join(f"<th>{g.capitalize()}</th>" for g in GENRES)
    rows = []
    for name in table_order(data.summaries):
        s = data.summaries[name]
        cells = "".join(f"<td>{s.genres[g].sr:.1f} / {s.genres[g].pg:.1f}</td>" if g in s.genres
                        else '<td class="dim">–</td>' for g in GENRES)
        tag = '<span class="tag">measured human</span> ' if is_human(name) else ""
        overall = (f'<td class="strong">{s.overall.sr:.1f} / {s.overall.pg:.1f}</td>' if s.overall.runs
                   else f'<td class="dim" title="no scored run">{NA}</td>')
        rows.append(f"<tr><td>{tag}{_model_label(s)}</td>{cells}{overall}<td>{s.overall.runs}</td></tr>")
    if data.deviations:  # the paper's rows were played under the standard protocol: not comparable
        rows.append(f'<tr class="refhead"><td colspan="{len(GENRES) + 3}">Published figures not shown: this '
                    f'session does not follow their protocol ({_e("; ".join(data.deviations))})</td></tr>')
    else:
        rows.append(f'<tr class="refhead"><td colspan="{len(GENRES) + 3}">Published figures, not measured here '
                    f'(source: {_e(ref["source"])})</td></tr>')
    for r in [] if data.deviations else ref["rows"]:
        cells = "".join(f"<td>{sr:.1f} / {pg:.1f}</td>" for sr, pg in r["sr_pg"])
        rows.append(f'<tr class="ref"><td><span class="tag">published</span> {_e(r["agent"])}</td>{cells}'
                    '<td class="dim">paper</td></tr>')
    return (f'<table class="t6"><thead><tr><th>Agent</th>{head}<th>Overall</th><th>runs</th></tr>'
            f'<tr class="sub"><th></th>{"<th>SR / PG</th>" * (len(GENRES) + 1)}<th></th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _models(data: PageData) -> str:
    rows = []
    for name in sorted(data.summaries):
        s = data.summaries[name]
        sp = data.spreads.get(name, {})
        iar, ntc, oos = s.iar
        per_step = s.steps or 1
        norm = data.normalized.get(name)
        norm_cell = ('<span class="dim">no baselines</span>' if data.baselines is None
                     else f'<span class="dim" title="{_e(data.not_normalized)}">n/a</span>' if data.not_normalized
                     else '<span class="dim">–</span>' if norm is None else f"{norm:.1f}")
        elo_cell = f"{data.elo[name]:.0f}" if name in data.elo else '<span class="dim">–</span>'
        missing = f' <span class="bad">+{len(s.missing)} missing</span>' if s.missing else ""
        cost = f"{s.cost:.4f}" if s.priced else '<span class="dim" title="the model\'s price is unknown">n/a</span>'
        if s.cache_hits:  # the original calls' figures, apart from what this session spent
            cost += (f'<br><span class="dim" title="{_e(s.cache_line() or "")}">cache: {s.cache_hits} hits, '
                     f'{s.cache_tokens:,} tok, {f"${s.cache_cost:.4f}" if s.priced else "$ n/a"} not spent</span>')
        measured = (f"<td>{iar:.1f} <span class=\"dim\">({ntc:.1f} / {oos:.1f})</span></td>"
                    f"<td>{s.sec / per_step:.3f}</td><td>{s.tokens_in:,} / {s.tokens_out:,}</td><td>{cost}</td>")
        if not s.overall.runs:  # every run faulted or was held back: nothing was measured
            measured = f'<td class="dim" title="no scored run">{NA}</td>' * 4
        rows.append(
            f"<tr><td>{_model_label(s)}</td><td>{s.overall.runs}{missing}</td><td>{_spread(sp.get('sr'))}</td>"
            f"<td>{_spread(sp.get('pg'))}</td><td>{norm_cell}</td><td>{elo_cell}</td>{measured}</tr>")
    return ('<table><thead><tr><th>Model</th><th>runs</th><th>SR % over repeats<br><span class="dim">mean ± std [95 % CI]</span></th>'
            '<th>PG % over repeats<br><span class="dim">mean ± std [95 % CI]</span></th>'
            '<th>Normalized %<br><span class="dim">0 random or trivial, 100 oracle</span></th><th>Elo</th>'
            '<th>IAR %<br><span class="dim">(NTC / OOS)</span></th><th>sec/step</th>'
            '<th>tokens in / out</th><th>$ total</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _levels(data: PageData) -> str:
    levels = sorted({lv for s in data.summaries.values() for lv in s.levels})
    head = "".join(f"<th>L{lv}</th>" for lv in range(1, 6))
    rows = []
    for name in sorted(data.summaries):
        s = data.summaries[name]
        cells = "".join(f"<td>{s.levels[lv].sr:.1f} / {s.levels[lv].pg:.1f}</td>" if lv in s.levels
                        else '<td class="dim">–</td>' for lv in range(1, 6))
        rows.append(f"<tr><td>{_model_label(s)}</td>{cells}</tr>")
    table = (f'<table><thead><tr><th>Model</th>{head}</tr><tr class="sub"><th></th>{"<th>SR / PG</th>" * 5}'
             f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    if not levels:
        return table
    series: dict[str, Sequence[float | None]] = {name: [s.levels[lv].pg if lv in s.levels else None for lv in levels]
              for name, s in sorted(data.summaries.items())}
    return table + charts.grouped_bars([f"L{lv}" for lv in levels], series, "PG %")


def _heatmap(data: PageData) -> str:
    models = sorted(data.games)
    games = sorted({g for per in data.games.values() for g in per})
    if not games:
        return '<p class="dim">no scored runs</p>'
    floor = floor_tasks(data.baselines) if data.baselines else set()
    floors: dict[str, set[str]] = {}
    for r in data.view.scored:
        if r.task in floor:
            floors.setdefault(r.game, set()).add(r.task)
    labels = [f"{g} ({len(floors[g])} floor task{'s' if len(floors[g]) > 1 else ''})" if g in floors else g
              for g in games]
    values = [[data.games[m].get(g) for m in models] for g in games]
    return charts.heatmap(labels, models, values, "heatmap")


def _endpoints(data: PageData) -> str:
    """Where each provider model was reached (built-in agents have no endpoint)."""
    ends = {m: h for m, h in (data.facts.get("endpoints") or {}).items() if h != "built-in"}
    return "· endpoint " + ", ".join(f"{m} at {h}" for m, h in ends.items()) if ends else ""


def _normalization_note(data: PageData) -> str:
    return f"; <b>n/a</b> here: {_e(data.not_normalized)}" if data.not_normalized and data.baselines else ""


def _baselines(data: PageData) -> str:
    if data.baselines is None:
        return ('<p class="note">No baselines: the catalog has no <code>baselines.json</code> '
                "(<code>gameworld calibrate</code> writes it), so no normalized score.</p>")
    tasks = sorted({r.task for r in data.view.scored + data.view.unscored} & set(data.baselines))
    if not tasks:
        return '<p class="note">The baselines cover none of this session\'s tasks.</p>'
    floor = floor_tasks(data.baselines)
    rows = []
    for t in tasks:
        b = data.baselines[t]
        cell = {a: f"{b[a]['sr']:.1f} / {b[a]['pg']:.1f}" if a in b else "–" for a in ("random", "oracle", "trivial")}
        note = FLOOR_NOTE if t in floor else ""
        sep = data.separation[t].cell() if t in data.separation else NONE
        best = data.separation[t].trivial_best if t in data.separation else None
        trivial = f"{_e(best)}: {cell['trivial']}" if best and "trivial" in b else cell["trivial"]
        rows.append(f"<tr><td>{_e(t)}</td><td>{cell['random']}</td><td>{cell['oracle']}</td><td>{trivial}</td>"
                    f"<td>{note}</td>"
                    f'<td class="sep">{_e(sep)}</td></tr>')
    return ('<table><thead><tr><th>Task</th><th>random SR / PG</th><th>oracle SR / PG</th>'
            '<th>best trivial policy SR / PG</th><th></th>'
            '<th title="oracle@0.5 PG minus random PG; whether PG rises along random &lt; oracle@0.25 &lt; 0.5 &lt; '
            '0.75 &lt; oracle; floor, flat, inverted-level and trivial flags" class="sep">how well this task separates skill</th>'
            f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _runs(data: PageData) -> str:
    recs = sorted(data.view.scored + data.view.unscored,
                  key=lambda r: (r.game, r.task, summary_key(r), r.repeat))
    rows = []
    for r in recs:
        href = viewer_href(r)
        link = f'<a href="{_e(href)}">viewer</a>' if href else ""
        trace = str(Path(href).parent / TRACE_NAME) if href else None
        if trace and (data.folder / trace).is_file():
            link += f' <a href="{_e(trace)}" download title="open with: playwright show-trace">trace</a>'
        if r.status != OK:
            word = _UNSCORED_WORDS.get(str(r.status), "FAULT")
            cls, outcome = "fault", f'{word} <span class="err">{_e(r.error or r.status)}</span>'
        elif r.success:
            cls, outcome = "solved", "SOLVED"
        else:
            cls, outcome = "unsolved", f"PG {whole_percent(r.progress)} %"
        rows.append(f'<tr class="{cls}"><td>{link}</td><td>{_e(r.item)}</td><td>{_e(summary_key(r))}</td>'
                    f'<td>{r.repeat}</td><td>{outcome}</td><td>{r.steps}</td>'
                    f'<td>{r.episodes}</td><td>{_e(r.stop_reason or "")}</td></tr>')
    return ('<table class="runs"><thead><tr><th></th><th>Run</th><th>Model</th><th>repeat</th><th>Outcome</th>'
            f'<th>steps</th><th>episodes</th><th>stop</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _missing(data: PageData) -> str:
    if not data.missing:
        return '<p class="good">None: every planned run was played to the end and scored.</p>'
    heads = "".join(f'<p class="bad">{_e(line)}</p>' for line in data.not_played)
    return heads + "<ul class=\"missing\">" + "".join(f"<li>{_e(m)}</li>" for m in data.missing) + "</ul>"


STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}
header p{margin:4px 0 0;color:#c8cedb}main{padding:8px 28px 40px;max-width:1400px}
section{background:#fff;border:1px solid #e2e5ea;border-radius:8px;padding:14px 18px;margin:16px 0;overflow-x:auto}
h2{font-size:17px;margin:0 0 10px}table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid #eceef2;text-align:right;white-space:nowrap}
th:first-child,td:first-child,th.sep,td.sep{text-align:left}td.sep{white-space:normal;min-width:260px}thead th{background:#f0f2f5;font-weight:600}
tr.sub th{font-weight:400;font-size:12px;color:#667}.dim{color:#8a93a3}.strong{font-weight:600}
tr.refhead td{background:#fff7e0;color:#7a5b00;font-size:12px;text-align:left;border-top:2px solid #e0c36a}
tr.ref td{background:#fffbf0;color:#6b6250;font-style:italic}
.tag{display:inline-block;font-style:normal;font-size:11px;padding:0 6px;border-radius:9px;background:#e0c36a;
color:#3b2f00;margin-right:4px}
tr.solved td{background:#e9f7ee}tr.solved td:nth-child(5){color:#137333;font-weight:600}
tr.fault td{background:#fdecec}tr.fault td:nth-child(5){color:#b3261e;font-weight:600}
tr.unsolved td:nth-child(5){color:#8a5a00}.err{font-weight:400;white-space:normal}
table.runs td:nth-child(2){font-family:ui-monospace,monospace;font-size:12px}
.note{background:#f0f4ff;border-left:3px solid #4477aa;padding:6px 10px}.good{color:#137333}
.bad{color:#b3261e}.nonstandard{background:#fff4e5;border-left:4px solid #d9822b;padding:8px 12px;
margin:16px 0;font-weight:600;color:#7a3e00}ul.missing li{font-family:ui-monospace,monospace;font-size:12px;color:#b3261e}
svg.chart{max-width:100%;height:auto;display:block;margin-top:10px}
table.runs td:nth-child(2),table.runs td:nth-child(3),table.runs th:nth-child(2),table.runs th:nth-child(3){text-align:left}.grid{display:flex;gap:16px;flex-wrap:wrap}
.grid>section{flex:1 1 480px}
"""


def render(data: PageData, generated: str) -> str:
    runs = len(data.view.scored)
    models = ", ".join(sorted(data.summaries)) or "none"
    versions = sorted({r.catalog_version for r in data.view.scored if r.catalog_version})
    protocols = sorted({r.protocol or "paused" for r in data.view.scored})
    observed = sorted({r.obs or "screenshot" for r in data.view.scored})
    problem = f'<section><p class="bad">{_e(data.problem)}</p></section>' if data.problem else ""
    if data.deviations:
        problem += (f'<p class="nonstandard">Non-standard session: {_e("; ".join(data.deviations))}. '
                    "Not comparable with the published figures or with standard sessions.</p>")
    body = "" if data.problem else f"""
<section><h2>SR / PG (%) by genre — measured here{"" if data.deviations else ", with the paper's published rows"}</h2>
{_table6(data)}</section>
<section><h2>Per model: spread over repeats, normalized score, Elo, validity and cost</h2>{_models(data)}
<p class="dim">Normalized = (PG − zero) / (PG<sub>oracle</sub> − zero) over the tasks the baselines cover, where a
task's zero is the higher of random's PG and the best trivial policy's (one control, key or rotation every step;
random alone where the baselines have no trivial figures){_normalization_note(data)}. Elo: every pair of models on every task and repeat both played (higher progress wins,
equal is a draw), K = 16 from 1500, averaged over 200 random match orders{"" if len(data.summaries) > 1
else "; needs two or more models"}.</p></section>
<div class="grid"><section><h2>PG (%) per game × model</h2>{_heatmap(data)}</section>
<section><h2>SR / PG (%) per curriculum level</h2>{_levels(data)}</section></div>
<section><h2>Random and oracle baselines</h2>{_baselines(data)}</section>
<section><h2>Missing runs ({len(data.missing)})</h2>{_missing(data)}</section>
<section><h2>Runs ({len(data.view.scored) + len(data.view.unscored)}) — each links to its trajectory viewer</h2>
{_runs(data)}</section>"""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GameWorld results — {_e(data.session)}</title><style>{STYLE}</style></head>
<body><header><h1>GameWorld results — session {_e(data.session)}</h1>
<p>{runs} scored runs · {len(data.missing)} missing · models: {_e(models)} · protocol: {_e(", ".join(protocols) or "–")} · observation: {_e(", ".join(observed) or "–")}
{_e(_endpoints(data))}
· catalog {_e(", ".join(versions) or "–")} · written {_e(generated)}</p></header>
<main>{problem}{body}</main></body></html>
"""


def session_page_data(session_dir: Path, catalog_root: Path | None = None, unrecorded: Iterable[str] = (),
                      baselines: Path | None = None) -> PageData:
    """A session folder's page figures, read from its results.jsonl and plan (damaged lines named, never fatal).

    Baselines: see session_baselines.
    """
    files = read_session_files(session_dir, required=False)  # a damaged plan: named by the summary and the report
    plan, lines = files.plan, files.lines
    found = session_baselines(plan, catalog_root, baselines)
    rates = task_rates(found) if found is not None else None
    data = page_data(session_dir.name, lines.records, rates, unrecorded, plan,
                     made_step_budget(found) if found else 0, lines.damaged, files.partial)
    data.folder = session_dir
    data.separation = separation(found) if found is not None else {}
    return data


def session_baselines(plan: dict[str, Any] | None, catalog_root: Path | None = None,
                      baselines: Path | None = None) -> Baselines | None:
    """The file given, else the one the session named (--gw-baselines), else the catalog's; None when there is
    none or it cannot be read."""
    from ..catalog.native import default_catalog_dir

    named = ((plan or {}).get("options") or {}).get("baselines")
    try:
        return load_baselines(baselines or (Path(named) if named else None) or catalog_root or default_catalog_dir())
    except BaselinesError:
        return None


def write_results_page(session_dir: Path, catalog_root: Path | None = None, unrecorded: Iterable[str] = (),
                       baselines: Path | None = None) -> Path:
    """Write <session>/index.html (and any run's missing viewer); returns the page's path."""
    write_missing_viewers(session_dir, read_session(session_dir).records)
    data = session_page_data(session_dir, catalog_root, unrecorded, baselines)
    path = session_dir / PAGE_NAME
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    write_file(path, render(data, now))  # whole or not at all: a full disk leaves no empty page
    return path
