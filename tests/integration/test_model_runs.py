"""Model runs end to end: real SDK clients → `gameworld serve` on loopback → real games, scored."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ASYNC = pytest.mark.asyncio(loop_scope="session")
SECRET = "sk-test-SECRET-e2e-4242"
KEY_ENV = "GW_E2E_KEY"


@pytest.fixture
def pointed(catalog, monkeypatch):
    """A catalog model spec pointed at a loopback server with a distinctive fake key."""
    monkeypatch.setenv(KEY_ENV, SECRET)

    def make(name: str, server, **opts):
        over = {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV, "extra.retry_backoff_s": 0.01}
        over.update({k.replace("__", "."): v for k, v in opts.items()})
        return catalog.resolve_model(name, over)

    return make


def find_key(node, key):
    """The first value under `key` anywhere in a JSON-like tree (None if absent)."""
    if isinstance(node, dict):
        if key in node:
            return node[key]
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            found = find_key(child, key)
            if found is not None:
                return found
    return None


def steps_of(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


QWEN_MOVE = '<think>left keeps the big tile in the corner</think>\n<tool_call>\n{"name": "move_left", "arguments": {}}\n</tool_call>'
UITARS_MOVE = "Thought: push the tiles left\nAction: press_key(key='left')"

PROTOCOLS = [
    ("openai", "glm-4.6v", None),                      # chat completions, function tools
    ("openai", "gpt-5.2", None),                       # responses, function tools
    ("openai", "openai-computer-use", None),           # responses, native computer tool
    ("anthropic", "claude-sonnet-4.6", None),          # messages, tool use
    ("anthropic", "claude-sonnet-4.6-cua", None),      # messages, native computer tool
    ("gemini", "gemini-3-flash", None),                # generateContent, function declarations
    ("gemini", "gemini-2.5-computer-use", None),       # generateContent, computer use
    ("openai", "qwen3-vl-30b", [{"text": QWEN_MOVE}]),  # Qwen text format over vLLM's chat API
    ("openai", "ui-tars-1.5-7b", [{"text": UITARS_MOVE}]),  # UI-TARS text format
]


@ASYNC
@pytest.mark.parametrize("protocol, model, script", PROTOCOLS, ids=[p[1] for p in PROTOCOLS])
async def test_each_protocol_plays_a_2048_task_and_is_scored(serve, pointed, play_task, protocol, model, script):
    server = serve(protocol, script)
    spec = pointed(model, server)
    from pytest_gameworld.agents import make_agent

    record, final, steps_path = await play_task("01_01", make_agent(spec), max_steps=4, model_spec=spec)
    assert record.status == "ok" and record.steps == 4 and record.model == model
    assert record.valid + record.invalid_ntc + record.invalid_oos == 4
    lines = steps_of(steps_path)
    start, step = lines[0], lines[1]
    assert list(start["prompt"]) == ["Game Rules", "Role and Controls", "Task Instruction", "Output Format"]
    assert step["request"] and step["reply"]["raw"] is not None
    assert "verdict" in step and step["verdict"]["validity"] in ("valid", "ntc", "oos")
    assert isinstance(step["calls"], list)
    tools = json.dumps(find_key(step["request"], "tools"))
    if script is None and spec.interface == "generalist":  # one declared tool per registered control
        controls = ["wait", "move_up", "move_down", "move_left", "move_right"]
        assert all(f'"name": "{c}"' in tools for c in controls), tools[:500]
    elif script is None:  # the provider's computer tool
        assert "computer" in tools, tools[:500]
    else:  # text formats declare no tools: the reply is parsed from text
        assert tools == "null"
        assert step["verdict"] == {"validity": "valid", "reason": None, "control": "move_left" if "qwen" in model else None,
                                   "action": {"kind": "press_key", "duration_ms": 200, "keys": ["ArrowLeft"], "button": "left"}}
    # Token accounting: the run's totals are what the server reported.
    posts = server.posts(count=4)
    reported_in = sum(p["usage"]["input_tokens"] for p in posts if p.get("usage"))
    reported_out = sum(p["usage"]["output_tokens"] for p in posts if p.get("usage"))
    assert (record.tokens_in, record.tokens_out) == (reported_in, reported_out)
    assert record.tokens_in > 0
    if spec.price_per_mtok.input:
        assert record.cost_usd > 0
    # The key reached the server (its hash is in the endpoint's log) but nothing we wrote.
    assert {p["key_sha256"] for p in posts} == {hashlib.sha256(SECRET.encode()).hexdigest()}
    for f in steps_path.parent.parent.rglob("*"):
        if f.is_file():
            assert SECRET not in f.read_text(errors="ignore"), f


def _call(name, args):
    return {"calls": [{"name": name, "arguments": args}]}


GENERALIST_20 = [
    _call("reveal_cell", {"cell": "e5"}), _call("flag_cell", {"cell": "a1"}), {"text": "I would reveal e5."},
    {"calls": [{"name": "reveal_cell", "arguments": {"cell": "a9"}}, {"name": "flag_cell", "arguments": {"cell": "b2"}}]},
    _call("jump", {}), _call("reveal_cell", '{"cell": "a2"'), _call("reveal_cell", {}), _call("reveal_cell", {"cell": "z9"}),
    _call("wait", {}), {"text": "thinking..."}, _call("flag_cell", {"cell": 5}), _call("WAIT", {}),
    {"text": "reveal_cell(c3)"}, _call("reveal", {"cell": "c3"}), _call("flag_cell", {"cell": "i9"}),
    _call("Reveal_Cell", {"cell": "h8"}), _call("move_left", {}), {"text": "no idea"}, _call("wait", {}),
    _call("flag_cell", {"cell": "a1"}),
]
CUA_20 = [
    _call("computer_use", {"action": "click", "x": 640, "y": 402}),
    _call("computer_use", {"action": "right_click", "x": 416, "y": 178}), {"text": "Let me think."},
    {"calls": [{"name": "computer_use", "arguments": {"action": "click", "x": 472, "y": 178}},
               {"name": "computer_use", "arguments": {"action": "click", "x": 528, "y": 178}}]},
    _call("computer_use", {"action": "press_key", "key": "a"}),
    _call("computer_use", {"action": "click", "x": 1400, "y": 300}),
    _call("computer_use", '{"action": "click", "x": 3'), _call("computer_use", {"action": "click", "x": 500}),
    _call("computer_use", {"action": "wait"}), {"text": "..."}, _call("computer_use", {"action": "teleport"}),
    _call("computer_use", {"action": "mouse_move", "x": 600, "y": 300}), {"text": "click e5"},
    _call("computer_use", {"action": "right_click", "x": 864, "y": 626}),
    _call("computer_use", {"action": "type", "text": "abc"}),
    _call("computer_use", {"action": "scroll", "x": 640, "y": 400, "direction": "down"}),
    _call("computer_use", {"action": "drag", "x": 416, "y": 178, "to_x": 472, "to_y": 178}), {"text": "hmm"},
    _call("computer_use", {"action": "wait", "duration": 0.5}), _call("computer_use", {"action": "click", "x": 0, "y": 0}),
]


def expected_validity(entry: dict, interface: str, parsing: str) -> str:
    """What the script entry should be classified as (the comments in the lists above, as data)."""
    calls = entry.get("calls")
    if not calls:
        return "ntc"
    args = calls[0]["arguments"]
    if isinstance(args, str):
        return "oos"
    if interface == "generalist":
        # The original matches the control id exactly; the paper's reading also takes aliases, in any case.
        name = calls[0]["name"] if parsing == "original" else calls[0]["name"].lower()
        ok_names = {"reveal_cell", "flag_cell", "wait"} | ({"reveal"} if parsing == "paper" else set())
        cell_ok = name == "wait" or args.get("cell") in {f"{c}{r}" for c in "abcdefghi" for r in range(1, 10)}
        return "valid" if name in ok_names and cell_ok else "oos"
    action = args.get("action")
    if action in ("wait", "mouse_move", "scroll", "drag", "click", "right_click"):
        inside = 0 <= args.get("x", 0) < 1280 and "y" in args or action == "wait"
        return "valid" if inside else "oos"
    # Minesweeper takes any key (its original catalog lists none); the original does not hold typed text to keys.
    return "valid" if action in ("press_key", "type") else "oos"


COUNTS = {  # (valid, ntc, oos, extra calls) of the 20 scripted replies
    ("generalist", "original"): (7, 4, 9, 1), ("generalist", "paper"): (10, 4, 6, 1),
    ("cua", "original"): (12, 4, 4, 1)}


@ASYNC
@pytest.mark.parametrize("interface, parsing", list(COUNTS))
async def test_scripted_replies_give_exact_validity_counts(serve, pointed, play_task, interface, parsing):
    script = GENERALIST_20 if interface == "generalist" else CUA_20
    server = serve("openai", script)
    spec = pointed("glm-4.6v", server, interface=interface, parsing=parsing)
    from pytest_gameworld.agents import make_agent

    record, _, steps_path = await play_task("19_05", make_agent(spec), max_steps=20, model_spec=spec)
    assert (record.valid, record.invalid_ntc, record.invalid_oos, record.extra_calls) == COUNTS[interface, parsing]
    verdicts = [s["verdict"] for s in steps_of(steps_path) if s.get("event") == "step"]
    assert [v["validity"] for v in verdicts] == [expected_validity(e, interface, parsing) for e in script]
    assert all(v["reason"] for v in verdicts if v["validity"] != "valid"), "every invalid step says why"


def _pytest(proj: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=proj,
                          capture_output=True, text=True, timeout=600, env={**_env(), KEY_ENV: SECRET})


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}


def test_retries_then_success_and_a_failing_endpoint_errors_only_its_run(serve, tmp_path):
    ok = _call("move_left", {})
    # Run 1: 429 twice, then answers. Run 2: 500 on every attempt (1 + 2 retries). Run 3 proceeds.
    entries = [{"status": 429, "retry_after": 0.05}, {"status": 429, "retry_after": 0.05}, ok, ok,
               {"status": 500}, {"status": 500}, {"status": 500}, ok, ok]
    server = serve("openai", entries, extra=("--model", "glm-4.6v"))
    r = _pytest(tmp_path, "--gw-model", "glm-4.6v", "--gw-model-opt", f"endpoint.base_url={server.url}",
                "--gw-model-opt", f"endpoint.api_key_env={KEY_ENV}", "--gw-model-opt", "max_retries=2",
                "--gw-model-opt", "extra.retry_backoff_s=0.01", "-k", "01_01 or 01_02 or 01_03",
                "--gw-max-steps", "2", "--gw-results", "out", "--gw-session", "s", "-v",
                "--gw-progress", "off",  # a plain progress line may otherwise split an item's id from its word
                "--gw-concurrency", "1")  # the replies are handed out in order: one run at a time keeps them per run
    out = r.stdout
    assert r.returncode == 1, out[-3000:]
    assert "puzzle/01-2048/01_01[glm-4.6v] PASSED" in out or "01_01[glm-4.6v] PG" in out or "01_01[glm-4.6v] SOLVED" in out
    assert "1 failed, 2 passed" in out and "missing runs (not scored, re-run with --lf): 1" in out
    lines = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    status = {ln["task"]: ln["status"] for ln in lines}
    assert status == {"01_01": "ok", "01_02": "error", "01_03": "ok"}
    assert SECRET not in (tmp_path / "out").joinpath("s", "results.jsonl").read_text()


def test_local_model_without_base_url_fails_at_start_with_one_line(tmp_path):
    r = _pytest(tmp_path, "--gw-model", "qwen3-vl-30b")
    assert r.returncode == 4
    errors = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
    assert len(errors) == 1 and errors[0].startswith("ERROR: ") and "VLLM_BASE_URL" in errors[0], errors


def test_max_cost_stops_starting_new_runs(serve, tmp_path):
    server = serve("openai", [_call("move_left", {})], extra=("--model", "glm-4.6v"))
    r = _pytest(tmp_path, "--gw-model", "glm-4.6v", "--gw-model-opt", f"endpoint.base_url={server.url}",
                "--gw-model-opt", f"endpoint.api_key_env={KEY_ENV}", "-k", "01_01 or 01_02 or 01_03",
                "--gw-max-steps", "2", "--gw-max-cost", "0.000001", "--gw-results", "out", "--gw-session", "s",
                "--gw-concurrency", "1", "-rs")  # one run at a time (runs in flight: test_concurrency.py)
    assert r.returncode == 1, r.stdout[-3000:]  # runs not played are missing, never a plain skip
    assert "1 passed, 167 deselected, 2 errors" in r.stdout and "--gw-max-cost reached" in r.stdout
    assert "2 planned run(s) not played (--gw-max-cost reached)" in r.stdout
    lines = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    assert [x["status"] for x in lines] == ["ok", "not_played", "not_played"] and lines[0]["cost_usd"] > 0
    assert not (tmp_path / "out/s/runs/puzzle/01-2048/01_02").exists(), "a run held back opens no page or folder"


def test_a_cost_cap_on_a_model_without_a_price_is_refused_before_any_run(serve, tmp_path):
    server = serve("openai", [_call("move_left", {})], extra=("--model", "gpt-4.1"))
    reach = ["--gw-model-opt", f"endpoint.base_url={server.url}", "--gw-model-opt", f"endpoint.api_key_env={KEY_ENV}",
             "-k", "01_01 or 01_02", "--gw-max-steps", "2", "--gw-results", "out", "--gw-max-cost", "0.000001"]
    r = _pytest(tmp_path, "--gw-model", "openai/gpt-4.1", *reach, "--gw-session", "unpriced")
    errors = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
    assert r.returncode == 4 and len(errors) == 1, r.stdout[-3000:]  # before: both runs played, exit 0
    assert errors[0].startswith("ERROR: --gw-max-cost 1e-06: the price of model openai-gpt-4.1 is unknown")
    assert "--gw-model-opt price_per_mtok.input=" in errors[0] and "drop --gw-max-cost" in errors[0]
    assert not (tmp_path / "out" / "unpriced").exists() and not server.posts(), "nothing played, nothing asked"
    # Priced on the command line, the same model is capped like any catalog spec (one run at a time: the cap
    # decides before each start).
    r = _pytest(tmp_path, "--gw-model", "openai/gpt-4.1", *reach, "--gw-session", "priced", "-p", "no:randomly",
                "--gw-concurrency", "1",
                "--gw-model-opt", "price_per_mtok.input=2", "--gw-model-opt", "price_per_mtok.output=8")
    assert r.returncode == 1 and "1 planned run(s) not played (--gw-max-cost reached)" in r.stdout, r.stdout[-3000:]
    # Uncapped, the unpriced model plays; the live progress counts its spend as unknown, never as $0.
    r = _pytest(tmp_path, "--gw-model", "openai/gpt-4.1", *reach[:-2], "--gw-session", "shown", "-k", "01_01",
                "--gw-progress", "plain", "--gw-progress-interval", "0.5")
    progress = [ln for ln in r.stdout.splitlines() if ln.startswith("[gameworld] runs")]
    assert r.returncode == 0 and progress and all(ln.endswith("$ n/a (price unknown)") for ln in progress), r.stdout
