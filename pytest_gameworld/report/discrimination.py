"""How well each task separates skill, from the skill ladder's baselines (pure): the spread between random and
oracle@0.5, whether PG rises along the ladder, and the floor, flat, inverted-level and trivial flags. The one home
of these definitions: baselines.json's floor, calibrate's output, docs/catalog.md and the results page use them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..records.baselines import LADDER, Baselines, Rate, Trivial, to_json, wilson

FLOOR_LOW = 50.0  # floor: the lower bound of random's SR interval is above this (%)
FLAT_SPREAD = 10.0  # flat: the ladder's spread (oracle PG − random PG) is under this many points
INVERTED_POINTS = 5.0  # inverted by point estimate: a later level's oracle@0.5 PG above an earlier's by more
TRIVIAL_PG = 50.0  # trivial: the best trivial policy's PG reaches this,
TRIVIAL_OVER_RANDOM = 10.0  # or random's PG plus this
MIDDLE = "oracle@0.5"
NONE = "—"  # what a figure the baselines do not have shows as: never 0


@dataclass(frozen=True)
class Separation:
    """One task's discrimination figures; None where the baselines lack what a figure needs."""

    task: str
    game: str
    spread: float | None  # oracle@0.5 PG − random PG
    ladder_spread: float | None  # oracle PG − random PG
    monotone: bool | None  # with ties: PG never falls along random, 0.25, 0.5, 0.75, oracle (None: a rung missing)
    floor: bool | None  # random's SR interval lies above 50 %
    inverted_over: tuple[str, ...] = ()  # lower-numbered tasks of its game that oracle@0.5 finds harder (intervals)
    random_sr: tuple[float, float, float] | None = None  # random's SR and its 95 % interval: (sr, low, high)
    monotone_strict: bool | None = None  # each rung's PG above the one below (ties only at 100)
    inverted_point: tuple[str, ...] = ()  # lower-numbered tasks oracle@0.5's PG is more than 5 points under
    trivial_best: str | None = None  # the best trivial policy (None: not calibrated) and its PG
    trivial_pg: float | None = None
    random_pg: float | None = None

    @property
    def flat(self) -> bool | None:
        return None if self.ladder_spread is None else self.ladder_spread < FLAT_SPREAD

    @property
    def trivial(self) -> bool | None:
        """A policy that never looks scores PG >= 50 or >= random's PG + 10 (None: no trivial figures)."""
        return None if self.trivial_pg is None else is_trivial(self.trivial_pg, self.random_pg)

    @property
    def flags(self) -> list[str]:
        return [name for name, on in (("floor", self.floor), ("flat", self.flat),
                                      ("inverted", bool(self.inverted_over)),
                                      ("inverted by point", bool(self.inverted_point) and not self.inverted_over),
                                      ("not monotone", self.monotone is False),
                                      ("trivial", self.trivial)) if on]

    def cell(self) -> str:
        """The short text of the "how well this task separates skill" column."""
        if self.spread is None and self.ladder_spread is None and self.floor is None:
            return NONE
        parts = [f"spread {_signed(self.spread)}" if self.spread is not None else f"spread {NONE} (not yet calibrated)"]
        if self.monotone_strict:
            parts.append("monotone")
        elif self.monotone:
            parts.append("monotone with ties")
        flags = self.flags
        if self.floor is False and self.random_sr is not None and self.random_sr[0] > FLOOR_LOW:
            # Above half, but too few runs to rule out chance: said, not flagged.
            flags.append(f"floor not established (random SR {self.random_sr[0]:.0f} %, 95 % interval from "
                         f"{self.random_sr[1]:.0f} %)")
        if self.inverted_over:
            flags[flags.index("inverted")] = f"inverted (easier than {', '.join(self.inverted_over)})"
        elif self.inverted_point:
            flags[flags.index("inverted by point")] = f"inverted by point (easier than {', '.join(self.inverted_point)})"
        if self.trivial:
            flags[flags.index("trivial")] = f"trivial ({self.trivial_best} PG {self.trivial_pg:.0f})"
        return "; ".join(parts + flags)


