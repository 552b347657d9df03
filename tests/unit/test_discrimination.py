"""How well a task separates skill, from the ladder's baselines: spread, monotone ladder, floor, flat, inverted."""

from __future__ import annotations

from pytest_gameworld.records.baselines import LADDER, Baselines, Rate, TaskBaseline, t_interval
from pytest_gameworld.report import discrimination as d


def rate(pg: float, sr: float = 0.0, runs: int = 10, spread: float = 2.0) -> Rate:
    """A rung's figures; its PG interval ± spread points (as a t-interval over 10 runs would give)."""
    return Rate(sr, pg, runs, 0, (max(0.0, pg - spread), min(100.0, pg + spread)) if runs > 1 else None)


def ladder(pgs: tuple[float, ...], **random_kw) -> dict[str, Rate]:
    rates = {a: rate(p) for a, p in zip(LADDER, pgs)}
    rates["random"] = rate(pgs[0], **random_kw)
    rates["oracle"] = Rate(100.0, pgs[-1], 1, 0, None, 30.0)
    return rates


def catalog(**tasks: dict[str, Rate]) -> Baselines:
    return Baselines("v", {t: TaskBaseline(t, "g-" + t[:2], r, "x") for t, r in tasks.items()})


def test_spread_monotone_and_no_flags_on_a_task_that_climbs():
    x = d.separation(catalog(a_01=ladder((5, 20, 40, 70, 100))))["a_01"]
    assert (x.spread, x.ladder_spread, x.monotone, x.floor, x.flat, x.inverted_over) == (35.0, 95.0, True, False,
                                                                                         False, ())
    assert x.flags == [] and x.cell() == "spread +35.0; monotone"


def test_a_dip_along_the_ladder_is_not_monotone_and_ties_are():
    seps = d.separation(catalog(a_01=ladder((5, 30, 25, 70, 100)), b_01=ladder((0, 0, 100, 100, 100))))
    assert seps["a_01"].monotone is False and "not monotone" in seps["a_01"].flags
    assert seps["b_01"].monotone is True


def test_floor_needs_randoms_whole_interval_above_half():
    # 9 of 10 solved: Wilson (59.6, 98.2) lies above 50; 6 of 10: (31.3, 83.2) does not; 2 of 2: (34.2, 100) does not
    seps = d.separation(catalog(a_01=ladder((90, 95, 97, 99, 100), sr=90.0),
                                b_01=ladder((60, 80, 90, 95, 100), sr=60.0),
                                c_01=ladder((60, 80, 90, 95, 100), sr=100.0, runs=2)))
    assert [seps[t].floor for t in ("a_01", "b_01", "c_01")] == [True, False, False]
    assert "floor not established (random SR 100 %, 95 % interval from 34 %)" in seps["c_01"].cell()
    assert "floor not established" not in seps["a_01"].cell() and "floor" in seps["a_01"].flags
    assert seps["a_01"].ladder_spread == 10.0 and seps["a_01"].flat is False  # exactly 10 points is not flat


def test_flat_is_a_ladder_spread_under_ten_points():
    seps = d.separation(catalog(a_01=ladder((50, 52, 55, 57, 59.9)), b_01=ladder((50, 52, 55, 57, 60))))
    assert seps["a_01"].flat is True and seps["b_01"].flat is False


def test_a_higher_level_easier_than_a_lower_one_beyond_the_intervals_is_inverted():
    seps = d.separation(catalog(g1_01=ladder((0, 10, 30, 60, 100)), g1_02=ladder((0, 10, 60, 80, 100)),
                                g1_03=ladder((0, 10, 33, 60, 100)), g2_01=ladder((0, 10, 10, 60, 100))))
    assert seps["g1_02"].inverted_over == ("g1_01",)  # 60 ± 2 wholly above 30 ± 2
    assert seps["g1_03"].inverted_over == ()  # 33 ± 2 overlaps 30 ± 2: within the intervals, not flagged
    assert seps["g1_01"].inverted_over == () and seps["g2_01"].inverted_over == ()  # other game: not compared
    assert "inverted (easier than g1_01)" in seps["g1_02"].cell()
    assert d.summarize(seps.values()).inverted == ["g1_02"]


