"""Policies, schema filling, computer-action translation, the app router and the CLI."""

from __future__ import annotations

import base64
import json
import random
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import openai
import pytest

from pytest_gameworld.endpoint.app import App
from pytest_gameworld.endpoint.computer import parse_action, to_anthropic, to_gemini, to_openai
from pytest_gameworld.endpoint.core import ComputerSpec, PolicyInput, ToolCall, ToolSpec
from pytest_gameworld.endpoint.policy import NoopPolicy, RandomPolicy, ScriptedPolicy, make_policy
from pytest_gameworld.endpoint.schema_fill import fill, sample_pattern
from pytest_gameworld.endpoint.script import ScriptError, parse_script
from pytest_gameworld.endpoint.usage import analyse

if TYPE_CHECKING:
    from conftest import Endpoint  # the fixture's return type, for readers and type checkers

Factory = Callable[..., "Endpoint"]
REPO = Path(__file__).resolve().parents[2]


def policy_input(tools: list[ToolSpec], computer: ComputerSpec | None = None, thread: str = "t") -> PolicyInput:
    """A minimal request as a policy sees it."""
    return PolicyInput(protocol="openai", endpoint="chat.completions", model="m", tools=tools,
                       computer=computer, messages=[], thread=thread)


# ------------------------------------------------------------------ random policy


@pytest.mark.asyncio
async def test_random_policy_is_deterministic_under_a_seed(endpoint: Factory, cell_schema: dict[str, Any]) -> None:
    tools = [{"type": "function", "function": {"name": n, "parameters": cell_schema}} for n in ("reveal_cell", "flag")]

    async def run(seed: int) -> list[tuple[str, str]]:
        ep = endpoint("openai", seed=seed)
        c = openai.AsyncOpenAI(base_url=ep.url, api_key="test")
        out = []
        for turn in range(4):
            reply = await c.chat.completions.create(
                model="m", tools=tools, messages=[{"role": "user", "content": f"Play. (memory {turn})"}])  # type: ignore[arg-type]
            call = reply.choices[0].message.tool_calls[0]  # type: ignore[index]
            out.append((call.function.name, call.function.arguments))  # type: ignore[union-attr]
        ep.stop()
        return out

    first, again, other = await run(7), await run(7), await run(8)
    assert first == again
    assert first != other


@pytest.mark.asyncio
async def test_a_conversation_that_echoes_reply_ids_plays_the_same_in_every_server_run(
        endpoint: Factory, cell_schema: dict[str, Any]) -> None:
    """The original harness writes each tool call's id into its action history, which opens the next request."""
    tools = [{"type": "function", "function": {"name": n, "parameters": cell_schema}} for n in ("reveal_cell", "flag")]

    async def run() -> list[tuple[str, str]]:
        ep = endpoint("openai", seed=3)
        c = openai.AsyncOpenAI(base_url=ep.url, api_key="test")
        out, history = [], "Play."
        for _ in range(6):
            reply = await c.chat.completions.create(
                model="m", tools=tools, messages=[{"role": "user", "content": history}])  # type: ignore[arg-type]
            call = reply.choices[0].message.tool_calls[0]  # type: ignore[index]
            out.append((call.function.name, call.function.arguments))  # type: ignore[union-attr]
            history = f"Action: {{\"tool_call_id\": \"{call.id}\", \"tool_name\": \"{call.function.name}\"}}"  # type: ignore[union-attr]
        ep.stop()
        return out

    assert await run() == await run()


def test_random_policy_keys_on_the_conversation_not_arrival_order(cell_schema: dict[str, Any]) -> None:
    tools = [ToolSpec("reveal_cell", cell_schema)]
    a, b = RandomPolicy(seed=1), RandomPolicy(seed=1)

    def args(policy: RandomPolicy, thread: str) -> Any:
        reply = policy.decide(policy_input(tools, thread=thread)).reply
        assert reply is not None and isinstance(reply.calls[0], ToolCall)
        return reply.calls[0].arguments

    # Same two conversations, interleaved differently: each conversation sees the same turns.
    seq_a = [(t, args(a, t)) for t in ("x", "y", "x", "y", "x")]
    seq_b = [(t, args(b, t)) for t in ("y", "y", "x", "x", "x")]
    assert [v for t, v in seq_a if t == "x"] == [v for t, v in seq_b if t == "x"]
    assert [v for t, v in seq_a if t == "y"] == [v for t, v in seq_b if t == "y"]


