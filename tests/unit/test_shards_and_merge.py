"""Shards, endpoint choice, merging shard sessions and the games' origin, without a browser."""

import random
from collections import Counter
from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.remote import launch_options, pick_endpoint, worker_index
from pytest_gameworld.records.jsonl import read_jsonl
from pytest_gameworld.records.merge import Merged, Source, merge, refusal, write_merged
from pytest_gameworld.records.shards import build_plan, deal, parse_shard, plan_id


def runs(games=7, tasks=5, models=("a", "b"), repeats=3):
    return [{"item": f"{g}/{t}[{m}-r{r}]", "game": f"{g:02d}-g", "task": f"{g:02d}_{t}", "model": m, "repeat": r,
             "seed": g * 1000 + t * 10 + r, "protocol": "paused", "interface": "generalist"}
            for g in range(games) for t in range(tasks) for m in models for r in range(repeats)]


@pytest.mark.parametrize("text,expected", [("1/1", (1, 1)), ("2/4", (2, 4)), (" 3 / 8 ", (3, 8)), ("", None)])
def test_shard_specs_parse(text, expected):
    assert parse_shard(text) == expected


@pytest.mark.parametrize("text", ["0/4", "5/4", "2", "a/b", "1/0", "-1/2", "1/2/3"])
def test_bad_shard_specs_name_the_option(text):
    with pytest.raises(ValueError, match=r"--gw-shard expects K/N"):
        parse_shard(text)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
def test_every_run_is_in_exactly_one_shard_and_shards_are_balanced(n):
    all_runs = runs()
    shards = [deal(all_runs, k, n) for k in range(1, n + 1)]
    items = [r["item"] for s in shards for r in s]
    assert sorted(items) == sorted(r["item"] for r in all_runs)
    assert max(map(len, shards)) - min(map(len, shards)) <= 1
    for s in shards:  # each game's runs spread evenly too
        per_game = Counter(r["game"] for r in s)
        for k in range(1, n + 1):
            other = Counter(r["game"] for r in shards[k - 1])
            assert all(abs(per_game[g] - other[g]) <= 1 for g in set(per_game) | set(other))


def test_shards_do_not_depend_on_collection_order():
    all_runs = runs()
    shuffled = all_runs[:]
    random.Random(5).shuffle(shuffled)
    for k in range(1, 5):
        assert deal(all_runs, k, 4) == deal(shuffled, k, 4)
    assert plan_id(all_runs) == plan_id(shuffled) != plan_id(all_runs[1:])


@pytest.mark.parametrize("worker,expected", [(None, "ws://a"), ("gw0", "ws://a"), ("gw1", "ws://b"),
                                             ("gw2", "ws://c"), ("gw3", "ws://a"), ("gw10", "ws://b")])
def test_workers_take_endpoints_round_robin(worker, expected):
    assert pick_endpoint(["ws://a", "ws://b", "ws://c"], worker) == expected


def test_no_endpoint_means_a_local_browser_and_odd_worker_names_count_as_zero():
    assert pick_endpoint([], "gw3") is None
    assert worker_index("master") == worker_index("") == 0 and worker_index("gw12") == 12


def test_launch_options_carry_the_sandbox_flags_and_only_an_explicit_path():
    opts = launch_options(None, headed=False)
    assert opts["headless"] is True and "--disable-background-networking" in opts["args"]
    assert "executablePath" not in opts and launch_options("/usr/bin/chromium", True)["executablePath"]


def shard_source(name, plan, played, status="ok"):
    return Source(Path(name), plan, [record(**{**r, "status": status, "progress": 0.5, "success": False, "steps": 3,
                                      "valid": 3, "invalid_ntc": 0, "invalid_oos": 0, "level": 1, "genre": "puzzle",
                                      "catalog_version": "v1"}) for r in played])


def split(n, options=None, all_runs=None):
    all_runs = all_runs or runs(games=3, tasks=2, models=("a",), repeats=1)
    opts = options or {"seed": 0, "protocol": "paused", "max_steps": 0, "catalog_version": "v1"}
    return [(build_plan(all_runs, (k, n), opts), deal(all_runs, k, n)) for k in range(1, n + 1)]


