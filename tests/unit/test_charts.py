"""The charts are SVG the project writes: well-formed, each value where it belongs, text escaped, and drawn with
no plotting library installed (a default install)."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from pytest_gameworld.report import charts

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]


def _tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_heatmap_writes_each_cell_its_value_and_colour_and_escapes_names():
    svg = charts.heatmap(["01-2048", "<b>game</b>"], ["m1", "m&2"], [[75.0, None], [0.0, 100.0]], "h")
    root = _tree(svg)
    cells = {g.find(f"{SVG}title").text: g for g in root.iter(f"{SVG}g")}
    assert set(cells) == {"01-2048 × m1: PG 75.0 %", "01-2048 × m&2: not played", "<b>game</b> × m1: PG 0.0 %",
                          "<b>game</b> × m&2: PG 100.0 %"}
    assert cells["01-2048 × m1: PG 75.0 %"].find(f"{SVG}rect").get("fill") == charts.viridis(75.0)
    assert cells["01-2048 × m1: PG 75.0 %"].find(f"{SVG}text").text == "75"
    missing = cells["01-2048 × m&2: not played"]
    assert missing.find(f"{SVG}rect").get("fill") == charts.MISSING and missing.find(f"{SVG}text").text == "–"
    assert "<b>game</b>" not in svg and "&lt;b&gt;game&lt;/b&gt;" in svg


def test_viridis_runs_from_dark_purple_to_yellow_and_clamps():
    assert charts.viridis(0) == "#440154" and charts.viridis(100) == "#fde725"
    assert charts.viridis(-5) == charts.viridis(0) and charts.viridis(250) == charts.viridis(100)
    assert charts.viridis(50) == "#21918c"


def test_grouped_bars_heights_are_proportional_and_a_missing_level_draws_no_bar():
    svg = charts.grouped_bars(["L1", "L2"], {"m1": [50.0, 100.0], "m2": [25.0, None]}, "PG %")
    bars = {r.find(f"{SVG}title").text: float(r.get("height")) for r in _tree(svg).iter(f"{SVG}rect")
            if r.find(f"{SVG}title") is not None}
    assert set(bars) == {"m1, L1: PG % 50.0", "m1, L2: PG % 100.0", "m2, L1: PG % 25.0"}
    assert bars["m1, L2: PG % 100.0"] == 2 * bars["m1, L1: PG % 50.0"] == 4 * bars["m2, L1: PG % 25.0"]
    assert "m2, L2: not played" in svg


def test_step_chart_places_steps_where_the_viewer_marker_expects_them():
    steps = list(range(1, 11))
    progress = [10.0 * s for s in steps]
    chart = charts.step_chart(steps, progress, [float(s % 3) for s in steps], [4, 8], [2, 5])
    root = _tree(chart.svg)
    width = float(root.get("viewBox").split()[2])
    points = [tuple(map(float, p.split(","))) for p in root.find(f"{SVG}polyline").get("points").split()]
    assert len(points) == 10
    for s, (x, _) in zip(steps, points):  # the viewer puts step s at left + s / xmax * (right - left)
        assert abs(x / width - (chart.left + s / chart.xmax * (chart.right - chart.left))) < 1e-3
    ys = [y for _, y in points]
    assert ys == sorted(ys, reverse=True), "rising progress is drawn rising"
    dashed = [line for line in root.iter(f"{SVG}line") if line.get("stroke-dasharray")]
    assert len(dashed) == 2, "one dashed line per episode start"
    assert sum(1 for line in root.iter(f"{SVG}line") if line.get("stroke") == "#e08a00") == 3  # 2 ticks + legend


def test_step_chart_breaks_the_score_line_where_a_step_has_none():
    chart = charts.step_chart([1, 2, 3, 4], [0, 0, 0, 0], [1.0, None, 2.0, 2.0], [], [])
    path = _tree(chart.svg).find(f"{SVG}path").get("d")
    assert path.count("M") == 2, path


def test_ticks_are_round_and_cover_the_range():
    assert charts.ticks(0, 100) == [0, 25, 50, 75, 100]
    assert charts.ticks(0, 37, 10, integer=True) == [0, 5, 10, 15, 20, 25, 30, 35]
    assert all(float(t).is_integer() for t in charts.ticks(0, 3, 10, integer=True))


def test_the_results_page_draws_its_charts_without_any_plotting_library(tmp_path: Path):
    # A default install has no matplotlib: block it, and render the page from records.
    code = (
        "import sys; sys.modules['matplotlib'] = None; sys.modules['numpy'] = None\n"
        "sys.path.insert(0, 'tests/unit')\n"
        "from test_page import RECORDS, BASELINES\n"
        "from pytest_gameworld.report.results_page import page_data, render\n"
        "print(render(page_data('s', RECORDS, BASELINES), 'now'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert done.returncode == 0, done.stderr
    page = done.stdout
    assert page.count('<svg class="chart"') == 2, "heatmap and level chart drawn"
    assert "matplotlib" not in page
    assert re.search(r"01-2048 × m1: PG \d", page)