def test_random_policy_thread_safety(cell_schema: dict[str, Any]) -> None:
    policy = RandomPolicy(seed=3)
    results: list[Any] = []

    def worker() -> None:
        for _ in range(50):
            reply = policy.decide(policy_input([ToolSpec("reveal_cell", cell_schema)]))
            results.append(reply.reply.calls[0].arguments["times"])  # type: ignore[union-attr,index]

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    serial = RandomPolicy(seed=3)
    expected = [serial.decide(policy_input([ToolSpec("reveal_cell", cell_schema)])).reply.calls[0]  # type: ignore[union-attr]
                .arguments["times"] for _ in range(200)]  # type: ignore[index]
    assert sorted(results) == sorted(expected)  # every turn handed out exactly once


def test_random_computer_clicks_stay_inside_the_display() -> None:
    spec = ComputerSpec(kind="computer_20250124", width=300, height=200)
    policy = RandomPolicy(seed=9)
    kinds = set()
    for _ in range(60):
        reply = policy.decide(policy_input([], computer=spec)).reply
        assert reply is not None
        (action,) = reply.calls
        kinds.add(action.kind)  # type: ignore[union-attr]
        if action.kind == "click":  # type: ignore[union-attr]
            assert 0 <= action.x < 300 and 0 <= action.y < 200  # type: ignore[union-attr,operator]
    assert kinds == {"click", "key"}


def test_noop_policy() -> None:
    wait = ToolSpec("wait", {"type": "object", "properties": {"ms": {"type": "integer", "minimum": 100,
                                                                      "maximum": 100}}, "required": ["ms"]})
    reply = NoopPolicy().decide(policy_input([ToolSpec("jump", {}), wait])).reply
    assert reply is not None and reply.calls == [ToolCall("wait", {"ms": 100})]
    text_only = NoopPolicy().decide(policy_input([ToolSpec("jump", {})])).reply
    assert text_only is not None and text_only.calls == [] and text_only.text
    cua = NoopPolicy().decide(policy_input([], computer=ComputerSpec("computer", 0, 0))).reply
    assert cua is not None and cua.calls[0].kind == "wait"  # type: ignore[union-attr]


# ---------------------------------------------------------------- scripted policy


def test_script_repeats_last_entry_or_cycles() -> None:
    entries = [{"text": "one"}, {"text": "two"}]
    inp = policy_input([])
    repeat = ScriptedPolicy(parse_script(entries))
    assert [repeat.decide(inp).reply.text for _ in range(4)] == ["one", "two", "two", "two"]  # type: ignore[union-attr]
    cycle = ScriptedPolicy(parse_script({"loop": True, "entries": entries}))
    assert [cycle.decide(inp).reply.text for _ in range(4)] == ["one", "two", "one", "two"]  # type: ignore[union-attr]


def test_script_fills_missing_arguments_and_delay_only_entries(cell_schema: dict[str, Any]) -> None:
    policy = ScriptedPolicy(parse_script([{"calls": [{"name": "reveal_cell"}]}, {"delay_s": 0.5}]))
    inp = policy_input([ToolSpec("reveal_cell", cell_schema), ToolSpec("wait", {"type": "object"})])
    first = policy.decide(inp).reply
    assert first is not None and first.calls[0].arguments["cell"] in ("a1", "a2", "b1", "b2")  # type: ignore[union-attr,index]
    delayed = policy.decide(inp)
    assert delayed.delay_s == 0.5 and delayed.reply is not None and delayed.reply.calls[0].name == "wait"  # type: ignore[union-attr]


