"""Tool schemas from registered controls, the computer_use function, and each provider's tool format."""

from __future__ import annotations

from pytest_gameworld.agents.providers import tools
from pytest_gameworld.catalog.specs import Role

ROLE = Role.model_validate({
    "description": "A test role.",
    "cua": {"keys": ["ArrowLeft", "Space"], "clicks": True},
    "controls": [
        {"id": "wait", "description": "Do nothing.", "binding": {"action": "wait", "duration_ms": 200}},
        {"id": "reveal_cell", "description": "Uncover a cell.", "aliases": ["reveal"],
         "args": {"cell": {"type": "string", "description": "Cell id, e.g. a1"}},
         "binding": {"action": "click", "duration_ms": 200},
         "cell_bindings": {"b1": [20, 10], "a1": [10, 10]}},
        {"id": "move", "description": "Move.",
         "args": {"direction": {"type": "string", "enum": ["left", "right"]},
                  "steps": {"type": "integer", "required": False, "description": "How far"}},
         "binding": {"action": "press_key", "duration_ms": 100, "key": "ArrowLeft"}},
    ],
})


def test_one_tool_per_control_in_order() -> None:
    defs = tools.generalist_tools(ROLE)
    assert [d.name for d in defs] == ["wait", "reveal_cell", "move"]


REASONING = tools.REASONING_ARG


def test_a_control_without_args_takes_only_the_required_reasoning() -> None:
    wait = tools.generalist_tools(ROLE)[0]
    assert wait.parameters == {"type": "object", "properties": {"reasoning": REASONING}, "required": ["reasoning"]}
    assert wait.description == "Do nothing."


def test_reasoning_can_be_optional_or_left_out() -> None:
    optional = tools.generalist_tools(ROLE, "optional")[0].parameters
    assert optional == {"type": "object", "properties": {"reasoning": REASONING}}  # no empty "required"
    omitted = tools.generalist_tools(ROLE, "omit")[0].parameters
    assert omitted == {"type": "object", "properties": {}}


def test_a_cell_argument_is_described_not_enumerated_and_aliases_only_for_the_papers_parsing() -> None:
    reveal = tools.generalist_tools(ROLE)[1]
    assert reveal.parameters["properties"]["cell"] == {"type": "string", "description": "Cell id, e.g. a1"}
    assert reveal.parameters["required"] == ["cell", "reasoning"]
    assert "reveal" not in reveal.description.replace("reveal_cell", "")
    assert "also known as: reveal" in tools.generalist_tools(ROLE, aliases=True)[1].description


def test_arg_types_enums_and_optional_args() -> None:
    move = tools.generalist_tools(ROLE)[2]
    props = move.parameters["properties"]
    assert props["direction"] == {"type": "string", "enum": ["left", "right"]}
    assert props["steps"] == {"type": "integer", "description": "How far"}
    assert move.parameters["required"] == ["direction", "reasoning"]


def test_computer_use_function_has_the_action_enum_and_its_parameters() -> None:
    cu = tools.computer_use_tool("pixels of the 1280x720 screenshot")
    assert cu.name == "computer_use"
    action = cu.parameters["properties"]["action"]
    assert action["enum"] == ["click", "right_click", "click_hold", "drag", "mouse_move", "scroll", "type",
                              "press_key", "press_keys", "wait"]
    assert {"x", "y", "to_x", "to_y", "dx", "dy", "direction", "text", "key", "keys", "duration"} <= set(
        cu.parameters["properties"])
    assert cu.parameters["required"] == ["action"]
    assert "1280x720" in cu.parameters["properties"]["x"]["description"]


def test_provider_formats() -> None:
    d = tools.generalist_tools(ROLE)[1]
    assert tools.to_openai_chat(d) == {"type": "function", "function": {
        "name": "reveal_cell", "description": d.description, "parameters": d.parameters}}
    loose = tools.to_openai_responses(d)
    assert loose["type"] == "function" and loose["name"] == "reveal_cell"
    assert loose["strict"] is False and loose["parameters"] is d.parameters
    strict = tools.to_openai_responses(d, strict=True)
    assert strict["strict"] is True and strict["parameters"] == {**d.parameters, "additionalProperties": False}
    assert tools.to_anthropic(d) == {"name": "reveal_cell", "description": d.description,
                                     "input_schema": d.parameters}
    assert tools.to_anthropic(d, strict=True) == {"name": "reveal_cell", "description": d.description,
                                                  "input_schema": {**d.parameters, "additionalProperties": False},
                                                  "strict": True}
    assert tools.to_gemini(d) == {"name": "reveal_cell", "description": d.description, "parameters": d.parameters}


def test_strict_mode_is_dropped_for_a_tool_with_an_optional_argument() -> None:
    move = tools.generalist_tools(ROLE)[2]  # "steps" is optional; strict schemas must require everything
    assert tools.to_openai_responses(move, strict=True)["strict"] is False
    assert "strict" not in tools.to_anthropic(move, strict=True)
