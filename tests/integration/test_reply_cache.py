"""--gw-cache through a real `gameworld serve --log` (random policy: a re-asked request gets a new reply) and
real pytest sessions under xdist: the re-run sends no request, spends no token and writes the same records; a
damaged entry is one line naming its file and a miss; `gameworld cache list|clear` read the folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest_gameworld

MODEL = "my-org/my-model"
TASKS = ["-k", "01_01 or 05_01"]  # two tasks, one per xdist worker
STEPS = 3
# Fields that measure the call rather than decide the game: a hit spends nothing and is marked as one.
VOLATILE = {"latency_ms", "usage", "cost_usd", "cache", "retries"}
# The sessions import this tree's package, whatever the venv's editable install points at.
ENV = {**os.environ, "PYTHONPATH": str(Path(pytest_gameworld.__file__).resolve().parent.parent)}


def spec_file(folder: Path, url: str) -> None:
    (folder / "my-model.yaml").write_text(f"""name: my-model
interface: generalist
provider: openai-compatible
api: chat
model: {MODEL}
endpoint: {{base_url: "{url}", api_key_required: false}}
temperature: 0.7
timeout_s: 10
step_timeout_s: 20
max_retries: 0
price_per_mtok: {{input: 2.0, output: 8.0}}
""")


def session(folder: Path, name: str, *args: str) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "pytest", "-p", "no:randomly", "--gw-model", "my-model.yaml", *TASKS,
            "--gw-max-steps", str(STEPS), "--gw-results", "out", "--gw-session", name, "--gw-progress", "off",
            "-n", "2", *args]
    return subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=1200, env=ENV)


def cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", *args], cwd=folder, capture_output=True,
                          text=True, timeout=120, env=ENV)


def results(folder: Path, name: str) -> dict[str, dict]:
    lines = (folder / "out" / name / "results.jsonl").read_text().splitlines()
    return {r["item"]: r for r in map(json.loads, lines)}


def steps(folder: Path, name: str, record: dict) -> list[dict]:
    path = folder / "out" / name / record["trajectory"]
    return [json.loads(x) for x in path.read_text().splitlines()]


def decided(lines: list[dict]) -> list[dict]:
    """A trajectory without what only measures the call (timings, tokens, the cache's own marks)."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in VOLATILE}
        return [strip(v) for v in value] if isinstance(value, list) else value
    return [strip(x) for x in lines]


def test_a_cached_rerun_sends_nothing_spends_nothing_and_writes_the_same_records(serve, tmp_path):
    server = serve("openai", extra=("--model", MODEL))
    spec_file(tmp_path, server.url)
    first = session(tmp_path, "a", "--gw-cache", "on")
    assert first.returncode == 0, first.stdout[-3000:]
    # The spec samples at 0.7: the session says that hits replay a stored sample.
    assert "my-model samples at temperature 0.7; a cached reply replays the sample stored first" in first.stdout
    sent = len(server.posts(count=2 * STEPS))
    assert sent == 2 * STEPS

    again = session(tmp_path, "b", "--gw-cache", "on")
    assert again.returncode == 0, again.stdout[-3000:]
    assert len(server.posts()) == sent, "the re-run sent no request"
    a, b = results(tmp_path, "a"), results(tmp_path, "b")
    assert a.keys() == b.keys() and len(a) == 2
    for item, ra in a.items():
        rb = b[item]
        assert (rb["tokens_in"], rb["tokens_out"], rb["cost_usd"]) == (0, 0, 0.0)
        assert rb["cache_hits"] == rb["steps"] == STEPS and ra["cache_hits"] == 0
        assert (rb["cache_tokens_in"], rb["cache_tokens_out"]) == (ra["tokens_in"], ra["tokens_out"]) != (0, 0)
        assert rb["cache_cost_usd"] == ra["cost_usd"] > 0
        for field in ("progress", "score_best", "success", "steps", "valid", "invalid_ntc", "invalid_oos"):
            assert ra[field] == rb[field], field
        sa, sb = steps(tmp_path, "a", ra), steps(tmp_path, "b", rb)
        assert decided(sa) == decided(sb), item
        hits = [s["cache"] for s in sb if s.get("event") == "step"]
        assert all(h["hit"] and h["usage"]["input_tokens"] > 0 and h["cost_usd"] > 0 for h in hits), hits
        assert all(s["usage"]["input_tokens"] == 0 for s in sb if s.get("event") == "step")
        assert all(s["cache"] == {"hit": False, "key": s["cache"]["key"], "stored": True}
                   for s in sa if s.get("event") == "step")
    assert "step(s) answered from the reply cache" in again.stdout and "spent this time: 0 tokens" in again.stdout

    # Without the cache the same server answers anew (its random policy moves on): the records differ, so
    # the equality above is the cache's doing.
    fresh = session(tmp_path, "c")
    assert fresh.returncode == 0, fresh.stdout[-3000:]
    assert len(server.posts(count=sent + 2 * STEPS)) == sent + 2 * STEPS
    c = results(tmp_path, "c")
    assert any(decided(steps(tmp_path, "a", a[i])) != decided(steps(tmp_path, "c", c[i])) for i in a)

    listed = cli(tmp_path, "cache", "list", "--results", "out")
    assert listed.returncode == 0 and f"{2 * STEPS} entries" in listed.stdout, listed.stdout
    assert "my-model (openai-compatible chat): 6 replies" in listed.stdout


def test_a_damaged_entry_is_one_line_naming_it_and_a_miss(serve, tmp_path):
    server = serve("openai", extra=("--model", MODEL))
    spec_file(tmp_path, server.url)
    assert session(tmp_path, "a", "--gw-cache", "on").returncode == 0
    sent = len(server.posts(count=2 * STEPS))
    entries = sorted((tmp_path / "out/.cache/replies").glob("*/*.json"))
    assert len(entries) == 2 * STEPS
    # Each run's last reply: asked again, its new (random) reply changes no later request of the run.
    last = [[s for s in steps(tmp_path, "a", r) if s.get("event") == "step"][-1]["cache"]["key"]
            for r in results(tmp_path, "a").values()]
    cut, foreign = (next(p for p in entries if p.stem == k) for k in last)
    other = next(p for p in entries if p not in (cut, foreign))
    cut.write_text(cut.read_text()[:40])  # a writer killed mid-file (what atomic writes prevent)
    foreign.write_text(other.read_text())  # another key's reply under this name

    again = session(tmp_path, "b", "--gw-cache", "read-only")
    assert again.returncode == 0, again.stdout[-3000:]
    assert len(server.posts(count=sent + 2)) == sent + 2, "exactly the two damaged entries were asked again"
    assert f"{cut}:1: cut short (no end of line)" in again.stdout
    assert f"{foreign}:1: holds the reply of another key" in again.stdout
    notes = [s["cache"] for r in results(tmp_path, "b").values() for s in steps(tmp_path, "b", r)
             if s.get("event") == "step"]
    damaged = sorted(n["damaged"] for n in notes if "damaged" in n)
    assert len(damaged) == 2 and all(not n["hit"] and not n["stored"] for n in notes if "damaged" in n), notes
    assert sum(n["hit"] for n in notes) == 2 * STEPS - 2
    assert len(cut.read_text()) == 40, "read-only stores nothing: the damage is still there"
    listed = cli(tmp_path, "cache", "list", "--results", "out")
    assert f"damaged: {cut}:1: cut short" in listed.stdout, listed.stdout
    cleared = cli(tmp_path, "cache", "clear", "--results", "out")
    assert cleared.returncode == 0 and "removed 6 stored replies" in cleared.stdout
    assert not list((tmp_path / "out/.cache/replies").glob("*/*.json"))
