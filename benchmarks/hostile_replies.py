"""Hostile replies per provider interface: how many were generated, how each was judged, exceptions.

Usage: python benchmarks/hostile_replies.py [--examples 10000] [--interface LABEL ...]
One line per interface: label, replies, valid/ntc/oos, exceptions, seconds. Exit 1 if any raised.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "providers"))
from hostile import LABELS, agent_for, check_reply, responses  # noqa: E402


def run(label: str, examples: int) -> tuple[Counter[str], list[str]]:
    """Generate ``examples`` replies for one interface; count verdicts and keep the first few failures."""
    agent = agent_for(label)
    counts: Counter[str] = Counter()
    failures: list[str] = []

    # Only generation: a failure is counted and the run goes on, so the total is exactly ``examples``.
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(responses(label))
    def one(response: object) -> None:
        try:
            counts[check_reply(agent, response)] += 1
        except Exception:  # noqa: BLE001 - counted and reported below
            counts["exception"] += 1
            if len(failures) < 3:
                failures.append(traceback.format_exc(limit=4))

    one()
    return counts, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--interface", action="append", choices=LABELS)
    args = parser.parse_args()
    bad = 0
    print(f"{'interface':30} {'replies':>8} {'valid':>6} {'ntc':>6} {'oos':>6} {'exceptions':>10} {'s':>6}")
    for label in args.interface or LABELS:
        started = time.perf_counter()
        counts, failures = run(label, args.examples)
        total = sum(counts.values())
        print(f"{label:30} {total:8d} {counts['valid']:6d} {counts['ntc']:6d} {counts['oos']:6d} "
              f"{counts['exception']:10d} {time.perf_counter() - started:6.1f}", flush=True)
        for f in failures:
            print(f, file=sys.stderr)
        bad += counts["exception"]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
