"""A run's trajectory viewer (viewer.html beside its steps.jsonl): frames, actions, verdicts, the model's
reasoning and reply, and score/progress over steps, in one self-contained file.

Model text is untrusted: it travels as gzipped JSON in base64 (no markup can survive that) inside a non-executed
<script type="application/gzip">, and the page's only script builds the DOM with textContent. A
Content-Security-Policy that admits that one script (by hash) and data: or same-folder images stops anything else.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..records.jsonl import read_lines, write_file
from ..records.run_events import END, START, STEP
from ..records.run_record import RunRecord
from ..records.shared_values import resolve
from . import charts
from .transcript import Strings, messages
from .viewer_script import SCRIPT, STYLE

VIEWER_NAME = "viewer.html"
PAGE_NAME = "index.html"  # the session's results page, which each viewer links back to
TRACE_NAME = "trace.zip"  # a run's Playwright trace beside its steps.jsonl (--gw-tracing)
TEXT_LIMIT = 20_000  # characters of one reply field kept in the viewer (steps.jsonl keeps everything)
INLINE_FRAMES_LIMIT = 64 * 1024  # bytes of frames inlined (a short run stays one file); past it they are linked, not copied
ECHO = "(as in the request: see the messages sent)"
MIME = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp"}


def safe_json(data: Any) -> str:
    """JSON that cannot end the <script> element holding it nor open markup inside it."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def pack_data(data: Any) -> str:
    """A viewer's data as the page carries it: JSON, gzipped (no timestamp: same run, same bytes), base64."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)).decode("ascii")


def read_viewer_data(page: str) -> dict[str, Any]:
    """The data a viewer.html carries (for tools and tests reading a viewer without a browser)."""
    packed = page.split('id="gw-data">', 1)[1].split("</script>", 1)[0]
    data: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(packed)))
    return data


def _clip(value: Any) -> str:
    """A reply field as display text: strings as they are, anything else as indented JSON, bounded."""
    if value is None or value == "":
        return ""
    text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + f"\n… ({len(text) - TEXT_LIMIT} more characters)"


def describe_action(action: Mapping[str, Any] | None) -> str:
    """The executed low-level action in one line, e.g. `press_key ArrowLeft · 200 ms`."""
    if not action:
        return "none"
    parts = [str(action.get("kind", "?"))]
    if action.get("keys"):
        parts.append("+".join("Space" if k == " " else str(k) for k in action["keys"]))
    if action.get("x") is not None and action.get("y") is not None:
        parts.append(f"at ({action['x']}, {action['y']})")
    if action.get("to_x") is not None:
        parts.append(f"to ({action.get('to_x')}, {action.get('to_y')})")
    if action.get("text"):
        parts.append(repr(action["text"]))
    if action.get("kind") in ("click", "click_hold", "drag") and action.get("button") not in (None, "left"):
        parts.append(f"{action['button']} button")
    return " ".join(parts) + f" · {action.get('duration_ms', 0)} ms"


def _without_echo(raw: Any, request: Any) -> Any:
    """A raw reply without what it echoes of its request (a Responses reply repeats the instructions and tools
    every step): the viewer shows those once, under the messages sent."""
    if not isinstance(raw, dict) or not isinstance(request, dict):
        return raw
    return {k: ECHO if v and request.get(k) == v else v for k, v in raw.items()}


def _turn(role: str, rec: Mapping[str, Any], strings: Strings) -> dict[str, Any]:
    verdict = rec.get("verdict") or {}
    reply = rec.get("reply") or {}
    calls = rec.get("calls") if isinstance(rec.get("calls"), list) else []
    first = calls[0] if calls and isinstance(calls[0], dict) else {}
    usage = rec.get("usage") if isinstance(rec.get("usage"), dict) else None
    retries = given if isinstance(given := rec.get("retries"), list) else []
    return {"role": role, "validity": verdict.get("validity", "?"), "reason": verdict.get("reason") or "",
            "control": verdict.get("control") or "", "action": describe_action(verdict.get("action")),
            "act": verdict.get("action") if isinstance(verdict.get("action"), dict) else None,
            "proposed": first.get("args") if isinstance(first.get("args"), dict) else None,
            "proposed_name": first.get("name"),
            "calls": _clip(rec.get("calls")), "reasoning": _clip(reply.get("reasoning")),
            "text": _clip(reply.get("text")), "raw": _clip(_without_echo(reply.get("raw"), rec.get("request"))),
            "latency_ms": rec.get("latency_ms"), "usage": usage, "cost_usd": rec.get("cost_usd"),
            "retries": [_clip(r) for r in retries], "sent": messages(rec.get("request"), lambda t: strings(_clip(t)))}


def viewer_data(lines: list[dict[str, Any]], frame_src: Mapping[str, str]) -> dict[str, Any]:
    """What the viewer shows, from a run's steps.jsonl lines (pure); frame_src maps a frame path to its URL."""
    start = next((ln for ln in lines if ln.get("event") == START), {})
    end = next((ln for ln in lines if ln.get("event") == END), {})
    strings = Strings()
    steps, frames, frame_of = [], {}, {}
    for ln in (x for x in lines if x.get("event") == STEP):
        roles = ln.get("roles")
        turns = ([_turn(n, t, strings) for n, t in roles.items()] if isinstance(roles, dict)
                 else [_turn(start.get("role", ""), ln, strings)])
        path = given if isinstance(given := ln.get("frame"), str) else ""
        url = frame_src.get(path)
        if url:  # one copy per file: steps whose screen did not change name the same one
            frames[path] = url
            if isinstance(ln.get("step"), int):
                frame_of[str(ln["step"])] = path  # a history image names its step
        steps.append({"step": ln.get("step"), "episode": ln.get("episode", 1), "score": ln.get("score"),
                      "best": ln.get("best"), "progress": ln.get("progress"), "success": ln.get("success"),
                      "reset": ln.get("reset"), "stop": ln.get("stop"), "notice": _clip(ln.get("notice")),
                      "frame": path if url else None,
                      "state": _clip(ln.get("state")), "turns": turns})
    meta = {k: start.get(k) for k in ("item", "game", "task", "model", "seed", "repeat", "protocol", "priced",
                                      "viewport")}
    outcome = {k: end.get(k) for k in ("status", "stop", "success", "progress", "error", "steps")}
    return {"meta": meta, "end": outcome, "steps": steps, "frames": frames, "frame_of": frame_of,
            "strings": strings.table}


