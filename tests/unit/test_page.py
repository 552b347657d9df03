"""The results page and the viewer's data, built from records without a browser."""

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld import cli
from pytest_gameworld.plugin.options import Settings
from pytest_gameworld.report.results_page import page_data, reference_rows, render, write_results_page
from pytest_gameworld.report.run_viewer import describe_action, read_viewer_data, safe_json, viewer_data, write_viewer


def rec(model, task, progress, repeat=0, status="ok", game="01-2048", genre="puzzle", level=4, error=None):
    item = f"{genre}/{game}/{task}[{model}-r{repeat}]"
    return record(**{"item": item, "task": task, "game": game, "genre": genre, "level": level, "model": model,
            "interface": "generalist", "protocol": "paused", "seed": 1, "repeat": repeat, "status": status,
            "success": progress >= 1.0, "progress": progress, "valid": 9, "invalid_ntc": 1, "invalid_oos": 0,
            "steps": 10, "episodes": 1, "sec_per_step": 0.2, "tokens_in": 1000, "tokens_out": 50, "cost_usd": 0.01,
            "catalog_version": "abc", "max_steps": 10, "stop_reason": "max_steps", "error": error,
            "trajectory": f"runs/{genre}/{game}/{task}/{model}-r{repeat}/attempt-1/steps.jsonl", "role": "player",
            "started_at": "2025-01-01T00:00:00.000+00:00"})


RECORDS = [rec("m1", "01_01", 1.0, 0), rec("m1", "01_01", 0.5, 1), rec("m2", "01_01", 0.2, 0),
           rec("m2", "01_01", 0.0, 1), rec("m1", "13_01", 0.4, 0, game="13-flappy-bird", genre="runner", level=2),
           rec("m2", "13_01", 0.0, 0, status="error", game="13-flappy-bird", genre="runner", level=2,
               error="HarnessError: 13-flappy-bird: JS error: <b>boom</b>")]
BASELINES = {"01_01": {"random": {"sr": 0.0, "pg": 10.0}, "oracle": {"sr": 100.0, "pg": 100.0}},
             "13_01": {"random": {"sr": 60.0, "pg": 70.0}, "oracle": {"sr": 100.0, "pg": 100.0}}}


def test_page_data_has_normalized_elo_spreads_and_missing():
    d = page_data("s", RECORDS, BASELINES)
    assert set(d.summaries) == {"m1", "m2"}
    assert d.missing == ["runner/13-flappy-bird/13_01[m2-r0]: HarnessError: 13-flappy-bird: JS error: <b>boom</b>"]
    assert d.elo["m1"] > d.elo["m2"], "m1 beats m2 on both shared (task, repeat) pairs"
    # m1: PG per task 01_01 = 75, 13_01 = 40 -> 57.5; random 40, oracle 100 over the same tasks -> 29.2 %
    assert d.normalized["m1"] == pytest.approx(100 * (57.5 - 40) / 60)
    assert d.spreads["m1"]["pg"] is not None and d.spreads["m1"]["pg"].n == 2
    assert d.games["m1"] == {"01-2048": 75.0, "13-flappy-bird": 40.0}


def test_page_shows_tables_reference_rows_links_and_escapes():
    page = render(page_data("s<1>", RECORDS, BASELINES), "now")
    assert "<b>boom</b>" not in page and "&lt;b&gt;boom&lt;/b&gt;" in page, "errors are escaped"
    assert "s&lt;1&gt;" in page and "<script" not in page
    for r in reference_rows()["rows"]:
        assert r["agent"] in page
    assert page.count('class="ref"') == len(reference_rows()["rows"]) and "published" in page
    assert page.count(">viewer</a>") == 6, "every run, scored or missing, links its viewer"
    assert 'href="runs/puzzle/01-2048/01_01/m1-r0/attempt-1/viewer.html"' in page
    assert "87.5 / 87.5" not in page and "50.0 / 75.0" in page, "m1 on puzzle: SR 50, PG 75"
    assert "floor" in page, "13_01 is a floor task (random SR 60 %)"
    assert "Content-Security-Policy" in page
    assert page.count("<svg") == 2, "heatmap and level chart drawn"


