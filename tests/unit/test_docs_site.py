"""The documentation site builds with `mkdocs build --strict` (every link and anchor resolves, every page is in the
nav), its options reference is the plugin's own option list, and the README's links land on pages that exist."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_gameworld.plugin.options import OPTIONS
from pytest_gameworld.plugin.options_reference import MARKER, flag_form, reference_markdown

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 180  # a build takes seconds; a hung one is a failure, not a wait


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    try:
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                               "-d", str(out)], capture_output=True, text=True, env=env, timeout=BUILD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mkdocs build did not finish within {BUILD_TIMEOUT_S} s")
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_every_docs_page_is_built(site: Path):
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    missing = [p for p in pages if not (site / ("" if p == "index" else p) / "index.html").is_file()]
    assert pages and not missing, f"docs pages not in the built site: {missing}"


def test_the_options_reference_lists_every_option_as_registered(site: Path):
    page = site / "options" / "index.html"
    assert MARKER not in page.read_text(encoding="utf-8"), "the build hook left the marker in place"
    text = _text(page)
    for name, kind, _, help_text in OPTIONS:
        assert flag_form(name, kind) in text, f"--gw-{name} missing from the built options reference"
        assert f"gw_{name.replace('-', '_')}" in text
        assert help_text.split(";")[0][:40] in text, f"--gw-{name}'s help text not in the reference"
    assert "--gw-results=DIR" in text and "--gw-baseline=PATH" in text


def test_a_value_option_is_written_with_equals():
    # A spaced value that names an existing path is read by pytest as a test path before the plugin loads.
    reference = reference_markdown()
    for name, kind, _, _ in OPTIONS:
        form = flag_form(name, kind)
        assert (kind == "bool") == ("=" not in form), form
        assert f"`{form}`" in reference
    assert reference.count("\n- **`--gw-") + 1 == len(OPTIONS), "one item per option"


def test_the_readme_links_to_pages_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = [link for link in re.findall(r"\]\(([^)#\s]+)", readme) if "://" not in link]
    assert any(link.startswith("docs/") for link in links), "the README links to no docs page"
    assert not [link for link in links if not (ROOT / link).exists()], "README links to missing files"


def test_the_scripted_policy_examples_in_the_docs_load(tmp_path: Path):
    from pytest_gameworld.endpoint.script import load_script

    blocks = re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "serve.md").read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    for i, block in enumerate(blocks):
        path = tmp_path / f"example{i}.yaml"
        path.write_text(block, encoding="utf-8")
        assert load_script(path).entries, f"docs/serve.md's example {i} is an empty script"
