"""What every prompt renderer shares: the rendered prompt, the section split, and supplied text kept apart."""

from __future__ import annotations

import re
from dataclasses import dataclass

SECTIONS = ("Game Rules", "Role and Controls", "Task Instruction", "Output Format")

@dataclass(frozen=True)
class Prompt:
    """The rendered system prompt and its sections, in fixed order."""

    text: str
    sections: dict[str, str]


def split_sections(text: str, heading: str = "## ") -> dict[str, str]:
    """The text under each line that starts with ``heading``, by title (text before the first is dropped)."""
    parts = re.split(rf"^{re.escape(heading)}(.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


_TOKEN = re.compile("\x00gw(\\d+)\x00")


class Content:
    """Supplied text stands in the template as an opaque token while the sections are found, then is put back.

    A token has no whitespace and no newline, so a template's ``trim`` leaves it as it is and no heading
    inside the text can pass for one of the template's own; the text goes back in trimmed, as templates show it.
    """

    def __init__(self) -> None:
        self.texts: list[str] = []

    def mark(self, text: str, strip: bool = True) -> str:
        """A token for ``text`` ("" for no text); ``strip=False`` puts it back exactly as given."""
        text = text.strip() if strip else text
        if not text:
            return ""
        self.texts.append(text)
        return f"\x00gw{len(self.texts) - 1}\x00"

    def fill(self, text: str) -> str:
        return _TOKEN.sub(lambda m: self.texts[int(m.group(1))], text)