@dataclass
class Summary:
    """Counts over the tasks that have the figure each count needs, and the tasks that separate worst."""

    tasks: int = 0
    with_ladder: int = 0  # tasks with an oracle@0.5 figure
    floor: list[str] = field(default_factory=list)
    flat: list[str] = field(default_factory=list)
    inverted: list[str] = field(default_factory=list)
    inverted_point: list[str] = field(default_factory=list)
    monotone: list[str] = field(default_factory=list)  # with ties
    monotone_strict: list[str] = field(default_factory=list)
    judged_monotone: int = 0  # tasks with every rung
    trivial: list[str] = field(default_factory=list)
    judged_trivial: int = 0  # tasks with trivial figures
    worst: list[tuple[str, float]] = field(default_factory=list)  # smallest oracle@0.5 spreads first

    def lines(self) -> list[str]:
        if not self.tasks:
            return ["separation: no task has baselines"]
        out = [f"separation over {self.tasks} task(s): {len(self.floor)} floor (random's SR interval above "
               f"{FLOOR_LOW:g} %), {len(self.flat)} flat (oracle − random PG < {FLAT_SPREAD:g} points)"]
        if not self.with_ladder:
            out.append("  ladder (oracle@0.25/0.5/0.75): not yet calibrated; spread, monotone and inverted levels "
                       "need it (`gameworld calibrate`)")
            return out
        out.append(f"  of {self.judged_monotone} with every rung: {len(self.monotone_strict)} strictly monotone along "
                   f"the ladder (ties only at 100), {len(self.monotone)} with ties; {self.with_ladder} task(s) with "
                   "oracle@0.5 figures")
        out.append(f"  inverted levels: {len(self.inverted)} by interval{_listed(self.inverted)}, "
                   f"{len(self.inverted_point)} by point (> {INVERTED_POINTS:g} PG){_listed(self.inverted_point)}")
        out.append(f"  trivial (best trivial policy PG >= {TRIVIAL_PG:g} or >= random + {TRIVIAL_OVER_RANDOM:g}): "
                   + (f"{len(self.trivial)} of {self.judged_trivial}{_listed(self.trivial)}" if self.judged_trivial
                      else "not yet calibrated (`gameworld calibrate` plays the trivial policies)"))
        if self.worst:
            out.append("  smallest oracle@0.5 − random PG spreads: "
                       + ", ".join(f"{t} {_signed(s)}" for t, s in self.worst))
        return out


def _listed(tasks: list[str]) -> str:
    return ": " + ", ".join(tasks) if tasks else ""


def _signed(v: float | None) -> str:
    return NONE if v is None else f"{v:+.1f}"


def _pg(rates: dict[str, Rate], agent: str) -> float | None:
    r = rates.get(agent)
    return r.pg if r is not None and r.runs else None


def is_floor(rate: Rate | None) -> bool | None:
    """Floor: the lower bound of random's 95 % Wilson SR interval is above 50 % (None without random runs)."""
    ci = rate.sr_ci if rate is not None else None
    return None if ci is None else ci[0] > FLOOR_LOW


def is_floor_sr(sr: float, runs: int) -> bool:
    """is_floor from random's SR (%) and run count, as the results page's rates carry them."""
    ci = wilson(round(sr * runs / 100), runs)
    return ci is not None and ci[0] > FLOOR_LOW


def is_trivial(trivial_pg: float, random_pg: float | None) -> bool:
    """Trivial: the best trivial policy's PG is >= 50, or >= random's PG + 10."""
    return trivial_pg >= TRIVIAL_PG or (random_pg is not None and trivial_pg >= random_pg + TRIVIAL_OVER_RANDOM)


def floors(b: Baselines) -> list[str]:
    """The floor tasks of a baselines file, by is_floor."""
    return sorted(t for t, tb in b.tasks.items() if is_floor(tb.random))


def baselines_json(b: Baselines) -> dict[str, Any]:
    """What calibrate writes to baselines.json: the figures, and each task's floor flag by is_floor."""
    return to_json(b, floors(b))


def _monotone(rates: dict[str, Rate], strict: bool = False) -> bool | None:
    """PG along the ladder never falls (with ties), or strictly rises with ties allowed only at 100."""
    pgs = [_pg(rates, a) for a in LADDER]
    if any(p is None for p in pgs):
        return None
    if strict:
        return all(b > a or a == b == 100.0 for a, b in zip(pgs, pgs[1:]))  # type: ignore[operator]
    return all(b >= a for a, b in zip(pgs, pgs[1:]))  # type: ignore[operator]


