"""`gameworld plan --model SPEC[,SPEC...] [pytest selection arguments]`: the runs, budgets, pictures and cost of
what `gameworld play` with the same arguments would play, before spending anything."""

from __future__ import annotations

import argparse
import sys

from ..plugin.plan_session import collect
from .cost_plan import plan_lines, plan_specs
from .exit_status import ExitStatus


def plan_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="gameworld plan", description="What `gameworld play` with the same arguments would play and cost; "
                                           "no browser is opened (extra arguments go to pytest, e.g. -k puzzle)")
    parser.add_argument("--model", action="append", default=[], required=True,
                        help="model spec(s), comma-separated or repeated, as for gameworld play")
    parser.add_argument("--runs", action="store_true", help="also list every run the selection plays, with its budget")
    args, rest = parser.parse_known_args(argv)
    found = collect(args.model, rest)
    if found.status not in (0, 5) or found.settings is None:
        sys.stdout.write(found.output)
        print(f"gameworld plan: the selection did not collect (pytest exit status {found.status})", file=sys.stderr)
        return found.status or ExitStatus.USAGE_ERROR
    settings = found.settings
    notes = []
    if found.scored_before:
        notes.append(f"{len(found.scored_before)} run(s) already scored in this session are not played again "
                     "(--gw-resume)")
    if settings.limit:
        notes.append(f"--gw-limit {settings.limit}: the first runs of the selection")
    if settings.shard:
        notes.append(f"--gw-shard {settings.shard[0]}/{settings.shard[1]}: this shard's part")
    if settings.sample:
        notes.append(f"--gw-sample {settings.sample}: {settings.sample} task(s) spread over genres and levels, "
                     f"seeded by --gw-seed {settings.seed}")
    if not found.cases:
        print("gameworld plan: the selection plays no run")
        print("\n".join(f"note: {n}" for n in notes))
        return ExitStatus.OK
    protocol = "realtime (--gw-rt)" if settings.realtime else "paused"
    print(f"gameworld plan: {len(found.cases)} run(s), {protocol} protocol, --gw-obs {settings.obs}, "
          f"seed {settings.seed}, catalog {found.catalog.root if found.catalog else '?'}")
    prompts = found.catalog.root / "prompts"
    plans = plan_specs(found.cases, settings.max_steps, settings.obs, prompts, settings.realtime)
    print("\n".join(plan_lines(plans, settings.obs, notes)))
    if args.runs:
        print("runs:")
        for case in found.cases:
            print(f"  {case.node_id}  {settings.max_steps or case.task.max_steps} steps")
    return ExitStatus.OK
