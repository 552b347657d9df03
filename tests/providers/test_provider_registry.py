"""The provider registry is the one home of a provider's knowledge: every name in it resolves to real code."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import get_args

import pytest
from pydantic import ValidationError

from pytest_gameworld.agents.providers import load, make_provider_agent
from pytest_gameworld.agents.providers.base import ProviderAgent
from pytest_gameworld.catalog.model_names import spec_from_name
from pytest_gameworld.catalog.providers import NAME_PREFIXES, REGISTRY, WIRE_PROTOCOLS, ProviderName
from pytest_gameworld.catalog.specs import ModelSpec
from pytest_gameworld.endpoint import App, make_policy
from pytest_gameworld.endpoint.server import pointing_hint

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = list(REGISTRY.values())


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_every_entry_names_agent_classes_a_preflight_and_an_extra_that_exist(entry) -> None:
    for api, ref in entry.agents.items():
        cls = load(ref)
        assert inspect.isclass(cls) and issubclass(cls, ProviderAgent), f"{entry.name}/{api}: {ref}"
    assert inspect.iscoroutinefunction(load(entry.preflight)), entry.preflight
    extras = (ROOT / "pyproject.toml").read_text().split("[project.optional-dependencies]")[1].split("\n[")[0]
    assert f"\n{entry.extra} = [" in extras, f"{entry.extra} is no extra of pyproject.toml"
    App(entry.wire, make_policy("noop"))  # `gameworld serve` speaks its wire protocol


def test_the_specs_provider_field_admits_exactly_the_registry() -> None:
    assert list(REGISTRY) == list(get_args(ProviderName))
    base = {"name": "m", "interface": "generalist", "api": "chat", "model": "x"}
    with pytest.raises(ValidationError, match="openai-compatible"):
        ModelSpec.model_validate({**base, "provider": "mistral"})
    assert ModelSpec.model_validate({**base, "provider": "openai-compatible"}).provider == "openai-compatible"


@pytest.mark.parametrize("prefix", list(NAME_PREFIXES))
def test_a_name_with_every_prefix_makes_an_agent_of_its_entry(prefix: str) -> None:
    spec = spec_from_name(f"{prefix}/some-model")
    provider, entry = NAME_PREFIXES[prefix]
    assert spec.provider == provider and spec.api == entry.api
    agent = make_provider_agent(spec)
    assert type(agent) is load(REGISTRY[provider].agents[entry.api])


def test_an_api_the_provider_does_not_speak_names_the_ones_it_does() -> None:
    spec = spec_from_name("anthropic/claude").model_copy(update={"api": "chat"})
    with pytest.raises(Exception, match=r"api 'chat' does not fit provider 'anthropic' \(use one of messages\)"):
        make_provider_agent(spec)


@pytest.mark.parametrize("wire", WIRE_PROTOCOLS)
def test_the_serve_hint_names_the_variable_a_spec_of_that_wire_reads(wire: str) -> None:
    first: ProviderName = next(e.name for e in ENTRIES if e.wire == wire)
    assert f"{REGISTRY[first].prefixes[0].base_url_env}=http://h" in pointing_hint(wire, "http://h")
