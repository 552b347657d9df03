"""Prompts of an upstream checkout's games, rendered its own way from its own templates (the fixture checkout
carries templates and an action-list header written here, in the original's shape)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.prompts import DEFAULT_OUTPUT, SECTIONS, render_prompt

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"
HEADER = "ACTIONS YOU MAY CALL (fixture header).\nPick one per step:\n"


@pytest.fixture(scope="module")
def cat():
    return load_catalog(FIXTURE)


def _render(cat, model: str, game_id: str = "94_lazy-dice", **changes):
    game = cat.games[game_id]
    role = next(iter(game.roles.values()))
    task = next(t for t in cat.tasks if t.game == game_id)
    game = game.model_copy(update={k: v for k, v in changes.items() if k == "rules"})
    task = task.model_copy(update={k: v for k, v in changes.items() if k == "instruction"})
    spec = cat.resolve_model(model, {k: v for k, v in changes.items() if k in ("output_format", "prompt_template")})
    return render_prompt(cat.prompts_dir, game, role, task, spec, 12), game, role, task


def test_the_checkouts_template_renders_every_markdown_field_as_it_is(cat):
    prompt, game, role, task = _render(cat, "random")
    assert prompt.text.startswith("You play a browser game for a test of the harness.")  # the checkout's own words
    assert tuple(prompt.sections) == SECTIONS
    assert prompt.sections["Game Rules"] == game.rules.strip()  # "## Output Format" in its code fence included
    assert prompt.sections["Task Instruction"] == task.instruction.strip()
    assert prompt.sections["Role and Controls"] == (
        f"{role.description.strip()}\n\n{HEADER}\n"
        "- `wait`: Do nothing.\n- `roll`: Roll all six dice.\n- uses one of the ten rolls")
    assert prompt.sections["Output Format"] == DEFAULT_OUTPUT["generalist"]  # the spec names none: ours
    # No harness text of ours (budget, pause) in the original's prompt.
    assert "actions. If the game ends" not in prompt.text and "paused while you think" not in prompt.text


def test_computer_use_takes_the_action_space_text_and_the_specs_template(cat):
    prompt, _, role, _ = _render(cat, "random-cua")
    assert prompt.text.startswith("You play a browser game for a test of the harness with the keyboard")
    assert prompt.sections["Role and Controls"] == f"{role.description.strip()}\n\n{role.cua_description.strip()}"
    named, _, _, _ = _render(cat, "random", prompt_template="computer_use_agent_template")
    assert named.text.startswith("You play a browser game for a test of the harness with the keyboard")


def test_a_line_like_a_section_heading_inside_supplied_text_stays_content(cat):
    rules = "Intro.\n# Task Instruction\nnot a section\n# Output Format\n"
    prompt, _, _, task = _render(cat, "random", rules=rules, output_format="# Game Rules\nreply so")
    assert prompt.sections["Game Rules"] == rules.strip()
    assert prompt.sections["Task Instruction"] == task.instruction.strip()
    assert prompt.sections["Output Format"] == "# Game Rules\nreply so"


def test_a_block_the_template_omits_is_an_empty_section(cat):
    prompt, _, _, _ = _render(cat, "random", rules="")
    assert prompt.sections["Game Rules"] == "" and "# Game Rules" not in prompt.text
    assert tuple(prompt.sections) == SECTIONS


def test_what_the_checkout_lacks_is_named(cat, tmp_path):
    root = tmp_path / "checkout"
    shutil.copytree(FIXTURE, root)
    shutil.rmtree(root / "agents")
    (root / "catalog" / "prompt_templates" / "computer_use_agent_template.j2").unlink()
    lacking = load_catalog(root)
    assert any(w.startswith("no registered-action header found in agents/harness/prompting.py") for w in lacking.warnings)
    assert any("computer_use_agent_template.j2 is missing" in w for w in lacking.warnings)
    game = lacking.games["94_lazy-dice"]
    task = next(t for t in lacking.tasks if t.game == game.id)
    prompt = render_prompt(lacking.prompts_dir, game, game.roles["player"], task, lacking.resolve_model("random"), 12)
    assert "REGISTERED ACTIONS:\nCall exactly one of them per step.\n\n- `wait`" in prompt.text
    with pytest.raises(ValueError, match="computer_use_agent_template.j2: no such prompt template"):
        render_prompt(lacking.prompts_dir, game, game.roles["player"], task, lacking.resolve_model("random-cua"), 12)
