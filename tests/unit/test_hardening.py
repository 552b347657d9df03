"""Pure hardening pieces: bounded argument JSON, hostile numbers, strict JSON out, state contract, breaker, step deadline."""

from __future__ import annotations

import asyncio
import json
import math
import shutil
from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld.agents.base import AgentError
from pytest_gameworld.agents.providers.coords import Frame, to_viewport
from pytest_gameworld.agents.providers.retry import Failure, call_with_retries
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir
from pytest_gameworld.catalog.specs import CatalogError, CuaControls, TaskSpec, Viewport
from pytest_gameworld.play.actions import MAX_ACTION_MS, Action, Proposal, parse_cua
from pytest_gameworld.play.evaluator import Evaluator, ScoreError
from pytest_gameworld.play.output_limits import MAX_DEPTH, loads_arguments, nesting_depth
from pytest_gameworld.records.circuit_breaker import tripped
from pytest_gameworld.records.jsonl import dumps, strict_loads

VP = Viewport(width=1280, height=720)
MOUSE = CuaControls(keys=["a"], clicks=True, default_hold_ms=200)
NOOP = Action("wait", 200)


@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf, 1e400, 10 ** 400, "NaN", "Infinity", "1e400",
                               "9" * 400, 1e308, -1e308, 2 ** 70])
def test_hostile_coordinates_are_oos_noops(x) -> None:
    for args in ({"x": x, "y": 5}, {"coordinate": [x, 5]}, {"x": 5, "y": 5, "to_x": x, "to_y": 1}):
        v = parse_cua(Proposal("drag" if "to_x" in args else "click", args), MOUSE, VP)
        assert v.validity == "oos" and v.action == NOOP and v.reason


@pytest.mark.parametrize("x", [math.nan, math.inf, 1e400, 10 ** 400, "1e400"])
def test_hostile_points_stay_unmapped_by_the_frame(x) -> None:
    frame = Frame.for_image((1280, 720), (640, 360), "absolute")
    mapped = to_viewport(Proposal("click", {"x": x, "y": 10, "dx": x}), frame)
    assert mapped.args["x"] is x and mapped.args["dx"] is x  # left as given: parse_cua says OOS
    assert parse_cua(mapped, MOUSE, VP).validity == "oos"


@pytest.mark.parametrize("duration, why", [(-1, "positive"), (0, "positive"), (-0.0, "positive"),
                                           (1e308, "beyond"), (math.nan, "finite"), (math.inf, "finite"),
                                           ("soon", "number"), (10 ** 400, "64 bits")])
def test_bad_durations_are_refused_not_clamped(duration, why) -> None:
    v = parse_cua(Proposal("press_key", {"key": "a", "duration": duration}), MOUSE, VP)
    assert v.validity == "oos" and why in v.reason and v.action == NOOP


def test_a_long_but_sane_hold_is_still_capped() -> None:
    v = parse_cua(Proposal("click_hold", {"x": 5, "y": 5, "duration_ms": 10_000}), MOUSE, VP)
    assert v.validity == "valid" and v.action.duration_ms == MAX_ACTION_MS


@pytest.mark.parametrize("scroll", [{"dy": 1e400}, {"dy": math.nan}, {"dx": 10 ** 30}, {"direction": "down",
                                                                                       "amount": 1e300}])
def test_hostile_scrolls_are_oos(scroll) -> None:
    assert parse_cua(Proposal("scroll", {"x": 5, "y": 5, **scroll}), MOUSE, VP).validity == "oos"


