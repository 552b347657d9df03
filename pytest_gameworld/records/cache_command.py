"""`gameworld cache list|clear`: what the reply cache (--gw-cache) holds, and emptying it."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..report.exit_status import ExitStatus
from .reply_cache import DEFAULT_MAX_MB, CacheFolder, cache_folder, listing


def cache_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gameworld cache",
                                     description="The reply cache of --gw-cache, in <results>/.cache.")
    sub = parser.add_subparsers(dest="what", required=True)
    for name, text in (("list", "entries, size and tokens per model spec; damaged files named file:line"),
                       ("clear", "remove the stored replies (all, or one model spec's)")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--results", type=Path, default=Path("reports"),
                       help="the results folder whose .cache it is (default reports)")
        if name == "list":
            p.add_argument("--max-mb", type=float, default=DEFAULT_MAX_MB,
                           help="the bound to report against (as --gw-cache-max-mb; default %(default)g)")
        else:
            p.add_argument("--model", default=None, help="only this model spec's replies (its name)")
    args = parser.parse_args(argv)
    folder = CacheFolder(cache_folder(args.results.resolve()), int(getattr(args, "max_mb", DEFAULT_MAX_MB) * 1e6))
    if args.what == "list":
        for line in listing(folder):
            print(line)
        return ExitStatus.OK
    removed = folder.clear(args.model)
    whose = f" of {args.model}" if args.model else ""
    print(f"{folder.root}: removed {removed} stored repl{'y' if removed == 1 else 'ies'}{whose}")
    return ExitStatus.OK
