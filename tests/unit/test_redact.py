"""Secrets the harness holds are masked in records, reports and logs (records/redact.py, plugin/redaction.py)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from pytest_gameworld.agents.providers.connection import resolve
from pytest_gameworld.browser.faults import HarnessError
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.plugin.fault_report import fault_text
from pytest_gameworld.plugin.redaction import install_log_redaction, redact_report
from pytest_gameworld.records import redact
from pytest_gameworld.records.jsonl import dumps

KEY = "sk-unit-7c1e9d2b44a0"


@pytest.fixture(autouse=True)
def no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redact, "_secrets", set())


def test_remembered_secrets_are_masked_longest_first_and_short_values_are_not_secrets():
    redact.remember(KEY, KEY + "-longer", "short", None, "")
    assert redact.redact(f"a {KEY}-longer b {KEY} c short") == "a *** b *** c short"
    assert redact.redact_value({KEY: [f"x{KEY}", 3, (KEY,)]}) == {"***": ["x***", 3, ("***",)]}


def test_records_and_trajectories_are_written_masked():
    redact.remember(KEY)
    assert dumps({"error": f"HTTP 401: Incorrect API key provided: {KEY}", KEY: 1}) == \
        '{"error": "HTTP 401: Incorrect API key provided: ***", "***": 1}'


def test_the_key_a_spec_reads_is_remembered():
    spec = load_catalog().resolve_model("glm-4.6v", {"endpoint.base_url": "http://user:pa55word-xyz@127.0.0.1:9/v1"})
    resolve(spec, {"ZHIPUAI_API_KEY": KEY})
    assert redact.redact(f"{KEY} pa55word-xyz") == "*** ***"


def test_reports_faults_and_log_records_are_masked(caplog: pytest.LogCaptureFixture):
    redact.remember(KEY)
    report = SimpleNamespace(longrepr=f"Traceback ... ValueError: {KEY}", sections=[("Captured log call", KEY)],
                             user_properties=[("error", f"k={KEY}"), ("steps", 3)])
    redact_report(report)
    assert (report.longrepr, report.sections, report.user_properties) == (
        "Traceback ... ValueError: ***", [("Captured log call", "***")], [("error", "k=***"), ("steps", 3)])
    skipped = SimpleNamespace(longrepr=("f.py", 3, f"Skipped: {KEY}"), sections=[], user_properties=[])
    redact_report(skipped)
    assert skipped.longrepr == ("f.py", 3, "Skipped: ***")
    assert fault_text(HarnessError(f"page said {KEY}"), None) == "HarnessError: page said ***"
    install_log_redaction()
    with caplog.at_level(logging.INFO):
        logging.getLogger("some.sdk").info("sending with %s", KEY)
    assert caplog.records[-1].getMessage() == "sending with ***" and KEY not in caplog.text
