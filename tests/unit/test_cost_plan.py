"""gameworld plan's figures (report/cost_plan.py) over the shipped catalog: the picture a spec sends, the
per-picture rules, memory rounds re-sending pictures, co-op games calling twice, and n/a for an unknown price."""

from __future__ import annotations

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.run_cases import build_cases
from pytest_gameworld.report.cost_plan import image_tokens, plan_lines, plan_specs, sent_size

CATALOG = load_catalog()
PROMPTS = CATALOG.root / "prompts"


def spec(ref: str, **update):
    return CATALOG.resolve_model(ref).model_copy(update=update)


def cases(model, task_ids):
    tasks = [t for t in CATALOG.tasks if t.id in task_ids]
    return build_cases(tasks, CATALOG.games, [model], 1)


def test_each_provider_counts_a_1280x720_picture_by_its_own_rule() -> None:
    assert image_tokens(spec("claude-sonnet-4.6"), 1280, 720) == 1229  # 921,600 px / 750
    assert image_tokens(spec("gpt-5.2"), 1280, 720) == 85 + 170 * 6  # 3x2 tiles of 512
    assert image_tokens(spec("gemini-3-flash"), 1280, 720) == 258 * 2  # 2x1 tiles of 768
    assert image_tokens(spec("qwen3-vl-30b"), 1280, 720) == (1288 // 28) * (728 // 28)  # 28 px patches
    assert image_tokens(spec("gemini-3-flash"), 384, 216) == 258


def test_the_picture_sent_follows_screenshot_width() -> None:
    assert sent_size(spec("gpt-5.2"), 1280, 720) == (1280, 720)
    assert sent_size(spec("gpt-5.2", screenshot_width=640), 1280, 720) == (640, 360)
    small = plan_specs(cases(spec("gpt-5.2", screenshot_width=640), {"01_01"}), 10, "screenshot", PROMPTS)
    big = plan_specs(cases(spec("gpt-5.2"), {"01_01"}), 10, "screenshot", PROMPTS)
    assert small["gpt-5.2"].tokens_in < big["gpt-5.2"].tokens_in


def test_memory_rounds_resend_pictures_and_state_obs_sends_none() -> None:
    none = plan_specs(cases(spec("gpt-5.2", memory_rounds=0), {"01_01"}), 10, "screenshot", PROMPTS)["gpt-5.2"]
    two = plan_specs(cases(spec("gpt-5.2", memory_rounds=2), {"01_01"}), 10, "screenshot", PROMPTS)["gpt-5.2"]
    # steps 1.. re-send one picture, steps 2.. two: 1 + 2 * 8 = 17 extra pictures over ten steps
    assert two.tokens_in - none.tokens_in >= 17 * 1105
    state = plan_specs(cases(spec("gpt-5.2", memory_rounds=0), {"01_01"}), 10, "state", PROMPTS)["gpt-5.2"]
    assert none.tokens_in - state.tokens_in == 10 * 1105


def test_a_two_role_game_calls_the_model_for_each_role() -> None:
    coop = [t.id for t in CATALOG.tasks if len(CATALOG.games[t.game].roles) > 1][:1]
    p = plan_specs(cases(spec("gpt-5.2"), set(coop)), 5, "screenshot", PROMPTS)["gpt-5.2"]
    assert p.steps == 5 and p.calls == 10


def test_an_unpriced_spec_costs_n_a_never_0_and_a_built_in_makes_no_call() -> None:
    unpriced = spec("gpt-5.2", price_per_mtok=None, name="mine")
    plans = {**plan_specs(cases(unpriced, {"01_01"}), 5, "screenshot", PROMPTS),
             **plan_specs(cases(spec("gpt-5.2"), {"01_01"}), 5, "screenshot", PROMPTS),
             **plan_specs(cases(spec("random"), {"01_01"}), 5, "screenshot", PROMPTS)}
    assert plans["mine"].cost() is None and plans["gpt-5.2"].cost() > 0 and plans["random"].calls == 0
    text = "\n".join(plan_lines(plans, "screenshot", []))
    mine = next(ln for ln in text.splitlines() if ln.startswith("mine "))
    assert "n/a (no price)" in mine and "$0" not in mine
    assert "+ n/a (mine unpriced)" in text.splitlines()[-2]
    assert "built-in: no model calls" in text
