"""After a failed episode is reset, the next step's request says so in one line, for every API and interface:
real SDK clients against `gameworld serve` (its random policy flaps the bird into a pipe or the ground soon), real Chromium, the real
runner; the line is in steps.jsonl and in the viewer's transcript of that step."""

from __future__ import annotations

import json
import re

import pytest

from pytest_gameworld.agents import make_agent
from pytest_gameworld.report.run_viewer import viewer_data

ASYNC = pytest.mark.asyncio(loop_scope="session")
# One spec per API × interface: chat, responses, messages, generateContent; generalist, function CUA, native
# computer tools, and the Qwen and UI-TARS text formats.
SPECS = ["glm-4.6v", "gpt-5.2", "openai-computer-use", "claude-sonnet-4.6", "claude-sonnet-4.6-cua",
         "gemini-3-flash", "gemini-2.5-computer-use", "qwen3-vl-30b", "qwen3-vl-30b-cua", "ui-tars-1.5-7b"]
LINE = re.compile(r"Your last attempt ended \(collision\); the game has restarted; best progress so far: (\d+) %")


@ASYNC
@pytest.mark.parametrize("name", SPECS)
async def test_the_step_after_a_reset_is_told_the_episode_ended(served_spec, play_task, name):
    spec, server = served_spec(name)
    # 15 pipes: a random flight dies before it (it solved 13_01's one pipe often enough to end without a reset).
    record, _, steps_path = await play_task("13_05", make_agent(spec), max_steps=100, model_spec=spec)
    lines = [json.loads(x) for x in steps_path.read_text().splitlines()]
    resets = [x for x in lines if x.get("event") == "reset"]
    assert record.status == "ok" and resets, (record.status, record.episodes)  # the falling bird died at least once
    steps = [x for x in lines if x.get("event") == "step"]
    first_after = resets[0]["step"]  # steps are numbered from 0: the step after n steps is step n
    said = LINE.fullmatch(resets[0]["notice"] or "")
    assert resets[0]["reason"] == "collision" and said, resets[0]
    assert int(said[1]) == round(100 * max(s["progress"] for s in steps[:first_after]))
    line = resets[0]["notice"]
    told = {s["step"]: s["notice"] for s in steps if s.get("notice")}
    assert min(told) == first_after and told == {r["step"]: r["notice"] for r in resets if r["step"] in told}
    bodies = [json.dumps(p["request"]) for p in server.posts(count=len(steps))]
    assert line in bodies[first_after], bodies[first_after][:600]
    assert line not in bodies[0] and line not in bodies[first_after - 1]  # said on the step after, not before
    if len(resets) == 1 and spec.memory_rounds == 0:
        assert sum(line in b for b in bodies) == 1  # said once per reset (a history may repeat it)
    view = viewer_data(lines, {})
    shown = view["steps"][first_after]
    assert shown["notice"] == line
    sent = json.dumps(shown["turns"][0]["sent"])
    assert line in sent or any(line in s for s in view["strings"]), sent[:400]
