"""Reference solution for rouge_n: Unicode word tokens, clipped n-gram overlap, F1."""

import unicodedata
from collections import Counter


def _tokens(text: str) -> list[str]:
    """Lowercase, then keep maximal runs of Unicode letters (L*) and numbers (N*)."""
    tokens = []
    current = []
    for ch in text.lower():
        if unicodedata.category(ch)[0] in "LN":
            current.append(ch)
        elif current:
            tokens.append("".join(current))
            current = []
    if current:
        tokens.append("".join(current))
    return tokens


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def rouge_n(output: str, expected: str, n: int) -> float:
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    ours = _ngrams(_tokens(output), n)
    theirs = _ngrams(_tokens(expected), n)
    m, r = sum(ours.values()), sum(theirs.values())
    if m == 0 or r == 0:
        return 0.0
    overlap = sum((ours & theirs).values())
    return 2 * overlap / (m + r)
