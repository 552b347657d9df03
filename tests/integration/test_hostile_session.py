"""Hostile replies through `gameworld serve` and the real SDKs: every run scored, every reply counted (a no-op with
its reason, or the harmless action the original harness reads from it), strict JSON."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pytest_gameworld.agents import make_agent
from pytest_gameworld.records.jsonl import strict_loads
from pytest_gameworld.records.run_record import read_results
from pytest_gameworld.report.aggregate import aggregate

ASYNC = pytest.mark.asyncio(loop_scope="session")
KEY_ENV = "GW_HOSTILE_KEY"
NAN, INF = math.nan, math.inf
HUGE_INT = 10 ** 400
DEEP = '{"cell": ' + "[" * 50_000 + "]" * 50_000 + "}"  # refused for its size
DEEP_SMALL = '{"cell": ' + "[" * 20_000 + "]" * 20_000 + "}"  # within the size limit: refused for its depth


def call(name: str, args: object) -> dict:
    return {"calls": [{"name": name, "arguments": args}]}


def cu(args: str) -> dict:
    return call("computer_use", args)


def native(protocol: str, action: dict) -> dict:
    """A computer action sent verbatim to one protocol (a harmless wait for the others)."""
    return {"computer": {"action": "wait", protocol: action}}


GENERALIST = [
    call("reveal_cell", '{"cell": NaN}'), call("reveal_cell", '{"cell": Infinity}'),
    call("reveal_cell", '{"cell": 1e400}'), call("reveal_cell", '{"cell": ' + "9" * 400 + "}"),
    call("reveal_cell", DEEP), call("reveal_cell", DEEP_SMALL), call("reveal_cell", '{"cell": "' + "e" * 100_000 + '"}'),
    call("x" * 5000, "{}"), {"text": "I reveal e5."}, call("flag_cell", '{"cell": -1e308}'),
]
CUA = [
    cu('{"action": "click", "x": NaN, "y": 300}'), cu('{"action": "click", "x": Infinity, "y": 300}'),
    cu('{"action": "click", "x": 1e400, "y": 300}'), cu('{"action": "click", "x": ' + "9" * 400 + ', "y": 1}'),
    cu('{"action": "wait", "duration": 1e308}'), cu('{"action": "scroll", "x": 600, "y": 300, "dy": 1e400}'),
    cu('{"action": "click_hold", "x": 600, "y": 300, "duration": -1}'), cu('{"action": "wait", "duration": 0}'),
    cu('{"action": "click", "coordinate": [NaN, 3]}'), cu(DEEP), cu(DEEP_SMALL), {"text": "click e5"},
    cu('{"action": "type", "text": "' + "a" * 100_000 + '"}'),
]
ANTHROPIC = [
    native("anthropic", {"action": "left_click", "coordinate": [NAN, 5]}),
    native("anthropic", {"action": "left_click", "coordinate": [INF, 5]}),
    native("anthropic", {"action": "left_click", "coordinate": [HUGE_INT, 5]}),
    native("anthropic", {"action": "scroll", "coordinate": [600, 300], "scroll_direction": "down",
                         "scroll_amount": 1e300}),
    native("anthropic", {"action": "wait", "duration": 1e308}),
    native("anthropic", {"action": "hold_key", "text": "a", "duration": -5}),
    {"text": "Let me look."},
]
GEMINI = [
    native("gemini", {"name": "click_at", "args": {"x": NAN, "y": 500}}),
    native("gemini", {"name": "click_at", "args": {"x": -INF, "y": 500}}),
    native("gemini", {"name": "scroll_at", "args": {"x": 500, "y": 500, "direction": "down", "magnitude": 1e300}}),
    native("gemini", {"name": "drag_and_drop", "args": {"x": 1, "y": 1, "destination_x": HUGE_INT,
                                                        "destination_y": 3}}),
    native("gemini", {"name": "type_text_at", "args": {"x": 1, "y": 1, "text": "b" * 100_000}}),
    {"text": "Thinking."},
]
RUNS = [  # (endpoint protocol, model spec, overrides, script, (valid, ntc, oos))
    ("openai", "glm-4.6v", {}, GENERALIST, (0, 1, 9)),
    ("openai", "glm-4.6v", {"interface": "cua", "name": "glm-4.6v-cua"}, CUA, (0, 1, 12)),
    # As the original reads them, a scroll presses its arrow key and a hold_key with a negative hold presses
    # its key for the default time: Minesweeper takes any key, so both are valid; a Gemini coordinate that is
    # not a number makes the call unreadable (no tool call).
    ("anthropic", "claude-sonnet-4.6-cua", {}, ANTHROPIC, (2, 1, 4)),
    ("gemini", "gemini-2.5-computer-use", {}, GEMINI, (1, 4, 1)),
]
@ASYNC
async def test_a_hostile_session_is_scored_with_every_reply_counted(serve, catalog, play_task, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-hostile")
    budget = max(len(script) for *_, script, _ in RUNS)  # one step budget: a session never mixes budgets
    for protocol, model, overrides, script, (valid, ntc, oos) in RUNS:
        padding = budget - len(script)
        script = script + [{"text": "Thinking."}] * padding
        server = serve(protocol, script)
        spec = catalog.resolve_model(model, {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV,
                                             "extra.retry_backoff_s": 0.01, **overrides})
        record, _, steps_path = await play_task("19_05", make_agent(spec), max_steps=len(script), model_spec=spec)
        assert record.status == "ok" and record.steps == len(script), record.error
        steps = [strict_loads(line) for line in steps_path.read_text().splitlines()]
        verdicts = [s["verdict"] for s in steps if s["event"] == "step"]
        assert all(v["reason"] for v in verdicts if v["validity"] != "valid"), verdicts
        assert all(v["action"]["kind"] == "press_key" for v in verdicts if v["validity"] == "valid"), verdicts
        assert (record.valid, record.invalid_ntc, record.invalid_oos) == (valid, ntc + padding, oos), verdicts
    records = [strict_loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(records) == len(RUNS) and all(r["status"] == "ok" for r in records)
    summaries = aggregate(read_results(tmp_path / "results.jsonl").records)
    assert sum(s.overall.runs for s in summaries.values()) == len(RUNS)
    assert [m for s in summaries.values() for m in s.missing] == []
    for f in tmp_path.rglob("*.jsonl"):
        if f.parent != tmp_path:  # the endpoint logs are the server's, written with Python's loose JSON
            for line in f.read_text().splitlines():
                strict_loads(line)
