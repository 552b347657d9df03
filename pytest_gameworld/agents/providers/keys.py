"""Key names from the providers' vocabularies (xdotool, OpenAI, UI-TARS) as names our schema knows (pure)."""

from __future__ import annotations

import re
from typing import Any

from ...play.actions import normalize_key

# Only spellings actions.normalize_key does not already understand.
_EXTRA = {
    "page_up": "PageUp", "prior": "PageUp", "page_down": "PageDown", "next": "PageDown",
    "back_space": "Backspace", "kp_enter": "Enter", "arrow_left": "ArrowLeft", "arrow_right": "ArrowRight",
    "arrow_up": "ArrowUp", "arrow_down": "ArrowDown", "super_l": "Meta", "super_r": "Meta",
    "control_l": "Control", "control_r": "Control", "shift_l": "Shift", "shift_r": "Shift",
    "alt_l": "Alt", "alt_r": "Alt", "command": "Meta", "caps_lock": "CapsLock", "capslock": "CapsLock",
}


def key_name(name: str) -> str:
    """One key in a spelling actions.normalize_key accepts ('Page_Up' → 'PageUp', 'Return' stays)."""
    if name == " ":
        return name
    stripped = name.strip()
    return _EXTRA.get(stripped.lower(), stripped)


def key_list(value: Any, separators: str = "+") -> list[str]:
    """A key combination from a list or a string joined by any of ``separators`` ('ctrl+c', 'ctrl c')."""
    if isinstance(value, (list, tuple)):
        return [key_name(str(v)) for v in value if str(v) != ""]
    text = str(value)
    if text in (" ", "+"):
        return [text]
    parts = [p for p in re.split(f"[{re.escape(separators)}]", text) if p != ""]
    return [key_name(p) for p in parts] or [text]


def key_args(keys: list[str], **extra: Any) -> tuple[str, dict[str, Any]]:
    """Our schema's name and arguments for pressing ``keys`` together."""
    if len(keys) == 1:
        return "press_key", {"key": keys[0], **extra}
    return "press_keys", {"keys": keys, **extra}


def original_spelling(keys: list[str]) -> list[str]:
    """Keys as the original harness normalizes (and records) them: ``left`` → ArrowLeft, ``space`` → Space."""
    return ["Space" if (k := normalize_key(key_name(str(key)))) == " " else k for key in keys]
