"""Small things a new user hits: listings, misspelt keys, ini values, outcome letters, stray warnings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_gameworld.catalog.listing import catalog_rows
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.specs import CatalogError
from pytest_gameworld.catalog.yaml_files import load_model_file
from pytest_gameworld.plugin.hooks import pytest_report_teststatus
from pytest_gameworld.plugin.options import Settings


def test_list_games_filters_by_genre_and_level_and_counts_tasks():
    cat = load_catalog()
    rows = catalog_rows(cat, "games", genre="puzzle", level=4)
    assert rows[0][0] == "game"
    ids = [r[0] for r in rows[1:]]
    assert "01-2048" in ids and "19-minesweeper" in ids
    assert all(cat.games[i].genre == "puzzle" and cat.games[i].level == 4 for i in ids)
    assert all(r[5] == "5" for r in rows[1:])


def test_list_tasks_and_models_filter_by_text_and_interface():
    cat = load_catalog()
    tasks = catalog_rows(cat, "tasks", keywords="flappy")
    assert [r[0] for r in tasks[1:]] == [f"13-flappy-bird/13_0{i}" for i in range(1, 6)]
    both = catalog_rows(cat, "games", keywords="wordle or minesweeper")
    assert sorted(r[0] for r in both[1:]) == sorted(g for g in cat.games if "wordle" in g or "minesweeper" in g)
    assert len(both) == 3
    some = catalog_rows(cat, "tasks", keywords="puzzle and not L4 and (01 or 02)")
    assert some[1:] and all(cat.games[r[0].split("/")[0]].genre == "puzzle" for r in some[1:])
    assert all(cat.games[r[0].split("/")[0]].level != 4 for r in some[1:])
    models = catalog_rows(cat, "models", interface="cua")
    assert models[1:] and all(r[1] == "cua" for r in models[1:])
    assert "random-cua" in [r[0] for r in models[1:]] and "random" not in [r[0] for r in models[1:]]


def test_a_misspelt_model_key_names_the_key_and_suggests_the_right_one(tmp_path: Path):
    spec = tmp_path / "mine.yaml"
    spec.write_text("name: mine\ninterface: generalist\nbuiltin: random\ntemprature: 0.2\n")
    with pytest.raises(CatalogError, match=r"mine.yaml: field 'temprature'.*did you mean 'temperature'\?"):
        load_model_file(spec)
    spec.write_text("name: mine\ninterface: generalist\nbuiltin: random\nendpoint: {base_ulr: x}\n")
    with pytest.raises(CatalogError, match=r"field 'endpoint.base_ulr'.*did you mean 'base_url'\?"):
        load_model_file(spec)


def test_an_invalid_ini_value_names_the_option(pytester: pytest.Pytester):
    pytester.makeini("[pytest]\ngw_repeat = abc\n")
    config = pytester.parseconfig()
    with pytest.raises(ValueError, match=r"gw_repeat: invalid int 'abc'"):
        Settings.from_config(config)


def test_a_relative_results_folder_in_the_ini_is_relative_to_the_ini_file(pytester: pytest.Pytester,
                                                                          monkeypatch: pytest.MonkeyPatch):
    pytester.makeini("[pytest]\ngw_results = out/reports\n")
    elsewhere = pytester.mkdir("elsewhere")
    monkeypatch.chdir(elsewhere)
    config = pytester.parseconfig(f"--rootdir={pytester.path}", "-c", str(pytester.path / "tox.ini"))
    assert Settings.from_config(config).results == pytester.path / "out" / "reports"
    assert Settings.from_config(pytester.parseconfig(f"--rootdir={pytester.path}", "-c",
                                                     str(pytester.path / "tox.ini"), "--gw-results", "x")).results \
        == Path("x"), "the command line stays relative to where pytest runs"


def _report(success: bool, progress: float) -> SimpleNamespace:
    return SimpleNamespace(when="call", passed=True, user_properties=[("success", success), ("progress", progress)])


def test_a_solved_run_is_not_lettered_like_a_skip():
    solved = pytest_report_teststatus(_report(True, 1.0), None)
    assert solved[1] not in ("s", "S", ".", "F", "E", "x", "X") and solved[2][0] == "SOLVED"
    assert pytest_report_teststatus(_report(False, 0.42), None)[2][0] == "PG 42%"


def test_a_project_with_only_the_plugin_gets_no_asyncio_loop_scope_warning(tmp_path: Path):
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    pass\n")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "gameworld" in subprocess.run([sys.executable, "-m", "pytest", "--help"], cwd=tmp_path,
                                         capture_output=True, text=True, timeout=120).stdout.lower()
    assert "asyncio_default_fixture_loop_scope" not in out.stdout + out.stderr


def test_a_listing_piped_into_a_reader_that_has_gone_ends_quietly():
    # The reader is gone before the first write: every write fails, as at the end of `| head`.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-c", "import sys; from pytest_gameworld.cli import main; sys.exit(main())",
                               "list", "tasks"], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr, proc.stderr
    assert proc.returncode == 141


@pytest.mark.parametrize("expr", ["wordle", "wordle or minesweeper", "puzzle and not L4", "not (runner or L1)",
                                  "13_0 and not 13_05", "game_2048", "(a or b) and (c or not d)", "L2 and L3"])
def test_list_k_is_pytests_own_keyword_expression(expr):
    from _pytest.mark.expression import Expression

    from pytest_gameworld.catalog.keywords import compile_keywords
    from pytest_gameworld.catalog.run_cases import game_mark

    ours = compile_keywords(expr)
    theirs = Expression.compile(expr)
    cat = load_catalog()
    for task in cat.tasks:
        game = cat.games[task.game]
        names = [task.id, game.id, game.genre, f"L{game.level}", game_mark(game)]
        lowered = [n.lower() for n in names]
        assert ours(names) == theirs.evaluate(lambda sub, *_, lowered=lowered: any(sub.lower() in n for n in lowered)), (expr, names)


@pytest.mark.parametrize("argv, message", [
    (["list", "--genre", "puzzel"], "gameworld list: --genre 'puzzel' is no genre (arcade, platformer, puzzle, runner, "
                                    "simulation); did you mean 'puzzle'?"),
    (["list", "--level", "7"], "gameworld list: --level 7 is no curriculum level (L1 to L5)"),
    (["list", "models", "--interface", "cau"], "gameworld list: --interface 'cau' is no interface (generalist, cua); "
                                               "did you mean 'cua'?"),
    (["list", "-k", "wordle or"], "gameworld list: -k 'wordle or': the expression ends too early"),
    (["list", "-k", "(wordle"], "gameworld list: -k '(wordle': the expression ends too early"),
    (["list", "-k", "wordle minesweeper"], "gameworld list: -k 'wordle minesweeper': unexpected 'minesweeper'"),
])
def test_list_refuses_unknown_filters_in_one_line_with_exit_4(capsys, argv, message):
    from pytest_gameworld.cli import main

    assert main(argv) == 4
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [message]


@pytest.mark.parametrize("level", ["L4", "4", "l4"])
def test_list_takes_a_level_as_the_catalog_writes_it(capsys, level):
    """Issue 37 item 10: L4 is the notation of markers, gate scopes and tables, so --level takes it."""
    from pytest_gameworld.cli import main

    assert main(["list", "games", "--level", level]) == 0
    rows = capsys.readouterr().out.splitlines()
    games = [r for r in rows[1:-1] if r.strip() and not r.startswith("-")]
    assert games and all(" L4 " in r for r in games), rows


@pytest.mark.parametrize("argv, message", [
    (["calibrate", "-k", "wordle or"], "gameworld calibrate: -k 'wordle or': the expression ends too early"),
    (["calibrate", "--repeat", "0"], "gameworld calibrate: --repeat must be at least 1"),
    (["calibrate", "-n", "-1"], "gameworld calibrate: -n must be at least 0"),
    (["calibrate", "--agents", "random,oracle@0.3"], "gameworld calibrate: --agents: oracle@0.3 not on the ladder "
                                                     "(random, oracle@0.25, oracle@0.5, oracle@0.75, oracle) nor trivial"),
    (["calibrate", "--agents", "trivial", "--no-trivial"],
     "gameworld calibrate: --agents trivial and --no-trivial contradict each other"),
    (["calibrate", "--agents", " , "], "gameworld calibrate: --agents names no agent"),
])
def test_calibrate_refuses_a_bad_expression_or_count_before_playing(tmp_path, monkeypatch, capsys, argv, message):
    from pytest_gameworld.cli import main

    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--out", "b.json"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [message] and not list(tmp_path.iterdir())