@pytest.mark.parametrize("bad, message", [
    ([], "non-empty list"),
    ([{"txt": "typo"}], "unknown keys"),
    ([{"status": 200}], "HTTP error code"),
    ([{"calls": [{"arguments": {}}]}], "string 'name'"),
    ([{"computer": {"action": "teleport"}}], "unknown computer action"),
    ([{"computer": {"action": "drag", "path": [[1, 2]]}}], "two points"),
    ([{"usage": {"input_tokens": "many"}}], "integers"),
])
def test_script_errors_name_the_entry(bad: Any, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        parse_script(bad, source="s.json")


# ---------------------------------------------------------------- schema filling


def test_fill_respects_schema_constraints() -> None:
    schema = {
        "type": "object",
        "properties": {
            "cell": {"type": "string", "pattern": "^[a-h][1-8]$"},
            "key": {"enum": ["ArrowUp", "ArrowDown"]},
            "hold_ms": {"type": "integer", "minimum": 100, "maximum": 2000, "multipleOf": 100},
            "speed": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "mode": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Mode"}]},
            "path": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9}, "minItems": 2,
                     "maxItems": 3},
            "flag": {"type": ["boolean", "null"]},
        },
        "required": ["cell", "key", "hold_ms", "speed", "mode", "path", "flag"],
        "$defs": {"Mode": {"type": "string", "const": "fast"}},
    }
    rng = random.Random(0)
    for _ in range(200):
        value = fill(schema, rng)
        assert re.fullmatch(r"[a-h][1-8]", value["cell"])
        assert value["key"] in ("ArrowUp", "ArrowDown")
        assert 100 <= value["hold_ms"] <= 2000 and value["hold_ms"] % 100 == 0
        assert 0 <= value["speed"] <= 1
        assert value["mode"] == "fast"
        assert 2 <= len(value["path"]) <= 3 and all(0 <= v <= 9 for v in value["path"])
        assert isinstance(value["flag"], bool)


def test_fill_handles_gemini_openapi_types() -> None:
    schema = {"type": "OBJECT", "properties": {"n": {"type": "INTEGER", "minimum": 3, "maximum": 3},
                                                "s": {"type": "STRING", "enum": ["x"]}}, "required": ["n", "s"]}
    assert fill(schema, random.Random(1)) == {"n": 3, "s": "x"}


def test_sample_pattern() -> None:
    rng = random.Random(2)
    for pattern in (r"c\d{1,2}", r"(up|down|left|right)", r"[A-Z]{2}-\d+", r"cell_[0-9a-f]{4}"):
        sample = sample_pattern(pattern, rng)
        assert sample is not None and re.fullmatch(pattern, sample)
    assert sample_pattern(r"(?<=a)b", rng) is None  # lookbehind: give up, caller falls back


# ------------------------------------------------------- computer-use translation