def test_page_without_baselines_says_so_and_one_model_has_no_elo():
    d = page_data("s", [r for r in RECORDS if r.model == "m1"], None)
    page = render(d, "now")
    assert d.elo == {} and "no baselines" in page and "No baselines" in page


def test_page_refuses_mixed_catalog_versions_in_one_line():
    mixed = RECORDS[:1] + [replace(RECORDS[2], catalog_version="zzz")]
    page = render(page_data("s", mixed, None), "now")
    assert "different catalog versions" in page


def _session(tmp_path: Path) -> Path:
    session = tmp_path / "sess"
    for r in RECORDS:
        run = session / Path(r.trajectory).parent
        run.mkdir(parents=True)
        (run / "steps.jsonl").write_text("\n".join(json.dumps(x) for x in [
            {"event": "start", "item": r.item, "model": r.model, "role": "player"},
            {"event": "step", "step": 0, "episode": 1, "score": 2, "best": 2, "progress": r.progress,
             "verdict": {"validity": "valid", "action": {"kind": "wait", "duration_ms": 200}},
             "reply": {"text": "</script><script>alert(1)</script>", "reasoning": "", "raw": None}},
            {"event": "end", "status": r.status, "error": r.error}]) + "\n")
    (session / "results.jsonl").write_text("".join(json.dumps(r.to_json()) + "\n" for r in RECORDS))
    return session


def test_report_html_writes_the_page_and_missing_viewers(tmp_path: Path, capsys):
    session = _session(tmp_path)
    assert cli.main(["report", str(session), "--html"]) == 0
    assert "results page:" in capsys.readouterr().err
    page = (session / "index.html").read_text()
    assert "GameWorld results" in page
    viewers = sorted(session.rglob("viewer.html"))
    assert len(viewers) == 6
    text = viewers[0].read_text()
    assert "</script><script>alert" not in text and "<script>alert" not in text
    hostile = read_viewer_data(text)["steps"][0]["turns"][0]["text"]
    assert hostile == "</script><script>alert(1)</script>", "the reply reaches the page whole, as data"
    assert '<a href="../../../../../../index.html">' in text, "the viewer links back to the results page"


def test_write_results_page_in_the_session_folder(tmp_path: Path):
    session = _session(tmp_path)
    path = write_results_page(session, tmp_path)  # a catalog folder without baselines
    assert path == session / "index.html" and "No baselines" in path.read_text()


def test_safe_json_cannot_close_its_script_element():
    text = safe_json({"t": "</script><img src=x onerror=alert(1)>&\u2028"})
    assert not re.search(r"[<>&\u2028]", text)
    assert json.loads(text) == {"t": "</script><img src=x onerror=alert(1)>&\u2028"}


def test_viewer_data_per_role_and_episodes():
    lines = [{"event": "start", "item": "i", "role": "p"},
             {"event": "step", "step": 0, "episode": 1, "score": 1, "progress": 0.1, "frame": "frames/0000.jpg",
              "roles": {"fire": {"verdict": {"validity": "oos", "reason": "no such control"}, "reply": {"raw": {"x": 1}}},
                        "water": {"verdict": {"validity": "valid", "action": {"kind": "press_key", "keys": [" "],
                                                                              "duration_ms": 100}}}}},
             {"event": "end", "status": "ok", "success": False, "progress": 0.1}]
    d = viewer_data(lines, {"frames/0000.jpg": "data:image/jpeg;base64,AA=="})
    step = d["steps"][0]
    assert [t["role"] for t in step["turns"]] == ["fire", "water"]
    assert step["turns"][0]["reason"] == "no such control" and '"x": 1' in step["turns"][0]["raw"]
    assert step["turns"][1]["action"] == "press_key Space · 100 ms"
    assert d["frames"][step["frame"]].startswith("data:image/jpeg")