def _diff(rates: dict[str, Rate], high: str, low: str) -> float | None:
    h, lo = _pg(rates, high), _pg(rates, low)
    return None if h is None or lo is None else round(h - lo, 2)


def _inversions(b: Baselines, point: bool = False) -> dict[str, tuple[str, ...]]:
    """Per task: the lower-numbered tasks of its game whose oracle@0.5 PG interval lies wholly below its own
    (a higher level easier than a lower one beyond the intervals; tasks without an interval are not judged), or
    with ``point`` whose oracle@0.5 PG is more than INVERTED_POINTS under its own."""
    by_game: dict[str, list[str]] = {}
    for t, tb in sorted(b.tasks.items()):
        by_game.setdefault(tb.game, []).append(t)
    out: dict[str, tuple[str, ...]] = {}
    for tasks in by_game.values():
        for i, hi_task in enumerate(tasks):
            hi = b.tasks[hi_task].rates.get(MIDDLE)
            if hi is None or not hi.runs or (hi.pg_ci is None and not point):
                continue
            below = tuple(lo_task for lo_task in tasks[:i]
                          if (lo := b.tasks[lo_task].rates.get(MIDDLE)) is not None and lo.runs
                          and (hi.pg > lo.pg + INVERTED_POINTS if point else
                               lo.pg_ci is not None and hi.pg_ci is not None and hi.pg_ci[0] > lo.pg_ci[1]))
            if below:
                out[hi_task] = below
    return out


def separation(b: Baselines) -> dict[str, Separation]:
    """Every task's figures, by task id."""
    inverted, by_point = _inversions(b), _inversions(b, point=True)
    return {t: Separation(t, tb.game, _diff(tb.rates, MIDDLE, "random"), _diff(tb.rates, "oracle", "random"),
                          _monotone(tb.rates), is_floor(tb.random), inverted.get(t, ()), _random_sr(tb.random),
                          _monotone(tb.rates, strict=True), by_point.get(t, ()), *_trivial(tb.trivial),
                          _pg(tb.rates, "random"))
            for t, tb in sorted(b.tasks.items())}


def _trivial(t: Trivial | None) -> tuple[str | None, float | None]:
    return (None, None) if t is None else (t.best, t.rate.pg)


def _random_sr(rate: Rate | None) -> tuple[float, float, float] | None:
    ci = rate.sr_ci if rate is not None else None
    return None if rate is None or ci is None else (rate.sr, ci[0], ci[1])


def summarize(seps: Iterable[Separation], worst: int = 5) -> Summary:
    s = Summary()
    spreads = []
    for x in seps:
        s.tasks += 1
        for flag, bucket in ((x.floor, s.floor), (x.flat, s.flat), (bool(x.inverted_over), s.inverted),
                             (bool(x.inverted_point), s.inverted_point), (x.monotone, s.monotone),
                             (x.monotone_strict, s.monotone_strict), (x.trivial, s.trivial)):
            if flag:
                bucket.append(x.task)
        s.judged_monotone += x.monotone is not None
        s.judged_trivial += x.trivial is not None
        if x.spread is not None:
            s.with_ladder += 1
            spreads.append((x.task, x.spread))
    s.worst = sorted(spreads, key=lambda p: (p[1], p[0]))[:worst]
    return s