def test_one_scripted_action_renders_for_every_protocol() -> None:
    display = (1000, 500)
    cases: list[tuple[dict[str, Any], dict[str, Any], tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]] = [
        ({"action": "click", "x": 100, "y": 50},
         {"type": "click", "button": "left", "x": 100, "y": 50},
         ("left_click", {"coordinate": [100, 50]}), ("click_at", {"x": 100, "y": 100})),
        ({"action": "key", "keys": "left"},
         {"type": "keypress", "keys": ["ARROWLEFT"]},
         ("key", {"text": "Left"}), ("key_combination", {"keys": "ArrowLeft"})),
        ({"action": "key", "keys": ["Control", "Shift", "Z"]},
         {"type": "keypress", "keys": ["CTRL", "SHIFT", "Z"]},
         ("key", {"text": "ctrl+shift+z"}), ("key_combination", {"keys": "Control+Shift+z"})),
        ({"action": "double_click", "x": 10, "y": 10, "modifiers": ["shift"]},
         {"type": "double_click", "x": 10, "y": 10, "keys": ["SHIFT"]},
         ("double_click", {"coordinate": [10, 10], "text": "shift"}), ("click_at", {"x": 10, "y": 20})),
        ({"action": "move", "x": 0, "y": 0},
         {"type": "move", "x": 0, "y": 0}, ("mouse_move", {"coordinate": [0, 0]}), ("hover_at", {"x": 0, "y": 0})),
        ({"action": "hold_key", "keys": "space", "duration_s": 1.5},
         {"type": "keypress", "keys": ["SPACE"]},
         ("hold_key", {"text": "space", "duration": 2}), ("key_combination", {"keys": "Space"})),
        ({"action": "scroll", "x": 500, "y": 250, "scroll_x": 0, "scroll_y": 250},
         {"type": "scroll", "x": 500, "y": 250, "scroll_x": 0, "scroll_y": 250},
         ("scroll", {"coordinate": [500, 250], "scroll_direction": "down", "scroll_amount": 2}),
         ("scroll_at", {"x": 500, "y": 500, "direction": "down", "magnitude": 500})),
        ({"action": "screenshot"}, {"type": "screenshot"}, ("screenshot", {}), ("wait_5_seconds", {})),
        ({"action": "mouse_down"}, {"type": "wait"}, ("left_mouse_down", {}), ("wait_5_seconds", {})),
    ]
    for spec, openai_action, anthropic_action, gemini_call in cases:
        action = parse_action(spec)
        assert to_openai(action, display) == openai_action, spec
        assert to_anthropic(action, display) == anthropic_action, spec
        assert to_gemini(action, display) == gemini_call, spec


def test_native_vocabularies_parse_to_the_same_action() -> None:
    display = (1000, 1000)
    forms: list[dict[str, Any]] = [
        {"type": "click", "button": "left", "x": 250, "y": 750},          # OpenAI
        {"action": "left_click", "coordinate": [250, 750]},              # Anthropic classic
        {"name": "left_click", "input": {"coordinate": [250, 750]}},     # Anthropic toolset member
        {"name": "click_at", "args": {"x": 250, "y": 750}},              # Gemini (0-999 grid)
    ]
    rendered = {json.dumps(to_openai(parse_action(f), display)) for f in forms}
    assert rendered == {json.dumps({"type": "click", "button": "left", "x": 250, "y": 750})}


def test_per_protocol_overrides_are_verbatim() -> None:
    action = parse_action({"action": "key", "keys": ["Enter"],
                           "anthropic": {"action": "key", "text": "KP_Enter"},
                           "gemini": {"name": "key_combination", "args": {"keys": "enter"}}})
    assert to_openai(action, (10, 10)) == {"type": "keypress", "keys": ["ENTER"]}
    assert to_anthropic(action, (10, 10)) == ("key", {"text": "KP_Enter"})
    assert to_gemini(action, (10, 10)) == ("key_combination", {"keys": "enter"})
    browser_only = parse_action({"name": "navigate", "args": {"url": "about:blank"}})
    assert to_gemini(browser_only, (10, 10)) == ("navigate", {"url": "about:blank"})
    assert to_openai(browser_only, (10, 10)) == {"type": "wait"}


# ---------------------------------------------------------------------- usage


def test_analyse_counts_images_and_reads_their_size() -> None:
    jpeg = (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
            b"\xff\xc0\x00\x11\x08\x02\xd0\x05\x00\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01" + b"\x00" * 400)
    body = {"messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg",
                                     "data": base64.b64encode(jpeg).decode()}},
        {"type": "text", "text": "word " * 400}]}]}
    stats, stripped = analyse(body)
    assert stats.images == 1 and stats.last_image_size == (1280, 720)
    assert stripped["messages"][0]["content"][0]["source"]["data"] == "<image>"
    assert stripped["messages"][0]["content"][1]["text"] == "word " * 400  # long text is not an image


# ------------------------------------------------------------------- app router