def test_describe_action():
    assert describe_action({"kind": "click", "x": 3, "y": 4, "button": "right", "duration_ms": 50}) == \
        "click at (3, 4) right button · 50 ms"
    assert describe_action(None) == "none"


def test_frames_default_compact_for_provider_models_only():
    assert Settings().frames_for(provider=True) == (True, True)
    assert Settings().frames_for(provider=False)[0] is False
    assert Settings(keep_frames=True).frames_for(provider=False) == (True, False)
    assert Settings(no_frames=True).frames_for(provider=True)[0] is False


def test_viewer_inlines_compact_frames(tmp_path: Path):
    from io import BytesIO

    from PIL import Image

    from pytest_gameworld.records.frames import frame_name, write_frame

    buf = BytesIO()
    Image.new("RGB", (1280, 720), "red").save(buf, "PNG")
    name = frame_name(0, "png", compact=True)
    write_frame(tmp_path / name, buf.getvalue(), compact=True)  # at the size the model saw
    write_frame(tmp_path / "frames" / "small.webp", buf.getvalue(), compact=True, width=640)
    with Image.open(tmp_path / name) as img, Image.open(tmp_path / "frames" / "small.webp") as small:
        assert (img.format, img.size, small.size) == ("WEBP", (1280, 720), (640, 360))
    write_frame(tmp_path / frame_name(1, "png", compact=False), buf.getvalue(), compact=False)
    assert (tmp_path / "frames" / "0001.png").read_bytes() == buf.getvalue()  # as taken: the very bytes
    (tmp_path / "steps.jsonl").write_text(json.dumps({"event": "step", "step": 0, "episode": 1, "progress": 0,
                                                      "frame": name}) + "\n")
    frames = read_viewer_data(write_viewer(tmp_path).read_text())["frames"]
    assert frames[name].startswith("data:image/webp;base64,"), "a short run's viewer is one file"


def test_keep_and_no_frames_contradict_unless_the_command_line_decides(pytester):
    pytester.makeini("[pytest]\ngw_keep_frames = true\n")
    config = pytester.parseconfig("--gw-no-frames")
    s = Settings.from_config(config)
    assert (s.keep_frames, s.no_frames) == (False, True)
    with pytest.raises(ValueError, match="contradict"):
        Settings.from_config(pytester.parseconfig("--gw-no-frames", "--gw-keep-frames"))


def test_the_page_and_report_show_how_well_each_task_separates_skill(tmp_path: Path, capsys):
    """A ladder file (01_01) beside a format-1 entry (13_01): the spread and flags, or "—" and never 0."""
    from pytest_gameworld.records import baselines as bl

    ladder = {a: {"sr": 0.0, "pg": pg, "runs": 10, "pg_ci": [pg - 2, pg + 2]}
              for a, pg in zip(bl.LADDER, (10.0, 30.0, 50.0, 80.0, 100.0))}
    ladder["oracle"] = {"sr": 100.0, "pg": 100.0, "runs": 1, "steps": 31}
    file = tmp_path / "b.json"
    file.write_text(json.dumps({"format": 2, "catalog_version": "abc", "tasks": {
        "01_01": {"game": "01-2048", **ladder},
        "13_01": {"game": "13-flappy-bird", "random": {"sr": 60.0, "pg": 70.0, "runs": 5},
                  "oracle": {"sr": 100.0, "pg": 100.0, "runs": 1}}}}))
    session = _session(tmp_path)
    assert cli.main(["report", str(session), "--html", "--baselines", str(file)]) == 0
    out = capsys.readouterr().out
    assert "separation over 2 task(s)" in out and "of 1 with every rung: 1 strictly monotone" in out and "01_01 +40.0" in out
    page = (session / "index.html").read_text()
    assert "how well this task separates skill" in page
    assert '<td class="sep">spread +40.0; monotone</td>' in page
    assert '<td class="sep">spread — (not yet calibrated)' in page and "spread +0.0" not in page


