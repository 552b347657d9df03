"""Fixtures for the provider agents: a real catalog, a fake run context, and the loopback endpoint."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pytest_gameworld.agents.base import Observation, RunContext
from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.specs import GameSpec, ModelSpec, TaskSpec
from pytest_gameworld.endpoint.process import EndpointProcess
from pytest_gameworld.play.prompts import render_prompt

REPO = Path(__file__).resolve().parents[2]
SECRET = "sk-test-SECRET-123"
KEY_ENV = "GW_PROVIDER_TEST_KEY"
GAME_PREFERENCE = ("01-2048", "19-minesweeper", "13-flappy-bird")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def game(catalog: Catalog) -> GameSpec:
    preferred = os.environ.get("GW_PROVIDER_TEST_GAME")  # to try the agents on another game
    for gid in ((preferred,) if preferred else GAME_PREFERENCE):
        if gid in catalog.games:
            return catalog.games[gid]
    pytest.skip("no game of the preferred set has a catalog entry yet")


def png(width: int = 1280, height: int = 720, color: tuple[int, int, int] = (40, 90, 160)) -> bytes:
    """A solid-colour PNG screenshot."""
    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, format="PNG")
    return buf.getvalue()


@pytest.fixture
def make_ctx(catalog: Catalog, game: GameSpec) -> Callable[[ModelSpec], RunContext]:
    """A RunContext for a spec on the chosen game (no browser session: provider agents never use it)."""

    def make(spec: ModelSpec) -> RunContext:
        role_name = next(iter(game.roles))
        role = game.roles[role_name]
        task = next((t for t in catalog.tasks if t.game == game.id), None) or TaskSpec(
            id="00_01", game=game.id, instruction="Score as many points as you can.", score="score",
            start=0, target=10)
        prompt = render_prompt(catalog.root / "prompts", game, role, task, spec, task.max_steps)
        return RunContext(game, task, role_name, role, spec, 7, prompt, session=None)  # type: ignore[arg-type]

    return make


def observation(step: int = 0, width: int = 1280, height: int = 720) -> Observation:
    return Observation(step=step, episode=0, state={}, screenshot=png(width, height), image_format="png")


Server = EndpointProcess


@pytest.fixture
def secret_key(monkeypatch: pytest.MonkeyPatch) -> str:
    """A distinctive fake API key in the environment variable the test specs read."""
    monkeypatch.setenv(KEY_ENV, SECRET)
    return SECRET


@pytest.fixture
def spec_for(catalog: Catalog, secret_key: str) -> Callable[..., ModelSpec]:
    """A catalog spec pointed at a loopback server, with the fake key and optional overrides."""

    def make(name: str, server: Server, **overrides: Any) -> ModelSpec:
        opts: dict[str, Any] = {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV,
                                "extra.retry_backoff_s": 0.01}
        opts.update({k.replace("__", "."): v for k, v in overrides.items()})
        return catalog.resolve_model(name, opts)

    return make


@pytest.fixture
def drive(make_ctx: Callable[[ModelSpec], RunContext]) -> Callable[..., Any]:
    """drive(spec, steps=1, size=(1280, 720), cua=None) → (agent, replies): begin, act `steps` times, close.

    ``cua`` overrides fields of the role's CUA controls (e.g. {"clicks": True}) whatever the game.
    """
    from pytest_gameworld.agents.providers import make_provider_agent

    async def run(spec: ModelSpec, steps: int = 1, size: tuple[int, int] = (1280, 720),
                  cua: dict[str, Any] | None = None) -> tuple[Any, list[Any]]:
        agent = make_provider_agent(spec)
        ctx = make_ctx(spec)
        if cua:
            ctx.role = ctx.role.model_copy(update={"cua": ctx.role.cua.model_copy(update=cua)})
        await agent.begin(ctx)
        replies = []
        try:
            for step in range(steps):
                replies.append(await agent.act(observation(step, *size)))
        finally:
            await agent.close()
        return agent, replies

    return run


def assert_no_secret(*values: Any) -> None:
    """The fake key appears in none of the values (request records, raw responses, text)."""
    for value in values:
        assert SECRET not in json.dumps(value, default=str)


@pytest.fixture
def no_secret() -> Callable[..., None]:
    return assert_no_secret


@pytest.fixture
def control_call(game: GameSpec) -> tuple[str, dict[str, Any]]:
    """A valid call of the game's first control that takes arguments (or of its first control)."""
    role = next(iter(game.roles.values()))
    control = next((c for c in role.controls if c.args), role.controls[0])
    args: dict[str, Any] = {}
    for name, spec in control.args.items():
        if name == "cell" and control.cell_bindings:
            args[name] = sorted(control.cell_bindings)[0]
        elif spec.enum:
            args[name] = spec.enum[0]
        elif spec.required:
            args[name] = {"string": "a", "integer": 1, "number": 1.0, "boolean": True}[spec.type]
    return control.id, args


@pytest.fixture
def scripted_usage() -> dict[str, int]:
    """Token counts a scripted reply reports."""
    return {"input_tokens": 1234, "output_tokens": 56, "cached_tokens": 200, "reasoning_tokens": 7}
