"""Session wall time against a model that takes its time to answer, as a served VLM does (--gw-concurrency).

Usage: python benchmarks/throughput.py [--latency-ms 1500] [--jitter-ms 300] [-k _01] [--steps 10]
       [-n 2] [--concurrency 32] [--spec qwen3-vl-30b]
Starts `gameworld serve --protocol openai --policy random --latency-ms … --jitter-ms …` on 127.0.0.1 and plays
the selection through the plugin (`pytest --gw-model SPEC … -n N --gw-concurrency C`), the spec pointed at it
through its official SDK. Prints the session's wall time, the ideal (the runs' model time if every process kept
C requests in flight: runs × steps × latency / (N × C), never less than one run's), the peak number of requests
the server saw in flight, and the peak resident memory of the whole process tree (browsers included).
Last line: wall_s=… ideal_s=… ratio=… peak_in_flight=… runs=… peak_rss_mb=…
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and every process under it, MiB (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            fields = stat[stat.rfind(")") + 2:].split()
            children.setdefault(int(fields[1]), []).append(int(d.name))
            rss[int(d.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total / 2 ** 20


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency-ms", type=float, default=1500)
    ap.add_argument("--jitter-ms", type=float, default=300)
    ap.add_argument("-k", default="_01", help="pytest -k selection (default: every game's first task, 34 runs)")
    ap.add_argument("--steps", type=int, default=10, help="--gw-max-steps")
    ap.add_argument("-n", type=int, default=2, help="xdist workers (0: none)")
    ap.add_argument("--concurrency", default="32")
    ap.add_argument("--spec", default="qwen3-vl-30b")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="gw-throughput-"))
    log = work / "served.jsonl"
    server = subprocess.Popen([sys.executable, "-m", "pytest_gameworld.cli", "serve", "--protocol", "openai",
                               "--policy", "random", "--latency-ms", str(args.latency_ms), "--jitter-ms",
                               str(args.jitter_ms), "--log", str(log)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline().split()  # "serving openai on URL"
        if len(first) < 4:
            print("gameworld serve did not start", file=sys.stderr)
            return 1
        url = first[-1]
        cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--gw-model", args.spec,
               f"--gw-model-opt=endpoint.base_url={url}", "--gw-model-opt", "endpoint.api_key_required=false",
               "--gw-model-opt", "model=gameworld-random", "-k", args.k, "--gw-max-steps", str(args.steps),
               "--gw-concurrency", args.concurrency, f"--gw-results={work / 'out'}", "--gw-session", "s",
               "--gw-progress", "off", *(["-n", str(args.n)] if args.n else [])]
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        peak = [0.0]

        def watch() -> None:
            while proc.poll() is None:
                peak[0] = max(peak[0], tree_rss_mb(proc.pid))
                time.sleep(0.5)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        out, _ = proc.communicate()
        wall = time.monotonic() - t0
        watcher.join(2)
    finally:
        server.terminate()
        server.wait(10)
    if proc.returncode != 0:
        print(out[-3000:], file=sys.stderr)
    records = [json.loads(x) for x in (work / "out" / "s" / "results.jsonl").read_text().splitlines() if x.strip()]
    runs = len(records)
    steps = sum(int(r.get("steps") or 0) for r in records)
    served = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    in_flight = max((int(r.get("in_flight") or 0) for r in served), default=0)
    slots = max(1, args.n) * (int(args.concurrency) if args.concurrency.isdigit() else 1)
    lat = args.latency_ms / 1000
    ideal = max(args.steps * lat, steps * lat / slots)
    print(f"{runs} runs, {steps} steps at {args.latency_ms:g} ± {args.jitter_ms:g} ms; -n {args.n}, "
          f"--gw-concurrency {args.concurrency}; rc {proc.returncode}")
    print(f"wall_s={wall:.1f} ideal_s={ideal:.1f} ratio={wall / ideal if ideal else math.nan:.2f} "
          f"peak_in_flight={in_flight} runs={runs} peak_rss_mb={peak[0]:.0f}")
    return 0 if proc.returncode == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