def markdown_table(b: Baselines) -> list[str]:
    """The docs' table: per task the ladder's PG, the spreads and the flags; "—" where a figure is missing."""
    seps = separation(b)
    head = ["task", "random runs", "random SR (95 %)", *(f"{a} PG" for a in LADDER), "oracle steps", "0.5 − random",
            "best trivial (PG)", "flags"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t, tb in sorted(b.tasks.items()):
        x, rnd = seps[t], tb.random
        ci = rnd.sr_ci if rnd is not None else None
        sr = NONE if rnd is None or ci is None else f"{rnd.sr:.0f} ({ci[0]:.0f}–{ci[1]:.0f})"
        pgs = [f"{p:.1f}" if (p := _pg(tb.rates, a)) is not None else NONE for a in LADDER]
        steps = tb.oracle.steps if tb.oracle is not None and tb.oracle.steps is not None else None
        triv = NONE if x.trivial_best is None else f"{x.trivial_best} ({x.trivial_pg:.1f})"
        out.append("| " + " | ".join([t, NONE if rnd is None else str(rnd.runs), sr, *pgs,
                                      NONE if steps is None else f"{steps:g}", _signed(x.spread), triv,
                                      ", ".join(x.flags) or ""]) + " |")
    return out


DOCS_BEGIN = "<!-- separation table: generated by `python -m pytest_gameworld.report.discrimination`; do not edit -->"
DOCS_END = "<!-- end of the separation table -->"


def docs_section(b: Baselines) -> list[str]:
    """The generated part of docs/catalog.md: the summary, and the table (what the file has, never more)."""
    seps = separation(b)
    repeats = dict(b.made.get("repeats") or {"random": b.made.get("random_repeats"),
                                             "oracle": b.made.get("oracle_repeats")})
    trivial = b.made.get("trivial") or {}
    if trivial.get("repeats"):  # a calibration may have played the trivial policies alone
        repeats["trivial policies"] = trivial["repeats"]
    have = [a for a in LADDER if any(a in tb.rates for tb in b.tasks.values())]
    missing = [a for a in LADDER if a not in have]
    out = [DOCS_BEGIN, "", f"From `catalog/baselines.json` (catalog version {b.catalog_version}; agents recorded: "
           f"{', '.join(have)}; repeats of the latest calibration: "
           f"{', '.join(f'{a} {n}' for a, n in repeats.items() if n) or 'not stated'}; each task's own run count is "
           "in the file)."]
    if missing:
        out.append(f"Not yet calibrated: {', '.join(missing)}, so the spread, the monotone check and inverted levels "
                   f"show {NONE} until `gameworld calibrate` records them.")
    out += ["", *(f"- {line.strip()}" for line in summarize(seps.values()).lines()), "", *markdown_table(b), "",
            DOCS_END]
    return out


def with_docs_section(text: str, b: Baselines) -> str:
    """docs text with the generated section replaced (or appended under its heading when absent)."""
    section = "\n".join(docs_section(b))
    if DOCS_BEGIN in text and DOCS_END in text:
        head, rest = text.split(DOCS_BEGIN, 1)
        return head + section + rest.split(DOCS_END, 1)[1]
    return text.rstrip("\n") + "\n\n## How well each task separates skill\n\n" + SECTION_INTRO + "\n\n" + section + "\n"


SECTION_INTRO = (
    "`gameworld calibrate` plays the skill ladder on every task: random, `oracle@0.25`, `oracle@0.5`, `oracle@0.75` "
    "(each step the oracle's action with that probability, else a random legal one) and the oracle. Per task: the "
    "PG of each rung, the oracle's mean steps to solve, the spread `oracle@0.5` PG − random PG, the best trivial "
    "policy and its PG, and flags: "
    "**floor** (the lower bound of random's 95 % Wilson SR interval is above 50 %), **flat** (oracle PG − random PG "
    "under 10 points), **inverted** (within a game, a higher-numbered task where `oracle@0.5` scores higher than on "
    "a lower-numbered one, their 95 % t-intervals apart), **inverted by point** (the same by the PGs alone, more "
    "than 5 points apart), **not monotone** (some rung's PG below the rung under it) (the summary also counts **strictly "
    "monotone**: each rung above the one under it, ties only at 100), **trivial** (the best trivial policy scores PG "
    "50 or more, or random's PG + 10 or more). `gameworld calibrate`, `gameworld report` and the results page "
    "show the same figures; docs/baselines.md defines them.")


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated section of a docs file from a catalog's baselines: [CATALOG_OR_FILE] DOCS_FILE."""
    import sys
    from pathlib import Path

    from ..catalog.native import default_catalog_dir
    from ..records.baselines import load

    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2):
        print("usage: python -m pytest_gameworld.report.discrimination [CATALOG_OR_BASELINES] DOCS_FILE",
              file=sys.stderr)
        return 2
    source, docs = (Path(args[0]), Path(args[1])) if len(args) == 2 else (default_catalog_dir(), Path(args[0]))
    b = load(source)
    if b is None:
        print(f"no baselines at {source}", file=sys.stderr)
        return 1
    docs.write_text(with_docs_section(docs.read_text(encoding="utf-8"), b), encoding="utf-8")
    print(f"{docs}: separation table of {len(b.tasks)} task(s) written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
