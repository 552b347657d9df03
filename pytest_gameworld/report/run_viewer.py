"""A run's trajectory viewer (viewer.html beside its steps.jsonl): frames, actions, verdicts, the model's
reasoning and reply, and score/progress over steps, in one self-contained file.

Model text is untrusted: it travels as JSON inside a non-executed <script type="application/json"> with
every <, > and & escaped, and the page's only script builds the DOM with textContent. A
Content-Security-Policy that admits that one script (by hash) and data: images stops anything else.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
from pathlib import Path
from typing import Any, Iterable, Mapping

from . import charts
from ..records.jsonl import read_lines

VIEWER_NAME = "viewer.html"
PAGE_NAME = "index.html"  # the session's results page, which each viewer links back to
TEXT_LIMIT = 20_000  # characters of one reply field kept in the viewer (steps.jsonl keeps everything)
INLINE_FRAMES_LIMIT = 24 * 1024 * 1024  # bytes of frames inlined; past it frames are linked beside the file
MIME = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp"}


def safe_json(data: Any) -> str:
    """JSON that cannot end the <script> element holding it nor open markup inside it."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


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


def _turn(role: str, rec: Mapping[str, Any]) -> dict[str, Any]:
    verdict = rec.get("verdict") or {}
    reply = rec.get("reply") or {}
    return {"role": role, "validity": verdict.get("validity", "?"), "reason": verdict.get("reason") or "",
            "control": verdict.get("control") or "", "action": describe_action(verdict.get("action")),
            "calls": _clip(rec.get("calls")), "reasoning": _clip(reply.get("reasoning")),
            "text": _clip(reply.get("text")), "raw": _clip(reply.get("raw")),
            "latency_ms": rec.get("latency_ms")}


def viewer_data(lines: list[dict[str, Any]], frame_src: Mapping[str, str]) -> dict[str, Any]:
    """What the viewer shows, from a run's steps.jsonl lines (pure); frame_src maps a frame path to its URL."""
    start = next((ln for ln in lines if ln.get("event") == "start"), {})
    end = next((ln for ln in lines if ln.get("event") == "end"), {})
    steps = []
    for ln in (x for x in lines if x.get("event") == "step"):
        roles = ln.get("roles")
        turns = [_turn(n, t) for n, t in roles.items()] if isinstance(roles, dict) else [_turn(start.get("role", ""), ln)]
        steps.append({"step": ln.get("step"), "episode": ln.get("episode", 1), "score": ln.get("score"),
                      "best": ln.get("best"), "progress": ln.get("progress"), "success": ln.get("success"),
                      "reset": ln.get("reset"), "stop": ln.get("stop"), "frame": frame_src.get(ln.get("frame") or ""),
                      "state": _clip(ln.get("state")), "turns": turns})
    meta = {k: start.get(k) for k in ("item", "game", "task", "model", "seed", "repeat", "protocol")}
    outcome = {k: end.get(k) for k in ("status", "stop", "success", "progress", "error", "steps")}
    return {"meta": meta, "end": outcome, "steps": steps}


def episode_starts(steps: list[dict[str, Any]]) -> list[int]:
    """Chart x positions (1-based step numbers) where a new episode begins."""
    return [i + 1 for i in range(1, len(steps)) if steps[i]["episode"] != steps[i - 1]["episode"]]


def invalid_steps(steps: list[dict[str, Any]]) -> list[int]:
    """Chart x positions of steps where some role's action was invalid (NTC or OOS)."""
    return [i + 1 for i, s in enumerate(steps) if any(t["validity"] != "valid" for t in s["turns"])]


