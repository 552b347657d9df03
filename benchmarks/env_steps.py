"""Steps per second of the Gymnasium environments: one env, the native vector of 8 and of 32 (contexts of one
browser in this process), against Gymnasium's AsyncVectorEnv of 8 processes (a browser each).

Usage: python benchmarks/env_steps.py [--task 01_02] [--obs state|screenshot|both] [--seconds 20] [--sizes 8,32]
       [--async-envs 8]
Each configuration is reset once (not timed), then stepped with random actions of its action space for at least
--seconds of wall time; a step of a vector counts as num_envs steps. Autoreset is Gymnasium's default (next
step), so an episode that ends costs its reset inside the timing, as it does in training. The budget is lifted
(max_steps 100000): episodes end only by the game's own end.
Memory: the proportional set size (PSS: a page shared by k processes counts 1/k in each) of every process the
configuration runs (this interpreter or the worker processes, Playwright's drivers, the browsers and renderers),
read while it is still open.
Last line: single_sps=… vector8_sps=… vector32_sps=… async8_sps=…
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium

import pytest_gameworld.gym  # noqa: F401  (registers GameWorld/<task>-v0)

BUDGET = 100_000


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(text[text.rfind(")") + 2:].split()[1])
            kids.setdefault(parent, []).append(int(entry.name))
    return kids


def _tree(root: int) -> list[int]:
    """A process and all its descendants."""
    kids, todo, seen = _children(), [root], []
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.append(pid)
            todo.extend(kids.get(pid, []))
    return seen


def tree_cpu_s(root: int) -> dict[str, float]:
    """CPU seconds (user + system) the process and its living descendants have used so far, by process name
    (python: the interpreters; node: Playwright's drivers; chromium: browsers and renderers)."""
    out: dict[str, float] = {}
    for pid in _tree(root):
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        name = text[text.find("(") + 1:text.rfind(")")]
        name = "python" if name.startswith("python") else name
        fields = text[text.rfind(")") + 2:].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (the 14th and 15th fields of stat)
        out[name] = out.get(name, 0.0) + ticks / os.sysconf("SC_CLK_TCK")
    return out


def tree_pss_mb(root: int) -> float:
    """The PSS of a process and all its descendants, in MB (RSS where smaps_rollup cannot be read)."""
    total_kb = 0
    for pid in _tree(root):
        for name, field in ((f"/proc/{pid}/smaps_rollup", "Pss:"), (f"/proc/{pid}/status", "VmRSS:")):
            try:
                line = next(ln for ln in Path(name).read_text().splitlines() if ln.startswith(field))
            except (OSError, StopIteration):
                continue
            total_kb += int(line.split()[1])
            break
    return total_kb / 1024


CPU_MS: dict[str, float] = {}  # the last timed window's CPU per step and cores busy (also by process name)


def timed(step: Callable[[], None], per_call: int, seconds: float) -> tuple[float, int]:
    """Call ``step`` until ``seconds`` have passed; (steps per second, steps taken). The CPU every process of the
    configuration used meanwhile goes to CPU_MS: per step, and as cores kept busy."""
    calls, cpu0, start = 0, tree_cpu_s(os.getpid()), time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        step()
        calls += 1
    cpu1 = tree_cpu_s(os.getpid())
    used = {name: cpu1[name] - cpu0.get(name, 0.0) for name in cpu1}
    CPU_MS.clear()
    CPU_MS.update(per_step=1000 * sum(used.values()) / max(1, calls * per_call), cores=sum(used.values()) / elapsed)
    CPU_MS.update({f"cores:{name}": v / elapsed for name, v in used.items() if v / elapsed >= 0.01})
    return calls * per_call / elapsed, calls * per_call


def measure_single(env_id: str, obs: str, seconds: float, **opts: Any) -> tuple[float, int, float]:
    env = gymnasium.make(env_id, obs=obs, max_steps=BUDGET, **opts)
    try:
        env.reset(seed=0)
        env.action_space.seed(0)

        def step() -> None:
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                env.reset()

        sps, steps = timed(step, 1, seconds)
        return sps, steps, tree_pss_mb(os.getpid())
    finally:
        env.close()


def measure_vector(env_id: str, obs: str, seconds: float, num_envs: int, mode: str,
                   **opts: Any) -> tuple[float, int, float]:
    # spawn: a forked worker would inherit this process's engine thread state; each worker starts clean.
    extra: dict[str, Any] = {"vector_kwargs": {"context": "spawn"}} if mode == "async" else {}
    vec = gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode, obs=obs, max_steps=BUDGET,
                             **opts, **extra)
    try:
        vec.reset(seed=0)
        vec.action_space.seed(0)
        sps, steps = timed(lambda: vec.step(vec.action_space.sample()), num_envs, seconds)
        return sps, steps, tree_pss_mb(os.getpid())
    finally:
        vec.close()


def cpu_note() -> str:
    by_name = ", ".join(f"{k[6:]} {v:.2f}" for k, v in sorted(CPU_MS.items()) if k.startswith("cores:"))
    return f"CPU {CPU_MS['per_step']:5.1f} ms/step ({CPU_MS['cores']:.2f} cores busy: {by_name})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", default="01_02")
    ap.add_argument("--obs", default="state", choices=["state", "screenshot", "both"])
    ap.add_argument("--seconds", type=float, default=20.0, help="wall time each configuration is stepped")
    ap.add_argument("--sizes", default="8,32", help="native vector sizes, comma-separated")
    ap.add_argument("--async-envs", type=int, default=8, help="AsyncVectorEnv worker processes")
    ap.add_argument("--only", default="single,vector,async", help="which of single, vector, async to measure")
    ap.add_argument("--page-timeout", type=float, default=30.0, help="the sandbox's bound on one page call (s)")
    args = ap.parse_args()
    env_id = f"GameWorld/{args.task}-v0"
    sizes = [int(n) for n in args.sizes.split(",") if n]
    opts = {"page_timeout": args.page_timeout}
    print(f"task={args.task} obs={args.obs} cores={os.cpu_count()} load={os.getloadavg()[0]:.1f} "
          f"seconds={args.seconds:g} page_timeout={args.page_timeout:g} (a vector step counts num_envs steps)",
          flush=True)
    only = set(args.only.split(","))
    figures: dict[str, float] = {}
    if "single" in only:
        sps, steps, mb = measure_single(env_id, args.obs, args.seconds, **opts)
        figures["single"] = sps
        print(f"single      {sps:8.1f} steps/s  ({steps} steps)  memory {mb:7.0f} MB  {cpu_note()}", flush=True)
    for n in sizes if "vector" in only else []:
        sps, steps, mb = measure_vector(env_id, args.obs, args.seconds, n, "vector_entry_point", **opts)
        figures[f"vector{n}"] = sps
        print(f"vector{n:<5} {sps:8.1f} steps/s  ({steps} steps)  memory {mb:7.0f} MB  {cpu_note()}  "
              f"(one browser, {n} contexts)", flush=True)
    base = f"async{args.async_envs}"
    if "async" in only:
        sps, steps, mb = measure_vector(env_id, args.obs, args.seconds, args.async_envs, "async", **opts)
        figures[base] = sps
        print(f"{base:<11} {sps:8.1f} steps/s  ({steps} steps)  memory {mb:7.0f} MB  {cpu_note()}  "
              f"({args.async_envs} processes, a browser each)", flush=True)
    for n in sizes:
        if f"vector{n}" in figures and base in figures:
            print(f"vector{n} / {base}: {figures[f'vector{n}'] / figures[base]:.2f}x")
    print(" ".join(f"{name}_sps={value:.1f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
