# verdict: wrong_answer
# Mistake: forgets abs() on the expected value, so a negative expected value gets a negative
# relative allowance and only the absolute tolerance can ever apply.
import re

NUMERAL = re.compile(r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?(?![0-9])(?![.,][0-9])")
WHOLE = re.compile(r"[+-]?[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?")
MODES = ("whole", "first", "last")


def _value(numeral):
    return float(numeral.replace(",", ""))


def _numbers(text):
    found = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        prev = text[i - 1] if i > 0 else None
        if "0" <= ch <= "9" and (prev is None or not (prev.isalnum() or prev in "_.,")):
            match = NUMERAL.match(text, i)
            if match:
                value = _value(match.group())
                if prev == "-":
                    before = text[i - 2] if i >= 2 else None
                    if before is None or before.isspace() or before == "(":
                        value = -value
                found.append(value)
                i = match.end()
                continue
        i += 1
    return found


def _read(text, mode):
    if mode == "whole":
        trimmed = text.strip()
        if not WHOLE.fullmatch(trimmed):
            return None
        sign = -1.0 if trimmed[0] == "-" else 1.0
        return sign * _value(trimmed.lstrip("+-"))
    numbers = _numbers(text)
    if not numbers:
        return None
    return numbers[0] if mode == "first" else numbers[-1]


def numeric_match(
    expected: str, actual: str, mode: str = "whole", abs_tol: float = 0.0, rel_tol: float = 0.0
) -> bool | None:
    """True/False when the expected text holds a number, None ("not judged") when it does not."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    want = _read(expected, mode)
    if want is None:
        return None
    got = _read(actual, mode)
    if got is None:
        return False
    return abs(got - want) <= max(abs_tol, rel_tol * want)