def _frames(run_dir: Path, lines: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each kept frame's URL: inlined as data: while within the budget, else linked beside the viewer."""
    paths = [ln["frame"] for ln in lines if ln.get("event") == "step" and ln.get("frame")]
    files = [(p, run_dir / p) for p in paths if (run_dir / p).is_file()]
    total = sum(f.stat().st_size for _, f in files)
    if total > INLINE_FRAMES_LIMIT:
        return {p: Path(p).as_posix() for p, _ in files}
    out = {}
    for p, f in files:
        mime = MIME.get(f.suffix.lstrip(".").lower(), "application/octet-stream")
        out[p] = f"data:{mime};base64," + base64.b64encode(f.read_bytes()).decode()
    return out


SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("gw-data").textContent);
  var steps = data.steps, cur = 0;
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function pct(v) { return v === null || v === undefined ? "–" : (100 * v).toFixed(0) + " %"; }
  var m = data.meta, e = data.end;
  $("title").textContent = m.item || "run";
  $("meta").textContent = [m.model, m.protocol, "seed " + m.seed, "repeat " + m.repeat].join(" · ");
  var out = $("outcome");
  if (e.status === "ok") {
    out.textContent = e.success ? "SOLVED" : "PG " + pct(e.progress);
    out.className = "badge " + (e.success ? "valid" : "unsolved");
  } else {
    out.textContent = (e.status === "interrupted" ? "INTERRUPTED: " : "FAULT: ") + (e.error || e.status || "did not finish");
    out.className = "badge fault";
  }
  var slider = $("slider");
  slider.max = Math.max(0, steps.length - 1);
  var eps = $("episodes"), seen = {};
  steps.forEach(function (s, i) {
    if (seen[s.episode] !== undefined) return;
    seen[s.episode] = i;
    var b = el("button", "ep", "episode " + s.episode + " · from step " + (i + 1));
    b.addEventListener("click", function () { show(i); });
    eps.appendChild(b);
  });
  function row(dl, k, v) { dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "", v)); }
  function block(parent, label, text, open) {
    if (!text) return;
    var d = el("details");
    d.open = !!open;
    d.appendChild(el("summary", "", label));
    d.appendChild(el("pre", "", text));
    parent.appendChild(d);
  }
  function show(i) {
    if (!steps.length) { $("stepno").textContent = "no steps were played"; return; }
    cur = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[cur];
    slider.value = cur;
    $("stepno").textContent = "step " + (cur + 1) + " / " + steps.length;
    $("episode").textContent = "episode " + s.episode + (s.reset ? " · ended (reset)" : "") + (s.stop ? " · stop: " + s.stop : "");
    var img = $("frame"), nf = $("noframe");
    if (s.frame) { img.src = s.frame; img.hidden = false; nf.hidden = true; }
    else { img.hidden = true; nf.hidden = false; }
    $("framecap").hidden = !s.frame;
    var facts = $("facts");
    facts.textContent = "";
    row(facts, "score", (s.score === null ? "–" : s.score) + "  (best " + (s.best === null ? "–" : s.best) + ")");
    row(facts, "progress", pct(s.progress) + (s.success ? "  · target reached" : ""));
    var turns = $("turns");
    turns.textContent = "";
    s.turns.forEach(function (t) {
      var box = el("div", "turn");
      var head = el("div", "turnhead");
      if (t.role && s.turns.length > 1) head.appendChild(el("span", "role", t.role));
      head.appendChild(el("span", "badge " + t.validity, t.validity.toUpperCase()));
      head.appendChild(el("span", "action", t.action));
      box.appendChild(head);
      var dl = el("dl");
      if (t.control) row(dl, "control", t.control);
      if (t.reason) row(dl, "why invalid", t.reason);
      if (t.latency_ms !== null && t.latency_ms !== undefined) row(dl, "latency", t.latency_ms + " ms");
      box.appendChild(dl);
      block(box, "reasoning", t.reasoning, true);
      block(box, "reply text", t.text, true);
      block(box, "tool calls", t.calls, false);
      block(box, "raw reply", t.raw, false);
      turns.appendChild(box);
    });
    block(turns, "state after the action", s.state, false);
    var mk = $("marker"), c = data.chart;
    if (c) {
      var x = c.left + (cur + 1) / Math.max(1e-9, c.xmax) * (c.right - c.left);
      mk.style.left = (100 * x) + "%";
      mk.hidden = false;
    }
  }
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  $("prev").addEventListener("click", function () { show(cur - 1); });
  $("next").addEventListener("click", function () { show(cur + 1); });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowLeft") { show(cur - 1); ev.preventDefault(); }
    else if (ev.key === "ArrowRight") { show(cur + 1); ev.preventDefault(); }
    else if (ev.key === "Home") { show(0); ev.preventDefault(); }
    else if (ev.key === "End") { show(steps.length - 1); ev.preventDefault(); }
  });
  show(0);
})();
"""

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:12px 22px;display:flex;gap:18px;align-items:baseline;flex-wrap:wrap}
header h1{margin:0;font-size:18px;font-family:ui-monospace,monospace}header p{margin:0;color:#c8cedb}
header a{color:#9cc3ff;margin-left:auto}main{padding:12px 22px}
.top{display:flex;gap:16px;align-items:flex-start}.framebox{flex:0 0 auto;width:min(56vw,760px)}
.framebox img{width:100%;border:1px solid #ccd;border-radius:4px;background:#000;image-rendering:auto}
.panel{flex:1 1 auto;min-width:300px;background:#fff;border:1px solid #e2e5ea;border-radius:8px;padding:10px 14px}
.stepline{font-weight:600;display:flex;gap:12px;flex-wrap:wrap}.dim{color:#8a93a3}
dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:8px 0}dt{color:#667}dd{margin:0}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;margin-right:6px}
.valid{background:#dff3e4;color:#137333}.ntc,.oos{background:#fde7c8;color:#8a4b00}
.fault{background:#fdecec;color:#b3261e}.unsolved{background:#fff3cd;color:#7a5b00}
.turn{border-top:1px solid #eceef2;padding-top:8px;margin-top:8px}.action{font-family:ui-monospace,monospace}
.role{font-weight:600;margin-right:6px}pre{white-space:pre-wrap;word-break:break-word;background:#f6f7f9;
padding:6px 8px;border-radius:4px;max-height:260px;overflow:auto;margin:4px 0;font-size:12px}
summary{cursor:pointer;color:#445}.controls{display:flex;gap:10px;align-items:center;margin:12px 0}
.controls input{flex:1}.chartbox{position:relative;background:#fff;border:1px solid #e2e5ea;border-radius:8px}
#marker{position:absolute;top:5%;bottom:19%;width:2px;background:#1d2433;opacity:.75;pointer-events:none}
svg.chart{width:100%;height:auto;display:block}.note{padding:40px 10px;text-align:center;color:#667;
background:#eef0f4;border-radius:4px}button.ep{margin:6px 6px 0 0}.caption{font-size:12px;margin:4px 0 0}#episodes{margin-top:6px}
.damaged{background:#fdecec;color:#b3261e;padding:6px 10px;border-radius:4px}
"""


