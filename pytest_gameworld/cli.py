"""The `gameworld` command: play, report, serve, validate."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path



def _validate(args: argparse.Namespace) -> int:
    from .validate import validate

    catalog, problems = asyncio.run(validate(args.catalog, args.browser_path, not args.no_browser))
    for p in problems:
        print(p, file=sys.stderr)
    if catalog is not None:
        print(f"{catalog.root}: {len(catalog.games)} games, {len(catalog.tasks)} tasks, {len(catalog.models)} models, "
              f"{'OK' if not problems else f'{len(problems)} problem(s)'}")
    return 1 if problems else 0


def _play(args: argparse.Namespace, rest: list[str]) -> int:
    import pytest

    # This module already imported the package, so pytest cannot rewrite its asserts; say nothing.
    argv = ["--pyargs", "pytest_gameworld.items", "-W", "ignore::pytest.PytestAssertRewriteWarning"]
    for m in args.model:
        argv += ["--gw-model", m]
    return int(pytest.main(argv + rest))


def _report(args: argparse.Namespace) -> int:
    """Each session's table (or md/json/csv), its missing runs, and the gate's verdict when asked for."""
    from . import formats
    from .gate import format_comparison
    from .results import format_table
    from .sessions import build_gate, load_results, outcome

    try:
        gate = build_gate(args.gate, args.baseline, args.max_drop, args.max_drop_strict, args.allow_missing)
        sessions = [(Path(p), load_results(Path(p))) for p in args.sessions]
    except ValueError as exc:
        print(f"gameworld report: {exc}", file=sys.stderr)
        return 2
    several = len(sessions) > 1
    status = 0
    table: dict = {}
    out_json, out_csv, text = [], [], []
    for path, records in sessions:
        name = path.resolve().name
        res = outcome(records, [], gate)
        if res.problem:
            print(f"{path}: {res.problem}", file=sys.stderr)
            status = max(status, 2)
        table.update({f"{name}/{k}" if several else k: v for k, v in res.summaries.items()})
        out_csv += formats.csv_rows(name, res.summaries)
        out_json.append({"session": name, "path": str(path), "models": [formats.summary_json(s) for s in
                         res.summaries.values()], "missing": res.missing, "problem": res.problem,
                         "gate": res.verdict.to_json(gate) if res.verdict else None})
        text += [f"{name}: missing runs (not scored): {len(res.missing)}", *(f"  {m}" for m in res.missing)] \
            if res.missing else []
        if res.verdict is not None:
            if res.verdict.comparison is not None:
                text += format_comparison(res.verdict.comparison, gate.baseline_source)
            text += res.verdict.notes + [(f"{name}: " if several else "") + res.verdict.line()]
            status = status or (0 if res.verdict.ok else 1)
    if args.html:
        from .page import write_results_page

        for path, _ in sessions:
            folder = path if path.is_dir() else path.parent
            print(f"results page: {write_results_page(folder.resolve(), args.catalog)}", file=sys.stderr)
    if args.format == "json":
        print(formats.to_json(out_json))
    elif args.format == "csv":
        print(formats.to_csv(out_csv), end="")
    else:
        print("\n".join((formats.markdown if args.format == "md" else format_table)(table) if table else []))
        if text:
            print("\n".join(text))
    return status


def _list(args: argparse.Namespace) -> int:
    from .catalog import CatalogError, load_catalog
    from .listing import catalog_rows

    try:
        catalog = load_catalog(args.catalog)
    except CatalogError as exc:
        print(f"gameworld list: {exc}", file=sys.stderr)
        return 2
    rows = catalog_rows(catalog, args.what, args.contains, args.genre, args.level, args.interface)
    from .results import align_columns

    print("\n".join(align_columns(rows)))
    print(f"{len(rows) - 1} {args.what}")
    return 0


def _snapshot(args: argparse.Namespace) -> int:
    from .catalog import CatalogError, load_catalog
    from .snapshot import snapshot

    try:
        catalog = load_catalog(args.catalog)
        games = sorted(catalog.games) if args.game == "all" else [args.game]
        paths = asyncio.run(snapshot(catalog, games, args.out, args.steps, args.agent, args.seed, args.task,
                                     args.browser_path))
    except (CatalogError, ValueError) as exc:
        print(f"gameworld snapshot: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "serve":
        from .endpoint.server import serve_main

        return serve_main(argv[1:])
    parser = argparse.ArgumentParser(prog="gameworld", description="The GameWorld benchmark for game agents.")
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("validate", help="check the catalog (files, and score fields at each task's start)")
    v.add_argument("catalog", nargs="?", type=Path, default=None)
    v.add_argument("--browser-path", default=None)
    v.add_argument("--no-browser", action="store_true", help="check the files only")
    p = sub.add_parser("play", help="run the benchmark (extra arguments go to pytest, e.g. -n 4 -k puzzle)")
    # No -m here: in `gameworld play -m puzzle` it is pytest's marker expression.
    p.add_argument("--model", action="append", default=[], required=True)
    ls = sub.add_parser("list", help="list the catalog's games, tasks or models, with filters")
    ls.add_argument("what", nargs="?", choices=("games", "tasks", "models"), default="games")
    ls.add_argument("-k", dest="contains", default="", help="only rows whose id or name contains this text")
    ls.add_argument("--genre", default=None)
    ls.add_argument("--level", type=int, default=None, help="curriculum level 1..5")
    ls.add_argument("--interface", choices=("generalist", "cua"), default=None, help="models: this interface")
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
    s = sub.add_parser("snapshot", help="save a mid-game screenshot of a game (or 'all') for the gallery")
    s.add_argument("game", help="game id, e.g. 05-breakout, or 'all'")
    s.add_argument("--task", default=None, help="task id (default: the game's first task)")
    s.add_argument("--steps", type=int, default=20, help="steps to play before the picture")
    s.add_argument("--agent", default="oracle", help="built-in agent: oracle, random or noop")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", type=Path, default=Path("reports/gallery"))
    s.add_argument("--catalog", type=Path, default=None)
    s.add_argument("--browser-path", default=None)
    sub.add_parser("serve", help="a loopback model endpoint for tests (see gameworld serve --help)")
    args, rest = parser.parse_known_args(argv)
    if args.command == "play":
        return _play(args, rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "snapshot":
        return _snapshot(args)
    if args.command == "list":
        return _list(args)
    return _validate(args) if args.command == "validate" else _report(args)


if __name__ == "__main__":
    sys.exit(main())
