"""The live view of `gameworld view --serve` (``/_live/``): a session while it runs, read on every request from the
files its runs write and nothing else: plan.json (what it will play), results.jsonl (runs done, the table so
far), each attempt's steps.jsonl (runs in flight: their last step) and the frames beside it.

A run in flight is an attempt whose trajectory has no end line and whose run has no record yet; a session that
was killed leaves such attempts behind, so each shows how long ago its trajectory was last written. Damaged
lines are named (``file:line``) and skipped; the page never fails on them.
"""

from __future__ import annotations

import html
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..records.run_events import END, START, STEP
from ..records.run_record import RunRecord, read_results
from ..records.sessions import plan_or_damage
from .aggregate import format_table
from .gate import GateConfig
from .outcome import outcome

REFRESH_S = 2  # the page refreshes itself this often
TAIL_BYTES = 262_144  # a step line holds the request sent: the last lines are within this much of the end


def live_sessions(results: Path) -> list[Path]:
    """Session folders under ``results`` that have a plan (a running one may have no record yet), newest first."""
    if not results.is_dir():
        return []
    found = [d for d in results.iterdir() if d.is_dir() and not d.is_symlink() and (d / "plan.json").is_file()]
    return sorted(found, key=lambda d: (d / "plan.json").stat().st_mtime, reverse=True)


@dataclass
class InFlight:
    item: str
    attempt: Path  # the attempt folder
    step: int = 0  # steps done
    score: Any = None
    best: Any = None
    progress: float = 0.0
    frame: Path | None = None  # the last step's kept frame, if the run keeps frames
    action: str = ""
    idle_s: float = 0.0  # since the trajectory was last written


@dataclass
class LiveState:
    planned: int = 0
    plan_note: str | None = None
    records: list[RunRecord] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    flights: list[InFlight] = field(default_factory=list)
    max_steps: int = 0


def _last_lines(path: Path) -> list[dict[str, Any]]:
    """The complete JSON lines near a trajectory's end (a line cut short by the writer is left out)."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - TAIL_BYTES))
            data = fh.read()
    except OSError:
        return []
    lines = data.split(b"\n")
    if size > TAIL_BYTES:
        lines = lines[1:]  # the first is likely a part of a line
    out = []
    for line in lines[:-1]:  # the last is empty, or a line still being written
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            out.append(rec)
    return out


def _first_line(path: Path) -> dict[str, Any] | None:
    try:
        with path.open("rb") as fh:
            rec = json.loads(fh.readline(1 << 22))
    except (OSError, ValueError):
        return None
    return rec if isinstance(rec, dict) else None


def _action(rec: dict[str, Any]) -> str:
    calls = rec.get("calls") or []
    if isinstance(rec.get("roles"), dict):
        calls = [c for t in rec["roles"].values() for c in (t.get("calls") or [])]
    names = [str(c.get("name") or c.get("kind") or "?") for c in calls if isinstance(c, dict)]
    return ", ".join(names) or "-"


def read_live(session: Path, now: float | None = None) -> LiveState:
    """What the session's files say at this moment."""
    now = time.time() if now is None else now
    state = LiveState()
    plan, state.plan_note = plan_or_damage(session)
    if plan:
        state.planned = len(plan.get("selected") or [])
        state.max_steps = int((plan.get("options") or {}).get("max_steps") or 0)
    lines = read_results(session / "results.jsonl")
    state.records = lines.records
    state.damaged = [str(d) for d in lines.damaged]
    recorded = {r.item for r in state.records}
    finished = {r.trajectory for r in state.records if r.trajectory}
    runs = session / "runs"
    for steps in sorted(runs.glob("**/attempt-*/steps.jsonl")) if runs.is_dir() else []:
        rel = steps.relative_to(session).as_posix()
        if rel in finished:
            continue
        start = _first_line(steps)
        if start is None or start.get("event") != START or start.get("item") in recorded:
            continue
        tail = _last_lines(steps)
        if any(r.get("event") == END for r in tail):
            continue
        flight = InFlight(str(start.get("item")), steps.parent)
        try:
            flight.idle_s = max(0.0, now - steps.stat().st_mtime)
        except OSError:
            pass
        step_lines = [r for r in tail if r.get("event") == STEP]
        if step_lines:
            last = step_lines[-1]
            flight.step = int(last.get("step", 0)) + 1
            flight.score, flight.best = last.get("score"), last.get("best")
            flight.progress = float(last.get("progress") or 0.0)
            flight.action = _action(last)
            framed = [r for r in step_lines if r.get("frame")]
            if framed and (steps.parent / str(framed[-1]["frame"])).is_file():
                flight.frame = steps.parent / str(framed[-1]["frame"])
        state.flights.append(flight)
    return state


def _e(x: Any) -> str:
    return html.escape(str(x))


def _href(target: Path, root: Path) -> str:
    return "/" + Path(os.path.relpath(target.resolve(), root.resolve())).as_posix()


