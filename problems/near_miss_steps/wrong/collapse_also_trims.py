# verdict: wrong_answer
# Mistake: collapses and joins with split() and join(), which also drops leading and
# trailing whitespace, so the two steps trim as a side effect.

import re
import unicodedata

_WHITESPACE_RUN = re.compile(r"\s+")  # \s matches exactly the characters str.isspace() accepts
QUOTES = "\"'\u2018\u2019\u201c\u201d"


def _strip_trailing_period(text: str) -> str:
    return text[:-1] if text.endswith((".", "!")) else text


STEPS = (
    ("trim", str.strip),
    ("lowercase", str.lower),
    ("nfkc", lambda text: unicodedata.normalize("NFKC", text)),
    ("collapse_whitespace", lambda text: " ".join(text.split())),
    ("strip_trailing_period", _strip_trailing_period),
    ("join_underscore", lambda text: "_".join(text.split())),
    ("strip_quotes", lambda text: text.strip(QUOTES)),
)


def near_miss_steps(expected: str, actual: str) -> list[str]:
    if expected == actual:
        return []  # not a fail: nothing to probe
    passing = [name for name, step in STEPS if step(expected) == step(actual)]
    if passing:
        return passing
    for _, step in STEPS:
        expected, actual = step(expected), step(actual)
    return ["several"] if expected == actual else []