def test_merging_every_shard_gives_every_run_once_with_no_gaps():
    sources = [shard_source(f"s{k}", plan, played) for k, (plan, played) in enumerate(split(4), 1)]
    assert refusal(sources) is None
    out = merge(sources)
    assert out.gaps == [] and out.duplicates == [] and out.notes == []
    assert sorted(r.item for r in out.records) == sorted(r["item"] for r in sources[0].plan["runs"])
    assert out.plan["merged_from"] == ["s1", "s2", "s3", "s4"] and out.plan["shard"] is None


def test_a_missing_shard_is_a_gap_recorded_as_an_error_run():
    parts = split(4)
    sources = [shard_source(f"s{k}", plan, played) for k, (plan, played) in enumerate(parts, 1) if k != 3]
    out = merge(sources)
    missing = sorted(r["item"] for r in parts[2][1])
    assert sorted(g.split(": ")[0] for g in out.gaps) == missing
    assert all(g.endswith("gap: shard 3/4 was not merged") for g in out.gaps)
    assert out.notes == ["shard(s) 3/4 not among the merged sessions"]
    gaps = [r for r in out.records if r.status == "error"]
    assert sorted(r.item for r in gaps) == missing and all(r.catalog_version == "v1" for r in gaps)


def test_a_run_played_by_two_shards_is_reported_as_a_duplicate():
    parts = split(2)
    sources = [shard_source("s1", parts[0][0], parts[0][1] + parts[1][1][:1]), shard_source("s2", *parts[1])]
    out = merge(sources)
    assert out.duplicates == [f"{parts[1][1][0]['item']}: played in s1, s2"] and out.gaps == []


@pytest.mark.parametrize("key,value", [("seed", 1), ("protocol", "realtime"), ("max_steps", 5),
                                       ("catalog_version", "v2")])
def test_sessions_with_different_run_options_are_refused(key, value):
    a = split(2)
    b = split(2, {**a[0][0]["options"], key: value})
    problem = refusal([shard_source("s1", *a[0]), shard_source("s2", *b[1])])
    assert problem and f"differ in {key}" in problem


def test_shards_of_different_splits_or_selections_are_refused():
    two, three = split(2), split(3)
    assert "shard counts" in refusal([shard_source("s1", *two[0]), shard_source("s2", *three[1])])
    other = split(2, all_runs=runs(games=2, tasks=2, models=("a",), repeats=1))
    assert "different selections" in refusal([shard_source("s1", *two[0]), shard_source("s2", *other[1])])


def test_the_origin_serves_catalog_files_and_nothing_outside(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.js").write_text("x=1")
    (tmp_path / "secret.txt").write_text("no")
    files = GameFiles(tmp_path / "g")
    ok = files.reply(files.origin + "/game.js?level=3#infinite/2")
    assert (ok.status, ok.body, ok.content_type) == (200, b"x=1", "text/javascript")
    for bad in ("/../secret.txt", "/%2e%2e/secret.txt", "/nope.js", "/", "/..%2Fsecret.txt"):
        assert files.reply(files.origin + bad).status == 404, bad
    assert files.owns(files.origin + "/x") and not files.owns("http://gameworld.localhost:81/x")
    assert not files.owns("http://127.0.0.1/x")


def test_two_sessions_of_the_same_name_keep_their_own_trajectories_when_merged(tmp_path):
    traj = "runs/01_01/attempt-1/steps.jsonl"
    sources = []
    for parent in ("a", "b"):  # two shard folders both called s1, each holding the same run's attempt
        folder = tmp_path / parent / "s1"
        (folder / traj).parent.mkdir(parents=True)
        (folder / traj).write_text(parent)
        sources.append(Source(folder, None, [record(item="01_01[m-r0]", trajectory=traj)]))
    write_merged(sources, Merged(records=[r for s in sources for r in s.records]), tmp_path / "out")
    written = [r["trajectory"] for r in read_jsonl(tmp_path / "out" / "results.jsonl")]
    assert [(tmp_path / "out" / t).read_text() for t in written] == ["a", "b"]
    assert written[1] == "runs/01_01/attempt-2/steps.jsonl"
