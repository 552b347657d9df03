"""The Gymnasium environments on real Chromium: Gymnasium's own checker on one task of every game (one browser
for all), the vector environment's autoreset against single environments, and close() leaving no process."""

from __future__ import annotations

import select
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from session_processes import SessionProcesses

import pytest_gameworld.gym  # noqa: F401  (registers GameWorld/<task>-v0)
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.gym.engine import Engine
from pytest_gameworld.gym.options import BrowserOptions
from pytest_gameworld.gym.spaces import CUA_KINDS
from pytest_gameworld.play.actions import noop

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def one_browser() -> Iterator[Engine]:
    """Holds the default options' engine open, so every environment the module makes shares its one browser."""
    engine = Engine.acquire(BrowserOptions())
    yield engine
    engine.release()


CATALOG = load_catalog()
FIRST_TASKS = {game: next(t.id for t in CATALOG.tasks if t.game == game) for game in CATALOG.games}


@pytest.mark.parametrize("game", list(FIRST_TASKS))
def test_check_env_passes_for_the_first_task_of_every_game(one_browser: Engine, game: str) -> None:
    """Gymnasium's checker with both observations (the Box and the Text checked) and rendering; a warning it
    gives fails the game too. Every game of a worker plays in the module's one browser."""
    env = gymnasium.make(f"GameWorld/{FIRST_TASKS[game]}-v0", obs="both", render_mode="rgb_array")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            check_env(env.unwrapped)
    finally:
        env.close()
    assert one_browser.host.browser is not None and not one_browser.host._of  # its contexts all released


def test_vector_autoreset_next_step_gives_the_single_envs_next_run(one_browser: Engine) -> None:
    """Budget 3: every sub-environment truncates on step 3; the step after it is its reset (reward 0, no flag,
    the reset's info) onto the run a single env seeded alike starts with reset() without a seed."""
    vec = gymnasium.make_vec("GameWorld/01_02-v0", num_envs=2, vectorization_mode="vector_entry_point",
                             obs="state", max_steps=3)
    single = gymnasium.make("GameWorld/01_02-v0", obs="state", max_steps=3)
    try:
        assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        obs, info = vec.reset(seed=[11, 12])
        assert list(info["seed"]) == [11, 12] and obs[0] != obs[1]
        s_obs, _ = single.reset(seed=11)
        assert obs[0] == s_obs
        for action in (0, 3, 1):
            obs, reward, terminated, truncated, info = vec.step(np.array([action, action]))
            s_obs, s_reward, s_term, s_trunc, s_info = single.step(action)
            assert (obs[0], reward[0], terminated[0], truncated[0]) == (s_obs, s_reward, s_term, s_trunc)
            assert info["score"][0] == s_info["score"] and info["validity"][0] == s_info["validity"]
        assert truncated.all() and not terminated.any()
        obs, reward, terminated, truncated, info = vec.step(np.array([2, 2]))  # the autoreset step
        s_obs, s_info = single.reset()
        assert not (terminated.any() or truncated.any()) and (reward == 0).all()
        assert list(info["step"]) == [0, 0] and info["seed"][0] == s_info["seed"] and obs[0] == s_obs
        obs, *_ = vec.step(np.array([2, 2]))
        assert obs[0] == single.step(2)[0]  # and play goes on from there as the single env's does
    finally:
        vec.close()
        single.close()


def test_vector_autoreset_same_step_hands_the_final_observation_in_info(one_browser: Engine) -> None:
    vec = gymnasium.make_vec("GameWorld/01_02-v0", num_envs=2, vectorization_mode="vector_entry_point",
                             obs="state", max_steps=2, autoreset_mode=AutoresetMode.SAME_STEP)
    single = gymnasium.make("GameWorld/01_02-v0", obs="state", max_steps=2)
    try:
        vec.reset(seed=5)  # sub-environments seeded 5 and 6
        single.reset(seed=5)
        vec.step(np.array([0, 0]))
        single.step(0)
        obs, reward, terminated, truncated, info = vec.step(np.array([1, 1]))
        final, s_reward, _, s_trunc, s_info = single.step(1)
        assert truncated.all() and reward[0] == s_reward and s_trunc
        assert info["final_obs"][0] == final and info["final_info"]["score"][0] == s_info["score"]
        fresh, fresh_info = single.reset()
        assert obs[0] == fresh and info["seed"][0] == fresh_info["seed"] and list(info["step"]) == [0, 0]
    finally:
        vec.close()
        single.close()


def test_computer_use_an_illegal_action_is_counted_and_waits_the_roles_default_hold(one_browser: Engine) -> None:
    """2048's player may press only the arrows: "a" is out of its space (OOS), executed as the benchmark does,
    a wait of the role's default hold; a legal press after it is counted valid."""
    env = gymnasium.make("GameWorld/01_02-v0", interface="cua", obs="state")
    try:
        env.reset(seed=3)
        keys = env.unwrapped.key_names["player"]
        hold = CATALOG.games["01-2048"].roles["player"].cua.default_hold_ms

        def press(key: str) -> dict:
            action = env.action_space.sample()
            action.update(kind=CUA_KINDS.index("press_key"), duration_ms=0,
                          keys=np.array([k == key for k in keys], dtype=np.int8))
            return action

        *_, info = env.step(press("a"))
        assert (info["validity"], info["action"]) == ("oos", noop(hold).to_json()), info
        assert info["counts"] == {"valid": 0, "ntc": 0, "oos": 1}
        *_, info = env.step(press("ArrowUp"))
        assert info["validity"] == "valid" and info["action"]["keys"] == ["ArrowUp"]
        assert info["counts"] == {"valid": 1, "ntc": 0, "oos": 1}
    finally:
        env.close()


SCRIPT = textwrap.dedent("""
    import sys, gymnasium, pytest_gameworld.gym
    env = gymnasium.make("GameWorld/01_02-v0", obs="state")
    env.reset(seed=1)
    env.step(0)
    vec = gymnasium.make_vec("GameWorld/01_02-v0", num_envs=2, obs="state")
    vec.reset(seed=1)
    print("open", flush=True); sys.stdin.readline()
    env.close()
    print("one closed", flush=True); sys.stdin.readline()
    vec.close()
    print("all closed", flush=True); sys.stdin.readline()
""")


def _said(proc: subprocess.Popen, line: str, timeout_s: float = 300.0) -> None:
    ready, _, _ = select.select([proc.stdout], [], [], timeout_s)
    assert ready, f"the env script did not say {line!r} within {timeout_s:g} s"
    assert proc.stdout.readline().strip() == line


def test_close_leaves_no_process_behind() -> None:
    """While the script still runs, its last close() has ended the browser and Playwright's driver (not the
    interpreter's exit); an env closed while a vector still plays leaves the shared browser to the vector."""
    procs = SessionProcesses()
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], env=procs.env(), cwd=REPO, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        _said(proc, "open")
        started = procs.below(proc.pid)
        assert any("chrom" in procs.find().get(p, "") for p in started), "no browser seen below the script"
        proc.stdin.write("\n")
        proc.stdin.flush()
        _said(proc, "one closed")
        assert procs.browsers(), "closing one env closed the browser the vector still plays in"
        proc.stdin.write("\n")
        proc.stdin.flush()
        _said(proc, "all closed")
        assert procs.wait_gone(started, timeout_s=30) == {}
        assert proc.poll() is None  # the interpreter is still there: close() did it, not atexit
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        procs.kill_all()
