"""Rows for `gameworld list`: the catalog's games, tasks or models, filtered (pure)."""

from __future__ import annotations

import difflib

from .contents import Catalog
from .keywords import compile_keywords
from .run_cases import INTERFACES, game_marks
from .specs import GENRES, GameSpec

LEVELS = range(1, 6)


def _suggest(value: str, known: list[str]) -> str:
    close = difflib.get_close_matches(value.lower(), known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def filter_problem(genre: str | None, level: int | None, interface: str | None) -> str | None:
    """An unknown filter value as one line with the closest known one, or None."""
    if genre is not None and genre not in GENRES:
        return f"--genre {genre!r} is no genre ({', '.join(GENRES)}){_suggest(genre, list(GENRES))}"
    if level is not None and level not in LEVELS:
        return f"--level {level} is no curriculum level (L1 to L5)"
    if interface is not None and interface not in INTERFACES:
        return f"--interface {interface!r} is no interface ({', '.join(INTERFACES)}){_suggest(interface, list(INTERFACES))}"
    return None


def _game_names(g: GameSpec) -> list[str]:
    """What `pytest -k` sees of a game's items: its id, genre and marks."""
    return [g.id, g.genre, f"L{g.level}", *game_marks(g)]


def catalog_rows(catalog: Catalog, what: str, keywords: str = "", genre: str | None = None,
                 level: int | None = None, interface: str | None = None) -> list[list[str]]:
    """A header row, then one row per matching game, task or model; ``keywords`` is a pytest -k expression."""
    keep = compile_keywords(keywords)
    if what == "models":
        rows = [["model", "interface", "kind", "aliases"]]
        for m in sorted(catalog.models.values(), key=lambda m: m.name):
            if (interface and m.interface != interface) or not keep([m.name, *m.aliases, m.interface]):
                continue
            kind = f"builtin {m.builtin}" if m.builtin else f"{m.provider} {m.api} {m.model}"
            rows.append([m.name, m.interface, kind, ", ".join(m.aliases)])
        return rows
    games = {g.id: g for g in catalog.games.values()
             if (genre is None or g.genre == genre) and (level is None or g.level == level)}
    if what == "games":
        rows = [["game", "name", "genre", "level", "roles", "tasks"]]
        for g in sorted(games.values(), key=lambda g: g.id):
            tasks = [t.id for t in catalog.tasks if t.game == g.id]
            if keep(_game_names(g)) or any(keep([*_game_names(g), t]) for t in tasks):
                rows.append([g.id, g.name, g.genre, f"L{g.level}", ", ".join(g.roles), str(len(tasks))])
        return rows
    rows = [["task", "game", "score", "start", "target", "level", "instruction"]]
    for t in catalog.tasks:
        if t.game in games and keep([*_game_names(games[t.game]), t.id]):
            score = t.score if isinstance(t.score, str) else f"{t.score.aggregate}({', '.join(t.score.fields)})"
            rows.append([f"{t.game}/{t.id}", games[t.game].name, score, f"{t.start:g}", f"{t.target:g}",
                         str(t.level), t.instruction])
    return rows
