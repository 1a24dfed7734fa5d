# verdict: wrong_answer
# Mistake: returns an int when the number has no decimal part ("7" gives 7, not 7.0).
import re

# A numeral: ASCII digits, optional groups of exactly three digits after commas, optional
# decimal part. The lookaheads reject a numeral that runs into a digit, or into a period or comma
# followed by a digit.
NUMERAL = re.compile(r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?(?![0-9])(?![.,][0-9])")
WHOLE = re.compile(r"[+-]?[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?")
MODES = ("whole", "first", "last")


def _value(numeral):
    numeral = numeral.replace(",", "")
    return float(numeral) if "." in numeral else int(numeral)


def _blocks(ch):
    """True when a numeral may not start right after this character."""
    return ch.isalnum() or ch in "_.,"


def _numbers(text):
    """Every number the first/last modes can read, left to right."""
    found = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if "0" <= ch <= "9" and (i == 0 or not _blocks(text[i - 1])):
            match = NUMERAL.match(text, i)
            if match:
                value = _value(match.group())
                if i > 0 and text[i - 1] in "+-":
                    before = text[i - 2] if i >= 2 else None
                    if before is None or before.isspace() or before == "(":
                        if text[i - 1] == "-":
                            value = -value
                found.append(value)
                i = match.end()
                continue
        i += 1
    return found


def extract_number(text: str, mode: str) -> float | None:
    """Read one number from `text` in mode "whole", "first" or "last"; None if there is none."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    if mode == "whole":
        trimmed = text.strip()
        if not WHOLE.fullmatch(trimmed):
            return None
        sign = -1 if trimmed[0] == "-" else 1
        return sign * _value(trimmed.lstrip("+-"))
    numbers = _numbers(text)
    if not numbers:
        return None
    return numbers[0] if mode == "first" else numbers[-1]
