"""Re-stamping baselines from goldens: figures carried to the current version only where play is proven equal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld.records import baselines
from pytest_gameworld.records.restamp import GoldenFileError, read_goldens, restamp


def made(versions: dict[str, str]) -> baselines.Baselines:
    runs = {"random": [], "oracle": []}  # type: dict[str, list[RunRecord]]
    for t in versions:
        for agent, success in (("random", False), ("oracle", True)):
            runs[agent].append(record(**{"item": f"{t}[{agent}]", "task": t, "game": "g", "model": agent, "repeat": 0,
                                "seed": 0, "protocol": "paused", "success": success, "progress": 0.5,
                                "status": "ok", "error": None}))
    return baselines.compute(runs, "cv-old", {"command": "test"}, versions)


def golden_file(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps({"error": "", **line}) + "\n" for line in lines))
    return path


def test_only_tasks_whose_goldens_agree_on_the_right_versions_are_restamped(tmp_path: Path):
    b = made({t: "v1" for t in "abcdefg"} | {"h": "same"})
    current = {**{t: "v2" for t in "abcdefg"}, "h": "same"}  # h is not stale: left alone
    was = read_goldens(golden_file(tmp_path / "was.jsonl", [
        {"task": "a", "version": "v1", "digest": "d"},
        {"task": "b", "version": "v1", "digest": "d"},      # NOW differs
        {"task": "c", "version": "v0", "digest": "d"},      # FROM recorded on other files than the figures
        {"task": "d", "version": "v1", "digest": "d"},      # NOW recorded on other files than the current ones
        {"task": "e", "version": "v1", "digest": "", "error": "PageUnresponsive: boom"},
        {"task": "g", "version": "v1", "digest": "d"}]))    # f: no FROM golden; g: not selected
    now = read_goldens(golden_file(tmp_path / "now.jsonl", [
        {"task": t, "version": "v2", "digest": "d"} for t in "acefg"] + [
        {"task": "b", "version": "v2", "digest": "x"}, {"task": "d", "version": "v9", "digest": "d"}]))
    r = restamp(b, current, was, now, "cv-new", selected=set("abcdefh"))
    assert r.restamped == ["a"]
    assert sorted(r.kept) == ["b", "c", "d", "e", "f"]
    assert "differ" in r.kept["b"] and "v0" in r.kept["c"] and "v9" in r.kept["d"]
    assert "boom" in r.kept["e"] and r.kept["f"] == "no FROM golden"
    out = r.baselines
    assert out.tasks["a"].version == "v2" and out.tasks["a"].rates == b.tasks["a"].rates  # figures kept
    assert {t: out.tasks[t].version for t in "bcdefgh"} == {**{t: "v1" for t in "bcdefg"}, "h": "same"}
    assert out.stale(current) == list("bcdefg")
    assert out.catalog_version == "cv-new" and out.made["restamps"][0]["tasks"] == 1
    assert out.made["command"] == "test"  # the calibration's own provenance stays


def test_nothing_restamped_leaves_the_baselines_as_they_were(tmp_path: Path):
    b = made({"a": "v1"})
    empty = read_goldens(golden_file(tmp_path / "g.jsonl", []))
    r = restamp(b, {"a": "v2"}, empty, empty, "cv-new")
    assert r.restamped == [] and r.baselines is b and r.kept == {"a": "no FROM golden"}


@pytest.mark.parametrize("text, why", [
    ('{"task": "a", "version": "v", "digest": "d", "error": ""}\n{"task": "a"', "2: not JSON"),
    ('{"task": "a", "version": 3, "digest": "d", "error": ""}\n', "1: expected an object"),
    ('{"task": "a", "version": "v", "digest": "d", "error": ""}\n' * 2, "2: task a again (first at"),
])
def test_a_damaged_golden_file_is_one_error_naming_its_line(tmp_path: Path, text: str, why: str):
    path = tmp_path / "g.jsonl"
    path.write_text(text)
    with pytest.raises(GoldenFileError, match=f"^{re.escape(f'{path}:{why}')}"):
        read_goldens(path)