def test_deep_and_huge_arguments_are_malformed_without_recursion() -> None:
    deep = "[" * 50_000 + "]" * 50_000
    assert nesting_depth('{"a": "[[[[", "b": [[1]]}') == 3  # brackets inside strings do not count
    for raw in (deep, '{"x": ' + "[" * 20_000 + "]" * 20_000 + "}", '{"t": "' + "a" * 70_000 + '"}'):
        call = Proposal.from_raw("click", raw)
        assert call.malformed and parse_cua(call, MOUSE, VP).validity == "oos"
    assert loads_arguments("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    nested: object = 1
    for _ in range(5000):
        nested = [nested]
    v = parse_cua(Proposal("click", {"x": nested, "y": 1}), MOUSE, VP)
    assert v.validity == "oos" and "deep" in v.reason


def test_whitespace_keys_and_long_text_are_oos_not_errors() -> None:
    for args in ({"key": "\n"}, {"key": " \t"}, {"keys": ["a"] * 50}):
        assert parse_cua(Proposal("press_key", args), MOUSE, VP).validity == "oos"
    assert parse_cua(Proposal("type", {"text": "a" * 5000}), MOUSE, VP).validity == "oos"


def test_strict_json_out() -> None:
    record = {"x": math.nan, "y": [math.inf, -math.inf], "n": 10 ** 400, "deep": [[[[[[1]]]]]]}
    back = strict_loads(dumps(record))
    assert back["x"] == "NaN" and back["y"] == ["Infinity", "-Infinity"] and back["n"] == 10 ** 400
    nested: object = 1
    for _ in range(10_000):
        nested = [nested]
    assert "nested deeper" in dumps({"a": nested})
    with pytest.raises(ValueError, match="NaN"):
        strict_loads(json.dumps({"x": math.nan}))


TASK = TaskSpec(id="01_01", game="g", instruction="i", score="score", start=0, target=10,
                requires=[{"field": "lines", "min": 1}])


@pytest.mark.parametrize("state, path", [
    ({"score": 1, "lines": 1, "terminal": "over"}, "terminal"),
    ({"score": 20}, "lines"),
    ({"score": math.nan, "lines": 1}, "score"),
    ({"score": 20, "lines": 1e400}, "lines"),
])
def test_a_state_that_breaks_the_contract_is_a_score_error_naming_the_path(state, path) -> None:
    with pytest.raises(ScoreError, match=path):
        Evaluator(TASK).observe(state, 1)


@pytest.mark.parametrize("field, value", [("target", ".inf"), ("start", ".nan"), ("target", "1e400")])
def test_a_task_with_a_non_finite_start_or_target_is_refused_at_load(tmp_path: Path, field, value) -> None:
    root = tmp_path / "cat"
    shutil.copytree(default_catalog_dir(), root, ignore=shutil.ignore_patterns("*.js", "*.png", "*.html", "*.css"))
    for game in (default_catalog_dir() / "games").iterdir():  # keep each game's entry file
        entry = root / "games" / game.name / "index.html"
        entry.write_text("")
    task = next((root / "tasks").glob("*/*.yaml"))
    text = task.read_text()
    lines = [f"{field}: {value}" if line.startswith(f"{field}:") else line for line in text.splitlines()]
    task.write_text("\n".join(lines) + "\n")
    with pytest.raises(CatalogError, match=rf"{task.name}.*field '{field}'"):
        load_catalog(root)


def rec(model: str, status: str = "error", error: str | None = "AgentError: m failed after 4 attempts: HTTP 503"):
    return record(**{"model": model, "status": status, "error": error if status == "error" else None})


def test_breaker_trips_on_k_consecutive_same_endpoint_errors_only() -> None:
    assert tripped([rec("m"), rec("m")], "m", 3) is None
    reason = tripped([rec("m"), rec("other", "ok"), rec("m"), rec("m", error="AgentError: m failed after 2 "
                                                                          "attempts: HTTP 503")], "m", 3)
    assert reason and reason.startswith("circuit breaker: m failed 3 runs in a row") and "HTTP 503" in reason
    assert tripped([rec("m"), rec("m", "ok"), rec("m"), rec("m")], "m", 3) is None  # a success resets
    assert tripped([rec("m"), rec("m", error="HarnessError: page crashed"), rec("m")], "m", 2) is None
    assert tripped([rec("m"), rec("m", error="AgentError: m failed: HTTP 401"), rec("m")], "m", 2) is None
    assert tripped([rec("m")] * 5, "m", 0) is None


def test_retries_stop_at_the_step_deadline_and_retry_after_beyond_it_is_not_waited() -> None:
    clock = {"t": 0.0}
    slept: list[float] = []

    async def send() -> None:
        clock["t"] += 1.0
        raise RuntimeError("503")

    async def sleep(s: float) -> None:
        slept.append(s)
        clock["t"] += s

    def classify(exc: BaseException) -> Failure:
        return Failure("HTTP 503", True, 503, retry_after=100.0 if clock["t"] > 3 else 1.0)

    with pytest.raises(AgentError, match="within the step limit of 10 s: HTTP 503"):
        asyncio.run(call_with_retries(send, classify, what="m", max_retries=50, timeout_s=300, deadline_s=10,
                                      sleep=sleep, clock=lambda: clock["t"]))
    assert slept == [1.0, 1.0] and clock["t"] < 10
