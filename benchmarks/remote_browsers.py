"""Runs per minute with 1, 2 and 4 Playwright browser servers on this machine, and a local browser for reference.

Usage: python benchmarks/remote_browsers.py [--servers 1 2 4] [-k EXPR] [--repeat 4] [--max-steps 20]
Each configuration is one pytest session with a built-in agent and one xdist worker per server.
Per-step overhead, remote vs local: benchmarks/step_overhead.py --browser-endpoint ws://… (run by --steps).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_gameworld.browser.launch import find_browser

HERE = Path(__file__).resolve().parent


def start_server() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "playwright", "run-server", "--host", "127.0.0.1", "--port", "0",
                             "--unsafe"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    match = re.search(r"ws://127\.0\.0\.1:\d+/", proc.stdout.readline())
    if not match:
        raise SystemExit("playwright run-server did not start")
    return proc, match.group(0)


def stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def session(workers: int, endpoints: list[str], args: argparse.Namespace, cwd: Path, name: str) -> tuple[float, int]:
    """Wall seconds and scored runs of one benchmark session."""
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--gw-model", args.model, "-k", args.k,
           "--gw-repeat", str(args.repeat), "--gw-max-steps", str(args.max_steps), "--gw-results", "out",
           "--gw-session", name, *(["-n", str(workers)] if workers > 1 else ["-n", "0"])]
    if endpoints:
        cmd += [f"--gw-browser-endpoint={e}" for e in endpoints] + ["--gw-browser-path", find_browser(None) or ""]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"session {name} failed:\n{r.stdout[-2000:]}")
    records = [json.loads(x) for x in (cwd / "out" / name / "results.jsonl").read_text().splitlines()]
    return wall, sum(r["status"] == "ok" for r in records)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--servers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("-k", default="01-2048 or 19-minesweeper or 29-tetris or 05-breakout")
    ap.add_argument("--model", default="random")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--max-steps", type=int, default=20)
    ap.add_argument("--steps", type=int, default=60, help="steps for the remote-vs-local per-step comparison")
    args = ap.parse_args()
    print(f"cores={os.cpu_count()} selection=-k {args.k!r} repeat={args.repeat} max_steps={args.max_steps} "
          f"agent={args.model}")
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        wall, runs = session(1, [], args, cwd, "local-1")
        print(f"local browser, 1 worker:   {runs} runs in {wall:6.1f} s = {60 * runs / wall:5.1f} runs/min")
        for n in args.servers:
            servers = [start_server() for _ in range(n)]
            try:
                wall, runs = session(n, [e for _, e in servers], args, cwd, f"remote-{n}")
            finally:
                for proc, _ in servers:
                    stop(proc)
            print(f"{n} browser server(s), {n} worker(s): {runs} runs in {wall:6.1f} s = "
                  f"{60 * runs / wall:5.1f} runs/min")
    if args.steps:
        proc, endpoint = start_server()
        try:
            for label, extra in (("local", []), ("remote", ["--browser-endpoint", endpoint,
                                                            "--browser-path", find_browser(None) or ""])):
                out = subprocess.run([sys.executable, str(HERE / "step_overhead.py"), "--steps", str(args.steps),
                                      *extra], capture_output=True, text=True).stdout
                line = next((ln for ln in out.splitlines() if ln.startswith("step:")), out.strip()[-200:])
                print(f"per step, {label:6s}: {line}")
        finally:
            stop(proc)


if __name__ == "__main__":
    main()
