"""Single games' rules that a generic contract test cannot see: episodes, credit and progress bounds."""

from __future__ import annotations

import pytest

from pytest_gameworld.play.actions import Action

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def wordle_answers(open_game, seed: int, episodes: int) -> list[str]:
    """The hidden word of each episode of round 1, losing every one by typing six non-words."""
    s = await open_game("32-wordle", seed)
    await s.init({"seed": seed, "level": 1})
    answers = []
    for _ in range(episodes):
        answers.append(await s.eval("() => window.__gwCore.answer"))
        await s.execute(Action("type", 1000, text="qqqqq" * 6))
        state = await s.state()
        assert state["terminal"]["reason"] == "out_of_guesses", state["terminal"]
        await s.reset({})
    return answers


async def test_wordle_draws_a_new_word_for_each_episode_from_the_seed(open_game):
    first = await wordle_answers(open_game, seed=11, episodes=4)
    assert len(set(first)) == 4, f"a reset replayed a word: {first}"
    assert await wordle_answers(open_game, seed=11, episodes=4) == first  # same seed + actions, same words
    assert await wordle_answers(open_game, seed=12, episodes=4) != first


async def test_wordle_credits_letters_correct_only_to_rows_that_are_words_of_its_list(open_game):
    s = await open_game("32-wordle", seed=5)
    await s.init({"seed": 5, "level": 1})
    answer, words = await s.eval("() => [window.__gwCore.answer, window.__gwCore.words]")
    near_miss = answer[:4] + next(c for c in "qxzjv" if c != answer[4])  # four greens, not a word
    assert near_miss not in words
    greens = {w: sum(a == b for a, b in zip(w, answer)) for w in words if w != answer}
    word = max(greens, key=greens.get)
    await s.execute(Action("type", 1000, text=near_miss))
    state = await s.state()
    assert state["game_state"]["guesses"][0]["result"].count("g") == 4
    assert state["metrics"]["letters_correct"] == 0 and state["game_state"]["guesses"][0]["counts"] is False
    await s.execute(Action("type", 1000, text=word))
    state = await s.state()
    assert state["metrics"]["letters_correct"] == greens[word] > 0
    assert state["game_state"]["completion_progress"] == greens[word] / 5


async def test_astray_level_1_path_length_is_drawn_per_seed_over_the_band(open_game):
    lengths = set()
    for seed in range(1, 13):
        s = await open_game("03-astray", seed)
        state = await s.init({"seed": seed, "level": 1})
        lengths.add(state["metrics"]["path_length_start"])
        await s.close()
    # 9-14 cells on the path (docs/games.md): 8, 10 or 12 moves, not mostly the shortest staircase.
    assert lengths == {8, 10, 12}, lengths


def astray_cells_farther_than_start(state: dict) -> list[str]:
    """Directions from the start cell to a neighbouring cell farther from the exit than the start is."""
    grid = state["game_state"]["maze"]["grid"]
    n = (len(grid) - 1) // 2
    steps = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}

    def neighbours(c: int, r: int):
        for key, (dx, dy) in steps.items():
            if 0 <= c + dx < n and 0 <= r + dy < n and grid[2 * r + 1 + dy][2 * c + 1 + dx] == ".":
                yield key, (c + dx, r + dy)

    dist, queue = {(n - 1, 0): 0}, [(n - 1, 0)]
    for cell in queue:
        for _, nxt in neighbours(*cell):
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    start = (0, n - 1)
    return [key for key, cell in neighbours(*start) if dist[cell] > dist[start]]


async def test_astray_progress_stays_at_zero_in_a_dead_end_farther_than_the_start(open_game):
    for seed in range(1, 40):
        s = await open_game("03-astray", seed)
        state = await s.init({"seed": seed, "level": 1})
        away = astray_cells_farther_than_start(state)
        if away:
            break
        await s.close()
    else:
        pytest.fail("no level-1 maze with a side branch at the start among seeds 1-39")
    for _ in range(3):
        await s.execute(Action("press_key", 250, keys=(away[0],)))
        await s.execute(Action("wait", 250))
    state = await s.state()
    assert state["metrics"]["distance_to_goal"] > state["metrics"]["path_length_start"], state["metrics"]
    assert state["game_state"]["completion_progress"] == 0 and state["game_state"]["score"] == 0


async def test_minecraft_does_not_count_a_placed_block_mined_again_as_a_gain(open_game):
    s = await open_game("18-minecraft-clone", 3)
    await s.init({"seed": 3, "level": 1})
    centre = {"x": 640, "y": 360}
    for _ in range(3):  # look down at the ground in front of the player
        await s.execute(Action("mouse_move", 500, x=640, y=460))
    await s.execute(Action("click_hold", 1000, **centre))
    first = (await s.state())["metrics"]
    gained = sum(first["item_gains"].values())
    assert gained >= 1 and first["blocks_mined"] == gained, first
    # Place one block back and mine again: the placed block returns to the hotbar but is no new gain.
    await s.execute(Action("right_click", 500, button="right", **centre))
    await s.execute(Action("click_hold", 1000, **centre))
    after = (await s.state())["metrics"]
    assert after["blocks_placed"] == 1 and after["blocks_recovered"] == 1, after
    mined_again = after["blocks_mined"] - first["blocks_mined"]
    assert sum(after["item_gains"].values()) == gained + mined_again - 1, after  # the placed block gained nothing
