"""Upstream model specs (catalog/models/*.yaml of a checkout) mapped onto our providers; what does not map is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir, load_models
from pytest_gameworld.catalog.specs import CatalogError
from pytest_gameworld.catalog.upstream_models import FAMILY, base_url_of, map_model

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"


@pytest.fixture(scope="module")
def ours():
    return load_models(default_catalog_dir() / "models")


def test_every_upstream_agent_has_a_spec_of_ours_to_speak_its_protocol(ours):
    assert len(FAMILY) == 24
    assert {spec for spec, _ in FAMILY.values()} <= set(ours)


def test_the_fixtures_qwen_spec_maps_and_reports_what_it_cannot(ours):
    cat = load_catalog(FIXTURE)
    spec = cat.resolve_model("qwen3-vl-30b-a3b")
    qwen = ours["qwen3-vl-30b"]
    assert (spec.provider, spec.api, spec.text_format, spec.interface, spec.coordinates) == \
        (qwen.provider, qwen.api, qwen.text_format, qwen.interface, qwen.coordinates)
    assert spec.endpoint.base_url == "http://127.0.0.1:8088/v1" and spec.endpoint.base_url_env is None
    assert (spec.model, spec.prompt_template, spec.memory_rounds, spec.max_output_tokens) == \
        ("Qwen/Qwen3-VL-30B-A3B-Thinking", "game_agent_template", 2, 2048)
    assert spec.output_format.startswith("Think in one short sentence") and spec.path.name == "qwen3-vl-30b-a3b.yaml"
    assert any(w.endswith("field 'enable_thinking' = True is not mapped") for w in cat.warnings)
    assert any(w.startswith("model house-model: ") and "not loaded" in w for w in cat.warnings)
    assert "house-model" not in cat.models
    # Our own Qwen spec stays under its own name; the alias the checkout's spec now holds is taken back.
    assert cat.resolve_model("qwen3-vl-30b").model == qwen.model
    assert "qwen3-vl-30b-a3b" not in cat.resolve_model("qwen3-vl-30b").aliases


def test_fields_map_as_upstream_means_them(ours, tmp_path):
    file = tmp_path / "kimi-k2.5.yaml"
    spec, notes = map_model({"model_name": "kimi-k2.5", "prompt_template_id": "game_agent_template",
                             "model": "kimi-k2.5", "base_url": "https://api.example.test/v1", "enable_memory": False,
                             "api_key_env": "MY_KIMI_KEY", "max_tokens": 512, "api_key": "sk-literal"}, file, ours)
    assert (spec.endpoint.base_url, spec.endpoint.api_key_env) == ("https://api.example.test/v1", "MY_KIMI_KEY")
    assert (spec.memory_rounds, spec.max_output_tokens, spec.temperature) == (0, 512, 1.0)  # upstream's Kimi default
    assert notes == [f"model kimi-k2.5: {file}: field 'api_key' = 'sk-literal' is not mapped "
                     "(a key is read from the environment variable api_key_env names)"]
    spec, notes = map_model({"model_name": "gpt-5.2", "endpoint": "http://h:1/v1/responses"}, tmp_path / "gpt-5.2.yaml",
                            ours)
    assert spec.endpoint.base_url == "http://h:1/v1/responses" and "is not a /chat/completions URL" in notes[0]
    with pytest.raises(CatalogError, match=r"x\.yaml: field 'model_name': 'gpt-5.2' does not match"):
        map_model({"model_name": "gpt-5.2"}, tmp_path / "x.yaml", ours)


@pytest.mark.parametrize("url, base", [("http://127.0.0.1:8088/v1/chat/completions", "http://127.0.0.1:8088/v1"),
                                       ("http://h/v1/chat/completions/", "http://h/v1"), ("http://h/v1", "http://h/v1")])
def test_a_full_chat_completions_url_becomes_a_base_url(url, base):
    assert base_url_of(url) == base
