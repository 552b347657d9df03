"""The picture a run takes: read back from the canvas when the page is one canvas, else a screenshot; either way
exactly what the screen shows after the action, in real Chromium."""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import pytest
from PIL import Image, ImageChops

from pytest_gameworld.agents import AgentReply, Observation, RunContext
from pytest_gameworld.agents.factory import make_agent
from pytest_gameworld.play.actions import Action

pytestmark = pytest.mark.asyncio(loop_scope="session")
ARROWS = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"]


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def same_picture(a: bytes, b: bytes) -> bool:
    return ImageChops.difference(pixels(a), pixels(b)).getbbox() is None


async def test_the_picture_shows_the_state_after_each_action(open_game):
    s = await open_game("01-2048")
    await s.init({"seed": 3, "level": 1})
    state, before = await s.observe("png")
    changed = 0
    for i in range(12):
        await s.execute(Action("press_key", 200, keys=(ARROWS[i % 4],)))
        after_state, frame = await s.observe("png")
        assert same_picture(frame, await s.screenshot("png")), f"step {i}: the picture is not what the screen shows"
        if after_state["game_state"] != state["game_state"]:  # the board moved: a stale picture would not
            assert not same_picture(frame, before), f"step {i}: the board changed but the picture did not"
            changed += 1
        state, before = after_state, frame
    assert changed >= 6 and s.captures == {"canvas": 13}


async def test_a_reset_reads_its_ready_state_and_picture_in_one_call_after_starting(open_game):
    """A reset that settles without game time: one call starts it and gets its answer, one reads the ready state
    with its picture; that picture is the fresh board on screen."""
    s = await open_game("01-2048")
    await s.init({"seed": 3, "level": 1})
    for key in ARROWS * 3:
        await s.execute(Action("press_key", 200, keys=(key,)))
    played, _ = await s.observe("png")
    calls = s.page_calls
    state, picture = await s.reset_observed({}, "png")
    assert s.page_calls - calls == 2 and s.resets == ["inplace"]
    assert state["status"] in ("ready", "playing") and state["game_state"] != played["game_state"]
    assert picture is not None and same_picture(picture, await s.screenshot("png"))


@pytest.mark.parametrize("change, why", [
    ("document.body.appendChild(Object.assign(document.createElement('div'), {textContent: 'OVERLAY',"
     " style: 'position:fixed;left:40px;top:40px;font-size:60px;color:#f0f'}))", "other elements are shown"),
    ("document.querySelector('canvas').style.opacity = '0.5'", "the canvas is styled"),
    ("document.body.style.background = 'linear-gradient(red, blue)';"
     " document.querySelector('canvas').getContext('2d').clearRect(0, 0, 300, 300)",
     "a transparent canvas over a patterned page"),
])
async def test_a_page_that_is_more_than_its_canvas_is_photographed(open_game, change, why):
    s = await open_game("01-2048")
    await s.init({"seed": 3, "level": 1})
    await s.eval(f"() => {{ {change}; }}")
    _, frame = await s.observe("png")
    assert s.captures == {why: 1}
    assert same_picture(frame, await s.screenshot("png"))
    canvas_only = await s.eval("() => document.querySelector('canvas').toDataURL('image/png')")
    assert not same_picture(frame, base64.b64decode(canvas_only.split(",", 1)[1])), "the change shows on screen"


async def test_a_transparent_canvas_is_read_back_over_the_page_colour(open_game):
    s = await open_game("01-2048")
    await s.init({"seed": 3, "level": 1})
    # 2048 draws on a transparent canvas: clear a corner so the page colour shows through it.
    await s.eval("() => { document.body.style.background = 'rgb(10, 200, 30)';"
                 " document.querySelector('canvas').getContext('2d').clearRect(0, 0, 300, 300); }")
    _, frame = await s.observe("png")
    assert s.captures == {"canvas": 1}
    assert pixels(frame).getpixel((150, 150)) == (10, 200, 30)
    assert same_picture(frame, await s.screenshot("png"))


async def test_a_gallery_snapshot_after_a_built_in_run_shows_the_game(tmp_path, catalog):
    """A built-in agent's run skips drawing when nobody sees it; a gallery snapshot is seen, so its page draws."""
    from pytest_gameworld.play.snapshot import snapshot

    (path,) = await snapshot(catalog, ["03-astray"], tmp_path, steps=3, agent="random", seed=1)
    colours = pixels(path.read_bytes()).getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 20, "the snapshot is blank: the page skipped drawing"


