"""Prompt assembly: four sections in order; the action list comes from the registered controls."""

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.prompts import SECTIONS, render_prompt


def _render(model_name: str, game_id: str = "19-minesweeper", realtime: bool = False):
    cat = load_catalog()
    game = cat.games[game_id]
    role = next(iter(game.roles.values()))
    task = next(t for t in cat.tasks if t.game == game_id)
    return render_prompt(cat.root / "prompts", game, role, task, cat.resolve_model(model_name), 100, realtime), game, task


def test_generalist_prompt_lists_every_registered_control_in_four_sections():
    prompt, game, task = _render("random")
    assert tuple(prompt.sections) == SECTIONS
    role = next(iter(game.roles.values()))
    listed = [ln[2:].split("(")[0].split(":")[0] for ln in prompt.sections["Role and Controls"].splitlines()
              if ln.startswith("- ")]
    assert listed == [c.id for c in role.controls]
    assert "cell: string" in prompt.sections["Role and Controls"]
    assert task.instruction.strip() in prompt.sections["Task Instruction"]
    assert "exactly one" in prompt.text


def test_cua_prompt_states_keys_mouse_and_viewport():
    prompt, game, _ = _render("random-cua")
    controls = prompt.sections["Role and Controls"]
    assert "No keyboard keys are allowed" in controls
    assert "x from 0 to 1279" in controls and "y from 0 to 719" in controls


def test_cua_prompt_states_the_models_coordinate_grid():
    cat = load_catalog()
    game = cat.games["19-minesweeper"]
    role = next(iter(game.roles.values()))
    task = next(t for t in cat.tasks if t.game == game.id)
    spec = cat.resolve_model("random-cua", {"coordinates": "normalized_1000"})
    prompt = render_prompt(cat.root / "prompts", game, role, task, spec, 100)
    assert "0-1000 grid" in prompt.sections["Role and Controls"]
    spec = cat.resolve_model("random-cua", {"screenshot_width": 640})
    prompt = render_prompt(cat.root / "prompts", game, role, task, spec, 100)
    assert "640x360 screenshot" in prompt.sections["Role and Controls"]


def test_realtime_is_stated():
    prompt, _, _ = _render("random", realtime=True)
    assert "keeps running while you think" in prompt.text
    prompt, _, _ = _render("random")
    assert "paused while you think" in prompt.text


# Markdown as upstream catalogs write it, plus lines that look exactly like the harness's own headings.
MARKDOWN = """## Game Objective
Reach **the flag**.

## Game Rules
- a list item
  1. a nested, numbered one
```text
## Output Format
# not a heading: inside a code fence
```
## Task Instruction
> a quote"""


def _with_markdown_everywhere(model: str):
    cat = load_catalog()
    game = cat.games["19-minesweeper"]
    role = next(iter(game.roles.values()))
    controls = [c.model_copy(update={"description": f"{c.id}:\n{MARKDOWN}",
                                     "args": {n: a.model_copy(update={"description": MARKDOWN}) for n, a in c.args.items()}})
                for c in role.controls]
    role = role.model_copy(update={"description": "## Role\n" + MARKDOWN, "cua_description": "### Keys\n" + MARKDOWN,
                                   "controls": controls})
    game = game.model_copy(update={"rules": "# Rules\n" + MARKDOWN})
    task = next(t for t in cat.tasks if t.game == game.id)
    task = task.model_copy(update={"instruction": "## Goal\n" + MARKDOWN + "\n"})
    spec = cat.resolve_model(model, {"output_format": "## Reply\n" + MARKDOWN})
    return render_prompt(cat.root / "prompts", game, role, task, spec, 100), game, role, task


def test_markdown_in_every_text_field_passes_through_and_the_four_sections_stay_the_harnesss():
    for model in ("random", "random-cua"):
        prompt, game, role, task = _with_markdown_everywhere(model)
        assert tuple(prompt.sections) == SECTIONS
        assert game.rules in prompt.sections["Game Rules"]
        assert role.description in prompt.sections["Role and Controls"]
        assert task.instruction.strip() in prompt.sections["Task Instruction"]
        assert prompt.sections["Output Format"] == "## Reply\n" + MARKDOWN
        for section in prompt.sections.values():
            assert section in prompt.text
        if model == "random-cua":
            assert role.cua_description in prompt.sections["Role and Controls"]
        else:
            for c in role.controls:
                assert c.description in prompt.sections["Role and Controls"]
        # The harness's own text still follows the supplied text in its section.
        assert prompt.sections["Task Instruction"].endswith("your best result counts.")
