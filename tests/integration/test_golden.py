"""Goldens (play/golden.py) through real Chromium: the same files give the same golden, a changed rule does not,
and a re-stamp carries figures only across the first."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir
from pytest_gameworld.play import golden
from pytest_gameworld.records import baselines
from pytest_gameworld.records.restamp import read_goldens, restamp
from pytest_gameworld.records.run_record import RunRecord
from pytest_gameworld.records.sessions import task_versions

pytestmark = pytest.mark.asyncio(loop_scope="session")
TASK = "05_01"  # breakout: loads the shared shell, seeded, both keys and the oracle's handles
STEPS = 8


def copy_catalog(dst: Path, edit: tuple[str, str] | None = None) -> Path:
    shutil.copytree(default_catalog_dir(), dst, ignore=shutil.ignore_patterns("baselines.json"))
    if edit is not None:
        game = dst / "games" / "05-breakout" / "game.js"
        text = game.read_text()
        assert edit[0] in text
        game.write_text(text.replace(edit[0], edit[1], 1))
    return dst


async def goldens_of(browser, root: Path) -> tuple[golden.Golden, str]:
    cat = load_catalog(root)
    task = next(t for t in cat.tasks if t.id == TASK)
    version = task_versions(cat)[TASK]
    return await golden.record_task(browser, GameFiles(cat.games_dir), cat, task, version, STEPS, golden.SEED), version


async def test_a_comment_keeps_the_golden_a_rule_changes_it_and_only_the_first_is_restamped(browser, tmp_path):
    base, v_base = await goldens_of(browser, copy_catalog(tmp_path / "base"))
    assert not base.error and len(base.states) == len(base.frames) == STEPS
    comment, v_comment = await goldens_of(browser, copy_catalog(tmp_path / "comment", ("// px/s while", "// px/s (a comment) while")))
    rule, v_rule = await goldens_of(browser, copy_catalog(tmp_path / "rule", ("PADDLE_SPEED = 500;", "PADDLE_SPEED = 510;")))
    assert v_comment != v_base and v_rule != v_base  # both files changed: both tasks are stale
    assert comment.digest == base.digest and comment.first_difference(base) is None
    assert rule.digest != base.digest and rule.first_difference(base) is not None

    # The figures were "made" on base; each changed copy asks for a re-stamp with the goldens written to files.
    made = RunRecord.from_json({"item": "i", "task": TASK, "game": "05-breakout", "genre": "arcade", "level": 1,
                                "model": "random", "interface": "generalist", "role": "player", "repeat": 0,
                                "seed": 0, "protocol": "paused", "started_at": "2026-12-03T00:00:00+00:00",
                                "success": False, "progress": 0.25, "status": "ok", "error": None})
    figures = baselines.compute({"random": [made]}, "cv", {}, {TASK: v_base})
    golden.write({TASK: base}, tmp_path / "from.jsonl")
    for now, version, expect in ((comment, v_comment, [TASK]), (rule, v_rule, [])):
        golden.write({TASK: now}, tmp_path / "now.jsonl")
        line = json.loads((tmp_path / "now.jsonl").read_text())
        assert line["version"] == version and len(line["states"]) == STEPS
        r = restamp(figures, {TASK: version}, read_goldens(tmp_path / "from.jsonl"),
                    read_goldens(tmp_path / "now.jsonl"), "cv2")
        assert r.restamped == expect
        assert r.baselines.tasks[TASK].version == (version if expect else v_base)
        assert r.baselines.tasks[TASK].rates == figures.tasks[TASK].rates
