"""The run viewer's one script and its style: steps, the transcript each model received, and pointer actions
drawn on the frame. Model text only ever reaches the page through textContent."""

# The DOM helpers both static pages' scripts open with ($ by id; el builds an element, text via textContent).
DOM_HELPERS = r"""
  "use strict";
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
"""

# The run's data travels gzipped and base64-encoded (a 100-step transcript is ~350 kB of JSON, ~17 kB so):
# unpacked in the page by DecompressionStream, then the viewer starts.
SCRIPT = r"""
(function () {""" + DOM_HELPERS + r"""  function unpack(node) {
    var bin = atob(node.textContent.trim()), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }
  unpack($("gw-data")).then(start, function (err) {
    $("title").textContent = "this viewer's data could not be read: " + err;
  });
  function start(data) {
  var steps = data.steps, cur = 0, strings = data.strings || [], frames = data.frames || {};
  var frameOf = data.frame_of || {};
  var SVG = "http://www.w3.org/2000/svg";
  function str(v) { return v && typeof v === "object" && v.ref !== undefined ? strings[v.ref] : v; }
  // Halves up, as report/aggregate.py whole_percent rounds every other PG badge (12.5 % is 13 % everywhere).
  function pct(v) { return v === null || v === undefined ? "–" : Math.floor(100 * v + 0.5) + " %"; }
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
  function money(t) {
    if (m.priced === false) return "$ n/a (price unknown)";
    return t.cost_usd === null || t.cost_usd === undefined ? "–" : "$" + Number(t.cost_usd).toFixed(6);
  }
  function imagePart(p) {
    var fig = el("figure", "thumb");
    var url = p.step !== null && p.step !== undefined ? frames[frameOf[String(p.step)]] : null;
    if (url) {
      var img = el("img");
      img.src = url;
      img.alt = "the frame of step " + (p.step + 1);
      img.addEventListener("click", function () { fig.classList.toggle("big"); });
      fig.appendChild(img);
    }
    var where = p.step === null || p.step === undefined ? "" : " · the screen of step " + (p.step + 1);
    fig.appendChild(el("figcaption", "dim", p.label + where + (url ? "" : " (frame not kept)")));
    return fig;
  }
  function transcript(parent, sent) {
    if (!sent) return;
    var d = el("details", "sent");
    var n = sent.messages.length;
    d.appendChild(el("summary", "", "messages sent (" + n + (sent.api ? ", " + sent.api : "") + ")"));
    sent.messages.forEach(function (msg) {
      var box = el("div", "msg");
      box.appendChild(el("div", "msgrole", msg.role));
      msg.parts.forEach(function (p) {
        if (p.t === "image") box.appendChild(imagePart(p));
        else box.appendChild(el("pre", p.t === "json" ? "json" : "", str(p.text)));
      });
      d.appendChild(box);
    });
    if (sent.tools) block(d, "tool schema (" + sent.tool_count + " tool" + (sent.tool_count === 1 ? "" : "s") + ")", str(sent.tools), false);
    if (sent.settings) block(d, "request settings", str(sent.settings), false);
    parent.appendChild(d);
  }
  function num(v) { return typeof v === "number" && isFinite(v); }
  function point(a, xk, yk) { return a && num(a[xk]) && num(a[yk]) ? [a[xk], a[yk]] : null; }
  function svgEl(tag, attrs) {
    var n = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    return n;
  }
  // Pointer actions are in screen pixels; the frame may be smaller (or larger): draw in its own pixels.
  function drawPointers(s) {
    var svg = $("pointer"), img = $("frame"), cap = $("pointercap");
    svg.textContent = ""; cap.textContent = "";
    if (!s.frame || !img.naturalWidth) { svg.hidden = true; return; }
    var fw = img.naturalWidth, fh = img.naturalHeight;
    var vp = m.viewport || {width: fw, height: fh};
    var sx = fw / vp.width, sy = fh / vp.height, r = Math.max(4, fw / 80), lines = [];
    svg.setAttribute("viewBox", "0 0 " + fw + " " + fh);
    s.turns.forEach(function (t) {
      var a = t.validity === "valid" ? t.act : t.proposed, kind = t.validity === "valid" ? (a && a.kind) : t.proposed_name;
      var p = point(a, "x", "y");
      if (!p) return;
      var cls = "ptr " + (t.validity === "valid" ? "ok" : "bad"), x = p[0] * sx, y = p[1] * sy;
      var to = point(a, "to_x", "to_y");
      if (to) {
        svg.appendChild(svgEl("line", {x1: x, y1: y, x2: to[0] * sx, y2: to[1] * sy, "class": cls + (kind === "mouse_move" ? " move" : "")}));
        svg.appendChild(svgEl("circle", {cx: to[0] * sx, cy: to[1] * sy, r: r * 0.7, "class": cls + " end"}));
      }
      if (kind === "scroll") {
        var dx = num(a.dx) ? a.dx : 0, dy = num(a.dy) ? a.dy : 0, len = Math.sqrt(dx * dx + dy * dy) || 1;
        svg.appendChild(svgEl("line", {x1: x, y1: y, x2: x + 4 * r * dx / len, y2: y + 4 * r * dy / len, "class": cls + " scroll"}));
      }
      svg.appendChild(svgEl("circle", {cx: x, cy: y, r: r, "class": cls + (kind === "mouse_move" && !to ? " move" : "")}));
      svg.appendChild(svgEl("line", {x1: x - 2 * r, y1: y, x2: x + 2 * r, y2: y, "class": cls + " cross"}));
      svg.appendChild(svgEl("line", {x1: x, y1: y - 2 * r, x2: x, y2: y + 2 * r, "class": cls + " cross"}));
      lines.push((t.validity === "valid" ? "" : "rejected ") + kind + " at (" + p[0] + ", " + p[1] + ") on the " +
                 vp.width + "×" + vp.height + " screen = (" + Math.round(x) + ", " + Math.round(y) + ") in this " + fw + "×" + fh + " frame" +
                 (to ? " → (" + to[0] + ", " + to[1] + ")" : ""));
    });
    svg.hidden = !lines.length;
    cap.textContent = lines.join(" · ");
  }
  function show(i) {
    if (!steps.length) { $("stepno").textContent = "no steps were played"; return; }
    cur = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[cur];
    slider.value = cur;
    $("stepno").textContent = "step " + (cur + 1) + " / " + steps.length;
    $("episode").textContent = "episode " + s.episode + (s.reset ? " · ended (reset)" : "") + (s.stop ? " · stop: " + s.stop : "");
    var img = $("frame"), nf = $("noframe"), url = s.frame ? frames[s.frame] : null;
    $("pointer").hidden = true;
    if (url) { img.src = url; img.hidden = false; nf.hidden = true; }
    else { img.removeAttribute("src"); img.hidden = true; nf.hidden = false; }
    $("framecap").hidden = !url;
    if (url && img.complete && img.naturalWidth) drawPointers(s);
    var facts = $("facts");
    facts.textContent = "";
    row(facts, "score", (s.score === null ? "–" : s.score) + "  (best " + (s.best === null ? "–" : s.best) + ")");
    row(facts, "progress", pct(s.progress) + (s.success ? "  · target reached" : ""));
    if (s.notice) row(facts, "told before this step", s.notice);
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
      if (t.usage) row(dl, "tokens", "in " + t.usage.input_tokens + " · out " + t.usage.output_tokens + " · cached " + t.usage.cached_tokens);
      if (t.usage) row(dl, "cost", money(t));
      if (t.latency_ms !== null && t.latency_ms !== undefined) row(dl, "latency", t.latency_ms + " ms");
      if (t.sent || t.retries.length) row(dl, "retries", t.retries.length ? t.retries.length + ": " + t.retries.join(" · ") : "none");
      box.appendChild(dl);
      transcript(box, t.sent);
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
  $("frame").addEventListener("load", function () { if (steps.length) drawPointers(steps[cur]); });
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
  document.body.dataset.ready = "1";  // the data is unpacked and the keys work (tests wait for this)
  }
})();
"""

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:12px 22px;display:flex;gap:18px;align-items:baseline;flex-wrap:wrap}
header h1{margin:0;font-size:18px;font-family:ui-monospace,monospace}header p{margin:0;color:#c8cedb}
header a{color:#9cc3ff}header a:first-of-type{margin-left:auto}main{padding:12px 22px}
.top{display:flex;gap:16px;align-items:flex-start}.framebox{flex:0 1 auto;max-width:min(56vw,1280px)}
.shot{position:relative;display:inline-block;max-width:100%;line-height:0}
.shot img{max-width:100%;height:auto;border:1px solid #ccd;border-radius:4px;background:#000}
#pointer{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none}
.ptr{fill:none;stroke-width:3;vector-effect:non-scaling-stroke}.ptr.ok{stroke:#ff2d55}.ptr.bad{stroke:#ffb000;stroke-dasharray:4 3}
.ptr.end{fill:rgba(255,45,85,.35)}.ptr.move{stroke-dasharray:6 4}.ptr.cross{stroke-width:1.5}
.panel{flex:1 1 auto;min-width:300px;background:#fff;border:1px solid #e2e5ea;border-radius:8px;padding:10px 14px}
.stepline{font-weight:600;display:flex;gap:12px;flex-wrap:wrap}.dim{color:#8a93a3}
dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:8px 0}dt{color:#667}dd{margin:0}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;margin-right:6px}
.valid{background:#dff3e4;color:#137333}.ntc,.oos{background:#fde7c8;color:#8a4b00}
.fault{background:#fdecec;color:#b3261e}.unsolved{background:#fff3cd;color:#7a5b00}
.turn{border-top:1px solid #eceef2;padding-top:8px;margin-top:8px}.action{font-family:ui-monospace,monospace}
.role{font-weight:600;margin-right:6px}pre{white-space:pre-wrap;word-break:break-word;background:#f6f7f9;
padding:6px 8px;border-radius:4px;max-height:260px;overflow:auto;margin:4px 0;font-size:12px}
pre.json{background:#f1f3f8;color:#445}
.msg{border-left:3px solid #c9d3e6;padding:2px 0 2px 8px;margin:6px 0}.msgrole{font-weight:600;font-size:12px;
text-transform:uppercase;letter-spacing:.04em;color:#3b5b92}
figure.thumb{margin:4px 0}figure.thumb img{width:160px;border:1px solid #ccd;border-radius:3px;cursor:zoom-in}
figure.thumb.big img{width:100%;cursor:zoom-out}figcaption{font-size:11px}
summary{cursor:pointer;color:#445}.controls{display:flex;gap:10px;align-items:center;margin:12px 0}
.controls input{flex:1}.chartbox{position:relative;background:#fff;border:1px solid #e2e5ea;border-radius:8px}
#marker{position:absolute;top:5%;bottom:19%;width:2px;background:#1d2433;opacity:.75;pointer-events:none}
svg.chart{width:100%;height:auto;display:block}.note{padding:40px 10px;text-align:center;color:#667;
background:#eef0f4;border-radius:4px}button.ep{margin:6px 6px 0 0}.caption{font-size:12px;margin:4px 0 0}#episodes{margin-top:6px}
.damaged{background:#fdecec;color:#b3261e;padding:6px 10px;border-radius:4px}
"""
