"""PROVIDER/MODEL names → model specs: provider defaults, the interface suffix, unknown names and prices."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld.agents.base import Usage
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.model_names import is_model_name, spec_from_name, split_name
from pytest_gameworld.catalog.specs import CatalogError
from pytest_gameworld.catalog.yaml_files import load_model_file
from pytest_gameworld.records.run_record import RunRecord, cost_usd
from pytest_gameworld.records.sessions import write_named_models
from pytest_gameworld.report.aggregate import aggregate, format_table
from pytest_gameworld.report.summary_formats import summary_json


@pytest.mark.parametrize("ref, provider, api, base_url_env, key_required", [
    ("openai/gpt-4.1", "openai", "responses", "OPENAI_BASE_URL", True),
    ("anthropic/claude-sonnet-4-6", "anthropic", "messages", "ANTHROPIC_BASE_URL", True),
    ("google/gemini-2.5-flash", "gemini", "generate_content", "GOOGLE_GEMINI_BASE_URL", True),
    ("gemini/gemini-2.5-flash", "gemini", "generate_content", "GOOGLE_GEMINI_BASE_URL", True),
    ("openai-compatible/my-org/my-model", "openai-compatible", "chat", "OPENAI_BASE_URL", True),
    ("vllm/Qwen/Qwen3-VL-8B-Instruct", "openai-compatible", "chat", "VLLM_BASE_URL", False),
])
def test_a_name_maps_to_its_providers_defaults(ref, provider, api, base_url_env, key_required):
    spec = spec_from_name(ref)
    assert (spec.provider, spec.api, spec.endpoint.base_url_env) == (provider, api, base_url_env)
    assert spec.endpoint.api_key_required is key_required
    assert spec.model == ref.split("/", 1)[1]  # the rest of the name, slashes and all, is the provider's model id
    assert spec.interface == "generalist" and not spec.native_computer_use and spec.text_format is None
    assert spec.price_per_mtok is None and spec.temperature is None and spec.memory_rounds == 2
    assert "/" not in spec.name and spec.name.startswith(ref.split("/")[0].replace("gemini", "google"))


def test_the_cua_suffix_chooses_computer_use_and_names_the_spec_apart():
    plain, cua = spec_from_name("vllm/Qwen/Qwen3-VL-8B-Instruct"), spec_from_name("vllm/Qwen/Qwen3-VL-8B-Instruct:cua")
    assert (plain.interface, cua.interface) == ("generalist", "cua")
    assert plain.model == cua.model == "Qwen/Qwen3-VL-8B-Instruct"
    assert plain.name == "vllm-Qwen-Qwen3-VL-8B-Instruct" and cua.name == plain.name + "-cua"
    # A colon that is no interface stays part of the model id (e.g. an Ollama tag).
    assert split_name("openai-compatible/llava:13b") == ("openai-compatible", "llava:13b", "generalist")


@pytest.mark.parametrize("ref, expected", [
    ("openai/gpt-4.1", True), ("vllm/Qwen/Qwen3-VL-8B", True), ("gpt-5.2", False), ("models/mine.yaml", False),
    ("replay:runs/a/steps.jsonl", False), ("./my/model.yml", False), ("openai/", False),
])
def test_what_counts_as_a_name(ref, expected):
    assert is_model_name(ref) is expected


def test_unknown_names_suggest_the_closest_one():
    with pytest.raises(CatalogError, match=r"unknown provider 'opnai' .*did you mean 'openai'\?"):
        spec_from_name("opnai/gpt-4.1")
    with pytest.raises(CatalogError, match=r"known providers: openai, anthropic, google"):
        spec_from_name("zzz/model")
    catalog = load_catalog()
    with pytest.raises(CatalogError, match=r"unknown model 'gpt-5.3'; did you mean 'gpt-5.2'\?") as err:
        catalog.resolve_model("gpt-5.3")
    assert "claude-sonnet-4.6-cua" not in str(err.value)  # a suggestion, not the whole list
    with pytest.raises(CatalogError, match=r"names no model"):
        catalog.resolve_model("openai/:cua")


def test_overrides_apply_to_a_named_model_and_a_price_can_be_given():
    catalog = load_catalog()
    spec = catalog.resolve_model("openai-compatible/my-model",
                                 {"endpoint.base_url": "http://127.0.0.1:9/v1", "price_per_mtok.input": 2.0})
    assert spec.endpoint.base_url == "http://127.0.0.1:9/v1" and spec.price_per_mtok is not None
    assert cost_usd(spec, Usage(1_000_000, 0)) == 2.0
    assert cost_usd(catalog.resolve_model("openai/gpt-4.1"), Usage(1_000_000, 1_000_000)) == 0.0


def test_the_spec_written_into_the_session_loads_back_the_same(tmp_path: Path):
    spec = load_catalog().resolve_model("vllm/Qwen/Qwen3-VL-8B-Instruct:cua",
                                        {"endpoint.base_url": "http://user:hunter2secret@127.0.0.1:8000/v1"})
    catalog_spec = load_catalog().resolve_model("gpt-5.2")
    from pytest_gameworld.records import redact
    redact.remember("hunter2secret")  # what resolving the connection does for a password in a base URL
    (path,) = write_named_models(tmp_path, [spec, catalog_spec])  # a catalog spec needs no copy
    assert path == tmp_path / "models" / "vllm-Qwen-Qwen3-VL-8B-Instruct-cua.yaml"
    assert "hunter2secret" not in path.read_text()
    again = load_model_file(path)
    assert again.model_dump(exclude={"endpoint"}) == spec.model_dump(exclude={"endpoint"})


def _record(model: str, priced: bool) -> RunRecord:
    return record(**{"model": model, "interface": "generalist", "genre": "puzzle", "level": 1, "task": "01_01", "repeat": 0,
            "status": "ok", "success": False, "progress": 0.5, "steps": 3, "valid": 3, "invalid_ntc": 0,
            "invalid_oos": 0, "sec_per_step": 0.1, "cost_usd": 0.0, "priced": priced})


def test_an_unknown_price_shows_as_n_a_never_as_zero():
    summaries = aggregate([_record("openai-gpt-4.1", False), _record("glm-4.6v", True)])
    rows = {line.split()[0]: line for line in format_table(summaries)[2:]}
    assert rows["openai-gpt-4.1"].split()[-2:] == ["n/a", "n/a"] and rows["glm-4.6v"].split()[-2:] == ["0.0000"] * 2
    assert {name: summary_json(s)["cost_usd"] for name, s in summaries.items()} == {"openai-gpt-4.1": None,
                                                                                     "glm-4.6v": 0.0}


def test_the_interface_option_chooses_a_names_interface_and_must_agree_with_its_suffix():
    spec = spec_from_name("openai/gpt-4.1", "cua")
    assert spec.interface == "cua" and spec.name == "openai-gpt-4.1-cua" and spec.extra["from_name"] == "openai/gpt-4.1:cua"
    assert spec_from_name("openai/gpt-4.1:cua", "cua").name == "openai-gpt-4.1-cua", "both given and agreeing"
    assert spec_from_name("vllm/Qwen/Qwen3-VL-8B-Instruct", "generalist").interface == "generalist"
    with pytest.raises(CatalogError) as err:
        spec_from_name("openai/gpt-4.1:cua", "generalist")
    assert str(err.value) == ("--gw-interface generalist contradicts the suffix :cua of model name "
                              "'openai/gpt-4.1:cua'; give one of them")


def test_the_interface_option_never_silently_changes_a_catalog_spec():
    catalog = load_catalog()
    assert catalog.resolve_model("random-cua", interface="cua").interface == "cua"
    with pytest.raises(CatalogError) as err:
        catalog.resolve_model("gpt-5.2", interface="cua")
    assert "model 'gpt-5.2' is a generalist spec" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("args, expected", [
    (["--gw-model", "openai/gpt-4.1", "--gw-interface", "cua"], "01_01[openai-gpt-4.1-cua]"),
    (["--gw-model", "anthropic/claude-sonnet-4-6", "-o", "gw_interface=cua"], "01_01[anthropic-claude-sonnet-4-6-cua]"),
    (["--gw-model", "openai/gpt-4.1:cua", "--gw-interface", "generalist"], "contradicts the suffix :cua"),
    (["--gw-model", "openai/gpt-4.1", "--gw-interface", "vision"], "--gw-interface (ini gw_interface): invalid value"),
])
def test_gw_interface_on_the_command_line_and_in_the_ini_file(tmp_path: Path, args, expected):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", "-k", "01_01",
                        *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    assert expected in out, out[-2000:]
    assert (r.returncode == 0) == ("[" in expected), out[-2000:]
