"""The upstream GameWorld format mapped onto our specs (pure: no browser)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pytest_gameworld.browser.sandbox import is_ready
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir
from pytest_gameworld.catalog.run_cases import Case, build_cases
from pytest_gameworld.catalog.specs import CatalogError
from pytest_gameworld.catalog.upstream import (
    append_url_suffix,
    git_commit,
    is_upstream,
    level_from_suffix,
    map_game,
    map_task,
)
from pytest_gameworld.play.actions import Illegal, Proposal, build_action, parse_cua
from pytest_gameworld.play.semantic import parse_semantic

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"


@pytest.fixture(scope="module")
def cat():
    return load_catalog(FIXTURE)


@pytest.mark.parametrize("url, suffix, expected", [
    ("http://h/g/index.html", "?level=3", "http://h/g/index.html?level=3"),
    ("http://h/g/index.html", "#infinite/2", "http://h/g/index.html#infinite/2"),
    ("http://h/g/index.html", "?level=1&harmless_spikes=true", "http://h/g/index.html?level=1&harmless_spikes=true"),
    ("http://h/g/index.html?x=1", "?level=2", "http://h/g/index.html?x=1&level=2"),
    ("http://h/g/index.html", "&player=1", "http://h/g/index.html?player=1"),
    ("http://h/g/index.html", "level=infinite", "http://h/g/index.html?level=infinite"),
    ("http://h/g/index.html", "/extra", "http://h/g/index.html/extra"),
    ("http://h/g/index.html", None, "http://h/g/index.html"),
])
def test_url_suffix_is_appended_as_upstream_does(url, suffix, expected):
    assert append_url_suffix(url, suffix) == expected


@pytest.mark.parametrize("suffix, level", [("?level=3", 3), ("#level/2", 2), ("?level=1&harmless_spikes=true", 1),
                                           ("?level=infinite", 1), ("?player=1", 1), (None, 1)])
def test_the_level_a_suffix_selects(suffix, level):
    assert level_from_suffix(suffix) == level


def test_an_upstream_checkout_is_recognised_by_its_layout():
    assert is_upstream(FIXTURE)
    assert not is_upstream(default_catalog_dir())


def test_the_fixture_maps_onto_our_specs(cat):
    assert sorted(cat.games) == ["91_line-walker", "92_mine-clicker", "94_lazy-dice", "95_web-sprites"]
    assert [t.id for t in cat.tasks] == ["91_01", "91_02", "91_03", "92_01", "92_02", "92_03", "94_01", "95_01"]
    assert cat.games_dir == FIXTURE / "games" / "benchmark"
    assert cat.prompts_dir == FIXTURE / "catalog" / "prompt_templates" and "random" in cat.models
    assert cat.source == {"format": "upstream", "path": str(FIXTURE), "commit": ""}
    walker = cat.games["91_line-walker"]
    assert walker.origin == "upstream" and walker.name == "Line Walker" and list(walker.roles) == ["walker"]
    role = walker.roles["walker"]
    assert role.description.startswith("You move the walker") and role.cua_description.startswith("ACTION SPACE")
    assert role.cua.keys == ["ArrowLeft", "ArrowRight", "ArrowUp"] and not role.cua.any_key and not role.cua.clicks
    assert role.cua.default_hold_ms == 200 and role.cua.key_durations == {"ArrowUp": 300}
    bindings = {c.id: c.binding for c in role.controls}
    assert (bindings["wait"].action, bindings["wait"].duration_ms) == ("wait", 500)
    assert (bindings["step_right"].key, bindings["step_right"].duration_ms) == ("ArrowRight", 200)  # the role's hold
    assert bindings["step_left"].duration_ms == 100
    assert (bindings["jump_right"].keys, bindings["jump_right"].duration_ms) == (["ArrowUp", "ArrowRight"], 250)


def test_clicks_cells_and_mouse_moves_map(cat):
    role = cat.games["92_mine-clicker"].roles["player"]
    assert role.cua.keys == [] and role.cua.any_key and role.cua.clicks
    controls = {c.id: c for c in role.controls}
    reveal, mark, glance = controls["reveal_cell"], controls["mark_cell"], controls["glance"]
    assert reveal.binding.action == "click" and mark.binding.action == "right_click"
    assert reveal.cell_bindings["b2"] == (640, 360) and len(mark.cell_bindings) == 9
    assert reveal.args["cell"].required and reveal.args["cell"].type == "string"
    g = glance.binding
    assert (g.action, g.x, g.y, g.to_x, g.to_y, g.duration_ms) == ("mouse_move", 540, 260, 740, 460, 100)


def test_tasks_map(cat):
    tasks = {t.id: t for t in cat.tasks}
    t = tasks["91_03"]
    assert (t.score, t.start, t.target, t.max_steps, t.level) == ("game_state.score", 0, 10, 20, 3)
    assert t.url_suffix == "?level=3&harmless_pits=true" and t.terminal_status == "success"
    assert (t.end.field, t.end.equals) == ("terminal.isTerminal", True)
    assert tasks["91_02"].end is None and tasks["91_02"].url_suffix == "#level/2"
    agg = tasks["92_01"].score
    assert (agg.aggregate, agg.fields) == ("sum", ["game_state.score", "metrics.bonus"])
    assert tasks["92_01"].url_suffix is None and tasks["92_01"].terminal_status == "fail"


def test_absent_pages_are_left_out_with_one_line_and_defects_are_reported(cat):
    assert len(cat.left_out) == 1
    assert cat.left_out[0].startswith("1 of 5 upstream games left out: no page") and "93_absent-game" in cat.left_out[0]
    assert not any(t.game == "93_absent-game" for t in cat.tasks)
    empty = [w for w in cat.warnings if "allowed_keys is empty" in w]
    assert len(empty) == 1 and empty[0].startswith("92_mine-clicker role player")


def test_items_say_where_they_came_from(cat):
    model = cat.resolve_model("random")
    cases = build_cases(cat.tasks, cat.games, [model], 1)
    case = next(c for c in cases if c.task.id == "92_02")
    assert case.node_id == "upstream/arcade/92_mine-clicker/92_02[random]"
    assert case.marks[0] == "upstream" and case.run_path.startswith("upstream/arcade/92_mine-clicker/92_02/")
    ours = load_catalog()
    own = Case(ours.tasks[0], ours.task_game(ours.tasks[0]), model)
    assert not own.node_id.startswith("upstream") and "upstream" not in own.marks


def test_an_empty_key_list_allows_every_key_but_not_an_illegal_point(cat):
    game = cat.games["92_mine-clicker"]
    role = game.roles["player"]
    assert parse_cua(Proposal("press_key", {"key": "q"}), role.cua, game.viewport).validity == "valid"
    assert parse_cua(Proposal("type", {"text": "hello"}), role.cua, game.viewport).validity == "valid"
    assert parse_cua(Proposal("click", {"x": 5000, "y": 1}), role.cua, game.viewport).validity == "oos"
    walker = cat.games["91_line-walker"]
    restricted = walker.roles["walker"].cua
    assert parse_cua(Proposal("press_key", {"key": "q"}), restricted, walker.viewport).validity == "oos"


def test_semantic_controls_execute_as_upstream_bindings(cat):
    game = cat.games["92_mine-clicker"]
    role = game.roles["player"]
    v = parse_semantic(Proposal("reveal_cell", {"cell": "C3"}), role, game.viewport, 200)
    assert (v.validity, v.action.kind, v.action.x, v.action.y) == ("valid", "click", 740, 460)
    v = parse_semantic(Proposal("mark_cell", {"cell": "a1"}), role, game.viewport, 200)
    assert (v.action.kind, v.action.button) == ("right_click", "right")
    assert parse_semantic(Proposal("reveal_cell", {"cell": "z9"}), role, game.viewport, 200).validity == "oos"
    v = parse_semantic(Proposal("glance"), role, game.viewport, 200)
    assert (v.action.kind, v.action.x, v.action.y, v.action.to_x, v.action.to_y) == ("mouse_move", 540, 260, 740, 460)
    with pytest.raises(Illegal, match="to_y"):
        build_action("mouse_move", {"x": 1, "y": 1, "to_x": 3}, 100)


def test_readiness_honours_is_actionable_before_status():
    assert is_ready({"status": "playing"}) and is_ready({"status": "Ready"})
    assert not is_ready({"status": "menu"})
    assert not is_ready({"status": "playing", "is_actionable": False})
    assert is_ready({"status": "menu", "is_actionable": True})
    assert not is_ready({"status": "playing", "is_actionable": "yes"})


GAME: dict[str, Any] = {
    "game_name": "05_tiny", "game_rules": "Rules.",
    "game_roles": [{"name": "player", "prompt": {"role_section": "You."},
                    "computer_use_controls": {"allowed_keys": ["a"], "hold_duration": 0.5},
                    "semantic_controls": [
                        {"id": "wait", "binding": {"action": "wait"}},
                        {"id": "guess", "parameters": {"text": {"type": "string"}}, "required": ["text"],
                         "binding": {"action": "type"}},
                        {"id": "vex", "binding": {"action": "press_key", "keys": ["ArrowUp"]}},
                        {"id": "hold", "binding": {"action": "click_hold", "x": 10, "y": 20, "duration": 1.0}},
                    ]}],
}


def _game(tmp_path: Path, data: dict[str, Any]):
    return map_game(data, tmp_path / "05_tiny.yaml", tmp_path)


def test_a_game_built_in_code_maps_type_durations_and_genre(tmp_path):
    spec, warnings = _game(tmp_path, GAME)
    assert (spec.genre, spec.level) == ("arcade", 1) and warnings == []  # 05 is Breakout's number: arcade L1
    controls = {c.id: c for c in spec.roles["player"].controls}
    assert controls["wait"].binding.duration_ms == 500  # the role's hold_duration
    assert controls["guess"].binding.action == "type" and controls["guess"].args["text"].required
    assert controls["vex"].binding.key == "ArrowUp"  # press_key written with `keys`
    assert controls["hold"].binding.duration_ms == 1000
    v = parse_semantic(Proposal("guess", {"text": "crane"}), spec.roles["player"], spec.viewport, 500)
    assert (v.validity, v.action.kind, v.action.text) == ("valid", "type", "crane")


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(game_name="05_other"), "game_name"),
    (lambda d: d["game_roles"][0]["prompt"].update(semantic_controls_section="x"),
     "game_roles[0].prompt.semantic_controls_section"),
    (lambda d: d["game_roles"][0]["semantic_controls"][0].update(aliases=["w"]), "game_roles[0].semantic_controls[0].aliases"),
    (lambda d: d["game_roles"][0]["semantic_controls"][0].update(binding={}), "game_roles[0].semantic_controls[0].binding"),
    (lambda d: d["game_roles"][0]["semantic_controls"][0]["binding"].update(action="teleport"),
     "game_roles[0].semantic_controls[0].binding.action"),
    (lambda d: d["game_roles"][0]["computer_use_controls"].update(hold_duration="long"),
     "game_roles[0].computer_use_controls.hold_duration"),
    (lambda d: d["game_roles"].append(dict(d["game_roles"][0])), "game_roles[1].name"),
])
def test_bad_game_yaml_names_file_and_field(tmp_path, change, field):
    data = yaml.safe_load(yaml.safe_dump(GAME))
    change(data)
    with pytest.raises(CatalogError) as err:
        _game(tmp_path, data)
    assert str(err.value).startswith(f"{tmp_path / '05_tiny.yaml'}: field '{field}")


TASK: dict[str, Any] = {"task_id": "05_01", "game_id": "05_tiny", "evaluator_id": "game_api_metric",
                        "task_prompt": "Do it.", "task_target_score_field": 3,
                        "evaluator_config": {"score_field": "game_state.score"}}


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("evaluator_id"), "evaluator_id"),
    (lambda d: d.pop("task_target_score_field"), "task_target_score_field"),
    (lambda d: d.update(task_goal="x"), "task_goal"),
    (lambda d: d.update(task_prompt="  "), "task_prompt"),
    (lambda d: d.update(evaluator_config={}), "evaluator_config.score_field"),
    (lambda d: d.update(task_start_score_field=5), "task_target_score_field"),
    (lambda d: d.update(max_steps=0), "max_steps"),
])
def test_bad_task_yaml_names_file_and_field(tmp_path, change, field):
    data = dict(TASK)
    change(data)
    with pytest.raises(CatalogError) as err:
        map_task(data, tmp_path / "05_01.yaml")
    assert f"field '{field}" in str(err.value) and str(tmp_path / "05_01.yaml") in str(err.value)


def test_task_defaults_follow_upstream(tmp_path):
    task, notes = map_task({**TASK, "pause_during_inference": False}, tmp_path / "05_01.yaml")
    assert (task.start, task.max_steps, task.continue_on_fail, task.end, task.url_suffix) == (0, 100, True, None, None)
    assert notes == ["05_01: pause_during_inference is false; play it with --gw-rt"]
    task, _ = map_task({**TASK, "evaluator_config": {"score_field": "s", "end_field": "a.b", "end_value": 3}},
                       tmp_path / "05_01.yaml")
    assert (task.end.field, task.end.equals) == ("a.b", 3)


def test_the_commit_of_a_git_checkout(tmp_path):
    assert git_commit(tmp_path) == ""
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "packed-refs").write_text("# pack-refs\n" + "a" * 40 + " refs/heads/main\n")
    assert git_commit(tmp_path) == "a" * 40
    (git / "refs" / "heads" / "main").write_text("b" * 40 + "\n")
    assert git_commit(tmp_path) == "b" * 40
    (git / "HEAD").write_text("c" * 40 + "\n")  # detached
    assert git_commit(tmp_path) == "c" * 40


def test_a_git_checkout_records_its_commit_and_a_remote_url_game_is_left_out(tmp_path):
    import shutil

    root = tmp_path / "GameWorld"
    shutil.copytree(FIXTURE, root)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("d" * 40 + "\n")
    data = yaml.safe_load((root / "catalog" / "games" / "91_line-walker.yaml").read_text())
    (root / "catalog" / "games" / "91_line-walker.yaml").write_text(yaml.safe_dump({**data, "url": "https://example.com/"}))
    cat = load_catalog(root)
    assert cat.source["commit"] == "d" * 40
    assert list(cat.games) == ["92_mine-clicker", "94_lazy-dice", "95_web-sprites"]
    assert {t.game for t in cat.tasks} == {"92_mine-clicker", "94_lazy-dice", "95_web-sprites"}
    assert any("remote url" in line and "91_line-walker" in line for line in cat.left_out)


def test_gameworld_list_shows_the_checkout_and_what_it_left_out(capsys):
    from pytest_gameworld.cli import main

    assert main(["list", "tasks", "--catalog", str(FIXTURE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("91_line-walker/91_01") and "8 tasks" in out
    assert out[-1].startswith("left out: 1 of 5 upstream games left out") and "93_absent-game" in out[-1]
