"""`pytest --gw-model PROVIDER/MODEL`: a model outside the catalog, played through `gameworld serve` over the
provider's official SDK, scored, with its generated spec kept in the session folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_gameworld.catalog.yaml_files import load_model_file

NAMES = [  # (name, protocol, environment pointing the provider at the server, spec name, API path)
    ("openai/gpt-4.1", "openai", {"OPENAI_BASE_URL": "{url}", "OPENAI_API_KEY": "sk-test"}, "openai-gpt-4.1",
     "/v1/responses"),
    ("vllm/Qwen/Qwen3-VL-8B-Instruct:cua", "openai", {"VLLM_BASE_URL": "{url}"}, "vllm-Qwen-Qwen3-VL-8B-Instruct-cua",
     "/v1/chat/completions"),
    ("anthropic/claude-sonnet-4-6", "anthropic", {"ANTHROPIC_BASE_URL": "{url}", "ANTHROPIC_API_KEY": "sk-ant-test"},
     "anthropic-claude-sonnet-4-6", "/v1/messages"),
]


def _env(extra: dict[str, str]) -> dict[str, str]:
    """This process's environment without any provider's key or URL, plus ``extra``."""
    keep = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    return {**keep, **extra}


@pytest.mark.parametrize("name, protocol, env, spec_name, api_path", NAMES, ids=[n[0] for n in NAMES])
def test_a_model_by_name_plays_a_scored_run_through_serve(serve, tmp_path: Path, name, protocol, env, spec_name,
                                                          api_path):
    model_id = name.split("/", 1)[1].removesuffix(":cua")
    server = serve(protocol, extra=("--model", model_id))  # what GET /models lists, as vLLM lists its model
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", name, "-k", "01_01",
         "--gw-max-steps", "3", "--gw-results", "out", "--gw-session", "s"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env=_env({k: v.format(url=server.url) for k, v in env.items()}))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert f"01_01[{spec_name}]" in r.stdout and "1 passed" in r.stdout
    session = tmp_path / "out" / "s"
    (record,) = [json.loads(x) for x in (session / "results.jsonl").read_text().splitlines()]
    assert record["status"] == "ok" and record["steps"] == 3 and record["model"] == spec_name
    assert record["valid"] > 0, record
    assert record["priced"] is False and record["cost_usd"] is None  # unknown, never $0
    steps = [json.loads(x) for x in (session / record["trajectory"]).read_text().splitlines()]
    assert [s["cost_usd"] for s in steps if s.get("event") == "step"] == [None] * 3
    assert "n/a" in r.stdout.split("GameWorld", 1)[-1], r.stdout[-2000:]  # unknown price: $ n/a, never 0
    # Every request went to the provider's API with the model id the name gave.
    posts = server.posts(count=3)
    assert {p["path"] for p in posts} == {api_path}
    assert {p["request"]["model"] for p in posts} == {model_id}
    # The spec the name stood for is kept, and loads back as the same spec.
    kept = load_model_file(session / "models" / f"{spec_name}.yaml")
    assert kept.name == spec_name and kept.extra["from_name"] == name and kept.price_per_mtok is None
    assert kept.interface == ("cua" if name.endswith(":cua") else "generalist")


def test_an_unknown_provider_is_named_with_the_closest_one(tmp_path: Path):
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "opnai/gpt-4.1"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_env({}))
    assert r.returncode == 4
    assert "unknown provider 'opnai'" in r.stderr and "did you mean 'openai'?" in r.stderr, r.stderr
