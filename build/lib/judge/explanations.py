"""Explanations a learner can act on, for failing public tests (seeds 000 and 002).

Each says what differs and by how much: the size of a float error against the tolerance, a value
that looks like a percentage, a wrong type, the first differing character of a string with both
code points, and whether a string differs only in whitespace, case or Unicode normalization.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache
from typing import Any, Literal

from judge.checkers import Mismatch, type_name
from sandbox.interface import Opaque

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


CHUNK = 4096


def first_difference(expected: str, actual: str) -> int:
    """Linear, and at the speed of string comparison: whole chunks compared at once, then one
    chunk character by character (a learner's string may have millions)."""
    start, end = 0, min(len(expected), len(actual))
    while start < end and expected[start:start + CHUNK] == actual[start:start + CHUNK]:
        start += CHUNK
    for index in range(start, min(start + CHUNK, end)):
        if expected[index] != actual[index]:
            return index
    return end


# Stream-safe text (UAX #15) has at most 30 combining marks in a row. Normalizing a longer run
# costs time quadratic in its length in CPython (its canonical reordering sorts the run in
# place): 80,000 marks took 5 s. So the normalization hints are given for stream-safe text only.
STREAM_SAFE_RUN = 30


@cache
def _long_mark_run() -> re.Pattern[str]:
    ranges: list[list[int]] = []  # the code points of every combining mark, as ranges
    for code in range(sys.maxunicode + 1):
        if unicodedata.combining(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    marks = "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)
    return re.compile(f"[{marks}]{{{STREAM_SAFE_RUN + 1}}}")


def stream_safe(text: str) -> bool:
    return _long_mark_run().search(text) is None


def equal_after(form: Literal["NFC", "NFKC"], expected: str, actual: str) -> bool:
    """Whether two different strings are equal once normalized, in time linear in their length."""
    if unicodedata.is_normalized(form, expected) and unicodedata.is_normalized(form, actual):
        return False  # normalizing changes neither (the quick check is linear): still different
    if not (stream_safe(expected) and stream_safe(actual)):
        return False
    return unicodedata.normalize(form, expected) == unicodedata.normalize(form, actual)


def string_hints(expected: str, actual: str) -> list[str]:
    """Name the one kind of difference that separates the strings, when there is one."""
    if expected.strip() == actual.strip():
        return ["they differ only in leading or trailing whitespace"]
    if expected.lower() == actual.lower() or expected.casefold() == actual.casefold():
        return ["they differ only in letter case"]
    if equal_after("NFC", expected, actual):
        return ["they differ only in Unicode composition (equal after NFC normalization)"]
    if equal_after("NFKC", expected, actual):
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
