"""Our step against the original GameWorld harness's, side by side on its 2048 task 01_02, in one session.

Usage: python benchmarks/versus_original.py --original PATH --python PATH [--browsers PATH] [--runs 3]
       [--steps 60]
--original: a checkout of github gameworld-project/gameworld, outside this repository, its 2048 game in
games/benchmark; --python: the interpreter of a venv with its requirements; --browsers: the
PLAYWRIGHT_BROWSERS_PATH its Playwright should launch from (a folder whose chromium-NNNN/chrome-linux/chrome runs
Debian's Chromium with --disable-gpu will do). Both harnesses play Qwen3-VL 30B against `gameworld serve`
(random policy, answering at once) with frames as each keeps them by default: the original with its own
qwen3-vl-30b-a3b profile (which asks 127.0.0.1:8088), 01_02 limited to --steps (a copy of its task file, written
into its checkout as 01_02_sN.yaml); ours through the OpenAI SDK as benchmarks/provider_step.py plays it. Runs
alternate. A step is the time between two model replies (the original's interactions.jsonl timestamps) or two
model calls (ours). Last line: original_ms=… ours_ms=… speedup=… (medians of the runs' medians).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import tempfile
from datetime import datetime
from pathlib import Path

from playwright.async_api import async_playwright
from provider_step import run_spec  # benchmarks/provider_step.py, beside this script

from pytest_gameworld.browser.launch import find_browser, launch_browser
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.endpoint.process import spawn_endpoint

ORIGINAL_PORT = "8088"  # the original's Qwen3-VL profile names this endpoint; it has no setting for it
RUN_LIMIT_S = 600


def limited_task(original: Path, steps: int) -> str:
    """The original's 01_02 with max_steps set to ``steps``, as a task file of its own; its id."""
    source = original / "catalog" / "tasks" / "01_2048" / "01_02.yaml"
    task_id = f"01_02_s{steps}"
    text = source.read_text()
    text = re.sub(r"(?m)^task_id:.*$", f'task_id: "{task_id}"', text)
    text = re.sub(r"(?m)^max_steps:.*$", f"max_steps: {steps}", text)
    (source.parent / f"{task_id}.yaml").write_text(text)
    return task_id


def original_run(original: Path, python: str, browsers: str | None, task_id: str, port: int,
                 workdir: Path) -> dict[str, float]:
    """One run of the original harness; its median step and step count from its own per-step log."""
    workdir.mkdir(parents=True, exist_ok=True)
    server = spawn_endpoint("openai", "random", workdir=workdir, name="original-endpoint", log=False,
                            extra=["--port", ORIGINAL_PORT])
    env = {**os.environ, "GAMEWORLD_DISABLE_VIDEO_REPLAY": "1"}
    if browsers:
        env["PLAYWRIGHT_BROWSERS_PATH"] = browsers
    logs = workdir / "original"
    try:
        done = subprocess.run([python, "main.py", "--config", f"01_2048+{task_id}+qwen3-vl-30b-a3b", "--headless",
                               "--port", str(port), "--log-root", str(logs)], cwd=original, env=env,
                              capture_output=True, text=True, timeout=RUN_LIMIT_S)
    finally:
        server.stop()
    steps_log = logs / "agent_0" / "interactions.jsonl"
    if not steps_log.exists():
        raise RuntimeError(f"the original harness wrote no steps (exit {done.returncode}): {done.stderr[-2000:]}")
    stamps = [datetime.fromisoformat(json.loads(line)["timestamp"]).timestamp()
              for line in steps_log.read_text().splitlines() if line.strip()]
    gaps = [(b - a) * 1000 for a, b in zip(stamps, stamps[1:])]
    return {"median_ms": statistics.median(gaps), "steps": len(stamps)}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--original", type=Path, required=True, help="a checkout of the original GameWorld")
    ap.add_argument("--python", required=True, help="the python of a venv with the original's requirements")
    ap.add_argument("--browsers", default=None, help="PLAYWRIGHT_BROWSERS_PATH for the original's Playwright")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=60)
    args = ap.parse_args()
    task_id = limited_task(args.original, args.steps)
    cat = load_catalog(None)
    theirs: list[float] = []
    ours: list[float] = []
    async with async_playwright() as pw:
        browser = await launch_browser(pw, find_browser(None))
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(args.runs):
                # A fresh game port each run: the original refuses a port its last run's server left in TIME_WAIT.
                o = original_run(args.original, args.python, args.browsers, task_id, 8101 + n,
                                 Path(tmp) / f"original{n}")
                r = await run_spec(browser, cat, "qwen3-vl-30b", "01-2048", "01_02", args.steps, True,
                                   Path(tmp) / f"ours{n}")
                med = statistics.median(r["steps_ms"])
                theirs.append(o["median_ms"])
                ours.append(med)
                print(f"run {n + 1}: original {o['median_ms']:.1f} ms a step ({o['steps']:.0f} steps); ours {med:.1f} ms "
                      f"({len(r['steps_ms']) + 1} steps, valid {r['record'].valid}); {o['median_ms'] / med:.1f}x", flush=True)
        await browser.close()
    t, o = statistics.median(theirs), statistics.median(ours)
    print(f"original_ms={t:.1f} ours_ms={o:.1f} speedup={t / o:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
