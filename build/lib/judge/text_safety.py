"""Text fit for any database and any JSON encoder, whatever a learner's output or value holds."""

from __future__ import annotations

import re
from typing import Any

UNSAFE = re.compile("[\x00\ud800-\udfff]")


def safe_text(text: str) -> str:
    """NUL and lone surrogates (which a learner's output or value may hold) shown as escapes such
    as \\x00 and \\udc80."""
    return UNSAFE.sub(lambda m: f"\\x{ord(m[0]):02x}" if m[0] == "\x00" else
                      f"\\u{ord(m[0]):04x}", text)


def display_safe(value: Any) -> Any:
    """Every string in a JSON tree made safe with ``safe_text``, keys included."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, list):
        return [display_safe(v) for v in value]
    if isinstance(value, dict):
        return {display_safe(k): display_safe(v) for k, v in value.items()}
    return value
