"""Hostile model replies for every provider interface, and the check that each is a counted no-op or a legal action.

Shared by tests/providers/test_hostile_properties.py (a small Hypothesis budget) and
benchmarks/hostile_replies.py (10 000 replies per interface). Responses are built as the SDK
objects' attribute shapes; what is checked is the agent's own parse → map → classify → record path.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from types import SimpleNamespace as NS
from typing import Any

from hypothesis import strategies as st

from pytest_gameworld.agents.base import RunContext
from pytest_gameworld.agents.providers import make_provider_agent
from pytest_gameworld.agents.providers.base import ProviderAgent
from pytest_gameworld.agents.providers.coords import Frame
from pytest_gameworld.agents.providers.memory import action_json
from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.actions import MAX_ACTION_MS, MOUSE_KINDS
from pytest_gameworld.play.prompts import render_prompt
from pytest_gameworld.records.jsonl import dumps, strict_loads

# ------------------------------------------------------------------ values

NAMES = ["x", "y", "to_x", "to_y", "dx", "dy", "coordinate", "start_coordinate", "duration", "duration_ms",
         "action", "type", "key", "keys", "text", "amount", "direction", "cell", "scroll_x", "scroll_y",
         "scroll_direction", "scroll_amount", "magnitude", "path", "button", "arguments", "name", "pixels",
         "time", "destination_x", "destination_y", "press_enter", "point", "hold_ms"]
ACTIONS = ["click", "left_click", "right_click", "double_click", "mouse_move", "move", "drag", "left_click_drag",
           "scroll", "hscroll", "key", "keypress", "press_key", "press_keys", "hold_key", "type", "wait",
           "click_hold", "click_at", "hover_at", "type_text_at", "key_combination", "scroll_at", "scroll_document",
           "drag_and_drop", "wait_5_seconds", "computer_use", "computer", "screenshot", "reveal_cell", "flag_cell",
           "move_left", "jump", "teleport", ""]
HOSTILE_NUMBERS = [math.nan, math.inf, -math.inf, 1e308, -1e308, 1.7e308, 10 ** 400,
                   -(10 ** 400), 2 ** 63, -(2 ** 64), 0, -1, -0.0, 1e-300, 5e-324, 999999999, 640, 360]
HOSTILE_STRINGS = ["NaN", "Infinity", "-Infinity", "1e400", "9" * 400, "", " ", "\n", "\t", "+", "\x00", "\ud800",
                   "x" * 5000, "ArrowLeft", "left", "space", "ctrl+c", "a", "e5", "up", "down", "640, 360",
                   "<point>1e400 nan</point>", "(1,2)"]

scalars = st.one_of(
    st.none(), st.booleans(), st.sampled_from(HOSTILE_NUMBERS), st.integers(),
    st.integers(min_value=-(10 ** 500), max_value=10 ** 500), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(HOSTILE_STRINGS), st.text(max_size=30), st.sampled_from(ACTIONS),
    st.integers(min_value=-5, max_value=1300), st.floats(min_value=-5, max_value=1300),  # near the viewport
)
keys = st.one_of(st.sampled_from(NAMES), st.text(max_size=10))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(keys, inner, max_size=5)), max_leaves=12)


def nested(depth: int, leaf: Any = 1) -> Any:
    """A list nested ``depth`` levels deep (built iteratively)."""
    node = leaf
    for _ in range(depth):
        node = [node]
    return node


deep = st.integers(min_value=17, max_value=900).map(lambda d: {"x": nested(d), "y": 1, "action": "click"})
arg_dicts = st.one_of(
    st.dictionaries(keys, values, max_size=6),
    st.fixed_dictionaries({"action": st.sampled_from(ACTIONS)}, optional={n: values for n in NAMES[:12] if n != "action"}),
    deep,
)


def _dump_loose(value: Any) -> str:
    try:
        return json.dumps(value)  # NaN/Infinity literals and huge ints, as a careless server writes them
    except (ValueError, RecursionError):
        return "{}"


arg_texts = st.one_of(
    arg_dicts.map(_dump_loose), st.text(max_size=60), st.sampled_from(HOSTILE_STRINGS),
    st.integers(min_value=10, max_value=60_000).map(lambda d: "[" * d + "]" * d),
    st.integers(min_value=10, max_value=60_000).map(lambda d: '{"a":' * d + "1" + "}" * d),
    st.just('{"x": ' + "9" * 5000 + "}"), st.just('{"action": "type", "text": "' + "a" * 100_000 + '"}'),
)

# ------------------------------------------------------------------ one strategy per interface


def _call_name(interface: str) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(ACTIONS), st.text(max_size=12)) if interface == "generalist" \
        else st.one_of(st.just("computer_use"), st.sampled_from(ACTIONS))


def chat_response(calls: list[tuple[str, str]], content: Any) -> Any:
    tool_calls = [NS(type="function", function=NS(name=n, arguments=a)) for n, a in calls]
    message = NS(content=content, tool_calls=tool_calls or None, model_extra={})
    return NS(choices=[NS(message=message)], usage=None)


def responses_response(items: list[Any]) -> Any:
    return NS(output=items, usage=None)


def anthropic_response(blocks: list[Any]) -> Any:
    return NS(content=blocks, usage=None)


def gemini_response(parts: list[Any], finish: str = "") -> Any:
    candidate = NS(content=NS(parts=parts), finish_reason=finish, finish_message=None)
    return NS(candidates=[candidate], usage_metadata=None)


def _qwen_text(obj: Any, raw: str) -> str:
    return f"<think>hmm</think><tool_call>{_dump_loose(obj) if obj is not None else raw}</tool_call>"


_UITARS_CALL = st.tuples(st.sampled_from(["click", "left_double", "right_single", "drag", "hotkey", "type", "scroll",
                                          "wait", "long_press", "mouse_move", "press", "finished"]),
                         st.sampled_from(["point", "start_box", "end_box", "key", "content", "direction", "x"]),
                         st.one_of(st.sampled_from(HOSTILE_STRINGS), st.text(max_size=20),
                                   st.sampled_from(HOSTILE_NUMBERS).map(str)))
uitars_texts = st.one_of(
    st.lists(_UITARS_CALL, min_size=1, max_size=3).map(
        lambda cs: "Thought: go\nAction: " + "\n".join(f"{n}({k}='<point>{v} {v}</point>', {k}={v!r})" for n, k, v in cs)),
    st.text(max_size=80).map(lambda t: "Action: " + t),
    st.integers(min_value=10, max_value=20_000).map(lambda d: "Action: click(point=" + "(" * d),
)

SPECS: dict[str, tuple[str, dict[str, Any]]] = {
    # interface label: (catalog model, overrides)
    "openai-chat-generalist": ("glm-4.6v", {}),
    "openai-chat-cua": ("glm-4.6v", {"interface": "cua"}),
    "qwen-text-generalist": ("qwen3-vl-30b", {}),
    "qwen-text-cua": ("qwen3-vl-30b-cua", {}),
    "uitars-text-cua": ("ui-tars-1.5-7b", {}),
    "openai-responses-generalist": ("gpt-5.2", {}),
    "openai-responses-computer": ("openai-computer-use", {}),
    "anthropic-generalist": ("claude-sonnet-4.6", {}),
    "anthropic-computer": ("claude-sonnet-4.6-cua", {}),
    "gemini-generalist": ("gemini-3-flash", {}),
    "gemini-computer": ("gemini-2.5-computer-use", {}),
    # The paper's parsing (a spec option) for the formats whose reading differs most from the original's.
    "qwen-text-cua-paper": ("qwen3-vl-30b-cua", {"parsing": "paper"}),
    "uitars-text-cua-paper": ("ui-tars-1.5-7b", {"parsing": "paper"}),
    "anthropic-computer-paper": ("claude-sonnet-4.6-cua", {"parsing": "paper"}),
    "openai-responses-computer-paper": ("openai-computer-use", {"parsing": "paper"}),
    "gemini-computer-paper": ("gemini-2.5-computer-use", {"parsing": "paper"}),
}


def responses(label: str) -> st.SearchStrategy[Any]:
    """Hostile provider responses for one interface."""
    interface = "generalist" if "generalist" in label else "cua"
    if label.startswith("openai-chat"):
        return st.builds(chat_response, st.lists(st.tuples(_call_name(interface), arg_texts), max_size=3),
                         st.one_of(st.none(), st.text(max_size=40)))
    if label.startswith("qwen"):
        body = st.one_of(
            st.builds(lambda n, a: {"name": n, "arguments": a}, _call_name(interface), st.one_of(arg_dicts, arg_texts)),
            values)
        texts = st.one_of(st.builds(_qwen_text, body, st.just("")), arg_texts.map(lambda t: _qwen_text(None, t)),
                          st.text(max_size=80))
        return texts.map(lambda t: chat_response([], t))
    if label.startswith("uitars"):
        return uitars_texts.map(lambda t: chat_response([], t))
    if label == "openai-responses-generalist":
        item = st.builds(lambda n, a: NS(type="function_call", name=n, arguments=a), _call_name(interface), arg_texts)
        return st.lists(item, max_size=3).map(responses_response)
    if label.startswith("openai-responses-computer"):
        action = st.one_of(arg_dicts.map(lambda d: {"type": d.pop("action", "click"), **d}),
                           st.builds(lambda t, p: {"type": t, "path": p}, st.just("drag"), values))
        item = st.builds(lambda a: NS(type="computer_call", action=a, actions=None), action)
        return st.lists(item, max_size=2).map(responses_response)
    if label == "anthropic-generalist":
        block = st.builds(lambda n, i: NS(type="tool_use", name=n, input=i, toolset_name=None),
                          _call_name(interface), st.one_of(arg_dicts, values))
        return st.lists(block, max_size=3).map(anthropic_response)
    if label.startswith("anthropic-computer"):
        block = st.builds(lambda i: NS(type="tool_use", name="computer", input=i, toolset_name=None),
                          st.one_of(arg_dicts, values))
        return st.lists(block, max_size=2).map(anthropic_response)
    part = st.builds(lambda n, a: NS(function_call=NS(name=n, args=a), text=None, thought=None),
                     _call_name(interface) if label == "gemini-generalist" else st.sampled_from(ACTIONS),
                     st.one_of(arg_dicts, st.none()))
    return st.builds(gemini_response, st.lists(part, max_size=2),
                     st.sampled_from(["", "MALFORMED_FUNCTION_CALL"]))


# ------------------------------------------------------------------ the check

_CATALOG: list[Catalog] = []


def agent_for(label: str) -> ProviderAgent:
    """An agent for one interface on Minesweeper, its role allowed both mouse and a few keys."""
    if not _CATALOG:
        _CATALOG.append(load_catalog())
    catalog = _CATALOG[0]
    name, overrides = SPECS[label]
    spec = catalog.resolve_model(name, overrides or None)
    agent = make_provider_agent(spec)
    game = catalog.games["19-minesweeper"]
    role_name = next(iter(game.roles))
    role = game.roles[role_name]
    role = role.model_copy(update={"cua": role.cua.model_copy(update={"keys": ["ArrowLeft", "Space", "Enter", "a"]})})
    task = next(t for t in catalog.tasks if t.game == game.id)
    prompt = render_prompt(catalog.root / "prompts", game, role, task, spec, task.max_steps)
    agent.ctx = RunContext(game, task, role_name, role, spec, 7, prompt, session=None)  # type: ignore[arg-type]
    return agent


def check_reply(agent: ProviderAgent, response: Any) -> str:
    """Parse → map → classify → record one response; assert it is a legal action or a no-op with a reason."""
    frame: Frame = agent.frame(NS(size=(1280, 720), width=1280, height=720))  # type: ignore[arg-type]
    parsed = agent.parse_reply(response, frame)
    calls, verdict = agent.interpret(parsed, frame)
    shown = action_json(calls[0] if calls else None, agent.interface)
    assert verdict.validity in ("valid", "ntc", "oos")
    action = verdict.action
    assert isinstance(action.duration_ms, int) and 0 < action.duration_ms <= MAX_ACTION_MS
    if verdict.validity != "valid":
        assert verdict.reason and action.kind == "wait"
    elif action.kind in MOUSE_KINDS:
        vp = agent.ctx.game.viewport  # type: ignore[union-attr]
        for px, py in ((action.x, action.y), (action.to_x, action.to_y)):
            assert px is None or (0 <= px < vp.width and 0 <= py < vp.height)  # type: ignore[operator]
    record = {"calls": [c.to_json() for c in calls], "verdict": verdict.to_json(), "shown": shown,
              "text": parsed.text, "reasoning": parsed.reasoning}
    strict_loads(dumps(record))
    return verdict.validity


LABELS = list(SPECS)
Checker = Callable[[ProviderAgent, Any], str]