def test_the_page_shows_the_best_trivial_policy_its_flag_and_says_what_the_normalized_zero_is(tmp_path: Path, capsys):
    from pytest_gameworld.records import baselines as bl

    ladder = {a: {"sr": 0.0, "pg": pg, "runs": 10, "pg_ci": [pg - 2, pg + 2]}
              for a, pg in zip(bl.LADDER, (10.0, 30.0, 50.0, 80.0, 100.0))}
    ladder["oracle"] = {"sr": 100.0, "pg": 100.0, "runs": 1, "steps": 31}
    trivial = {"best": "const:move_up", "policies": {"const:move_up": {"sr": 20.0, "pg": 60.0, "runs": 10},
                                                     "noop": {"sr": 0.0, "pg": 0.0, "runs": 10}}}
    file = tmp_path / "b.json"
    file.write_text(json.dumps({"format": 2, "catalog_version": "abc", "tasks": {
        "01_01": {"game": "01-2048", **ladder, "trivial": trivial}}}))
    session = _session(tmp_path)
    assert cli.main(["report", str(session), "--html", "--baselines", str(file)]) == 0
    out = capsys.readouterr().out
    assert "trivial (best trivial policy PG >= 50 or >= random + 10): 1 of 1: 01_01" in out
    page = (session / "index.html").read_text()
    assert "<td>const:move_up: 20.0 / 60.0</td>" in page and "trivial (const:move_up PG 60)" in page
    assert "zero is the higher of random's PG and the best trivial policy's" in " ".join(page.split())


def test_a_model_whose_runs_all_faulted_shows_n_a_never_zero(tmp_path: Path):
    """Issue 37 item 10: no scored run means no figure, on the summary, the results page and `gameworld view`."""
    from pytest_gameworld.report.aggregate import aggregate, format_table
    from pytest_gameworld.report.session_index import session_row
    from pytest_gameworld.report.summary_formats import summary_json

    faulted = [rec("bad", t, 0.0, status="error", error="HarnessError: boom") for t in ("01_01", "01_02")]
    records = RECORDS[:1] + faulted
    row = next(r for r in format_table(aggregate(records)) if r.startswith("bad"))
    assert row.split()[3:] == ["n/a", "n/a", "0", "+2", "missing", "n/a", "n/a", "n/a", "n/a"], row
    data = page_data("s", records, None)
    page = render(data, "now")
    bad_rows = [r for r in page.split("<tr>") if r.startswith("<td>bad")]
    assert len(bad_rows) >= 2 and all("0.0 /" not in r and "0.000" not in r and "0.0000" not in r for r in bad_rows)
    assert sum("n/a" in r for r in bad_rows) >= 2, bad_rows  # Table 6 and the per-model table (levels: –)
    index = session_row("s", data, records, None, tmp_path)
    assert {m["model"]: (m["sr"], m["pg"]) for m in index["models"]}["bad"] == (None, None)
    assert summary_json(aggregate(records)["bad"])["sr"] is None


@pytest.mark.parametrize("share, shown", [(0.125, 13), (0.124, 12), (0.285, 28), (0.5, 50), (0.005, 1), (1.0, 100)])
def test_one_rounding_for_every_pg_badge(share, shown):
    """12.5 % is 13 % on the terminal, the results page and the viewer (JS Math.floor(100 * v + 0.5) computes the
    same doubles as whole_percent, which rounds halves up where Python's format would round to even)."""
    from pytest_gameworld.report.aggregate import whole_percent
    from pytest_gameworld.report.viewer_script import SCRIPT

    assert whole_percent(share) == shown
    assert "Math.floor(100 * v + 0.5)" in SCRIPT
    page = render(page_data("s", [rec("m1", "01_01", share)], None), "now")
    assert f"PG {shown} %" in page or share >= 1.0
