"""The paper's metrics: progress clamp, mid-episode target, resets keep best, end rule, requires."""

import pytest

from pytest_gameworld.catalog.specs import TaskSpec
from pytest_gameworld.play.evaluator import Evaluator, ScoreError, task_score


def task(**kw):
    base = {"id": "01_01", "game": "g", "instruction": "x", "score": "game_state.score", "start": 0,
            "target": 10, "max_steps": 5}
    return TaskSpec.model_validate({**base, **kw})


def st(score, status="playing", outcome=None, **extra):
    term = {"isTerminal": status == "terminal", "outcome": outcome, "reason": None}
    return {"status": status, "terminal": term, "game_state": {"score": score, **extra}, "metrics": {}}


def test_progress_is_clamped_to_unit_interval():
    ev = Evaluator(task(start=5, target=15))
    assert ev.observe(st(0), 0).progress == 0.0
    assert ev.observe(st(10), 1).progress == 0.5
    assert ev.observe(st(99), 2).progress == 1.0


def test_target_hit_mid_episode_stops_with_success():
    ev = Evaluator(task())
    assert ev.observe(st(3), 1).stop is None
    r = ev.observe(st(10), 2)
    assert r.success and r.stop == "success"


def test_reset_on_terminal_failure_keeps_best():
    ev = Evaluator(task())
    ev.observe(st(7), 1)
    r = ev.observe(st(7, "terminal", "fail"), 2)
    assert r.reset and r.stop is None
    ev.begin_episode()
    r = ev.observe(st(2), 3)
    assert r.best == 7 and r.progress == 0.7 and ev.episodes == 2


def test_without_continue_on_fail_a_terminal_failure_stops():
    ev = Evaluator(task(continue_on_fail=False))
    r = ev.observe(st(1, "terminal", "fail"), 1)
    assert r.stop == "terminal" and not r.reset


def test_budget_exhausted_stops_unsolved():
    ev = Evaluator(task(max_steps=2))
    ev.observe(st(1), 1)
    r = ev.observe(st(2), 2)
    assert r.stop == "max_steps" and not r.success


def test_terminal_on_last_step_does_not_reset():
    ev = Evaluator(task(max_steps=2))
    r = ev.observe(st(1, "terminal", "fail"), 2)
    assert r.stop == "max_steps" and not r.reset


def test_end_rule_stops():
    ev = Evaluator(task(end={"field": "game_state.level", "equals": 3}))
    assert ev.observe(st(1, level=2), 1).stop is None
    assert ev.observe(st(1, level=3), 2).stop == "end_rule"


def test_requires_must_hold_for_success():
    t = task(score={"aggregate": "sum", "fields": ["game_state.a", "game_state.b"]}, target=4,
             requires=[{"field": "game_state.a", "min": 1}, {"field": "game_state.b", "min": 1}])
    ev = Evaluator(t)
    r = ev.observe({"status": "playing", "game_state": {"a": 4, "b": 0}}, 1)
    assert r.score == 4 and not r.success and r.progress == 1.0
    r = ev.observe({"status": "playing", "game_state": {"a": 3, "b": 1}}, 2)
    assert r.success


@pytest.mark.parametrize("continue_on_fail", [True, False])
def test_level_finished_with_a_requirement_unmet_ends_the_episode_as_a_failure(continue_on_fail):
    t = task(score={"aggregate": "sum", "fields": ["game_state.a", "game_state.b"]}, target=4,
             requires=[{"field": "game_state.a", "min": 1}, {"field": "game_state.b", "min": 1}],
             continue_on_fail=continue_on_fail)
    ev = Evaluator(t)
    done = {"status": "terminal", "terminal": {"isTerminal": True, "outcome": "success", "reason": "level_complete"},
            "game_state": {"a": 4, "b": 0}}
    r = ev.observe(done, 3)
    assert r.score == 4 and not r.success and not ev.success
    assert (r.reset, r.stop) == ((True, None) if continue_on_fail else (False, "terminal"))


def test_min_aggregate():
    t = task(score={"aggregate": "min", "fields": ["game_state.a", "game_state.b"]})
    assert task_score(t, {"game_state": {"a": 4, "b": 2}}) == 2


def test_terminal_with_unknown_outcome_is_not_success():
    ev = Evaluator(task())
    r = ev.observe(st(3, "terminal", None), 1)
    assert not r.success and r.reset


