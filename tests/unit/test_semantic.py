"""Generalist parsing: id sources, case and aliases, argument merging, cell bindings."""

import pytest

from pytest_gameworld.catalog.specs import Role, Viewport
from pytest_gameworld.play.actions import Action, Proposal
from pytest_gameworld.play.semantic import parse_semantic

VP = Viewport()
CELLS = {f"{c}{r}": (416 + 56 * i, 178 + 56 * (r - 1)) for i, c in enumerate("abcdefghi") for r in range(1, 10)}
ROLE = Role.model_validate({
    "description": "test role",
    "cua": {"keys": ["Space"], "clicks": False, "default_hold_ms": 250},
    "controls": [
        {"id": "wait", "description": "wait", "binding": {"action": "wait", "duration_ms": 1000}},
        {"id": "jump", "description": "jump", "aliases": ["hop", "Flap"],
         "binding": {"action": "press_key", "key": "Space", "duration_ms": 200}},
        {"id": "reveal_cell", "description": "reveal", "args": {"cell": {"type": "string"}},
         "binding": {"action": "click", "duration_ms": 200}, "cell_bindings": CELLS},
        {"id": "type_text", "description": "type", "args": {"text": {"type": "string"}},
         "binding": {"action": "type", "duration_ms": 300}},
    ],
})


def parse(name, args=None, raw=None, parsing="paper"):
    """The paper's reading unless told (most of these tests are about its leniency)."""
    call = Proposal.from_raw(name, raw) if raw is not None else Proposal(name, args or {})
    return parse_semantic(call, ROLE, VP, ROLE.cua.default_hold_ms, parsing)


@pytest.mark.parametrize("name, validity", [("jump", "valid"), ("JUMP", "oos"), ("hop", "oos"), (" jump", "oos")])
def test_the_original_matches_the_control_id_exactly(name, validity):
    v = parse(name, parsing="original")
    assert v.validity == validity
    assert parse(None, {"tool_name": "jump"}, parsing="original").validity == "oos"  # the id is the call's name
    assert parse(name, {"reasoning": "why not"}, parsing="original").validity == validity  # extra argument ignored


@pytest.mark.parametrize("name", ["jump", "JUMP", "hop", "flap", " Jump "])
def test_id_is_case_insensitive_and_alias_aware(name):
    v = parse(name)
    assert v.validity == "valid" and v.control == "jump"
    assert v.action == Action("press_key", 200, keys=(" ",))


@pytest.mark.parametrize("key", ["action", "tool_name", "tool_id", "name"])
def test_id_may_come_as_an_argument(key):
    v = parse(None, {key: "jump"})
    assert v.validity == "valid" and v.control == "jump"


def test_runtime_args_never_override_duration_or_key():
    v = parse("jump", {"duration_ms": 60000, "key": "a", "duration": 9})
    assert v.action == Action("press_key", 200, keys=(" ",))


def test_cell_binding_turns_cell_into_coordinates():
    v = parse("reveal_cell", {"cell": "E5"})
    assert v.validity == "valid"
    assert (v.action.kind, v.action.x, v.action.y) == ("click", 640, 402)


def test_unknown_cell_and_missing_argument_are_oos():
    assert parse("reveal_cell", {"cell": "z9"}).reason == "unknown cell 'z9'"
    v = parse("reveal_cell", {})
    assert v.validity == "oos" and "needs argument 'cell'" in v.reason


def test_wrong_argument_type_is_oos():
    v = parse("reveal_cell", {"cell": 5})
    assert v.validity == "oos" and "string" in v.reason


def test_unknown_control_is_oos_noop_of_role_default():
    v = parse("fly_away")
    assert v.validity == "oos" and v.reason == "unknown control 'fly_away'"
    assert v.action == Action("wait", 250)


def test_malformed_json_arguments_are_oos():
    v = parse("reveal_cell", raw='{"cell": "a1"')
    assert v.validity == "oos" and "JSON" in v.reason


def test_runtime_text_merges_into_type_binding():
    v = parse("type_text", {"text": "crane"})
    assert v.action == Action("type", 300, text="crane")


def test_nested_arguments_object_is_unpacked():
    v = parse(None, {"action": "reveal_cell", "arguments": {"cell": "a1"}})
    assert (v.action.x, v.action.y) == (416, 178)
