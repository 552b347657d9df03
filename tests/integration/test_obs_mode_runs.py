"""--gw-obs through real SDK clients and `gameworld serve`: `state` sends the state text and no image, `both`
sends both; built-in agents play in state mode and the records say which mode was played."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_gameworld.agents import make_agent
from pytest_gameworld.play.prompt_sections import STATE_HEADING

ASYNC = pytest.mark.asyncio(loop_scope="session")
KEY_ENV = "GW_OBS_KEY"
QWEN_MOVE = '<tool_call>\n{"name": "move_left", "arguments": {}}\n</tool_call>'
# (server protocol, model spec, scripted replies or None for the server's random policy)
PROTOCOLS = [
    ("openai", "glm-4.6v", None),                      # chat completions, function tools
    ("openai", "openai-computer-use", None),           # responses, native computer tool
    ("anthropic", "claude-sonnet-4.6-cua", None),      # messages, native computer tool
    ("gemini", "gemini-3-flash", None),                # generateContent, function declarations
    ("openai", "qwen3-vl-30b", [{"text": QWEN_MOVE}]),  # a text format over the chat API
]
IMAGE_MARKS = ("data:image/", '"media_type": "image/', '"mime_type": "image/', '"mimeType": "image/')


def _sent(server, count: int) -> list[str]:
    return [json.dumps(p["request"]) for p in server.posts(count=count)]


@pytest.fixture
def spec_for(catalog, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-obs-test")

    def make(name: str, server):
        return catalog.resolve_model(name, {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV,
                                            "extra.retry_backoff_s": 0.01})
    return make


@ASYNC
@pytest.mark.parametrize("protocol, model, script", PROTOCOLS, ids=[p[1] for p in PROTOCOLS])
async def test_state_sends_the_state_text_and_no_image(serve, spec_for, play_task, protocol, model, script):
    server = serve(protocol, script)
    spec = spec_for(model, server)
    record, _, steps_path = await play_task("01_01", make_agent(spec), max_steps=2, model_spec=spec, obs="state")
    assert record.status == "ok" and record.steps == 2 and record.obs == "state"
    for body in _sent(server, 2):
        assert STATE_HEADING in body and "board: [[" in body, body[:400]
        assert not any(mark in body for mark in IMAGE_MARKS), f"an image was sent in state mode: {body[:400]}"
    start = json.loads(steps_path.read_text().splitlines()[0])
    assert start["obs"] == "state"


@ASYNC
@pytest.mark.parametrize("protocol, model, script", PROTOCOLS[:3], ids=[p[1] for p in PROTOCOLS[:3]])
async def test_both_sends_the_screenshot_and_the_state_text(serve, spec_for, play_task, protocol, model, script):
    server = serve(protocol, script)
    spec = spec_for(model, server)
    record, _, _ = await play_task("01_01", make_agent(spec), max_steps=2, model_spec=spec, obs="both")
    assert record.status == "ok" and record.obs == "both"
    for body in _sent(server, 2):
        assert STATE_HEADING in body and "board: [[" in body
        assert any(mark in body for mark in IMAGE_MARKS), body[:400]


def test_random_and_noop_play_a_genre_in_state_mode_and_the_records_say_so(tmp_path: Path):
    """A whole pytest session of the built-ins over one genre (each game's first level) with --gw-obs state:
    every run scored, marked non-standard, its own row in the summary."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-m", "simulation", "-k", "_01",
         "--gw-model", "random,noop",
         "--gw-obs", "state", "--gw-max-steps", "3", "--gw-results", str(tmp_path), "--gw-session", "s",
         "--gw-progress", "off"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    records = [json.loads(x) for x in (tmp_path / "s" / "results.jsonl").read_text().splitlines()]
    assert records and {r["genre"] for r in records} == {"simulation"}
    assert {r["model"] for r in records} == {"random", "noop"}
    assert {(r["obs"], r["status"]) for r in records} == {("state", "ok")}
    assert all("observation state instead of screenshot" in json.dumps(r["comparability"]) or
               r["comparability"].get("obs") == "state" for r in records)
    plan = json.loads((tmp_path / "s" / "plan.json").read_text())
    assert plan["options"]["obs"] == "state" and {r["obs"] for r in plan["runs"]} == {"state"}
    assert "random [state]" in proc.stdout and "observation state instead of screenshot" in proc.stdout


def test_state_over_an_upstream_checkout_is_refused_in_one_line(tmp_path: Path):
    checkout = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--gw-model", "noop", "--gw-obs", "state",
         f"--gw-catalog={checkout}", f"--gw-results={tmp_path}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 4, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = [ln for ln in proc.stderr.splitlines() if "--gw-obs state" in ln]
    assert len(lines) == 1 and "upstream" in lines[0], proc.stderr[-2000:]