@pytest.mark.parametrize("protocol, path, check", [
    ("openai", "/v1/nope", lambda b: b["error"]["type"] == "invalid_request_error"),
    ("anthropic", "/v1/nope", lambda b: b["type"] == "error" and b["error"]["type"] == "not_found_error"),
    ("gemini", "/v1beta/nope", lambda b: b["error"]["status"] == "NOT_FOUND"),
])
def test_unknown_routes_use_the_provider_error_shape(protocol: str, path: str, check: Callable[[Any], bool]) -> None:
    outcome = App(protocol, NoopPolicy()).handle("POST", path, b"{}")
    assert outcome.response.status == 404 and check(outcome.response.body)


def test_bad_json_and_streaming_are_rejected() -> None:
    app = App("openai", NoopPolicy())
    bad = app.handle("POST", "/v1/chat/completions", b"{not json")
    assert bad.response.status == 400 and "JSON" in bad.response.body["error"]["message"]
    stream = app.handle("POST", "/v1/chat/completions", json.dumps({"model": "m", "stream": True}).encode())
    assert stream.response.status == 400 and "stream" in stream.response.body["error"]["message"]


def test_policy_errors_become_provider_500s() -> None:
    class Broken:
        name = "broken"

        def decide(self, inp: PolicyInput) -> Any:
            raise RuntimeError("policy bug")

    outcome = App("anthropic", Broken()).handle("POST", "/v1/messages", b'{"model": "m", "messages": []}')
    assert outcome.response.status == 500 and "policy bug" in outcome.response.body["error"]["message"]


# --------------------------------------------------------------------------- CLI


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m pytest_gameworld.endpoint`` with a short timeout."""
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.endpoint", *args], capture_output=True,
                          text=True, timeout=30, cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


def test_cli_refuses_non_loopback_hosts_and_bad_policies(tmp_path: Path) -> None:
    refused = run_cli("--host", "0.0.0.0")
    assert refused.returncode == 2 and "non-loopback" in refused.stderr and refused.stdout == ""
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {status: 429, retry: 1}\n")
    rejected = run_cli("--policy", f"scripted:{bad}")
    assert rejected.returncode == 2 and "unknown keys" in rejected.stderr
    assert run_cli("--policy", "clever").returncode == 2
    assert "--protocol" in run_cli("--help").stdout


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signals_stop_cleanly_and_log_is_complete(endpoint: Factory, signum: int) -> None:
    ep = endpoint("anthropic", policy="noop")
    assert ep.start_s < 10  # typically well under a second; generous for loaded CI machines
    models = openai.OpenAI(base_url=ep.url + "/v1", api_key="x")  # any client can poll GET /v1/models
    assert models.models.retrieve("m").id == "m"
    ep.process.send_signal(signum)
    assert ep.process.wait(timeout=10) == 0
    assert ep.stderr_path.read_text() == ""  # no traceback on the way out
    (record,) = ep.records()
    assert record["method"] == "GET" and record["path"] == "/v1/models/m" and record["status"] == 200
    assert "authorization" not in json.dumps(record).lower()  # credentials are never logged


def test_make_policy() -> None:
    assert make_policy("random", seed=1).name == "random"
    assert make_policy("noop").name == "noop"
    with pytest.raises(ValueError):
        make_policy("scripted")


def test_a_jpeg_whose_frame_header_follows_a_large_exif_block_still_reads_its_size() -> None:
    """The size is read from the first 4 KiB of base64 where it lies there; a JPEG's may come 20 kB later."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (320, 200), (40, 90, 160)).save(buf, format="JPEG", exif=b"Exif\x00\x00" + b"\x00" * 20000)
    png = io.BytesIO()
    Image.new("RGB", (640, 360)).save(png, format="PNG")
    assert buf.getvalue().find(b"\xff\xc0") > 4096, "the frame header lies beyond the first read"
    for raw, size in ((buf.getvalue(), (320, 200)), (png.getvalue(), (640, 360))):
        stats, _ = analyse({"image": f"data:image/jpeg;base64,{base64.b64encode(raw).decode()}"})
        assert stats.images == 1 and stats.last_image_size == size
