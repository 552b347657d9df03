"""SR/PG aggregation into the paper's tables: per model, genre, level and repeat, with validity and cost (pure)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..catalog.specs import GENRES, STANDARD_OBS
from ..records.run_record import RunRecord, RunView, latest_attempts, missing_line


@dataclass
class Cell:
    runs: int = 0
    solved: int = 0
    progress: float = 0.0

    @property
    def sr(self) -> float:
        return 100.0 * self.solved / self.runs if self.runs else 0.0

    @property
    def pg(self) -> float:
        return 100.0 * self.progress / self.runs if self.runs else 0.0

    def add(self, rec: RunRecord) -> None:
        self.runs += 1
        self.solved += rec.success
        self.progress += rec.progress


@dataclass
class ModelSummary:
    """SR/PG by genre, level and overall for one model, plus validity, cost and faults."""

    model: str
    interface: str = ""
    overall: Cell = field(default_factory=Cell)
    genres: dict[str, Cell] = field(default_factory=dict)
    levels: dict[int, Cell] = field(default_factory=dict)
    repeats: dict[int, Cell] = field(default_factory=dict)
    proposed: int = 0
    ntc: int = 0
    oos: int = 0
    steps: int = 0
    sec: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    cost: float = 0.0
    priced: bool = True  # every run's model had a known price; else cost shows n/a
    missing: list[str] = field(default_factory=list)
    # --gw-cache: steps answered from the cache and what their original calls spent (not spent again).
    cache_hits: int = 0
    cache_tokens: int = 0
    cache_cost: float = 0.0

    def cache_line(self) -> str | None:
        """The cache's part in one line (None without hits): the original's tokens and $, apart from spent ones."""
        if not self.cache_hits:
            return None
        cost = f"${self.cache_cost:.4f}" if self.priced else "$ n/a"
        return (f"{self.model}: {self.cache_hits} step(s) answered from the reply cache: {self.cache_tokens:,} "
                f"tokens and {cost} as first spent, not spent again (spent this time: "
                f"{self.tokens_in + self.tokens_out:,} tokens" + (f", ${self.cost:.4f})" if self.priced else ")"))

    @property
    def iar(self) -> tuple[float, float, float]:
        if not self.proposed:
            return 0.0, 0.0, 0.0
        n, o = 100.0 * self.ntc / self.proposed, 100.0 * self.oos / self.proposed
        return n + o, n, o

    @property
    def repeat_spread(self) -> tuple[float, float, float, float] | None:
        """Mean ± std of overall SR and PG across repeats (None with one repeat)."""
        if len(self.repeats) < 2:
            return None
        srs = [c.sr for c in self.repeats.values()]
        pgs = [c.pg for c in self.repeats.values()]
        return statistics.mean(srs), statistics.stdev(srs), statistics.mean(pgs), statistics.stdev(pgs)


def summary_key(rec: RunRecord) -> str:
    """Summaries are per model, protocol and observation mode: real-time runs never mix with paused ones,
    nor runs that saw the state as text with runs that saw only screenshots."""
    obs = rec.obs or STANDARD_OBS
    return rec.model + (" [rt]" if rec.protocol == "realtime" else "") + ("" if obs == STANDARD_OBS else f" [{obs}]")


def aggregate(records: Iterable[RunRecord]) -> dict[str, ModelSummary]:
    """Summaries per model over each run's latest scored attempt; runs never scored are missing."""
    return summarize(latest_attempts(records))


def summarize(view: RunView) -> dict[str, ModelSummary]:
    out: dict[str, ModelSummary] = {}
    for rec in view.unscored:
        s = out.setdefault(summary_key(rec), ModelSummary(summary_key(rec), rec.interface))
        s.missing.append(missing_line(rec))
    for rec in view.scored:
        s = out.setdefault(summary_key(rec), ModelSummary(summary_key(rec), rec.interface))
        s.overall.add(rec)
        s.genres.setdefault(rec.genre, Cell()).add(rec)
        s.levels.setdefault(rec.level, Cell()).add(rec)
        s.repeats.setdefault(rec.repeat, Cell()).add(rec)
        ntc, oos = rec.invalid_ntc, rec.invalid_oos
        s.proposed += rec.valid + ntc + oos
        s.ntc, s.oos = s.ntc + ntc, s.oos + oos
        s.steps += rec.steps
        s.sec += rec.sec_per_step * rec.steps
        s.tokens_in += rec.tokens_in
        s.tokens_out += rec.tokens_out
        s.cost += rec.cost_usd or 0.0  # None: unpriced (s.priced turns False: shown n/a)
        s.priced = s.priced and rec.priced
        s.cache_hits += rec.cache_hits
        s.cache_tokens += rec.cache_tokens_in + rec.cache_tokens_out
        s.cache_cost += rec.cache_cost_usd or 0.0
    return out


def whole_percent(share: float) -> int:
    """A share (0..1) as a whole percent, halves rounded up: every PG badge (terminal, results page, pytest-html,
    the run viewer's script) rounds this way, so 12.5 % is 13 % everywhere."""
    return math.floor(100 * float(share) + 0.5)


NA = "n/a"  # a figure of a model with no scored run: never a bold 0.0, 0.000 s or $0.0000


HUMAN_PREFIX = "human:"  # `gameworld human --name NAME` plays as model human:NAME


def is_human(model: str) -> bool:
    """Whether a summary's model is a person measured here (`gameworld human`)."""
    return model.startswith(HUMAN_PREFIX)


def table_order(summaries: dict[str, ModelSummary]) -> list[str]:
    """Rows in table order: measured humans first, then the models, each alphabetically."""
    return sorted(summaries, key=lambda name: (not is_human(name), name))


def table_cells(summaries: dict[str, ModelSummary]) -> list[list[str]]:
    """The paper's Table 6 layout as cells: SR/PG per genre and overall, one row per model."""
    genres = [g for g in GENRES if any(g in s.genres for s in summaries.values())]
    # Each genre and Overall cell is "SR/PG" (success rate / progress, %), and its header says so.
    head = (["model"] + [f"{g.capitalize()} SR/PG" for g in genres]
            + ["Overall SR/PG", "IAR % (NTC/OOS)", "runs", "sec/step", "tok/step", "$/run", "$ total"])
    rows = [head]
    for name in table_order(summaries):
        s = summaries[name]
        cells = [f"{s.genres[g].sr:.1f}/{s.genres[g].pg:.1f}" if g in s.genres else "-" for g in genres]
        iar, n, o = s.iar
        per_step = s.steps or 1
        label = f"{name} (measured human)" if is_human(name) else f"{name} ({s.interface})" if s.interface else name
        runs = f"{s.overall.runs}" + (f" +{len(s.missing)} missing" if s.missing else "")
        if not s.overall.runs:  # every run faulted or was held back: nothing was measured
            rows.append([label, *cells, NA, NA, runs, NA, NA, NA, NA])
            continue
        rows.append([label, *cells,
                     f"{s.overall.sr:.1f}/{s.overall.pg:.1f}", f"{iar:.1f} ({n:.1f}/{o:.1f})", runs,
                     f"{s.sec / per_step:.3f}", f"{(s.tokens_in + s.tokens_out) / per_step:.0f}",
                     *((f"{s.cost / max(1, s.overall.runs):.4f}", f"{s.cost:.4f}") if s.priced else (NA, NA))])
    return rows


def format_table(summaries: dict[str, ModelSummary]) -> list[str]:
    return align_columns(table_cells(summaries))


def align_columns(rows: list[list[str]]) -> list[str]:
    """Rows of cells as aligned text, the first row a header above a dashed rule."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines
