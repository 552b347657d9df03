"""The `gameworld view` page: sessions and runs, sortable and filterable, and one task compared across
sessions and models. One static file; its data travels as escaped JSON and its one script builds the DOM
with textContent (the same guard as the run viewer)."""

from __future__ import annotations

import base64
import hashlib
import html
from typing import Any

from .run_viewer import safe_json
from .viewer_script import DOM_HELPERS

INDEX_NAME = "index.html"

SCRIPT = r"""
(function () {""" + DOM_HELPERS + r"""  var data = JSON.parse($("gw-data").textContent);
  function link(href, text) { var a = el("a", "", text); a.href = href; return a; }
  function num(v, d) { return v === null || v === undefined ? "–" : Number(v).toFixed(d === undefined ? 1 : d); }
  // A sortable, filterable table: cols [{key, label, cell(row) -> Node|string, sort(row) -> value}].
  function table(host, cols, rows, state, keep) {
    host.textContent = "";
    var t = el("table"), head = el("tr");
    cols.forEach(function (c) {
      var th = el("th", state.key === c.key ? "sorted " + (state.desc ? "desc" : "asc") : "", c.label);
      th.dataset.key = c.key;
      th.title = "sort by " + c.label;
      th.addEventListener("click", function () {
        state.desc = state.key === c.key ? !state.desc : false;
        state.key = c.key;
        table(host, cols, rows, state, keep);
      });
      head.appendChild(th);
    });
    t.appendChild(el("thead")).appendChild(head);
    var body = el("tbody"), col = cols.filter(function (c) { return c.key === state.key; })[0];
    var shown = rows.filter(keep);
    if (col) {
      shown.sort(function (a, b) {
        var x = col.sort ? col.sort(a) : a[col.key], y = col.sort ? col.sort(b) : b[col.key];
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * (state.desc ? -1 : 1);
      });
    }
    shown.forEach(function (r) {
      var tr = el("tr", r.cls || "");
      cols.forEach(function (c) {
        var td = el("td"), v = c.cell ? c.cell(r) : r[c.key];
        if (v && v.nodeType) td.appendChild(v); else td.textContent = v === null || v === undefined ? "" : String(v);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    t.appendChild(body);
    host.appendChild(t);
    host.appendChild(el("p", "dim count", shown.length + " of " + rows.length + " shown"));
  }
  function matches(text, row, keys) {
    if (!text) return true;
    var hay = keys.map(function (k) { return row[k] === null || row[k] === undefined ? "" : String(row[k]); }).join(" ").toLowerCase();
    return text.toLowerCase().split(/\s+/).every(function (w) { return hay.indexOf(w) >= 0; });
  }
  function options(select, values, all) {
    select.appendChild(el("option", "", all)).value = "";
    values.forEach(function (v) { select.appendChild(el("option", "", v)).value = v; });
  }
  function uniq(rows, key) { var s = {}; rows.forEach(function (r) { s[r[key]] = 1; }); return Object.keys(s).sort(); }

  // ---------------------------------------------------------------- sessions (one row per session × model)
  var srows = [];
  data.sessions.forEach(function (s) {
    var base = {session: s.name, date: s.date, protocol: s.protocol, missing: s.missing, page: s.page,
                marks: s.marks, damaged: s.damaged, problem: s.problem,
                cls: s.problem ? "fault" : (s.marks.length || s.damaged.length ? "marked" : "")};
    if (!s.models.length) srows.push(Object.assign({model: "–", interface: "", sr: null, pg: null, normalized: null, runs: s.runs}, base));
    s.models.forEach(function (m) { srows.push(Object.assign({}, m, base)); });
  });
  var sstate = {key: "date", desc: true};
  var scols = [
    {key: "session", label: "session", cell: function (r) { return r.page ? link(r.page, r.session) : r.session; }},
    {key: "date", label: "date"}, {key: "model", label: "model"}, {key: "interface", label: "interface"},
    {key: "protocol", label: "protocol"},
    {key: "sr", label: "SR %", cell: function (r) { return num(r.sr); }},
    {key: "pg", label: "PG %", cell: function (r) { return num(r.pg); }},
    {key: "normalized", label: "normalized", cell: function (r) { return num(r.normalized); }},
    {key: "runs", label: "runs"}, {key: "missing", label: "missing"},
    {key: "marks", label: "marks", sort: function (r) { return r.marks.length + r.damaged.length + (r.problem ? 100 : 0); },
     cell: function (r) {
      var box = el("span");
      if (r.problem) box.appendChild(el("span", "tag bad", "not aggregated: " + r.problem));
      if (r.marks.length) box.appendChild(el("span", "tag", "non-standard (" + r.marks.length + ")"));
      if (r.damaged.length) box.appendChild(el("span", "tag bad", "damaged lines (" + r.damaged.length + ")"));
      r.marks.concat(r.damaged.map(function (d) { return "damaged line " + d; })).forEach(function (t) {
        box.appendChild(el("div", "dim small", t)); });
      return box; }}];
  function drawSessions() {
    var q = $("sfilter").value;
    table($("sessions"), scols, srows, sstate, function (r) {
      return matches(q, r, ["session", "model", "interface", "protocol", "date"]) ; });
  }
  $("sfilter").addEventListener("input", drawSessions);

  // ---------------------------------------------------------------- runs
  var runs = data.runs.map(function (r) {
    return Object.assign({cls: r.status !== "ok" ? "fault" : (r.success ? "solved" : "")}, r); });
  var rstate = {key: "task", desc: false};
  function links(r) {
    var box = el("span");
    if (r.viewer) box.appendChild(link(r.viewer, "viewer"));
    if (r.trace) { box.appendChild(document.createTextNode(" ")); box.appendChild(link(r.trace, "trace")); }
    return box;
  }
  var rcols = [
    {key: "session", label: "session"}, {key: "task", label: "task"}, {key: "game", label: "game"},
    {key: "model", label: "model"}, {key: "repeat", label: "repeat"},
    {key: "outcome", label: "outcome", cell: function (r) { return r.outcome + (r.error ? ": " + r.error : ""); }},
    {key: "progress", label: "PG %", cell: function (r) { return r.progress === null ? "–" : num(100 * r.progress, 0); }},
    {key: "steps", label: "steps"}, {key: "viewer", label: "", cell: links}];
  options($("rsession"), uniq(runs, "session"), "every session");
  options($("rmodel"), uniq(runs, "model"), "every model");
  function drawRuns() {
    var q = $("rfilter").value, st = $("rstatus").value, se = $("rsession").value, mo = $("rmodel").value;
    table($("runs"), rcols, runs, rstate, function (r) {
      if (se && r.session !== se) return false;
      if (mo && r.model !== mo) return false;
      if (st === "solved" && !r.success) return false;
      if (st === "unsolved" && (r.success || r.status !== "ok")) return false;
      if (st === "fault" && r.status === "ok") return false;
      return matches(q, r, ["item", "task", "game", "genre", "model", "session", "outcome", "error"]);
    });
  }
  ["rfilter", "rstatus", "rsession", "rmodel"].forEach(function (id) { $(id).addEventListener("input", drawRuns); });

  // ---------------------------------------------------------------- one task across sessions and models
  var tasks = uniq(runs, "task");
  options($("task"), tasks, "choose a task");
  function drawTask() {
    var task = $("task").value, host = $("compare");
    host.textContent = "";
    if (!task) { host.appendChild(el("p", "dim", "Choose a task to see its runs side by side.")); return; }
    var these = runs.filter(function (r) { return r.task === task; });
    var sessions = uniq(these, "session"), models = uniq(these, "model");
    var t = el("table", "compare"), head = el("tr");
    head.appendChild(el("th", "", "model \\ session"));
    sessions.forEach(function (s) { head.appendChild(el("th", "", s)); });
    t.appendChild(el("thead")).appendChild(head);
    var body = el("tbody");
    models.forEach(function (m) {
      var tr = el("tr");
      tr.appendChild(el("th", "", m));
      sessions.forEach(function (s) {
        var cell = el("td"), rs = these.filter(function (r) { return r.session === s && r.model === m; });
        if (!rs.length) { cell.textContent = "–"; cell.className = "dim"; }
        else {
          var scored = rs.filter(function (r) { return r.status === "ok"; });
          var solved = scored.filter(function (r) { return r.success; }).length;
          var pg = scored.length ? scored.reduce(function (a, r) { return a + r.progress; }, 0) / scored.length : null;
          cell.appendChild(el("div", "big", "SR " + solved + "/" + scored.length + " · PG " + (pg === null ? "–" : num(100 * pg, 0) + " %")));
          rs.forEach(function (r) {
            var line = el("div", "small " + (r.status !== "ok" ? "fault" : (r.success ? "solved" : "")));
            line.appendChild(document.createTextNode("r" + r.repeat + " " + r.outcome + (r.progress !== null ? " " + num(100 * r.progress, 0) + " %" : "") + " · " + r.steps + " steps "));
            line.appendChild(links(r));
            cell.appendChild(line);
          });
        }
        tr.appendChild(cell);
      });
      body.appendChild(tr);
    });
    t.appendChild(body);
    host.appendChild(t);
  }
  $("task").addEventListener("input", drawTask);
  drawSessions(); drawRuns(); drawTask();
})();
"""

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:12px 22px}header h1{margin:0;font-size:20px}header p{margin:2px 0 0;color:#c8cedb}
main{padding:8px 22px 30px}section{background:#fff;border:1px solid #e2e5ea;border-radius:8px;padding:10px 14px;margin:12px 0}
h2{font-size:16px;margin:2px 0 8px}table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border-bottom:1px solid #eceef2;padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:#f1f3f8;cursor:pointer;user-select:none;white-space:nowrap}thead th.sorted.asc::after{content:" ▲"}
thead th.sorted.desc::after{content:" ▼"}tr.fault td{background:#fdf1f0}tr.solved td{background:#eef8f0}
tr.marked td{background:#fffaf0}.tag{display:inline-block;padding:0 7px;border-radius:9px;background:#fde7c8;color:#8a4b00;
font-size:12px;margin-right:4px}.tag.bad{background:#fdecec;color:#b3261e}.dim{color:#8a93a3}.small{font-size:12px}
.filters{display:flex;gap:8px;flex-wrap:wrap;margin-bottom:6px}.filters input{min-width:260px}
table.compare td{min-width:160px}.big{font-weight:600}div.fault{color:#b3261e}div.solved{color:#137333}.count{margin:4px 0 0}
"""


def render(data: dict[str, Any], generated: str) -> str:
    """The index page for collect()'s data."""
    digest = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    csp = f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'"
    n_s, n_r = len(data["sessions"]), len(data["runs"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{csp}">
<title>GameWorld sessions</title><style>{STYLE}</style></head>
<body><header><h1>GameWorld sessions</h1><p>{n_s} session(s), {n_r} run(s) under {html.escape(data["results"])} ·
generated {html.escape(generated)} · click a column to sort</p></header><main>
<section><h2>Sessions</h2><div class="filters"><input id="sfilter" type="search"
placeholder="filter: session, model, interface, protocol, date" aria-label="filter sessions"></div>
<div id="sessions"></div><p class="dim small">One row per session and model. SR: success rate, PG: mean progress
(both %), normalized: progress between the random and oracle baselines; marks: how a session differs from the
standard protocol (its figures are not comparable with the paper's), damaged lines of its results.jsonl.</p></section>
<section><h2>Runs</h2><div class="filters"><input id="rfilter" type="search" placeholder="filter: task, game, model, error"
aria-label="filter runs"><select id="rstatus" aria-label="outcome"><option value="">every outcome</option>
<option value="solved">solved</option><option value="unsolved">unsolved</option><option value="fault">fault /
not played</option></select><select id="rsession" aria-label="session"></select><select id="rmodel"
aria-label="model"></select></div><div id="runs"></div></section>
<section><h2>One task, side by side</h2><div class="filters"><select id="task" aria-label="task"></select></div>
<div id="compare"></div></section></main>
<script type="application/json" id="gw-data">{safe_json(data)}</script>
<script>{SCRIPT}</script></body></html>
"""
