"""`gameworld human`: a person's runs, played on our page in headless Chromium (keys and clicks sent to our page,
never to the game), recorded, scored and replayable like a model's."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

pytestmark = pytest.mark.asyncio(loop_scope="session")
GAMEWORLD = [sys.executable, "-m", "pytest_gameworld.cli"]
WAIT_MS = 60_000  # for the page to be served and for each next frame (a game loads in a few seconds)


class Human:
    """A `gameworld human` process and our page opened on it in the test's browser."""

    def __init__(self, proc: asyncio.subprocess.Process, page: Any, results: Path, said: str) -> None:
        self.proc, self.page, self.results, self.said = proc, page, results, said

    async def ready(self) -> None:
        try:
            await self.page.wait_for_selector("#frame.live", timeout=WAIT_MS)
        except Exception as e:
            ended = f"it ended ({self.proc.returncode}):\n{(await self.finish())[1][-3000:]}" \
                if self.proc.returncode is not None else "it is still running"
            raise AssertionError(f"our page asked for no move within {WAIT_MS} ms ({e}); {ended}") from None

    async def press(self, key: str) -> None:
        await self.ready()
        await self.page.keyboard.press(key)

    async def click(self, x: int, y: int) -> None:
        await self.ready()
        await self.page.click("#frame", position={"x": x, "y": y})

    async def finish(self) -> tuple[int, str]:
        out, err = await asyncio.wait_for(self.proc.communicate(), timeout=120)
        return int(self.proc.returncode or 0), out.decode() + self.said + err.decode()

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in (self.results / "results.jsonl").read_text().splitlines()]

    def steps(self) -> list[dict[str, Any]]:
        traj = self.results / self.records()[-1]["trajectory"]
        return [json.loads(x) for x in traj.read_text().splitlines()]


