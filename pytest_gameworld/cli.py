"""The `gameworld` command: play, plan, human, report, view, merge, list, snapshot, calibrate, serve, cache,
validate, assets."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from .play import golden_command
from .report.exit_status import ExitStatus

USAGE_ERROR = ExitStatus.USAGE_ERROR  # a mistake found before anything is played (pytest's status for it)


def _validate(args: argparse.Namespace) -> int:
    from .play.validate_catalog import upstream_summary, validate

    if args.catalog and args.catalog_opt and args.catalog != args.catalog_opt:
        print("gameworld validate: name the catalog once (a path or --catalog)", file=sys.stderr)
        return ExitStatus.REFUSED
    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    catalog, problems = asyncio.run(validate(args.catalog or args.catalog_opt, args.browser_path, not args.no_browser,
                                             args.assets, progress))
    for p in problems:
        print(p, file=sys.stderr)
    if catalog is not None:
        kind = f"{catalog.source['format']} catalog " if catalog.source else ""
        commit = f" at commit {catalog.source['commit']}" if catalog.source.get("commit") else ""
        for line in catalog.left_out:
            print(f"left out: {line}")
        for line in catalog.warnings:
            print(f"warning: {line}")
        for line in upstream_summary(catalog) if catalog.pages else []:
            print(line)
        print(f"{kind}{catalog.root}{commit}: {len(catalog.games)} games, {len(catalog.tasks)} tasks, "
              f"{len(catalog.models)} models, {'OK' if not problems else f'{len(problems)} problem(s)'}")
    return ExitStatus.FAILED if problems else ExitStatus.OK


def _assets(args: argparse.Namespace) -> int:
    """Record the internet assets of a catalog's pages into a folder --gw-assets serves offline."""
    from .catalog.loader import load_catalog
    from .catalog.specs import CatalogError
    from .play.assets_record import record_assets

    try:
        catalog = load_catalog(args.catalog)
        results, manifest = asyncio.run(record_assets(catalog, args.out, args.game or None, args.proxy,
                                                      args.browser_path, args.play_ms))
    except (CatalogError, ValueError) as exc:
        print(f"gameworld assets record: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    for r in results:
        print(f"{r.game}: {len(r.urls)} internet asset(s) recorded" + "".join(f"\n  {u}" for u in r.urls))
        for problem in r.problems:
            print(f"  problem: {problem}", file=sys.stderr)
    total = len({u for r in results for u in r.urls})
    print(f"wrote {manifest}: {total} URL(s) from {len(results)} game(s); play with --gw-assets {args.out}")
    return ExitStatus.FAILED if any(r.problems for r in results) else ExitStatus.OK


def _play(args: argparse.Namespace, rest: list[str]) -> int:
    import pytest

    from .plugin.plan_session import benchmark_argv

    return int(pytest.main(benchmark_argv(args.model, rest)))


def level(text: str) -> int:
    """`gameworld list --level` as everything else writes it (L4), or as a number (4); argparse names a bad one."""
    value = text.strip()
    return int(value[1:] if value[:1] in ("L", "l") else value)


HUMAN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
TASK_ID = re.compile(r"^\d\d_\d\d$")


def _human(args: argparse.Namespace, rest: list[str]) -> int:
    """A person plays the named tasks on our page; the runs are written, scored and shown like a model's."""
    from .agents.human_console import PORT_ENV, WINDOW_ENV, reserve_port

    bad = [t for t in args.tasks if not TASK_ID.match(t)]
    if bad or not HUMAN_NAME.match(args.name):
        what = f"task id(s) {', '.join(map(repr, bad))} (write them as 01_01)" if bad else \
            f"--name {args.name!r} (letters, digits, _ . @ -)"
        print(f"gameworld human: invalid {what}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    try:
        port = reserve_port(args.port)
    except OSError as e:
        print(f"gameworld human: cannot serve the page on 127.0.0.1:{args.port}: {e.strerror or e}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    os.environ[PORT_ENV] = str(port)
    os.environ[WINDOW_ENV] = "0" if args.no_window else "1"
    # Said before pytest starts: once a run is in flight, pytest captures what the agent prints.
    print(f"gameworld human: {args.name} plays {', '.join(args.tasks)} at http://127.0.0.1:{port}/ "
          f"({'open it in a browser' if args.no_window else 'a window opens there'} once the first game is loaded)",
          file=sys.stderr, flush=True)
    frames = [] if "--gw-no-frames" in rest else ["--gw-keep-frames"]  # the viewer shows what the person saw
    args.model = [f"human:{args.name}"]
    return _play(args, ["-p", "no:xdist", "-k", " or ".join(args.tasks), *frames, *rest])


def _merge(args: argparse.Namespace) -> int:
    """Shard sessions into one: refuse incomparable runs, report duplicates and gaps, print the table."""
    from .records.merge import Source, merge, refusal, write_merged
    from .report.aggregate import format_table
    from .report.gate import GateConfig
    from .report.outcome import outcome

    try:
        sources = [Source.load(Path(p)) for p in args.sessions]
        problem = refusal(sources)
        if problem:
            raise ValueError(problem)
        merged = merge(sources)
        write_merged(sources, merged, args.out)
    except ValueError as exc:
        print(f"gameworld merge: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    res = outcome(merged.records, [], GateConfig())
    if res.problem:  # e.g. runs of different catalog versions or budgets: not one comparable session
        print(f"gameworld merge: {args.out}: {res.problem}", file=sys.stderr)
        return ExitStatus.REFUSED
    from .report.results_page import write_results_page

    page = write_results_page(args.out)
    print(f"merged {len(sources)} session(s) into {args.out}: {len(merged.records)} record(s), "
          f"{res.runs} scored run(s), {len(merged.duplicates)} duplicate(s), {len(merged.gaps)} gap(s)")
    for line in merged.notes:
        print(line)
    for title, lines in (("duplicates (each attempt kept; the latest scored one counts)", merged.duplicates),
                         ("gaps (recorded as missing runs: a gate fails on them)", merged.gaps)):
        if lines:
            print(f"{title}:")
            print("\n".join(f"  {line}" for line in lines))
    if res.summaries:
        print("\n".join(format_table(res.summaries)))
    print(f"results page: {page}")
    return ExitStatus.OK


def _list(args: argparse.Namespace) -> int:
    from .catalog.keywords import KeywordError, compile_keywords
    from .catalog.listing import catalog_rows, filter_problem
    from .catalog.loader import load_catalog
    from .catalog.specs import CatalogError

    try:
        compile_keywords(args.keywords)
        problem = filter_problem(args.genre, args.level, args.interface)
    except KeywordError as exc:
        problem = str(exc)
    if problem:
        print(f"gameworld list: {problem}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    try:
        catalog = load_catalog(args.catalog)
    except CatalogError as exc:
        print(f"gameworld list: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    rows = catalog_rows(catalog, args.what, args.keywords, args.genre, args.level, args.interface)
    from .report.aggregate import align_columns

    print("\n".join(align_columns(rows)))
    print(f"{len(rows) - 1} {args.what}")
    for line in catalog.left_out:
        print(f"left out: {line}")
    return ExitStatus.OK


def _snapshot(args: argparse.Namespace) -> int:
    from .catalog.loader import load_catalog
    from .catalog.specs import CatalogError
    from .play.snapshot import snapshot

    try:
        catalog = load_catalog(args.catalog)
        games = sorted(catalog.games) if args.game == "all" else [args.game]
        paths = asyncio.run(snapshot(catalog, games, args.out, args.steps, args.agent, args.seed, args.task,
                                     args.browser_path))
    except (CatalogError, ValueError) as exc:
        print(f"gameworld snapshot: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    for path in paths:
        print(path)
    return ExitStatus.OK


def _calibrate(args: argparse.Namespace) -> int:
    from .catalog.keywords import KeywordError, compile_keywords
    from .catalog.native import default_catalog_dir
    from .catalog.specs import CatalogError
    from .records.baselines import FILE_NAME, LADDER
    from .records.calibrate import CalibrateConfig, NothingPlayed, calibrate, default_target
    from .report.discrimination import floors, separation, summarize

    named = args.agents is not None
    agents = tuple(a.strip() for a in (args.agents or ",".join(LADDER)).split(",") if a.strip())
    trivial = "trivial" in agents or (not named and not args.no_trivial)
    agents = tuple(a for a in agents if a != "trivial")
    unknown = [a for a in agents if a not in LADDER]
    try:
        compile_keywords(args.select)
        problem = ("--repeat must be at least 1" if args.repeat < 1 else
                   "-n must be at least 0" if args.workers < 0 else
                   f"--agents: {', '.join(unknown)} not on the ladder ({', '.join(LADDER)}) nor trivial" if unknown else
                   "--agents trivial and --no-trivial contradict each other" if trivial and args.no_trivial else
                   "--agents names no agent" if not agents and not trivial else None)
    except KeywordError as exc:
        problem = str(exc)
    if problem:
        print(f"gameworld calibrate: {problem}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    try:
        catalog = (args.catalog or default_catalog_dir()).resolve()  # the sessions run in their own folder
    except CatalogError as exc:
        print(f"gameworld calibrate: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    target = args.out or default_target(catalog, args.catalog is not None, Path(__file__).parent, Path.cwd())
    if args.restamp:
        from .records.calibrate import restamp_command
        was, now = args.restamp
        return restamp_command(catalog, target, was, now, select=args.select)
    cfg = CalibrateConfig(catalog, target, args.repeat, args.workers, args.select, args.seed, args.keep,
                          tuple(a for a in LADDER if a in agents), trivial)
    try:
        result, wall = calibrate(cfg)
    except NothingPlayed as exc:
        print(f"gameworld calibrate: {exc}", file=sys.stderr)
        return ExitStatus.FAILED
    faults = sum(r.faults for b in result.tasks.values() for r in b.rates.values())
    floor = floors(result)
    print(f"{cfg.target}: {len(result.tasks)} tasks, catalog version {result.catalog_version}, "
          f"{len(floor)} floor task(s) (random's SR interval above 50 %): {', '.join(floor) or '-'}"
          + (f"; {faults} run(s) faulted" if faults else ""))
    print("\n".join(summarize(separation(result).values()).lines()))
    print(f"calibrate wall time: {wall:.1f} s")
    if target.resolve() != (catalog / FILE_NAME).resolve():
        print(f"sessions use it with --gw-baselines {target} (or gw_baselines = {target} in the ini file)")
    return ExitStatus.FAILED if faults or not result.tasks else ExitStatus.OK


def _view(args: argparse.Namespace) -> int:
    """Write the index of every session under --results into DIR; with --serve, serve it on loopback."""
    from .report.session_index import session_dirs, write_index
    from .report.view_server import serve

    out = args.dir if args.dir is not None else args.results
    if not args.results.is_dir():
        print(f"gameworld view: {args.results}: no such folder (play a session first, or give --results)",
              file=sys.stderr)
        return ExitStatus.REFUSED
    try:
        page = write_index(args.results, out, args.catalog)
    except (OSError, ValueError) as exc:
        print(f"gameworld view: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    print(f"wrote {page}: {len(session_dirs(args.results))} session(s) (open it from disk, or --serve)")
    if not args.serve:
        return ExitStatus.OK
    root = Path(os.path.commonpath([args.results.resolve(), out.resolve()]))
    return serve(root, page, args.port, args.serve_for, results=args.results)


def main(argv: list[str] | None = None) -> int:
    """The `gameworld` command; a reader that stops early (`| head`) ends it quietly."""
    try:
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # Python would report the pipe again when it flushes stdout at exit: point stdout at devnull first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitStatus.BROKEN_PIPE


def _own_parser(argv: list[str]) -> Callable[[list[str]], int] | None:
    """The commands that parse their own arguments (`gameworld serve --help` shows theirs), loaded only when named."""
    if not argv or argv[0] not in ("serve", "cache", "plan"):
        return None
    if argv[0] == "serve":
        from .endpoint.server import serve_main

        return serve_main
    if argv[0] == "cache":
        from .records.cache_command import cache_main

        return cache_main
    from .report.plan_command import plan_main

    return plan_main


def _report(args: argparse.Namespace) -> int:
    from .report.report_command import report_main

    return report_main(args)


# Each command's handler. The first two pass what they do not know to pytest; the others refuse it.
_TO_PYTEST: dict[str, Callable[[argparse.Namespace, list[str]], int]] = {"play": _play, "human": _human}
_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "validate": _validate, "list": _list, "report": _report, "view": _view, "snapshot": _snapshot,
    "merge": _merge, "calibrate": _calibrate, "golden": golden_command.command, "assets": _assets,
}


def _parser() -> argparse.ArgumentParser:
    """Every command's arguments (serve, cache and plan name theirs in their own modules)."""
    parser = argparse.ArgumentParser(prog="gameworld", description="The GameWorld benchmark for game agents.")
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("validate", help="check the catalog (files, and score fields at each task's start)")
    v.add_argument("catalog", nargs="?", type=Path, default=None)
    v.add_argument("--catalog", dest="catalog_opt", type=Path, default=None,
                   help="our catalog folder or an upstream GameWorld checkout")
    v.add_argument("--browser-path", default=None)
    v.add_argument("--no-browser", action="store_true",
                   help="check the files only (skips opening every task's game in Chromium to read its score "
                        "fields at the start, which takes minutes)")
    v.add_argument("--assets", type=Path, default=None,
                   help="recorded internet assets to serve the pages (as --gw-assets); without, needing them is a problem")
    p = sub.add_parser("play", help="run the benchmark (extra arguments go to pytest, e.g. -n 4 -k puzzle)")
    # No -m here: in `gameworld play -m puzzle` it is pytest's marker expression.
    p.add_argument("--model", action="append", default=[], required=True)
    h = sub.add_parser("human", help="play tasks yourself on our page, recorded and scored like a model's runs "
                                     "(extra arguments go to pytest, e.g. --gw-rt --gw-session NAME)")
    h.add_argument("tasks", nargs="+", metavar="TASK", help="task ids, e.g. 01_01 19_02")
    h.add_argument("--name", default=os.environ.get("USER") or "anonymous",
                   help="the player's name: the runs' model is human:NAME (default: $USER)")
    h.add_argument("--no-window", action="store_true",
                   help="open no window: play at the printed http://127.0.0.1 address in any browser")
    h.add_argument("--port", type=int, default=0, help="serve the page on this port (default: any free one)")
    ls = sub.add_parser("list", help="list the catalog's games, tasks or models, with filters")
    ls.add_argument("what", nargs="?", choices=("games", "tasks", "models"), default="games")
    ls.add_argument("-k", dest="keywords", default="", metavar="EXPR",
                    help="only rows a pytest -k expression selects, e.g. \"wordle or minesweeper\", \"puzzle and not L4\"")
    ls.add_argument("--genre", default=None)
    ls.add_argument("--level", type=level, default=None, help="curriculum level L1..L5 (or 1..5)")
    ls.add_argument("--interface", default=None, help="models: this interface (generalist or cua)")
    ls.add_argument("--catalog", type=Path, default=None)
    r = sub.add_parser("report", help="the SR/PG table of one or several sessions, and the CI gate over them")
    r.add_argument("sessions", nargs="*", default=["reports/latest"], metavar="SESSION",
                   help="a session folder or results.jsonl (default reports/latest)")
    r.add_argument("--format", choices=("table", "md", "json", "csv"), default="table")
    r.add_argument("--gate", action="append", default=[], metavar="EXPR", help="e.g. pg>=40 (repeatable)")
    r.add_argument("--baseline", type=Path, default=None, help="a session to compare with, paired by run")
    r.add_argument("--max-drop", type=float, default=None, metavar="POINTS")
    r.add_argument("--max-drop-strict", action="store_true")
    r.add_argument("--allow-missing", type=int, default=0, metavar="N", help="missing runs the gate tolerates")
    r.add_argument("--html", action="store_true",
                   help="also write each session's results page (SESSION/index.html) and any missing run viewers")
    r.add_argument("--catalog", type=Path, default=None, help="the catalog whose baselines the page uses")
    r.add_argument("--baselines", type=Path, default=None,
                   help="the baselines file the page uses (default: the session's --gw-baselines, else the catalog's)")
    vw = sub.add_parser("view", help="an index of every session: sort and filter sessions and runs, compare a task")
    vw.add_argument("dir", nargs="?", type=Path, default=None,
                    help="the folder to write index.html into (default: the results folder)")
    vw.add_argument("--results", type=Path, default=Path("reports"), help="the sessions' folder (default reports)")
    vw.add_argument("--catalog", type=Path, default=None, help="the catalog whose baselines normalize the scores")
    vw.add_argument("--serve", action="store_true", help="serve it on a loopback port until Ctrl-C")
    vw.add_argument("--port", type=int, default=0, help="the port for --serve (default: any free one)")
    vw.add_argument("--serve-for", type=float, default=None, metavar="SECONDS", help="end --serve after this long")
    s = sub.add_parser("snapshot", help="save a mid-game screenshot of a game (or 'all') for the gallery")
    s.add_argument("game", help="game id, e.g. 05-breakout, or 'all'")
    s.add_argument("--task", default=None, help="task id (default: the game's first task)")
    s.add_argument("--steps", type=int, default=20, help="steps to play before the picture")
    s.add_argument("--agent", default="oracle", help="built-in agent: oracle, random or noop")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", type=Path, default=Path("reports/gallery"))
    s.add_argument("--catalog", type=Path, default=None)
    s.add_argument("--browser-path", default=None)
    mg = sub.add_parser("merge", help="combine shard sessions (--gw-shard K/N) into one session folder")
    mg.add_argument("sessions", nargs="+", metavar="SESSION", help="session folders, one per shard")
    mg.add_argument("--out", type=Path, required=True, help="the merged session folder (new or empty)")
    c = sub.add_parser("calibrate", help="play the skill ladder (random, oracle@0.25/0.5/0.75, oracle) on every "
                                         "task; write the baselines file")
    c.add_argument("-k", dest="select", default="", help="only tasks matching this pytest -k expression")
    c.add_argument("--repeat", type=int, default=10,
                   help="runs per task of each stochastic agent (random, oracle@P; default 10); the oracle plays one")
    c.add_argument("--agents", default=None,
                   help="comma-separated ladder agents to play, and/or `trivial` for the trivial policies (default: "
                        "the whole ladder and trivial); the file keeps the others' figures")
    c.add_argument("--no-trivial", action="store_true",
                   help="skip the trivial policies (noop, const:<control>, a left/right cycle); their figures stay")
    c.add_argument("-n", dest="workers", type=int, default=2, help="xdist workers (default 2; 0 for none)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--catalog", type=Path, default=None)
    c.add_argument("--out", type=Path, default=None,
                   help="default: <catalog>/baselines.json for a source checkout or a --catalog given, else "
                        "./gameworld-baselines.json (never into the installed package)")
    c.add_argument("--keep", type=Path, default=None, help="keep the two sessions in this folder")
    c.add_argument("--restamp", nargs=2, type=Path, metavar=("FROM", "NOW"), default=None,
                   help="play nothing: give stale tasks the current version, figures kept, where the goldens "
                        "(gameworld golden) of the files they were made from (FROM) and of the current ones (NOW) agree")
    golden_command.add_parser(sub)
    a = sub.add_parser("assets", help="internet assets of the catalog's pages, for playing offline")
    a_sub = a.add_subparsers(dest="assets_command", required=True)
    ar = a_sub.add_parser("record", help="open each game page with internet access and record what it fetches "
                                         "from internet hosts (needs internet)")
    ar.add_argument("catalog", type=Path, help="our catalog folder or an upstream GameWorld checkout")
    ar.add_argument("--out", type=Path, required=True, help="the folder to write (assets.json and files/)")
    ar.add_argument("--game", action="append", default=[], help="only this game (repeatable; default all)")
    ar.add_argument("--proxy", default=None, help="reach the internet through this HTTP proxy (http://host:port)")
    ar.add_argument("--play-ms", type=int, default=3000, help="game time each page runs after init (default 3000)")
    ar.add_argument("--browser-path", default=None)
    sub.add_parser("serve", help="a loopback model endpoint for tests (see gameworld serve --help)")
    sub.add_parser("cache", help="the reply cache of --gw-cache: list | clear (see gameworld cache --help)")
    sub.add_parser("plan", help="the runs, step budgets, pictures and cost a `gameworld play` selection would have, "
                                "without playing (see gameworld plan --help)")
    return parser


def _dispatch(argv: list[str]) -> int:
    own = _own_parser(argv)
    if own is not None:
        return own(argv[1:])
    parser = _parser()
    args, rest = parser.parse_known_args(argv)
    if args.command in _TO_PYTEST:
        return _TO_PYTEST[args.command](args, rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return _HANDLERS[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
