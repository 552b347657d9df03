"""A provider model's step through the whole harness against the bare-call floor, in real Chromium.

Usage: python benchmarks/provider_step.py [--game 01-2048] [--task 01_02] [--steps 60] [--rounds 3]
       [--spec qwen3-vl-30b --spec openai/gpt-4.1] [--no-frames]
Each spec plays through its official SDK against `gameworld serve` on 127.0.0.1 (random policy, answering at
once, no log), frames kept as a provider run keeps them by default; then the same actions run as bare calls
on a fresh page (the floor), the game reset after the steps the run reset it after. Rounds alternate run and
floor, so a slow spell of the machine weighs on both.
A line per spec and round; last line: median_ms=… floor_ms=… ratio=… (the worst spec's median round).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from pytest_gameworld.agents import AgentReply, Observation, RunContext
from pytest_gameworld.agents.factory import make_agent
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.launch import find_browser, launch_browser
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.endpoint.process import spawn_endpoint
from pytest_gameworld.play.actions import Action
from pytest_gameworld.play.runner import RunConfig, play

from floor import floor_on_fresh_page, pct, resets_after  # benchmarks/floor.py, beside this script

PROTOCOL = {"openai": "openai", "openai-compatible": "openai", "anthropic": "anthropic", "gemini": "gemini"}


class Stamped:
    """The provider agent as is, stamping the moment each step asks it (a step is the time between two asks)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.stamps, self.actions = inner, [], []
        self.interface, self.needs_pixels = inner.interface, inner.needs_pixels

    async def begin(self, ctx: RunContext) -> None:
        await self.inner.begin(ctx)

    async def act(self, obs: Observation) -> AgentReply:
        self.stamps.append(time.perf_counter())
        return await self.inner.act(obs)

    async def close(self) -> None:
        await self.inner.close()


async def run_spec(browser: Any, cat: Any, ref: str, game_id: str, task_id: str, steps: int,
                   keep_frames: bool, workdir: Path) -> dict[str, Any]:
    spec = cat.resolve_model(ref)
    workdir.mkdir(parents=True, exist_ok=True)
    server = spawn_endpoint(PROTOCOL[spec.provider], "random", workdir=workdir, name=spec.name, log=False)
    try:
        spec = cat.resolve_model(ref, {"endpoint.base_url": server.url, "endpoint.api_key_required": False})
        if spec.endpoint.api_key_env:
            os.environ.setdefault(spec.endpoint.api_key_env, "loopback")
        game = cat.games[game_id]
        task = next(t for t in cat.tasks if t.id == task_id)
        session = await GameSession.open(browser, GameFiles(cat.games_dir), game, seed=1, url_suffix=task.url_suffix)
        agent = Stamped(make_agent(spec))
        cfg = RunConfig("bench", game, task.model_copy(update={"continue_on_fail": True}), spec, 1, 0,
                        workdir / spec.name, workdir / "results.jsonl", cat.prompts_dir, max_steps=steps,
                        keep_frames=keep_frames, compact_frames=True)
        record, _ = await play(session, agent, cfg)
        ended = time.perf_counter()
        captured_by = dict(session.captures)
        await session.close()
    finally:
        server.stop()
    steps_jsonl = workdir / spec.name / "steps.jsonl"
    lines = [json.loads(line) for line in steps_jsonl.read_text().splitlines() if line]
    actions = [ln["verdict"]["action"] for ln in lines if ln.get("event") == "step" and ln["verdict"].get("action")]
    return {"spec": spec, "record": record, "steps_ms": [(b - a) * 1000 for a, b in zip(agent.stamps, agent.stamps[1:])],
            "end_ms": (ended - agent.stamps[-1]) * 1000, "resets": resets_after(steps_jsonl),
            "actions": [Action(**{**a, "keys": tuple(a.get("keys", ()))}) for a in actions],
            "captured_by": captured_by, "frames": sorted((workdir / spec.name / "frames").glob("*")),
            "url_suffix": task.url_suffix}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="01-2048")
    ap.add_argument("--task", default="01_02")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3, help="run then floor, this many times per spec")
    ap.add_argument("--spec", action="append", help="model spec or PROVIDER/MODEL (repeatable)")
    ap.add_argument("--no-frames", action="store_true", help="keep no frames (provider runs keep them by default)")
    args = ap.parse_args()
    cat = load_catalog(None)
    refs = args.spec or ["qwen3-vl-30b", "openai/gpt-4.1"]
    rounds: dict[str, list[tuple[float, float]]] = {}
    async with async_playwright() as pw:
        browser = await launch_browser(pw, find_browser(None))
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(args.rounds):
                for ref in refs:
                    r = await run_spec(browser, cat, ref, args.game, args.task, args.steps, not args.no_frames,
                                       Path(tmp) / f"round{n}")
                    # The floor: the actions this run executed, as bare calls on a fresh page, same seed.
                    capture = "canvas" if "canvas" in r["captured_by"] else "screen"
                    floor_ms = await floor_on_fresh_page(browser, GameFiles(cat.games_dir), cat.games[args.game],
                                                         r["actions"][: len(r["steps_ms"])], r["resets"], capture,
                                                         url_suffix=r["url_suffix"])
                    med, floor = statistics.median(r["steps_ms"]), statistics.median(floor_ms)
                    frame_kb = (sum(f.stat().st_size for f in r["frames"]) / len(r["frames"]) / 1024) if r["frames"] else 0
                    print(f"round {n + 1} spec={r['spec'].name} api={r['spec'].api} steps={len(r['steps_ms'])} "
                          f"valid={r['record'].valid} step median {med:.1f} ms p95 {pct(r['steps_ms'], 0.95):.1f} ms; "
                          f"floor median {floor:.1f} ms; ratio {med / floor:.2f}; frames {len(r['frames'])} x "
                          f"{frame_kb:.1f} kB; run end {r['end_ms']:.0f} ms", flush=True)
                    rounds.setdefault(r["spec"].name, []).append((med, floor))
        await browser.close()
    worst = None
    for name, figures in rounds.items():
        ratios = [m / f for m, f in figures]
        mid = sorted(range(len(ratios)), key=ratios.__getitem__)[len(ratios) // 2]  # the median round
        print(f"spec={name} ratio per round {' / '.join(f'{x:.2f}' for x in ratios)}; median round "
              f"{figures[mid][0]:.1f} ms against {figures[mid][1]:.1f} ms")
        if worst is None or ratios[mid] > worst[2]:
            worst = (figures[mid][0], figures[mid][1], ratios[mid])
    assert worst is not None
    print(f"median_ms={worst[0]:.1f} floor_ms={worst[1]:.1f} ratio={worst[2]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
