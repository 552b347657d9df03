"""Every example a model reads is a legal action in its game: every task, every role, every shipped spec.

The whole text the model is sent before the screenshot (the rendered prompt in the protocol's frame:
Qwen's tool declaration, the GUI-agent frame of Seed/UI-TARS) is searched for the forms an example takes:
a key combination (``ArrowUp+ArrowLeft``), keys named "for example" in a declaration, a concrete
`<tool_call>` block, and a concrete Seed/UI-TARS action line. Each one found is judged by the spec's own
parser and legality rules and must be valid. Declarations with placeholders (``<point>x1 y1</point>``,
``<key>``) are not examples.
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from pytest_gameworld.agents.providers import qwen_format, uitars_format
from pytest_gameworld.agents.providers.prompt_layout import layout
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.specs import ModelSpec, Role
from pytest_gameworld.play.actions import Proposal
from pytest_gameworld.play.prompts import render_prompt
from pytest_gameworld.play.semantic import classify

catalog = cache(load_catalog)
KEY_NAMES = {"arrowup", "arrowdown", "arrowleft", "arrowright", "space", "enter", "shift", "control", "ctrl", "alt",
             "tab", "escape", "esc", "backspace", "meta"}
COMBO = re.compile(r"(?<![\w+])\w+(?:\+\w+)+(?![\w+])")
FOR_EXAMPLE = re.compile(r"\(for example ([^)]*)\)")
QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"")
TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)
UITARS_LINE = re.compile(r"\b(click|mouse_move|click_hold|drag|press_key|press_keys|type|scroll|wait|hotkey|"
                         r"right_single|left_double)\((.*?)\)(?=\s|$)", re.M)


def examples(text: str, spec: ModelSpec) -> list[tuple[str, list[Proposal], str]]:
    """(what was found, the calls it means, the interface to judge them for) for every example in the text."""
    found: list[tuple[str, list[Proposal], str]] = []
    for combo in COMBO.findall(text):
        parts = combo.split("+")
        if any(p.lower() in KEY_NAMES for p in parts):
            found.append((combo, [Proposal("press_keys", {"keys": parts})], "cua"))
    for group in FOR_EXAMPLE.findall(text):
        for a, b in QUOTED.findall(group):
            found.append((f"for example {a or b}", [Proposal("press_key", {"key": a or b})], "cua"))
    for body in TOOL_CALL.findall(text):
        try:
            json.loads(body)
        except ValueError:
            continue  # a placeholder such as {"name": <function-name>, …}
        found.append((body, qwen_format.parse_original(f"<tool_call>{body}</tool_call>", spec.interface),
                      spec.interface))
    for verb, args in UITARS_LINE.findall(text):
        if "<" in args or ">" in args:
            continue  # a declaration with placeholders
        line = f"{verb}({args})"
        found.append((line, uitars_format.parse_original(f"Action: {line}", False), "cua"))
    return found


def model_texts(spec: ModelSpec, game, role: Role, task) -> str:
    prompt = render_prompt(catalog().prompts_dir, game, role, task, spec, task.max_steps)
    framed = layout(spec, prompt.text, role, (game.viewport.width, game.viewport.height))
    return f"{framed.system or ''}\n{framed.step_text}"


SPECS = sorted(n for n, s in catalog().models.items() if s.builtin not in ("replay", "noop", "oracle"))


@pytest.mark.parametrize("spec_name", SPECS)
def test_every_example_in_every_tasks_prompt_is_legal_in_that_game(spec_name: str) -> None:
    cat = catalog()
    spec = cat.models[spec_name]
    checked = 0
    for task in cat.tasks:
        game = cat.games[task.game]
        for role_name, role in game.roles.items():
            for shown, calls, interface in examples(model_texts(spec, game, role, task), spec):
                verdict = classify(calls, interface, role, game.viewport, spec.parsing)
                assert verdict.validity == "valid", (
                    f"{spec_name} {task.game}/{task.id} ({role_name}): the example {shown!r} is "
                    f"{verdict.validity}: {verdict.reason}")
                checked += 1
    # The shipped catalog has examples to check for a computer-use model (a combination, declared keys).
    if spec.interface == "cua":
        assert checked > 0


def test_the_search_finds_an_illegal_example_when_there_is_one() -> None:
    cat = catalog()
    game = cat.games["13-flappy-bird"]  # Space only, no clicks
    role = next(iter(game.roles.values()))
    spec = cat.models["ui-tars-1.5-7b"]
    text = ("Keys: ArrowUp+ArrowLeft\nAction: press_key(key='a')\nclick(point='<point>1 2</point>')\n"
            '<tool_call>{"name": "computer_use", "arguments": {"action": "click", "coordinate": [1, 2]}}</tool_call>\n'
            "press the key (for example 'x')")
    judged = {shown: classify(calls, interface, role, game.viewport, spec.parsing).validity
              for shown, calls, interface in examples(text, spec)}
    assert judged == {"ArrowUp+ArrowLeft": "oos", "press_key(key='a')": "oos", "for example x": "oos",
                      '{"name": "computer_use", "arguments": {"action": "click", "coordinate": [1, 2]}}': "oos"}
