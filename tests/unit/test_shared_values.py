"""steps.jsonl keeps what steps repeat (system prompt, tool schema, settings, an echoing reply) once, and kept
frames equal to the last one once; every reader gets the exact records back, and older files read unchanged."""

from __future__ import annotations

import copy
import io
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pytest_gameworld.play.runner import Trajectory
from pytest_gameworld.records.jsonl import dumps, read_jsonl
from pytest_gameworld.records.shared_values import REF, SHARED_EVENT, resolve
from pytest_gameworld.report.run_viewer import read_viewer_data, viewer_data, write_viewer

SYSTEM = "You play 2048. " + " ".join(f"Rule {i}: merge equal tiles by sliding them." for i in range(30))
TOOLS = [{"type": "function", "function": {"name": f"move_{d}", "description": f"Slide every tile {d}.",
                                           "parameters": {"type": "object", "properties": {}}}}
         for d in ("up", "down", "left", "right")]


def chat_request(step: int) -> dict[str, Any]:
    history = [{"type": "text", "text": f"Step {i + 1}: moved left."} for i in range(step)]
    return {"api": "chat", "model": "m", "temperature": 0.0, "max_tokens": 512, "tools": TOOLS,
            "messages": [{"role": "system", "content": SYSTEM},
                         {"role": "user", "content": [*history, {"type": "image_url", "image_url": {
                             "url": f"<image png 1280x720 40kB, step {step}>"}}]}]}


def step_line(step: int, request: dict[str, Any], raw: Any = None) -> dict[str, Any]:
    return {"event": "step", "step": step, "episode": 1, "request": request,
            "reply": {"text": "", "reasoning": None, "raw": raw}, "calls": [{"name": "move_left", "args": {}}],
            "verdict": {"validity": "valid", "action": {"kind": "press_key", "keys": ["ArrowLeft"],
                                                        "duration_ms": 200}},
            "latency_ms": 5, "usage": {"input_tokens": 900, "output_tokens": 9, "cached_tokens": 0},
            "cost_usd": 0.0, "retries": [], "state": {"status": "playing"}, "score": step, "best": step,
            "progress": 0.1, "success": False, "reset": False, "stop": None, "frame": None}


def played(n: int) -> list[dict[str, Any]]:
    start = {"event": "start", "item": "puzzle/01-2048/01_01[m]", "model": "m", "role": "player"}
    # A Responses-style reply echoes the instructions and tools every step, like the request.
    return [start, *(step_line(i, chat_request(i), raw={"instructions": SYSTEM, "tools": TOOLS, "id": f"r{i}"})
                     for i in range(n)), {"event": "end", "status": "ok", "steps": n}]


class Line:
    """A line as the play loop's events hand it to the writer (their to_json), here written out in full."""

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value

    def to_json(self) -> dict[str, Any]:
        return self.value


def write(run_dir: Path, lines: list[dict[str, Any]]) -> Path:
    traj = Trajectory(run_dir)
    for line in lines:
        traj.write(Line(line))
    traj.close()
    return traj.path


def test_what_steps_repeat_is_written_once_and_read_back_exactly(tmp_path: Path):
    lines = played(12)
    expected = copy.deepcopy(lines)
    path = write(tmp_path, lines)
    raw = read_jsonl(path)
    shared = [r for r in raw if r.get("event") == SHARED_EVENT]
    system_message = {"role": "system", "content": SYSTEM}
    assert sorted(json.dumps(s["value"]) for s in shared) == sorted(json.dumps(v) for v in (SYSTEM, TOOLS,
                                                                                            system_message))
    text = path.read_text()
    # Inline in the first request; the reply's echo of it is already a repeat (a shared line), and so is the
    # system message at step 2: three copies, however many steps refer to them.
    assert text.count(SYSTEM) == 3
    ids = {json.dumps(s["value"]): s["id"] for s in shared}
    later = [r for r in raw if r.get("event") == "step"][5]
    assert later["request"]["messages"][0] == {REF: ids[json.dumps(system_message)]}
    assert later["request"]["tools"] == later["reply"]["raw"]["tools"] == {REF: ids[json.dumps(TOOLS)]}
    assert resolve(raw) == expected, "every reader gets the records exactly as they were played"
    assert lines == expected, "the records queued are not changed"
    naive = sum(len(dumps(r)) + 1 for r in expected)
    assert len(text) < naive / 3, (len(text), naive)


def test_multi_role_steps_share_too(tmp_path: Path):
    turn = {k: v for k, v in step_line(0, chat_request(0)).items() if k in ("request", "reply", "verdict")}
    lines = [{"event": "step", "step": i, "roles": {"red": copy.deepcopy(turn), "blue": copy.deepcopy(turn)}}
             for i in range(3)]
    expected = copy.deepcopy(lines)
    path = write(tmp_path, lines)
    assert resolve(read_jsonl(path)) == expected
    assert path.read_text().count(SYSTEM) == 2, "the first role's request inline, then one shared line"