def render(data: dict[str, Any], back: str | None, chart_svg: str = "") -> str:
    meta = data["meta"]
    script_hash = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    csp = f"default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'; script-src 'sha256-{script_hash}'"
    link = f'<a href="{html.escape(back)}">← results page</a>' if back else ""
    damaged = f'<p class="damaged">{html.escape(data["damaged"])}</p>' if data.get("damaged") else ""
    no_frame = ("no frame kept for this step (built-in agents keep none unless --gw-keep-frames; "
                "--gw-no-frames turns them off for provider models)")
    chart = (f'<div class="chartbox">{chart_svg}<div id="marker" hidden></div></div><p class="dim caption">'
             "dark line: this step · dashed lines: a new episode begins · orange ticks: invalid actions</p>"
             if chart_svg else
             '<p class="dim">score/progress chart: install matplotlib (pytest-gameworld[report])</p>')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>{html.escape(str(meta.get("item") or "run"))} — GameWorld trajectory</title><style>{STYLE}</style></head>
<body><header><h1 id="title"></h1><p id="meta"></p><span id="outcome" class="badge"></span>{link}</header>
<main>{damaged}<div class="top"><div class="framebox"><img id="frame" alt="the screenshot the agent saw" hidden>
<div id="noframe" class="note" hidden>{html.escape(no_frame)}</div>
<p id="framecap" class="dim caption" hidden>the screen the agent saw before this step's action</p></div>
<div class="panel"><div class="stepline"><span id="stepno"></span><span id="episode" class="dim"></span></div>
<dl id="facts"></dl><div id="turns"></div></div></div>
<div class="controls"><button id="prev" title="previous step (←)">◀</button>
<input id="slider" type="range" min="0" value="0" aria-label="step"><button id="next" title="next step (→)">▶</button>
<span class="dim">← / → step · Home / End</span></div>
{chart}<div id="episodes"></div></main>
<script type="application/json" id="gw-data">{safe_json(data)}</script>
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
    lines = read.records
    frames = _frames(run_dir, lines)
    data = viewer_data(lines, frames)
    if read.damaged:  # the readable prefix is shown; the note says where the file breaks
        first = read.damaged[0]
        data["damaged"] = (f"This trajectory is damaged: {first.path.name}:{first.line}: {first.why}. Shown: the "
                           f"{len(lines)} line(s) before it.")
    steps = data["steps"]
    chart_svg = ""
    if charts.available() and steps:
        xs = list(range(1, len(steps) + 1))
        chart = charts.step_chart(xs, [100.0 * (s["progress"] if isinstance(s["progress"], (int, float)) else 0.0)
                                       for s in steps],
                                  [s["score"] if isinstance(s["score"], (int, float)) else None for s in steps],
                                  episode_starts(steps), invalid_steps(steps), "steps")
        data["chart"] = {"left": chart.left, "right": chart.right, "xmax": chart.xmax}
        chart_svg = chart.svg
    session = session_of(run_dir)
    back = os.path.relpath(session / PAGE_NAME, run_dir.resolve()) if session else None
    path = run_dir / VIEWER_NAME
    path.write_text(render(data, back, chart_svg), encoding="utf-8")
    return path


def write_viewer_quietly(run_dir: Path) -> Path | None:
    """The viewer, or None when it cannot be written: a viewer problem never fails the run it shows."""
    try:
        return write_viewer(run_dir)
    except Exception:  # noqa: BLE001 (the run's own record and steps.jsonl are what count)
        return None


def write_missing_viewers(session_dir: Path, records: Iterable[Mapping[str, Any]]) -> None:
    """Viewers for recorded runs that have steps but no viewer yet (older sessions, killed workers)."""
    for rec in records:
        traj = rec.get("trajectory")
        run_dir = (session_dir / traj).parent if traj else None
        if run_dir and (run_dir / "steps.jsonl").is_file() and not (run_dir / VIEWER_NAME).is_file():
            write_viewer_quietly(run_dir)
