"""Per-step harness overhead against the bare-call floor, in real Chromium.

Usage: python benchmarks/step_overhead.py [--catalog PATH] [--game 01-2048|all] [--task 01_05] [--steps 100] [--format png]
       [--browser-endpoint ws://host:port/ [--browser-path PATH-ON-SERVER]]
(--catalog: our catalog folder or an upstream GameWorld checkout; --task defaults to the game's last task;
 --game all: every game in one browser, each game's median step as a multiple of 2048's;
 --browser-endpoint: play in a Playwright browser server's browser)
Last line: median_ms=… floor_ms=… ratio=…
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from pytest_gameworld.agents import AgentReply, Observation, RunContext
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.launch import find_browser, launch_browser
from pytest_gameworld.browser.remote import connect_browser
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.actions import Proposal
from pytest_gameworld.play.runner import RunConfig, play
from pytest_gameworld.play.semantic import parse_semantic

from floor import floor_on_fresh_page, make_plan, pct, resets_after  # benchmarks/floor.py, beside this script


class PixelAgent:
    """Answers at once but needs a screenshot every step; stamps the time of each call."""

    interface = "generalist"
    needs_pixels = True

    def __init__(self, plan: list[Proposal]) -> None:
        self.plan = plan
        self.stamps: list[float] = []

    async def begin(self, ctx: RunContext) -> None:
        pass

    async def act(self, obs: Observation) -> AgentReply:
        assert obs.screenshot
        self.stamps.append(time.perf_counter())
        return AgentReply(calls=[self.plan[obs.step % len(self.plan)]])

    async def close(self) -> None:
        pass


async def measure(browser: Any, cat: Any, game_id: str, task_id: str, steps: int, fmt: str) -> dict[str, Any]:
    """The harness's step times and the bare floor's on one game, with the same actions from the same seed."""
    game = cat.games[game_id]
    tasks = [t for t in cat.tasks if t.game == game.id]
    task = next(t for t in tasks if t.id == task_id) if task_id else tasks[-1]  # the hardest: played longest
    role = next(iter(game.roles.values()))
    plan = make_plan(role, steps)
    actions = [parse_semantic(p, role, game.viewport, role.cua.default_hold_ms).action for p in plan]
    files = GameFiles(cat.games_dir)
    # The harness loop, with a zero-latency agent that needs pixels.
    session = await GameSession.open(browser, files, game, seed=1, url_suffix=task.url_suffix)
    agent = PixelAgent(plan)
    spec = cat.resolve_model("noop", {"screenshot_format": fmt})
    with tempfile.TemporaryDirectory() as tmp:
        cfg = RunConfig("bench", game, task.model_copy(update={"continue_on_fail": True}), spec, 1, 0,
                        Path(tmp) / "run", Path(tmp) / "results.jsonl", cat.prompts_dir, max_steps=steps)
        await play(session, agent, cfg)
        resets = resets_after(Path(tmp) / "run" / "steps.jsonl")
    captured_by = dict(session.captures)
    await session.close()
    steps_ms = [(b - a) * 1000 for a, b in zip(agent.stamps, agent.stamps[1:])]
    # The floor: the same actions as bare calls, on a fresh page with the same seed, picture taken as the
    # harness took it (canvas read-back when it could), and with a CDP screenshot for comparison; the game reset
    # after the steps the harness reset it after, so a game that keeps dying costs both the same resets.
    floors: dict[str, list[float]] = {}
    for capture in ("canvas", "screen") if "canvas" in captured_by else ("screen",):
        floors[capture] = await floor_on_fresh_page(browser, files, game, actions[: len(steps_ms)], resets, capture,
                                                    fmt, task.url_suffix)
    return {"game": game, "task": task, "steps_ms": steps_ms, "floors": floors, "captured_by": captured_by,
            "hold_ms": actions[0].duration_ms, "resets": len(resets)}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="01-2048", help="a game id, or 'all' (every game, ratios to 01-2048)")
    ap.add_argument("--task", default="")
    ap.add_argument("--catalog", type=Path, default=None)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--format", default="png", choices=["png", "jpeg"])
    ap.add_argument("--browser-endpoint", default=None, help="play in a `playwright run-server` browser")
    ap.add_argument("--browser-path", default=None, help="with --browser-endpoint: the browser on the server host")
    args = ap.parse_args()
    cat = load_catalog(args.catalog)
    games = sorted(cat.games) if args.game == "all" else [args.game]
    async with async_playwright() as pw:
        if args.browser_endpoint:
            browser = await connect_browser(pw, args.browser_endpoint, args.browser_path)
        else:
            browser = await launch_browser(pw, find_browser(None))
        results = [await measure(browser, cat, g, args.task if len(games) == 1 else "", args.steps, args.format)
                   for g in games]
        await browser.close()
    where = f"remote {args.browser_endpoint}" if args.browser_endpoint else "local"
    if len(results) > 1:
        base = next((statistics.median(r["steps_ms"]) for r in results if r["game"].id == "01-2048"), None)
        print(f"{'game':32} {'task':6} {'step_ms':>8} {'p95':>7} {'floor':>7} {'ratio':>6} {'x2048':>6} {'resets':>6}  pictures")
        for r in results:
            med, floor = statistics.median(r["steps_ms"]), statistics.median(next(iter(r["floors"].values())))
            rel = f"{med / base:6.2f}" if base else "     -"
            print(f"{r['game'].id:32} {r['task'].id:6} {med:8.1f} {pct(r['steps_ms'], 0.95):7.1f} {floor:7.1f} "
                  f"{med / floor:6.2f} {rel} {r['resets']:6d}  {r['captured_by']}", flush=True)
        worst = max(results, key=lambda r: statistics.median(r["steps_ms"]))
        print(f"games={len(results)} browser={where} median_2048_ms={base:.1f} worst={worst['game'].id} "
              f"worst_x2048={statistics.median(worst['steps_ms']) / base:.2f}" if base else f"games={len(results)}")
        return
    r = results[0]
    game, steps_ms, floors = r["game"], r["steps_ms"], r["floors"]
    med, p95 = statistics.median(steps_ms), pct(steps_ms, 0.95)
    floor = statistics.median(next(iter(floors.values())))
    print(f"game={game.id} task={r['task'].id} steps={len(steps_ms)} viewport={game.viewport.width}x"
          f"{game.viewport.height} browser={where}")
    print(f"step: median {med:.1f} ms, p95 {p95:.1f} ms, {1000 / med:.1f} steps/s per worker")
    print(f"pictures the harness took: {r['captured_by']}; resets after a failed episode: {r['resets']} "
          f"(the floor resets after the same steps)")
    for capture, values in floors.items():
        print(f"floor ({capture} picture + input + clock {r['hold_ms']} ms + getState): median "
              f"{statistics.median(values):.1f} ms, p95 {pct(values, 0.95):.1f} ms")
    print(f"median_ms={med:.1f} floor_ms={floor:.1f} ratio={med / floor:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
