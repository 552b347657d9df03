"""Under CI=true (.ci/run) a test skipped for a reason the repository does not expect fails the run."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SKIPPING = """
import pytest

def test_runs():
    pass

def test_needs_a_browser():
    pytest.skip("no Chromium to hand to the browser server")
"""


@pytest.mark.parametrize("ci, status", [("true", 1), ("", 0)])
def test_an_unexpected_skip_fails_only_under_ci(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci, status):
    pytester.makeconftest((REPO / "conftest.py").read_text())  # the repository's own conftest, as CI runs it
    pytester.makepyfile(test_skips=SKIPPING)
    monkeypatch.setenv("CI", ci)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == status, result.stdout.str()
    shown = [ln for ln in result.stdout.lines if "test_needs_a_browser: Skipped: no Chromium" in ln]
    assert len(shown) == (1 if ci else 0), result.stdout.str()


def test_ci_runs_the_suite_with_ci_set_and_skips_listed():
    script = (REPO / ".ci" / "run").read_text()
    assert "export CI=true" in script and "./gw test" in script
    assert "-rfEs" in script, "CI keeps only the output's last lines: failures, errors and skips must be named there"