def test_game_level_success_short_of_target_is_not_task_success():
    ev = Evaluator(task(target=50))
    r = ev.observe(st(20, "terminal", "success"), 1)
    assert not r.success and r.reset


@pytest.mark.parametrize("state, words", [
    ({"game_state": {}}, "missing"), ({"game_state": {"score": "3"}}, "not a finite number"),
    ({"game_state": {"score": None}}, "not a finite number"), ({"game_state": {"score": True}}, "not a finite"),
    ({"game_state": {"score": float("nan")}}, "not a finite"),
])
def test_bad_score_field_is_a_clear_error(state, words):
    with pytest.raises(ScoreError, match=words):
        Evaluator(task()).observe(state, 0)


def test_target_must_exceed_start():
    with pytest.raises(ValueError, match="greater than start"):
        task(start=5, target=5)


def test_an_end_rule_on_the_terminal_flag_resets_on_a_failure_the_task_continues_after():
    # The original's rule, on 145 of its tasks: end_field terminal.isTerminal with continue_on_fail.
    end = {"field": "terminal.isTerminal", "equals": True}
    ev = Evaluator(task(end=end))
    r = ev.observe(st(4, "terminal", "fail"), 1)
    assert r.reset and r.stop is None
    assert ev.observe(st(6, "terminal", "success"), 2).stop == "end_rule"  # a game-level success short of the target
    assert Evaluator(task(end=end, continue_on_fail=False)).observe(st(4, "terminal", "fail"), 1).stop == "end_rule"
    assert Evaluator(task(end=end)).observe(st(4, "terminal", "fail"), 5).stop == "max_steps"


def test_a_terminal_state_carries_the_games_reason_and_a_live_one_none():
    from pytest_gameworld.play.prompt_sections import episode_ended_line

    ev = Evaluator(task())
    assert ev.observe({**st(3), "terminal": {"isTerminal": False, "outcome": None, "reason": "stale"}}, 1).reason is None
    failed = {**st(4, "terminal", "fail"), "terminal": {"isTerminal": True, "outcome": "fail", "reason": "out_of_lives"}}
    r = ev.observe(failed, 2)
    assert r.reset and r.reason == "out_of_lives"
    assert episode_ended_line(r.reason, r.outcome, ev.progress) == (
        "Your last attempt ended (lost all lives); the game has restarted; best progress so far: 40 %")


@pytest.mark.parametrize("reason, outcome, words", [
    ("out_of_guesses", "fail", "ran out of guesses"),
    ("time_up", "fail", "time ran out"),
    ("fireboy_died", "fail", "fireboy died"),  # a code with no entry: its words as they are
    (None, "fail", "failed"),
    ("", None, "game over"),
    (None, "success", "the game ended short of the task's target"),
    (7, "fail", "failed"),  # a game's non-string reason is not shown
])
def test_the_reason_in_words(reason, outcome, words):
    from pytest_gameworld.play.prompt_sections import ended_reason

    assert ended_reason(reason, outcome) == words


def test_progress_from_the_first_state_does_not_count_what_the_opening_holds():
    """2048's tile tasks: a 4 on the opening board of a 32-tile task is no progress; the origin stays the run's
    first state across a reset, and a first state below start counts from start."""
    ev = Evaluator(task(target=32, progress_from="first_state"))
    assert ev.observe(st(4), 0).progress == 0.0
    assert ev.observe(st(4), 1).progress == 0.0  # still the opening tile
    assert ev.observe(st(18), 2).progress == pytest.approx(14 / 28)  # (18 − 4) / (32 − 4)
    ev.begin_episode()
    assert ev.observe(st(2), 3).progress == pytest.approx(14 / 28)  # the run's best, from the run's origin
    assert ev.observe(st(32), 4).success and ev.progress == 1.0
    plain = Evaluator(task(target=32))
    assert plain.observe(st(4), 0).progress == pytest.approx(4 / 32)  # the default counts from start
    below = Evaluator(task(start=5, target=15, progress_from="first_state"))
    below.observe(st(0), 0)
    assert below.observe(st(10), 1).progress == 0.5
    solved = Evaluator(task(target=4, progress_from="first_state"))
    assert solved.observe(st(8), 0).progress == 1.0  # an opening at the target: solved, not a division by zero