def render_live(session: Path, root: Path, now: float | None = None) -> str:
    """The live page of one session; links are paths under the served ``root``."""
    state = read_live(session, now)
    done = len({r.item for r in state.records})
    head = (f"{done}/{state.planned or '?'} runs done · {len(state.flights)} in flight · "
            f"read {time.strftime('%H:%M:%S')}, refreshed every {REFRESH_S} s")
    parts = [f"<h1>{_e(session.name)} <small>live</small></h1>", f"<p class=head>{_e(head)}</p>"]
    if state.plan_note:
        parts.append(f"<p class=bad>damaged plan: {_e(state.plan_note)}</p>")
    parts += [f"<p class=bad>damaged line skipped: {_e(d)}</p>" for d in state.damaged]
    parts.append("<h2>In flight</h2>")
    if not state.flights:
        parts.append("<p class=dim>no run in flight</p>")
    cards = []
    for f in sorted(state.flights, key=lambda f: f.item):
        budget = f"/{state.max_steps}" if state.max_steps else ""
        picture = (f'<img src="{_e(_href(f.frame, root))}" alt="last frame of {_e(f.item)}">' if f.frame else
                   '<div class="noframe dim">no frame kept (built-in agents keep none unless --gw-keep-frames)</div>')
        stale = f' <span class=bad>· last written {f.idle_s:.0f} s ago</span>' if f.idle_s > 60 else ""
        figures = "starting" if f.score is None else \
            f"score {_e(f.score)} (best {_e(f.best)}) · progress {100 * f.progress:.0f}% · last action {_e(f.action)}"
        cards.append(f'<div class=card>{picture}<div><b>{_e(f.item)}</b><br>step {f.step}{budget} · '
                     f'{figures}{stale}</div></div>')
    parts.append(f"<div class=cards>{''.join(cards)}</div>")
    parts.append("<h2>Table so far</h2>")
    if state.records:
        res = outcome(state.records, [], GateConfig())
        table = "\n".join(format_table(res.summaries)) if res.summaries else "no scored run yet"
        if res.problem:
            table += f"\n{res.problem}"
        parts.append(f"<pre>{_e(table)}</pre>")
        rows = "".join(f"<tr><td>{_e(r.item)}</td><td>{_e(r.status)}</td>"
                       f"<td>{'solved' if r.success else '-'}</td><td>{_e(r.steps)}</td>"
                       f"<td>{100 * r.progress:.0f}%</td></tr>" for r in state.records)
        parts.append("<h2>Runs done</h2><table><tr><th>run</th><th>status</th><th>solved</th><th>steps</th>"
                     f"<th>progress</th></tr>{rows}</table>")
    else:
        parts.append("<p class=dim>no run finished yet</p>")
    return _page(f"{session.name} (live)", "".join(parts), refresh=True)


def render_sessions(results: Path, root: Path) -> str:
    """``/_live/``: the sessions that have a plan, newest first, each linking to its live page."""
    items = "".join(f'<li><a href="/_live/{_e(d.name)}/">{_e(d.name)}</a></li>' for d in live_sessions(results))
    return _page("live sessions", f"<h1>Sessions</h1><ul>{items or '<li class=dim>none yet</li>'}</ul>", refresh=True)


# The page fetches itself again and swaps its body in place (no navigation, no flicker); a failed fetch says so.
_REFRESH_JS = """<script>
setInterval(async () => {
  try {
    const r = await fetch(location.href, {cache: "no-store"});
    if (!r.ok) throw new Error("HTTP " + r.status);
    const doc = new DOMParser().parseFromString(await r.text(), "text/html");
    document.getElementById("live").replaceWith(doc.getElementById("live"));
  } catch (e) {
    document.getElementById("stale").textContent = "not refreshed: " + e.message;
  }
}, %d);
</script>""" % (REFRESH_S * 1000)  # noqa: UP031 (str.format would need every brace of the script doubled)


def _page(title: str, body: str, refresh: bool) -> str:
    script = _REFRESH_JS if refresh else ""
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{_e(title)}</title><style>
body{{font:14px system-ui,sans-serif;margin:1.5em;color:#222}} .dim{{color:#888}} .bad{{color:#b00}}
.head{{font-weight:600}} .cards{{display:flex;flex-wrap:wrap;gap:12px}}
.card{{border:1px solid #ccc;border-radius:6px;padding:8px;width:340px}} .card img{{width:100%;display:block}}
.noframe{{height:120px;display:flex;align-items:center;justify-content:center;background:#f4f4f4}}
table{{border-collapse:collapse}} td,th{{border-bottom:1px solid #eee;padding:2px 8px;text-align:left}}
pre{{background:#f7f7f7;padding:8px}}</style></head><body><p id=stale class=bad></p><div id=live>{body}</div>
{script}</body></html>"""
