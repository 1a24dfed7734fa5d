"""Explanations a learner can act on, for failing public tests (seeds 000 and 002).

Each says what differs and by how much: the size of a float error against the tolerance, a value
that looks like a percentage, a wrong type, the first differing character of a string with both
code points, and whether a string differs only in whitespace, case or Unicode normalization.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from judge.checkers import Mismatch, type_name
from sandbox.codec import Opaque

SHOW = 80


def show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOW else text[: SHOW - 3] + "..."


def code_point(text: str, index: int) -> str:
    if index >= len(text):
        return "end of text"
    char = text[index]
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def first_difference(expected: str, actual: str) -> int:
    for index, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if e != a:
            return index
    return min(len(expected), len(actual))


def string_hints(expected: str, actual: str) -> list[str]:
    """Name the one kind of difference that separates the strings, when there is one."""
    if expected.strip() == actual.strip():
        return ["they differ only in leading or trailing whitespace"]
    if expected.lower() == actual.lower() or expected.casefold() == actual.casefold():
        return ["they differ only in letter case"]
    if unicodedata.normalize("NFC", expected) == unicodedata.normalize("NFC", actual):
        return ["they differ only in Unicode composition (equal after NFC normalization)"]
    if unicodedata.normalize("NFKC", expected) == unicodedata.normalize("NFKC", actual):
        return ["they differ only in Unicode compatibility forms (equal after NFKC)"]
    return []


def explain_string(expected: str, actual: str) -> str:
    index = first_difference(expected, actual)
    parts = [
        f"first difference at index {index}: expected {code_point(expected, index)}, "
        f"got {code_point(actual, index)}"
    ]
    parts += string_hints(expected, actual)
    return "; ".join(parts)


def explain_type(expected: Any, actual: Any) -> str:
    wanted, got = type_name(expected), type_name(actual)
    text = f"wrong type: expected {wanted}, got {got} ({show(actual)})"
    if isinstance(actual, Opaque) and actual.type_name.startswith("numpy."):
        text += f"; a numpy scalar is not a built-in {wanted}: convert it with {wanted}(...)"
    elif type(expected) is float and type(actual) is int:
        text += "; return a float, e.g. float(x) or a true division"
    elif type(expected) is float and type(actual) is str:
        text += "; return the number itself, not its text"
    elif type(expected) in (list, tuple) and type(actual) in (list, tuple):
        text += f"; the function must return a {wanted}"
    elif isinstance(actual, Opaque):
        text += f"; return a plain built-in {wanted}, not an object of another class"
    return text


def looks_like_percentage(expected: float, actual: float) -> bool:
    return expected != 0 and abs(actual - expected * 100) <= 1e-6 * max(1.0, abs(actual))


def explain_value(m: Mismatch) -> str:
    e, a = m.expected, m.actual
    if type(e) is float and type(a) is float:
        text = f"expected {e!r}, got {a!r}"
        if e == e and a == a:
            text += f": off by {abs(a - e):.3g}"
            text += f" (allowed {m.tolerance:.3g})" if m.tolerance is not None else " (exact)"
        else:
            text += ": NaN never equals anything"
        if looks_like_percentage(e, a):
            text += "; this looks like a percentage (100 times too large): return a fraction"
        return text
    if type(e) is str and type(a) is str:
        return f"expected {show(e)}, got {show(a)}; " + explain_string(e, a)
    return f"expected {show(e)}, got {show(a)}"


def explain(m: Mismatch) -> str:
    where = f"at {m.path}: " if m.path else ""
    if m.kind == "type":
        return where + explain_type(m.expected, m.actual)
    if m.kind == "length":
        return where + f"expected {len(m.expected)} items, got {len(m.actual)}"
    if m.kind == "missing_key":
        return f"missing key {m.path}"
    if m.kind == "extra_key":
        return f"unexpected key {m.path}"
    return where + explain_value(m)


def explain_changed_argument(name: str, before: Any, after: Any) -> str:
    return (
        f"the function changed its argument {name!r}: it was {show(before)} and became "
        f"{show(after)}; leave the inputs unchanged (copy them if needed)"
    )