def test_an_older_steps_file_with_every_request_whole_reads_unchanged(tmp_path: Path):
    lines = played(3)
    (tmp_path / "steps.jsonl").write_text("".join(dumps(r) + "\n" for r in lines))  # the format before sharing
    assert resolve(read_jsonl(tmp_path / "steps.jsonl")) == lines
    page = write_viewer(tmp_path).read_text()
    data = read_viewer_data(page)
    sent = data["steps"][2]["turns"][0]["sent"]
    assert [m["role"] for m in sent["messages"]] == ["system", "user"] and sent["tool_count"] == 4


def test_the_viewer_shows_each_step_whole_from_a_shared_file(tmp_path: Path):
    lines = played(4)
    write(tmp_path, copy.deepcopy(lines))
    page = write_viewer(tmp_path).read_text()
    data = read_viewer_data(page)
    data.pop("chart", None)
    assert data == json.loads(json.dumps(viewer_data(lines, {}))), "the same page as from the whole records"
    sent = data["steps"][3]["turns"][0]["sent"]
    system = sent["messages"][0]["parts"][0]["text"]
    assert data["strings"][system["ref"]] == SYSTEM and sent["tool_count"] == 4


def test_model_text_that_looks_like_a_reference_stays_as_written(tmp_path: Path):
    lines = played(3)
    lines[2]["reply"]["text"] = {REF: "0123456789abcdef0123"}  # no shared line has this id
    expected = copy.deepcopy(lines)
    assert resolve(read_jsonl(write(tmp_path, lines))) == expected


def test_model_objects_shaped_like_a_reference_read_back_as_written(tmp_path: Path):
    lines = played(4)
    path = write(tmp_path, copy.deepcopy(lines))
    real_id = next(r["id"] for r in read_jsonl(path) if r.get("event") == SHARED_EVENT)
    lines = played(4)  # tool arguments a model wrote: one names a real shared value of this very run
    lines[3]["reply"]["raw"] = {"input": {REF: real_id}, "nested": [{"$literal": 1}, {REF: real_id, "x": 2}],
                                "instructions": SYSTEM, "tools": TOOLS}
    lines[2]["reply"]["raw"] = {REF: real_id}
    expected = copy.deepcopy(lines)
    (tmp_path / "again").mkdir()
    assert resolve(read_jsonl(write(tmp_path / "again", lines))) == expected


def png(color: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 36), color).save(buf, format="PNG")
    return buf.getvalue()


def test_a_frame_equal_to_the_last_kept_one_is_not_written_again(tmp_path: Path):
    traj = Trajectory(tmp_path)
    a, b = png((10, 20, 30)), png((200, 0, 0))
    names = [traj.keep_frame(f"frames/{i:04d}.webp", shot, True, None) for i, shot in enumerate([a, a, a, b, a])]
    traj.close()
    assert names == ["frames/0000.webp", "frames/0000.webp", "frames/0000.webp", "frames/0003.webp",
                     "frames/0004.webp"], "only a repeat of the last kept frame is named again"
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == ["0000.webp", "0003.webp", "0004.webp"]


def test_the_viewer_holds_one_copy_of_a_frame_that_steps_share(tmp_path: Path):
    traj = Trajectory(tmp_path)
    shots = [png((10, 20, 30)), png((10, 20, 30)), png((10, 20, 30)), png((200, 0, 0))]
    lines = played(4)
    for line, shot in zip(lines[1:], shots):
        line["frame"] = traj.keep_frame(f"frames/{line['step']:04d}.webp", shot, True, None)
        traj.write(Line(line))
    traj.close()
    page = write_viewer(tmp_path).read_text()
    data = read_viewer_data(page)
    assert sorted(data["frames"]) == ["frames/0000.webp", "frames/0003.webp"], "each file inlined once"
    assert data["frame_of"] == {"0": "frames/0000.webp", "1": "frames/0000.webp", "2": "frames/0000.webp",
                                "3": "frames/0003.webp"}, "a history image of any step finds its frame"
    assert [s["frame"] for s in data["steps"]] == ["frames/0000.webp"] * 3 + ["frames/0003.webp"]


def thread_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_the_writer_thread_runs_at_the_lowest_cpu_priority(tmp_path: Path):
    """Kept frames are encoded on CPU the step leaves idle: the writer thread is niced, the caller is not."""
    caller = thread_nice()
    traj = Trajectory(tmp_path)
    seen: list[int] = []
    traj._queue(lambda: seen.append(thread_nice()))
    traj.close()
    assert seen == [19] and thread_nice() == caller
