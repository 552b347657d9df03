"""An endpoint that quotes the API key back (as proxies and self-hosted servers do): the key appears in no
artifact of the session and in none of its output; where it was, *** stands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

KEY_ENV = "GW_ECHO_KEY"
KEY = "sk-echo-5f2a9c81d4e7b3a0c6"
SCRIPT = [
    {"text": f"Thanks for the key {KEY}; I will click now.", "reasoning": f"The caller sent {KEY}."},
    {"status": 401, "message": f"Incorrect API key provided: {KEY}. You can find your API key in your account."},
]


@pytest.mark.parametrize("mode", [["-n", "2"], ["-o", "log_cli=true", "--log-cli-level=DEBUG", "-rA"]],
                         ids=["xdist", "live-logs"])
def test_a_key_the_endpoint_echoes_is_in_no_artifact_and_no_output(serve, tmp_path: Path, mode: list[str]):
    server = serve("openai", SCRIPT, extra=("--model", "glm-4.6v"))
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    project = tmp_path / "project"
    project.mkdir()
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "glm-4.6v",
         "--gw-model-opt", f"endpoint.base_url={server.url}", "--gw-model-opt", f"endpoint.api_key_env={KEY_ENV}",
         "--gw-model-opt", "max_retries=0", "-k", "01_01", "--gw-max-steps", "3", "--gw-results", "out",
         "--gw-session", "s", "--junitxml", "junit.xml", "-v", *mode],
        cwd=project, capture_output=True, text=True, timeout=600, env={**env, KEY_ENV: KEY})
    session = project / "out" / "s"
    record = json.loads((session / "results.jsonl").read_text())
    assert r.returncode == 1 and record["status"] == "error", r.stdout[-3000:]
    assert record["error"].endswith("HTTP 401: Incorrect API key provided: ***. You can find your API key in "
                                    "your account."), record["error"]
    steps = [json.loads(x) for x in (session / record["trajectory"]).read_text().splitlines()]
    assert steps[1]["reply"]["text"] == "Thanks for the key ***; I will click now."
    artifacts = [p for p in project.rglob("*") if p.is_file()]
    names = {p.name for p in artifacts}
    assert {"results.jsonl", "steps.jsonl", "index.html", "report.html", "viewer.html", "junit.xml"} <= names
    leaks = [str(p.relative_to(project)) for p in artifacts if KEY.encode() in p.read_bytes()]
    assert leaks == [], f"the key is stored in {leaks}"
    assert KEY not in r.stdout and KEY not in r.stderr, "the key is printed"
    assert "Incorrect API key provided: ***" in r.stdout, "the error is shown, masked"
    assert any(KEY in json.dumps(x) for x in server.records()), "the endpoint did echo the key"