async def test_a_page_that_skips_drawing_refuses_every_picture(open_game):
    s = await open_game("01-2048")
    await s.skip_drawing()
    await s.init({"seed": 3, "level": 1})
    for take in (lambda: s.observe("png"), lambda: s.screenshot("png")):
        with pytest.raises(Exception, match="skips drawing"):
            await take()


class Watching:
    """A built-in agent that needs the screen: it keeps each picture it is shown, then answers as the agent does."""

    interface = "generalist"
    needs_pixels = True

    def __init__(self, inner: Any) -> None:
        self.inner, self.shown = inner, []

    async def begin(self, ctx: RunContext) -> None:
        await self.inner.begin(ctx)

    async def act(self, obs: Observation) -> AgentReply:
        self.shown.append(obs.screenshot)
        return await self.inner.act(obs)

    async def close(self) -> None:
        await self.inner.close()


def watching(catalog: Any, model: str) -> Watching:
    return Watching(make_agent(catalog.resolve_model(model)))


async def test_a_state_that_ends_its_episode_is_not_photographed_and_every_step_still_sees_the_screen(
        open_game, play_task, catalog):
    """Random play at Core Ball ends episode after episode: the run resets on each ending, so no picture is taken of it
    (one picture per step that goes on, one per reset, one at the start), and every step is shown a picture."""
    s = await open_game("08-core-ball")
    agent = watching(catalog, "random")
    record, _, steps_path = await play_task("08_01", agent, max_steps=60, session=s)
    steps = [json.loads(line) for line in steps_path.read_text().splitlines()]
    resets = sum(1 for line in steps if line.get("event") == "reset")
    ended = sum(1 for line in steps if line.get("event") == "step" and (line["reset"] or line["stop"]))
    assert resets >= 3 and record.steps == 60
    assert sum(s.captures.values()) == 1 + resets + record.steps - ended
    assert len(agent.shown) == 60 and all(agent.shown)


async def test_a_page_that_calls_an_ending_what_the_evaluator_does_not_is_photographed_after_all(
        open_game, play_task, catalog):
    """The page's test of an ending (JavaScript truth) and the evaluator's (Python's) can differ on odd values
    (`isTerminal: []`): the state is scored as going on, so its picture is taken in a second call."""
    s = await open_game("01-2048")
    await s.eval("() => { const get = window.gameAPI.getState.bind(window.gameAPI);"
                 " window.gameAPI.getState = () => ({...get(), terminal: {isTerminal: []}}); }")
    _, skipped = await s.observe("png", unless_ended=True)
    assert skipped is None
    agent = watching(catalog, "noop")
    record, _, _ = await play_task("01_01", agent, max_steps=3, session=s)
    assert record.steps == 3 and len(agent.shown) == 3 and all(agent.shown)


async def observed_after_each(s: Any, actions: list[Action]) -> list[tuple[dict[str, Any], bytes]]:
    await s.init({"seed": 5, "level": 1})
    seen = []
    for a in actions:
        await s.execute(a)
        state, picture = await s.observe("png")
        seen.append((state, picture))
    return seen


async def test_the_clock_run_in_the_page_gives_the_states_and_pictures_of_playwrights_run_for(open_game):
    actions = [Action("press_key", 150 + 50 * (i % 3), keys=(ARROWS[i % 4],)) for i in range(10)]
    actions.insert(4, Action("wait", 700))
    direct = await open_game("16-hextris")
    by_run_for = await open_game("16-hextris")
    by_run_for.direct_clock = False
    ours, theirs = await observed_after_each(direct, actions), await observed_after_each(by_run_for, actions)
    assert direct.direct_clock and not by_run_for.direct_clock
    for i, ((state, picture), (state2, picture2)) in enumerate(zip(ours, theirs)):
        assert state == state2, f"step {i}: the states differ"
        assert same_picture(picture, picture2), f"step {i}: the pictures differ"
    assert ours[0][0]["gameTimeMs"] != ours[-1][0]["gameTimeMs"]


async def test_a_page_with_a_frame_inside_advances_that_frames_clock_too(open_game):
    s = await open_game("01-2048")
    await s.init({"seed": 1, "level": 1})
    await s.eval("""() => new Promise((done) => {
      const f = document.createElement('iframe');
      f.srcdoc = '<script>window.ticks = 0; setInterval(() => { window.ticks += 1; }, 100);</script>';
      f.onload = () => done(true);
      document.body.appendChild(f);
    })""")
    await s.execute(Action("wait", 1000))
    ticks = await s.page.frames[1].evaluate("() => window.ticks")
    assert ticks == 10, f"the inner frame's timers ran {ticks} times in 1 s of game time"
