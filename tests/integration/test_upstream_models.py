"""An upstream-style model spec of the fixture checkout (catalog/models/qwen3-vl-30b-a3b.yaml) played through
`gameworld serve` answering Qwen's <tool_call> text, by the plugin, the way a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"


def _call(name: str) -> dict[str, str]:
    return {"text": f'<think>{name} now</think>\n<tool_call>{{"name": "{name}", "arguments": {{}}}}</tool_call>'}


def test_an_upstream_qwen_spec_plays_through_a_loopback_server_and_counts_its_verdicts(serve, tmp_path):
    script = [_call("roll"), {"text": "I am not sure what to do."}, _call("jump"), _call("roll"), _call("wait"),
              _call("roll")]
    server = serve("openai", script, extra=("--model", "Qwen/Qwen3-VL-30B-A3B-Thinking"))  # as vLLM lists it
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--gw-catalog={FIXTURE}",
                        "--gw-results", "out", "--gw-session", "qwen", "-k", "94_01", "--gw-model", "qwen3-vl-30b-a3b",
                        "--gw-model-opt", f"endpoint.base_url={server.url}", "--gw-max-steps", "6"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:]
    # The field the mapping could not carry over is said at the start of the session.
    assert "model qwen3-vl-30b-a3b: " in r.stdout and "field 'enable_thinking' = True is not mapped" in r.stdout
    [record] = [json.loads(x) for x in (tmp_path / "out" / "qwen" / "results.jsonl").read_text().splitlines()]
    assert (record["model"], record["status"], record["steps"]) == ("qwen3-vl-30b-a3b", "ok", 6)
    assert (record["valid"], record["invalid_ntc"], record["invalid_oos"]) == (4, 1, 1)
    posts = server.posts(6)
    first = posts[0]["request"]
    assert first["model"] == "Qwen/Qwen3-VL-30B-A3B-Thinking" and first["max_tokens"] == 2048
    assert "tools" not in first  # Qwen's text format: the actions are in the prompt, the reply is text
    system = first["messages"][0]["content"]
    assert system.startswith("You play a browser game for a test of the harness.")  # the checkout's template
    assert "- `roll`: Roll all six dice." in system and "<tool_call>" in system