def test_a_task_without_ladder_figures_shows_a_dash_never_zero():
    old = catalog(a_01={"random": Rate(20.0, 30.0, 5), "oracle": Rate(100.0, 100.0, 1)}, b_01={})
    seps = d.separation(old)
    assert seps["b_01"].cell() == "—"
    a = seps["a_01"]
    assert (a.spread, a.monotone, a.ladder_spread, a.floor) == (None, None, 70.0, False)
    assert a.cell().startswith("spread — (not yet calibrated)")
    table = "\n".join(d.markdown_table(old))
    assert "| a_01 | 5 | 20 (4–62) | 30.0 | — | — | — | 100.0 | — | — |" in table and " 0.0 " not in table
    assert "| b_01 | — | — | — | — | — | — | — | — | — |" in table
    lines = d.summarize(seps.values()).lines()
    assert "not yet calibrated" in lines[1]


def test_the_summary_counts_and_lists_the_worst_spreads():
    seps = d.separation(catalog(a_01=ladder((5, 20, 40, 70, 100)), b_01=ladder((50, 52, 55, 57, 59)),
                                c_01=ladder((92, 95, 97, 99, 100), sr=100.0)))
    s = d.summarize(seps.values(), worst=2)
    assert (s.tasks, s.with_ladder, s.floor, s.flat, s.monotone) == (3, 3, ["c_01"], ["b_01", "c_01"],
                                                                     ["a_01", "b_01", "c_01"])
    assert s.worst == [("b_01", 5.0), ("c_01", 5.0)]
    lines = s.lines()
    assert "1 floor" in lines[0] and "3 strictly monotone" in lines[1] and "3 with ties" in lines[1]
    assert "0 by interval" in lines[2] and "trivial" in lines[3] and "not yet calibrated" in lines[3]
    assert "b_01 +5.0" in lines[4]


def test_strict_monotone_refuses_ties_below_100_and_allows_them_at_100():
    seps = d.separation(catalog(a_01=ladder((0, 0, 100, 100, 100)), b_01=ladder((0, 10, 100, 100, 100)),
                                c_01=ladder((5, 20, 40, 70, 100))))
    assert (seps["a_01"].monotone, seps["a_01"].monotone_strict) == (True, False)  # 0 = 0 short of 100
    assert (seps["b_01"].monotone, seps["b_01"].monotone_strict) == (True, True)  # ties only at 100
    assert "monotone with ties" in seps["a_01"].cell() and seps["b_01"].cell().endswith("; monotone")
    s = d.summarize(seps.values())
    assert (s.monotone, s.monotone_strict) == (["a_01", "b_01", "c_01"], ["b_01", "c_01"])


def test_inverted_by_point_needs_more_than_five_points_and_the_interval_rule_stays():
    # 30 ± 4 then 36 ± 4: intervals overlap (not inverted by interval), points 6 apart (inverted by point);
    # 35 is exactly 5 above 30: not inverted by point
    seps = d.separation(catalog(g1_01={"random": rate(0.0), "oracle@0.5": rate(30.0, spread=4)},
                                g1_02={"random": rate(0.0), "oracle@0.5": rate(36.0, spread=4)},
                                g1_03={"random": rate(0.0), "oracle@0.5": rate(35.0, spread=0.5)}))
    assert seps["g1_02"].inverted_over == () and seps["g1_02"].inverted_point == ("g1_01",)
    assert seps["g1_03"].inverted_point == ()
    assert "inverted by point (easier than g1_01)" in seps["g1_02"].cell()
    assert d.summarize(seps.values()).inverted_point == ["g1_02"]


def test_trivial_flag_at_pg_50_or_random_plus_10():
    from pytest_gameworld.records.baselines import Trivial

    def with_trivial(pg: float, random_pg: float) -> TaskBaseline:
        return TaskBaseline("t", "g", {"random": rate(random_pg)}, "x", Trivial("const:jump", {"const:jump": rate(pg)}))

    b = Baselines("v", {"a_01": with_trivial(50.0, 45.0), "b_01": with_trivial(29.9, 20.0),
                        "c_01": with_trivial(30.0, 20.0), "d_01": with_trivial(49.0, 45.0)})
    seps = d.separation(b)
    assert [seps[t].trivial for t in ("a_01", "b_01", "c_01", "d_01")] == [True, False, True, False]
    assert "trivial (const:jump PG 50)" in seps["a_01"].cell() and "trivial" not in seps["d_01"].flags
    assert seps["a_01"].trivial_best == "const:jump" and d.separation(catalog(e_01=ladder((1, 2, 3, 4, 5))))["e_01"].trivial is None
    s = d.summarize(seps.values())
    assert (s.trivial, s.judged_trivial) == (["a_01", "c_01"], 4)


