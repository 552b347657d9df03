"""`-k` expressions as pytest reads them, for commands that select catalog rows without pytest (pure).

    expr := and_expr ("or" and_expr)*      and_expr := not_expr ("and" not_expr)*
    not_expr := "not" not_expr | "(" expr ")" | NAME

A NAME matches when it is a case-insensitive substring of any of a row's names, as `pytest -k` matches
an item's names and marks; so `-k "wordle or minesweeper"` selects the same games everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

Matcher = Callable[[Iterable[str]], bool]
_Test = Callable[[list[str]], bool]  # a parsed part, over a row's lower-cased names
_TOKEN = re.compile(r"\s*(?:(\()|(\))|([\w:+\-.\[\]\\/]+)|(\S))")
_WORDS = ("and", "or", "not")


class KeywordError(ValueError):
    """A malformed -k expression; the message is one line."""


def _tokens(text: str) -> list[str]:
    out = []
    for m in _TOKEN.finditer(text):
        if m.group(4):
            raise KeywordError(f"-k {text!r}: unexpected character {m.group(4)!r}")
        out.append(m.group(1) or m.group(2) or m.group(3))
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.tokens, self.pos = text, _tokens(text), 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise KeywordError(f"-k {self.text!r}: the expression ends too early")
        self.pos += 1
        return token

    def expr(self) -> _Test:
        return self._joined("or", self.and_expr, any)

    def and_expr(self) -> _Test:
        return self._joined("and", self.not_expr, all)

    def _joined(self, word: str, part: Callable[[], _Test],
                combine: Callable[[Iterable[bool]], bool]) -> _Test:
        """``part (word part)*``, its values combined by ``any`` (or) or ``all`` (and)."""
        parts = [part()]
        while self.peek() == word:
            self.take()
            parts.append(part())
        return parts[0] if len(parts) == 1 else (lambda names: combine(p(names) for p in parts))

    def not_expr(self) -> _Test:
        token = self.take()
        if token == "not":
            inner = self.not_expr()
            return lambda names: not inner(names)
        if token == "(":
            inner = self.expr()
            if self.take() != ")":
                raise KeywordError(f"-k {self.text!r}: expected ')'")
            return inner
        if token == ")" or token in _WORDS:
            raise KeywordError(f"-k {self.text!r}: expected a name, got {token!r}")
        wanted = token.lower()
        return lambda names: any(wanted in n for n in names)


def compile_keywords(text: str) -> Matcher:
    """A matcher over a row's names; an empty expression matches every row. KeywordError on bad syntax."""
    if not text.strip():
        return lambda names: True
    parser = _Parser(text)
    match = parser.expr()
    if parser.peek() is not None:
        raise KeywordError(f"-k {text!r}: unexpected {parser.peek()!r}")
    return lambda names: match([n.lower() for n in names])
