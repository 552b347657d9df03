"""The page a person plays on (`gameworld human`): the game's frame, the task, the role's controls, the step
count and the scores; each key press or click on the frame is sent back as one action (pure: text only)."""

from __future__ import annotations

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GameWorld: human run</title>
<style>
body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#16181d;color:#e8e8e8;display:flex;gap:16px;padding:12px}
#left{flex:0 0 auto}#right{flex:1 1 320px;max-width:440px}
#frame{display:block;width:960px;max-width:calc(100vw - 480px);border:3px solid #444;cursor:crosshair;background:#000}
#frame.live{border-color:#3c9}#frame.wait{border-color:#666;opacity:.85}
h1{font-size:18px;margin:0 0 6px}h2{font-size:14px;margin:14px 0 4px;color:#9ab}
.bar{display:flex;gap:14px;font-size:16px;margin:6px 0}.bar b{color:#fff}
#msg{min-height:1.4em;margin:6px 0;font-weight:600}#msg.bad{color:#f77}#msg.ok{color:#7d7}#msg.info{color:#fc6}
#turn{font-size:16px;color:#fc6;margin:4px 0}
code{background:#2a2d35;padding:1px 4px;border-radius:3px}ul{margin:4px 0;padding-left:18px}
.dim{color:#889}#task{white-space:pre-wrap}#state{background:#22252c;padding:6px;max-width:960px;white-space:pre-wrap;margin:6px 0}
</style></head>
<body>
<div id="left">
  <img id="frame" alt="the game's current frame" tabindex="0">
  <div class="bar"><span>step <b id="step">–</b> / <b id="max">–</b></span>
    <span>task score <b id="score">–</b></span><span>best <b id="best">–</b></span>
    <span>target <b id="target">–</b></span><span id="protocol" class="dim"></span></div>
  <pre id="state" hidden></pre>
  <div id="turn"></div>
  <div id="msg" class="info">connecting…</div>
</div>
<div id="right">
  <h1 id="game">GameWorld</h1>
  <div id="who" class="dim"></div>
  <h2>Task</h2><div id="task"></div>
  <h2>Your role</h2><div id="role"></div>
  <h2>Keys you may press</h2><div id="keys"></div>
  <h2>Controls</h2><ul id="controls"></ul>
  <h2>How it works</h2>
  <div class="dim" id="how">Each key press, or each click on the game's frame, is one action; the game runs
  for that action's time and then waits for your next one. A key or click the role may not use is refused
  and counted as an invalid action, as a model's would be.</div>
</div>
<script>
"use strict";
let version = 0, live = false, view = null, ended = false;
const $ = (id) => document.getElementById(id);
const frame = $("frame");
function say(text, kind) { const m = $("msg"); m.textContent = text; m.className = kind || "info"; }
function text(id, value) { $(id).textContent = value === null || value === undefined ? "–" : String(value); }
function render(v) {
  view = v; version = v.version;
  if (v.image) frame.src = v.image;
  live = !!v.waiting;
  frame.className = live ? "live" : "wait";
  if (v.run) {
    const r = v.run;
    text("game", r.game); text("who", r.player + " · " + r.item); text("task", r.instruction);
    text("role", r.role_description); text("target", r.target);
    $("keys").innerHTML = "";
    const keys = document.createElement("div");
    keys.textContent = r.any_key ? "any key" : (r.keys.length ? r.keys.map((k) => k === " " ? "Space" : k).join(", ") : "none");
    $("keys").appendChild(keys);
    if (r.clicks) { const c = document.createElement("div"); c.textContent = "mouse: left click (and right click) on the frame"; $("keys").appendChild(c); }
    $("controls").innerHTML = "";
    for (const c of r.controls) { const li = document.createElement("li"); li.textContent = c; $("controls").appendChild(li); }
    text("protocol", r.realtime ? "real time: the game moves on while you think" : "paused: the game waits for you");
  }
  $("state").hidden = !v.state_text; text("state", v.state_text || "");
  text("step", v.step === null || v.step === undefined ? null : v.step + 1); text("max", v.max_steps);
  text("score", v.score); text("best", v.best);
  $("turn").textContent = v.turn || "";
  ended = !!v.done;
  if (v.message) say(v.message, v.message_kind);
  else say(live ? "your move" : (v.done ? "run over" : "waiting for the game…"), live ? "ok" : "info");
}
async function poll() {
  for (;;) {
    try {
      const r = await fetch("/view?after=" + version, {cache: "no-store"});
      if (r.ok) { const v = await r.json(); if (v.version > version) render(v); }
    } catch (e) {
      // After a run over, the server going away is the session's normal end, not a fault.
      if (ended) { say("session over: every run is played and recorded; you can close this page", "ok"); return; }
      say("the harness is gone (the run or session ended)", "bad"); await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
}
function send(ev) {
  if (!live) { say("wait: the game is still running the last action", "info"); return; }
  live = false; frame.className = "wait";
  ev.version = version;
  say("sent " + (ev.kind === "key" ? (ev.key === " " ? "Space" : ev.key) : ev.kind + " at " + ev.x + "," + ev.y), "info");
  fetch("/input", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(ev)});
}
window.addEventListener("keydown", (e) => {
  if (e.repeat || e.ctrlKey || e.metaKey) return;  // a held key is one action; browser shortcuts are not the game's
  e.preventDefault();
  send({kind: "key", key: e.key});
});
function point(e) {
  const box = frame.getBoundingClientRect(), vw = view ? view.viewport[0] : frame.naturalWidth,
        vh = view ? view.viewport[1] : frame.naturalHeight;
  return [Math.floor((e.clientX - box.left) * vw / box.width), Math.floor((e.clientY - box.top) * vh / box.height)];
}
frame.addEventListener("click", (e) => { const [x, y] = point(e); send({kind: "click", x, y}); });
frame.addEventListener("contextmenu", (e) => { e.preventDefault(); const [x, y] = point(e); send({kind: "right_click", x, y}); });
window.addEventListener("pagehide", () => navigator.sendBeacon("/closed", "closed"));
poll();
</script></body></html>
"""