def episode_starts(steps: list[dict[str, Any]]) -> list[int]:
    """Chart x positions (1-based step numbers) where a new episode begins."""
    return [i + 1 for i in range(1, len(steps)) if steps[i]["episode"] != steps[i - 1]["episode"]]


def invalid_steps(steps: list[dict[str, Any]]) -> list[int]:
    """Chart x positions of steps where some role's action was invalid (NTC or OOS)."""
    return [i + 1 for i, s in enumerate(steps) if any(t["validity"] != "valid" for t in s["turns"])]


def _frames(run_dir: Path, lines: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each kept frame's URL: inlined as data: while within the budget, else linked beside the viewer."""
    paths = list(dict.fromkeys(ln["frame"] for ln in lines if ln.get("event") == STEP and ln.get("frame")))
    files = [(p, run_dir / p) for p in paths if (run_dir / p).is_file()]
    total = sum(f.stat().st_size for _, f in files)
    if total > INLINE_FRAMES_LIMIT:
        return {p: Path(p).as_posix() for p, _ in files}
    out = {}
    for p, f in files:
        mime = MIME.get(f.suffix.lstrip(".").lower(), "application/octet-stream")
        out[p] = f"data:{mime};base64," + base64.b64encode(f.read_bytes()).decode()
    return out


def render(data: dict[str, Any], back: str | None, chart_svg: str = "", trace: str | None = None) -> str:
    meta = data["meta"]
    script_hash = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    csp = f"default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'; script-src 'sha256-{script_hash}'"
    link = f'<a href="{html.escape(back)}">← results page</a>' if back else ""
    if trace:  # a zip the browser downloads; `playwright show-trace` (or trace.playwright.dev) opens it
        link += (f' <a href="{html.escape(trace)}" download title="open with: playwright show-trace '
                 f'{html.escape(trace)}">Playwright trace</a>')
    damaged = f'<p class="damaged">{html.escape(data["damaged"])}</p>' if data.get("damaged") else ""
    no_frame = ("no frame kept for this step (built-in agents keep none unless --gw-keep-frames; "
                "--gw-no-frames turns them off for provider models)")
    chart = (f'<div class="chartbox">{chart_svg}<div id="marker" hidden></div></div><p class="dim caption">'
             "dark line: this step · dashed lines: a new episode begins · orange ticks: invalid actions</p>"
             if chart_svg else '<p class="dim">no steps to chart</p>')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>{html.escape(str(meta.get("item") or "run"))} — GameWorld trajectory</title><style>{STYLE}</style></head>
<body><header><h1 id="title"></h1><p id="meta"></p><span id="outcome" class="badge"></span>{link}</header>
<main>{damaged}<div class="top"><div class="framebox"><div class="shot"><img id="frame"
alt="the screenshot the agent saw" hidden><svg id="pointer" hidden aria-label="this step's pointer action"></svg></div>
<div id="noframe" class="note" hidden>{html.escape(no_frame)}</div>
<p id="framecap" class="dim caption" hidden>the screen the agent saw before this step's action; red: its pointer
action, dashed amber: a rejected one</p><p id="pointercap" class="caption"></p></div>
<div class="panel"><div class="stepline"><span id="stepno"></span><span id="episode" class="dim"></span></div>
<dl id="facts"></dl><div id="turns"></div></div></div>
<div class="controls"><button id="prev" title="previous step (←)">◀</button>
<input id="slider" type="range" min="0" value="0" aria-label="step"><button id="next" title="next step (→)">▶</button>
<span class="dim">← / → step · Home / End</span></div>
{chart}<div id="episodes"></div></main>
<script type="application/gzip" id="gw-data">{pack_data(data)}</script>
<script>{SCRIPT}</script></body></html>
"""


def session_of(run_dir: Path) -> Path | None:
    """The session folder above a run folder (the parent of its `runs` ancestor)."""
    for parent in run_dir.resolve().parents:
        if parent.name == "runs":
            return parent.parent
    return None


def write_viewer(run_dir: Path) -> Path:
    """Write run_dir/viewer.html from its steps.jsonl and kept frames; returns its path."""
    read = read_lines(run_dir / "steps.jsonl", prefix=True)
    lines = resolve(read.records)  # what steps share is written once; each step is shown whole
    frames = _frames(run_dir, lines)
    data = viewer_data(lines, frames)
    if read.damaged:  # the readable prefix is shown; the note says where the file breaks
        first = read.damaged[0]
        data["damaged"] = (f"This trajectory is damaged: {first.path.name}:{first.line}: {first.why}. Shown: the "
                           f"{len(lines)} line(s) before it.")
    steps = data["steps"]
    chart_svg = ""
    if steps:
        xs = list(range(1, len(steps) + 1))
        chart = charts.step_chart(xs, [100.0 * (s["progress"] if isinstance(s["progress"], (int, float)) else 0.0)
                                       for s in steps],
                                  [s["score"] if isinstance(s["score"], (int, float)) else None for s in steps],
                                  episode_starts(steps), invalid_steps(steps))
        data["chart"] = {"left": chart.left, "right": chart.right, "xmax": chart.xmax}
        chart_svg = chart.svg
    session = session_of(run_dir)
    back = os.path.relpath(session / PAGE_NAME, run_dir.resolve()) if session else None
    path = run_dir / VIEWER_NAME
    trace = TRACE_NAME if (run_dir / TRACE_NAME).is_file() else None
    write_file(path, render(data, back, chart_svg, trace))  # whole or not at all: never a viewer cut short
    return path


def write_viewer_quietly(run_dir: Path) -> Path | None:
    """The viewer, or None when it cannot be written: a viewer problem never fails the run it shows."""
    try:
        return write_viewer(run_dir)
    except Exception:  # noqa: BLE001 (the run's own record and steps.jsonl are what count)
        return None


def write_missing_viewers(session_dir: Path, records: Iterable[RunRecord]) -> None:
    """Viewers for recorded runs that have steps but no viewer yet (older sessions, killed workers)."""
    for rec in records:
        traj = rec.trajectory
        run_dir = (session_dir / traj).parent if traj else None
        if run_dir and (run_dir / "steps.jsonl").is_file() and not (run_dir / VIEWER_NAME).is_file():
            write_viewer_quietly(run_dir)
