"""Benchmark cases: task × model × repeat, with natural ids, marks and seeds (pure)."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

from .specs import GameSpec, ModelSpec, TaskSpec

INTERFACES = ("generalist", "cua")


@dataclass(frozen=True)
class Case:
    """One benchmark run to collect as a test item."""

    task: TaskSpec
    game: GameSpec
    model: ModelSpec
    repeat: int = 0
    repeats: int = 1

    @property
    def node_id(self) -> str:
        suffix = f"-r{self.repeat}" if self.repeats > 1 else ""
        return f"{self._where}/{self.task.id}[{self.model.name}{suffix}]"

    @property
    def _where(self) -> str:
        """genre/game, below the catalog's origin for an imported game (upstream/puzzle/01_2048)."""
        return "/".join(p for p in (self.game.origin, self.game.genre, self.game.id) if p)

    @property
    def run_path(self) -> str:
        """The run's folder below runs/, safe for any model reference."""
        suffix = f"-r{self.repeat}" if self.repeats > 1 else ""
        model = re.sub(r"[^\w.-]+", "_", self.model.name)
        return f"{self._where}/{self.task.id}/{model}{suffix}"

    @property
    def param_id(self) -> str:
        return self.node_id.replace("[", "/").rstrip("]")

    def seed(self, base_seed: int) -> int:
        """The run's seed, from (base seed, task, repeat), stable across machines."""
        return zlib.crc32(f"{base_seed}:{self.game.id}:{self.task.id}:{self.repeat}".encode()) & 0x7FFFFFFF

    @property
    def marks(self) -> list[str]:
        origin = [self.game.origin] if self.game.origin else []
        return [*origin, self.game.genre, f"L{self.game.level}", *game_marks(self.game), self.model.interface]


def game_mark(game: GameSpec) -> str:
    """A marker name for a game: game_<slug> with dashes as underscores."""
    return "game_" + re.sub(r"[^0-9a-zA-Z_]", "_", game.slug)


def game_marks(game: GameSpec) -> list[str]:
    """Every marker of a game: game_<slug> (game_wordle) and game_<id> (game_32_wordle), so -m takes the
    game as the gate scopes and `gameworld list` name it (32-wordle) as well as by its slug."""
    by_id = "game_" + re.sub(r"[^0-9a-zA-Z_]", "_", game.id)
    return [game_mark(game)] + ([by_id] if by_id != game_mark(game) else [])


def build_cases(tasks: list[TaskSpec], games: dict[str, GameSpec], models: list[ModelSpec], repeats: int) -> list[Case]:
    """All cases in a stable order (game, task, model, repeat), identical on every worker."""
    cases = [Case(t, games[t.game], m, r, repeats) for t in tasks for m in models for r in range(repeats)]
    return sorted(cases, key=lambda c: (c.game.id, c.task.id, c.model.name, c.repeat))


def split_model_refs(values: list[str]) -> list[str]:
    """--gw-model values, repeatable and comma-separated, de-duplicated in order."""
    refs: list[str] = []
    for v in values:
        for part in v.split(","):
            if part.strip() and part.strip() not in refs:
                refs.append(part.strip())
    return refs
