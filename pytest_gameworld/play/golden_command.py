"""`gameworld golden`: its arguments and what it runs (the recording itself is play/golden.py, loaded only then)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..report.exit_status import ExitStatus


def add_parser(sub: Any) -> None:
    g = sub.add_parser("golden", help="record each task's states and frame hashes for a fixed seeded action list "
                                      "(what `gameworld calibrate --restamp` compares)")
    g.add_argument("-k", dest="select", default="", help="only tasks matching this pytest -k expression")
    g.add_argument("--catalog", type=Path, default=None)
    g.add_argument("--out", type=Path, required=True, help="the golden file to write (JSON lines, one task a line)")
    g.add_argument("--steps", type=int, default=60, help="actions per task (default 60)")
    g.add_argument("--seed", type=int, default=7)
    g.add_argument("--pages", type=int, default=2, help="pages played at once (default 2)")
    g.add_argument("--browser-path", default=None)


def command(args: argparse.Namespace) -> int:
    """Record the selected tasks' goldens into --out; 1 when any task could not be played, 4 on bad usage."""
    import asyncio

    from ..catalog.keywords import KeywordError, compile_keywords
    from ..catalog.loader import load_catalog
    from ..catalog.specs import CatalogError
    from . import golden

    if args.steps < 1 or args.pages < 1:
        print("gameworld golden: --steps and --pages must be at least 1", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    try:
        keep = compile_keywords(args.select)
        catalog = load_catalog(args.catalog)
    except (KeywordError, CatalogError) as exc:
        print(f"gameworld golden: {exc}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR if isinstance(exc, KeywordError) else ExitStatus.REFUSED
    tasks = [t.id for t in catalog.tasks if keep([t.id, t.game])]
    if not tasks:
        print(f"gameworld golden: -k {args.select!r} selects no task", file=sys.stderr)
        return ExitStatus.FAILED
    # Each golden is appended as it is made, so an interrupted recording keeps the tasks it finished; the
    # whole file is then rewritten sorted by task.
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as partial:
        def done(g: golden.Golden) -> None:
            partial.write(golden.line(g))
            partial.flush()
            print(f"golden {g.task}: {g.error or g.digest}", file=sys.stderr, flush=True)

        goldens = asyncio.run(golden.record([catalog], tasks, args.steps, args.seed, args.pages, args.browser_path,
                                            done))[0]
    golden.write(goldens, args.out)
    failed = sorted(t for t, g in goldens.items() if g.error)
    for t in failed:
        print(f"{t}: {goldens[t].error}", file=sys.stderr)
    print(f"{args.out}: {len(goldens)} task golden(s) of {catalog.root}, {args.steps} steps each"
          + (f"; {len(failed)} could not be played" if failed else ""))
    return ExitStatus.FAILED if failed else ExitStatus.OK