async def _run(tmp_path: Path, *argv: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *GAMEWORLD, *argv, "--gw-results", str(tmp_path), "--gw-progress", "off", "-p", "no:cacheprovider",
        cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


@pytest_asyncio.fixture(loop_scope="session")
async def human(browser, tmp_path: Path):
    """human(task, *pytest args) starts `gameworld human --no-window` and opens its page (both ended at teardown)."""
    started: list[Human] = []

    async def start(task: str, *args: str) -> Human:
        proc = await _run(tmp_path, "human", task, "--name", "tester", "--no-window", "--gw-session", "h", *args)
        said = ""  # the command prints its page's URL first; the port is held from then on
        while not (found := re.search(r"at (http://127\.0\.0\.1:\d+/)", said)):
            line = await asyncio.wait_for(proc.stderr.readline(), timeout=WAIT_MS / 1000)
            assert line, f"gameworld human ended before it named its page:\n{said}"
            said += line.decode()
        page = await browser.new_page(viewport={"width": 1460, "height": 820})
        # Answered once the game has loaded: the connection waits in the listening socket's queue until then.
        await page.goto(found.group(1), timeout=WAIT_MS)
        h = Human(proc, page, tmp_path / "h", said)
        started.append(h)
        return h

    yield start
    for h in started:
        await h.page.close()
        if h.proc.returncode is None:
            h.proc.terminate()
            await asyncio.wait_for(h.proc.wait(), timeout=30)


async def test_a_paused_human_run_is_recorded_scored_and_replays_exactly(human, tmp_path: Path):
    h = await human("01_01", "--gw-max-steps", "5")
    await h.press("ArrowUp")
    await h.press("x")  # 2048 takes arrows only: refused on the page, counted invalid
    await h.ready()
    refused = await h.page.inner_text("#msg")
    await h.press("ArrowLeft")
    await h.click(480, 270)  # 2048's role may click: a click on our frame is a click at that game point
    await h.press("ArrowDown")
    code, output = await h.finish()
    assert code == 0, output[-3000:]
    assert "refused x" in refused and "counted as an invalid action" in refused
    # The session's end is said as such, not as a fault ("the harness is gone").
    await h.page.wait_for_function("document.getElementById('msg').textContent.startsWith('session over')",
                                   timeout=10_000)
    assert "bad" not in (await h.page.get_attribute("#msg", "class") or "")
    (rec,) = h.records()
    assert rec["model"] == "human:tester" and rec["interface"] == "cua" and rec["status"] == "ok"
    assert (rec["steps"], rec["valid"], rec["invalid_oos"], rec["invalid_ntc"]) == (5, 4, 1, 0)
    assert rec["protocol"] == "paused" and rec["score_best"] is not None and rec["score_best"] >= 2
    steps = h.steps()
    verdicts = [s["verdict"] for s in steps if s["event"] == "step"]
    assert [v["validity"] for v in verdicts] == ["valid", "oos", "valid", "valid", "valid"]
    assert verdicts[1]["reason"] == "key 'x' is not allowed"
    assert verdicts[0]["action"] == {"kind": "press_key", "duration_ms": 200, "keys": ["ArrowUp"], "button": "left"}
    click = verdicts[3]["action"]
    assert click["kind"] == "click" and abs(click["x"] - 640) <= 2 and abs(click["y"] - 360) <= 2, click
    final = steps[-1]["final_state"]
    # The same actions replayed by `replay:` reach exactly the same final state.
    traj = tmp_path / "human-run.jsonl"  # named so that -k 01_01 does not match every replay item's id
    traj.write_bytes((h.results / rec["trajectory"]).read_bytes())
    proc = await _run(tmp_path, "play", "--model", f"replay:{traj}", "-k", "01_01", "--gw-max-steps", "5",
                      "--gw-session", "r")
    out, err = await asyncio.wait_for(proc.communicate(), timeout=180)
    assert proc.returncode == 0, (out + err).decode()[-3000:]
    replayed = [json.loads(x) for x in (tmp_path / "r" / "results.jsonl").read_text().splitlines()]
    end = json.loads((tmp_path / "r" / replayed[0]["trajectory"]).read_text().splitlines()[-1])
    assert end["final_state"] == final


async def test_realtime_records_the_persons_latency_and_the_game_moves_on_by_it(human):
    h = await human("01_01", "--gw-max-steps", "2", "--gw-rt")
    for key in ("ArrowUp", "ArrowLeft"):
        await h.ready()
        await h.page.wait_for_timeout(400)  # thinking time: under --gw-rt the game runs meanwhile
        await h.page.keyboard.press(key)
    code, output = await h.finish()
    assert code == 0, output[-3000:]
    (rec,) = h.records()
    assert rec["protocol"] == "realtime" and rec["status"] == "ok"
    steps = [s for s in h.steps() if s["event"] == "step"]
    latencies = [s["latency_ms"] for s in steps]
    assert all(ms >= 350 for ms in latencies), latencies
    times = [s["state"]["gameTimeMs"] for s in steps]
    # Each step's game time: the thinking time plus the key's 200 ms (a frame's rounding either way).
    assert times[1] - times[0] >= latencies[1] + 200 - 20, (times, latencies)


async def test_closing_the_page_ends_the_run_as_a_fault_that_stays_listed(human):
    h = await human("01_01", "--gw-max-steps", "5")
    await h.press("ArrowUp")
    await h.ready()
    await h.page.close()
    code, output = await h.finish()
    assert code != 0
    (rec,) = h.records()
    assert rec["status"] == "error" and "human page was closed" in rec["error"]
    assert "human page was closed" in output and "missing" in output


async def test_one_person_plays_both_roles_of_a_two_role_game_in_turn(human):
    """Fireboy and Watergirl: each step asks Watergirl's move, then Fireboy's (game.yaml's order); a key of the
    other role's set is refused for the role whose turn it is."""
    h = await human("12_01", "--gw-max-steps", "2")
    turns = []
    for key in ("d", "ArrowRight", "ArrowRight", "ArrowUp"):
        await h.ready()
        turns.append(await h.page.inner_text("#turn"))
        await h.page.keyboard.press(key)
    code, output = await h.finish()
    assert code == 0, output[-3000:]
    assert turns == ["watergirl's move", "fireboy's move"] * 2
    (rec,) = h.records()
    assert rec["model"] == "human:tester" and rec["role"] == "watergirl+fireboy" and rec["steps"] == 2
    assert rec["roles"]["watergirl"]["valid"] == 1 and rec["roles"]["watergirl"]["oos"] == 1
    assert rec["roles"]["fireboy"]["valid"] == 2 and rec["roles"]["fireboy"]["oos"] == 0