def test_the_files_floor_is_the_interval_rule_not_the_point_estimate():
    """7 of 10 solved: SR 70 % (above half) but Wilson's lower bound 39.7 %: not a floor, in the file too."""
    from pytest_gameworld.records.baselines import parse

    b = catalog(a_01={"random": Rate(70.0, 80.0, 10), "oracle": Rate(100.0, 100.0, 1)},
                b_01={"random": Rate(90.0, 95.0, 10), "oracle": Rate(100.0, 100.0, 1)})
    data = d.baselines_json(b)
    assert (data["tasks"]["a_01"]["floor"], data["tasks"]["b_01"]["floor"]) == (False, True)
    assert d.separation(b)["a_01"].floor is False and d.floors(b) == ["b_01"]
    data["tasks"]["a_01"]["floor"] = True  # a file saying otherwise is recomputed on reading
    assert d.floors(parse(data)) == ["b_01"]


def test_intervals_from_real_repeats_feed_the_inversion_check():
    lo = Rate(0.0, 20.0, 10, 0, t_interval([20.0] * 5 + [10.0, 30.0] * 2 + [20.0]))
    hi = Rate(0.0, 80.0, 10, 0, t_interval([80.0] * 10))
    seps = d.separation(catalog(x_01={"oracle@0.5": lo}, x_02={"oracle@0.5": hi}))
    assert seps["x_02"].inverted_over == ("x_01",)


def test_docs_catalog_md_carries_the_table_of_the_shipped_baselines():
    """Regenerate with `python -m pytest_gameworld.report.discrimination docs/catalog.md` after calibrating."""
    from pathlib import Path

    from pytest_gameworld.catalog.native import default_catalog_dir
    from pytest_gameworld.records.baselines import load

    docs = Path(__file__).resolve().parents[2] / "docs" / "catalog.md"
    text = docs.read_text(encoding="utf-8")
    shipped = load(default_catalog_dir())
    assert shipped is not None and d.with_docs_section(text, shipped) == text


def test_the_docs_section_replaces_itself_and_says_what_is_not_yet_calibrated():
    old = catalog(a_01={"random": Rate(20.0, 30.0, 5), "oracle": Rate(100.0, 100.0, 1)})
    once = d.with_docs_section("# Doc\n", old)
    assert "Not yet calibrated: oracle@0.25, oracle@0.5, oracle@0.75" in once
    assert d.with_docs_section(once, old) == once
    full = catalog(a_01=ladder((5, 20, 40, 70, 100)))
    again = d.with_docs_section(once, full)
    assert again.count(d.DOCS_BEGIN) == 1 and "Not yet calibrated" not in again and "| 35.0 |" not in again
    assert "+35.0" in again


def test_the_floor_table_in_docs_names_the_shipped_floor_tasks_with_their_figures():
    """docs/catalog.md's "Tasks random play solves" is written by hand: it must follow the shipped file."""
    import re
    from pathlib import Path

    from pytest_gameworld.catalog.native import default_catalog_dir
    from pytest_gameworld.records.baselines import load

    text = (Path(__file__).resolve().parents[2] / "docs" / "catalog.md").read_text(encoding="utf-8")
    section = text.split("## Tasks random play solves", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| (\d\d_\d\d) \| [^|]+ \| ([^|]+?) \|", section, re.M))
    shipped = load(default_catalog_dir())
    assert shipped is not None and sorted(rows) == d.floors(shipped)
    for task in d.floors(shipped):
        r = shipped.tasks[task].rates["random"]
        assert rows[task] == f"{r.sr:.0f}/{r.pg:.0f} ({r.runs})", task
